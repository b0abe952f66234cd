"""``robots-engine play ... --view``: open the viewer on the result, or let an open one reload it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from engine import cli as engine_cli
from engine.gamedir import VIEWER_PID_FILE

from .conftest import CHOP, Runner


def test_without_a_display_it_says_how_to_render_instead(engine: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    result = engine("play", str(CHOP), "--seed", "3", "--out", "g", "--view")
    assert result.code == 0
    assert "no display to open the viewer on" in result.err and "robots-view g --headless" in result.err


def test_an_open_viewer_on_the_folder_is_reused(
    engine: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine("play", str(CHOP), "--seed", "3", "--out", "g")
    (tmp_path / "g" / VIEWER_PID_FILE).write_text(f"{os.getpid()}\n")  # a live process: "the viewer"
    started: list[Any] = []
    monkeypatch.setattr(engine_cli.subprocess, "Popen", lambda *a, **k: started.append(a))
    monkeypatch.setenv("DISPLAY", ":99")
    result = engine("play", str(CHOP), "--seed", "4", "--out", "g", "--view")
    assert result.code == 0
    assert f"the viewer open on g (process {os.getpid()}) shows the new game" in result.out
    assert started == []


def test_otherwise_a_viewer_is_started_on_the_folder(engine: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[tuple[list[str], dict[str, Any]]] = []
    monkeypatch.setattr(engine_cli.subprocess, "Popen", lambda argv, **k: started.append((argv, k)))
    monkeypatch.setenv("DISPLAY", ":99")
    result = engine("play", str(CHOP), "--seed", "3", "--out", "g", "--view")
    assert result.code == 0 and "opened the viewer on g" in result.out
    [(argv, options)] = started
    assert argv[1:] == ["-m", "viewer3d", "g"] and options["start_new_session"] is True


def test_a_fifo_as_the_viewers_pid_file_is_no_viewer_and_is_never_waited_on(
    engine: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FIFO named ``.robots-view.pid`` in the game folder held ``play --view`` for ever."""
    from tests.fifo_guard import never_stuck_on

    engine("play", str(CHOP), "--seed", "3", "--out", "g")
    fifo = tmp_path / "g" / VIEWER_PID_FILE
    os.mkfifo(fifo)
    started: list[Any] = []
    monkeypatch.setattr(engine_cli.subprocess, "Popen", lambda *a, **k: started.append(a))
    monkeypatch.setenv("DISPLAY", ":99")
    with never_stuck_on(fifo) as knocked:
        result = engine("play", str(CHOP), "--seed", "4", "--out", "g", "--view")
    assert not knocked, "the FIFO was opened for reading"
    assert result.code == 0 and "opened the viewer on g" in result.out and len(started) == 1
