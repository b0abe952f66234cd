"""A real X11 window under Xvfb: robots-view opens chop.dat, renders through GLX and saves a screenshot."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from engine.boardfile import load_board
from engine.conformance import reference_chooser
from engine.deck import generate_deck
from engine.game import play_game
from engine.model import Level
from engine.outputs import format_globalseq

ROOT = Path(__file__).resolve().parents[2]
CHOP = ROOT / "gameboards" / "chop.dat"


@pytest.fixture(scope="module")
def xvfb_display() -> Iterator[str]:
    """Xvfb on a free display it picks itself (``-displayfd``: it writes the number once it is ready,
    so nothing waits on a timer; 100 polls of 50 ms gave up early on a loaded machine, and the
    test then ran against a display that was not there yet). Stopped afterwards (only this process)."""
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        number = server.stdout.readline().strip()
        assert number.isdigit() and server.poll() is None, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def run_viewer(args: list[str], display: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m viewer3d ARGS`` on the Xvfb display."""
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env.update(DISPLAY=display, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "viewer3d", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_real_window_renders_chop_and_takes_a_screenshot(xvfb_display: str, tmp_path: Path) -> None:
    sequence = tmp_path / "globalseq.txt"
    game = play_game(load_board(CHOP), Level.NORMAL, generate_deck(16), reference_chooser)
    sequence.write_text(format_globalseq(game))
    shot = tmp_path / "window.png"
    args = ["--board", str(CHOP), "--sequence", str(sequence), "--size", "640x480", "--screenshot", str(shot)]
    result = run_viewer(args, xvfb_display, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"wrote {shot}\n"  # as the start screen's --screenshot (this one said nothing)
    with Image.open(shot) as image:
        assert image.size == (640, 480)
        pixels = np.asarray(image.convert("RGB")).astype(int)
    board = (np.abs(pixels - pixels[:, 1:2, :]).sum(axis=2) > 30).mean()
    assert 0.25 < board < 0.95  # the board fills much of the window
    assert (pixels[5:60, 10:200].max(axis=2) > 200).any()  # HUD text in the top-left corner


def test_a_tron_arena_s_screenshot_says_what_it_wrote(xvfb_display: str, tmp_path: Path) -> None:
    """The Tron window's --screenshot wrote its PNG silently, unlike the robot game's and the start screen's."""
    shot = tmp_path / "arena.png"
    arena = CHOP.parent / "tron" / "open-10x10.txt"
    result = run_viewer([str(arena), "--size", "320x240", "--screenshot", str(shot)], xvfb_display, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"wrote {shot}\n" and shot.is_file()


def test_no_arguments_shows_the_start_screen(xvfb_display: str, tmp_path: Path) -> None:
    shot = tmp_path / "start.png"
    result = run_viewer(["--screenshot", str(shot)], xvfb_display, tmp_path)
    assert result.returncode == 0, result.stderr
    with Image.open(shot) as image:
        pixels = np.asarray(image.convert("RGB")).astype(int)
    assert (pixels[10:50, 20:400].max(axis=2) > 200).any()  # the title
    assert (np.abs(pixels[70:140, 30:130] - pixels[5, 5]).sum(axis=2) > 60).mean() > 0.3  # a thumbnail


def test_the_start_screen_opens_at_the_size_asked_for(xvfb_display: str, tmp_path: Path) -> None:
    """``--size`` was ignored by the start screen: it always opened at 1024x768."""
    shot = tmp_path / "start.png"
    result = run_viewer(["--size", "800x600", "--screenshot", str(shot)], xvfb_display, tmp_path)
    assert result.returncode == 0, result.stderr
    with Image.open(shot) as image:
        assert image.size == (800, 600)
