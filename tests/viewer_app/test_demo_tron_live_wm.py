"""``robots-view --demo tron`` with a display, as a user meets it: a real window under Xvfb with a
window manager (openbox), driven with xdotool. The window opens while the game is played and shows
its first rounds before the game has ended; at the end the game file is saved and the window's
title names it.

The first bot is a test program (``--ai``) that answers only when the test opens its gate and says
which round it was asked about, so every wait is on an event (a window appearing, the bot's notice,
a file written), never on a timer.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from engine.tron.record import load_game
from tests.editor.conftest import desktop, xvfb  # noqa: F401 (fixtures)
from tests.viewer_games.xviewer import (
    ROOT,
    WAIT,
    assert_clean_exit,
    close_window,
    ended,
    running_viewer,
    viewer_env,
    xdo,
)
from viewer3d.games.tron.timeline import COLOURS

GATEBOT = ROOT / "tests" / "viewer_tron" / "gatebot.py"


def wait_for(done: Callable[[], bool], what: str) -> None:
    """Wait until ``done()`` (a file another process writes); the bound only catches a hang."""
    deadline = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.02)


def colour_pixels(path: Path, bot: int = 0) -> int:
    """Pixels in a bot's colour on the board (the HUD's lines above and the bar below left out)."""
    with Image.open(path) as image:
        pixels = np.asarray(image.convert("RGB")).astype(int)[160:400]
    colour = np.array([int(255 * c) for c in COLOURS[bot]])
    return int((np.abs(pixels - colour).sum(axis=2) < 90).sum())


def test_the_demo_window_shows_the_game_while_it_is_played(
    tmp_path: Path,
    desktop: dict[str, str],  # noqa: F811
) -> None:
    gate, seen, pidfile = tmp_path / "gate", tmp_path / "seen", tmp_path / "pid"
    gate.write_text("")
    bot = f"{sys.executable} {GATEBOT} {pidfile} {gate} {seen}"
    env = viewer_env(desktop, tmp_path / "state")
    command = ["--demo", "tron", "--ai", bot, "--time-limit", "600", "--size", "640x480"]
    game = tmp_path / "out" / "demo-tron.json"
    with running_viewer(command, env, tmp_path) as viewer:
        window = xdo(env, "search", "--sync", "--onlyvisible", "--name", "robots-view - diamond-25x25").split()[0]
        gate.write_text("go\n" * 3)  # three rounds, then the bot waits in round 4
        wait_for(lambda: "4" in seen.read_text().split() if seen.exists() else False, "round 4 to be asked")
        xdo(env, "windowactivate", "--sync", window)
        xdo(env, "key", "--window", window, "End", "s")  # the newest round, then a screenshot (S)
        shot = tmp_path / "robots-view-001.png"
        wait_for(shot.exists, "the screenshot")
        assert not game.exists()  # the game is still being played
        early = colour_pixels(shot)
        assert early > 100, early  # the first bot's cycle and its three rounds of light wall
        simple = colour_pixels(shot, 1)
        gate.write_text("go\n" * 1000)  # let it drive on until it crashes: the game ends
        done = xdo(env, "search", "--sync", "--onlyvisible", "--name", r"robots-view - demo-tron\.json").split()[0]
        xdo(env, "windowactivate", "--sync", done)
        xdo(env, "key", "--window", done, "End", "s")
        wait_for((tmp_path / "robots-view-002.png").exists, "the second screenshot")
        xdo(env, "keydown", "--window", done, "Escape")  # the window is gone before a release could reach it
        err = ended(viewer)
    assert_clean_exit(viewer, err)
    record = load_game(game)  # saved at the end, re-simulated against the rules
    assert record.bots[1].name == "simple" and len(record.rounds) > 3
    assert colour_pixels(tmp_path / "robots-view-002.png", 1) > 10 * simple  # the winner's whole wall at the end


def test_closing_the_window_ends_the_game_and_kills_its_bots(
    tmp_path: Path,
    desktop: dict[str, str],  # noqa: F811
) -> None:
    gate, seen, pidfile = tmp_path / "gate", tmp_path / "seen", tmp_path / "pid"
    gate.write_text("go\n")  # one round, then the bot waits in round 2 (600 s allowed)
    bot = f"{sys.executable} {GATEBOT} {pidfile} {gate} {seen}"
    env = viewer_env(desktop, tmp_path / "state")
    command = ["--demo", "tron", "--ai", bot, "--time-limit", "600", "--size", "640x480"]
    with running_viewer(command, env, tmp_path) as viewer:
        window = xdo(env, "search", "--sync", "--onlyvisible", "--name", "robots-view - diamond-25x25").split()[0]
        wait_for(lambda: "2" in seen.read_text().split() if seen.exists() else False, "round 2 to be asked")
        pid = int(pidfile.read_text())
        close_window(env, window)  # as the title bar's close button (openbox sends WM_DELETE_WINDOW)
        err = ended(viewer)
    assert_clean_exit(viewer, err)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the bot program was killed with the game
    assert not (tmp_path / "out" / "demo-tron.json").exists()  # a cancelled game is not saved
