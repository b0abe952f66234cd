"""A Tron game in the shared viewer window, as a user meets it: ``robots-view GAME.json`` in a real
window under Xvfb with a window manager (openbox), driven from outside with xdotool (real X input).

End goes to the end, a click on the timeline bar seeks to a quarter, S saves a screenshot, Esc
quits; the screenshots show the HUD panel with each bot's line in its colour and the timeline bar
(its fill where the click put it, a round tick at every round) really drawn.

Every wait is on an X event (``xdotool search --sync``) or on the screenshot file appearing (which
the viewer writes when it has drawn the frame); no sleep decides anything.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import numpy as np
from PIL import Image

from engine.tron.arena import parse_arena
from engine.tron.record import BotInfo, GameRecord, RoundRecord, save_game
from tests.editor.conftest import desktop, xvfb  # noqa: F401 (fixtures)
from tests.viewer_games.xviewer import assert_clean_exit, ended, running_viewer, viewer_env, xdo
from viewer3d.games.tron.show import colour_of
from viewer3d.hud import TimelineBar

ARENA = "GAMEBOARDSTART 10,6\n" + "..........\n" * 6 + "GAMEBOARDEND\nPOS 1 1,2 E\nPOS 2 10,5 W\n"
ROUNDS = 10


def wait_for(path: Path, viewer: subprocess.Popen[str]) -> None:
    """Until the viewer has written ``path`` (it renames a finished file into place) or has died."""
    deadline = time.monotonic() + 120
    while not path.exists():
        assert viewer.poll() is None, viewer.communicate()[1][-3000:]
        assert time.monotonic() < deadline, f"no {path.name}"
        time.sleep(0.05)


def game_file(folder: Path) -> Path:
    """Both cycles drive straight ahead, bot 1 east along row 2 and bot 2 west along row 5, and both
    leave the board in the last round (a draw)."""
    rounds = [RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [], {}) for _ in range(ROUNDS - 1)]
    rounds.append(RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [1, 2], {}))
    record = GameRecord(parse_arena(ARENA), (BotInfo("cyan"), BotInfo("orange")), tuple(rounds))
    path = folder / "tron-game.json"
    save_game(record, path)
    return path


def colour_mask(pixels: np.ndarray, colour: tuple[int, int, int], tolerance: int = 40) -> np.ndarray:
    return np.abs(pixels - np.array(colour)).sum(axis=2) < tolerance


def test_a_tron_game_in_the_shared_window(desktop: dict[str, str], tmp_path: Path) -> None:  # noqa: F811
    game = game_file(tmp_path)
    env = viewer_env(desktop, tmp_path / "state")
    with running_viewer([str(game), "--size", "800x600"], env, tmp_path) as viewer:
        window = xdo(env, "search", "--sync", "--onlyvisible", "--name", r"robots-view - tron-game\.json").split()[0]
        xdo(env, "windowactivate", "--sync", window)
        width, height = (int(v) for v in re.findall(r"Geometry: (\d+)x(\d+)", xdo(env, "getwindowgeometry", window))[0])
        xdo(env, "key", "--window", window, "End", "s")
        end_shot = tmp_path / "robots-view-001.png"
        wait_for(end_shot, viewer)
        bar = TimelineBar.for_viewport((width, height))
        x, y = bar.left + bar.width / 4, bar.top + bar.height / 2
        xdo(env, "mousemove", "--window", window, str(int(x)), str(int(y)), "click", "1")
        xdo(env, "key", "--window", window, "s")
        seek_shot = tmp_path / "robots-view-002.png"
        wait_for(seek_shot, viewer)
        # keydown only: the viewer quits on the press and its window is gone before a release could reach it
        xdo(env, "keydown", "--window", window, "Escape")
        err = ended(viewer)
    assert_clean_exit(viewer, err)

    end = np.asarray(Image.open(end_shot).convert("RGB")).astype(int)
    seek = np.asarray(Image.open(seek_shot).convert("RGB")).astype(int)
    assert end.shape == (height, width, 3)
    panel = end[:120, :320]  # the status panel, top left: each bot's line in its colour
    assert colour_mask(panel, colour_of(0), 90).sum() > 30 and colour_mask(panel, colour_of(1), 90).sum() > 30
    row = int(bar.top + bar.height / 2)
    fill = (90, 200, 120)  # the bar's played part
    left, right = int(bar.left), int(bar.left + bar.width)
    played_end = colour_mask(end[row, left:right][None], fill)[0].mean()
    played_seek = colour_mask(seek[row, left:right][None], fill)[0].mean()
    assert played_end > 0.85  # at the end the bar is full (round ticks cross it)
    assert 0.15 < played_seek < 0.3  # the click seeked to a quarter
    ticks = (seek[int(bar.top) - 2, left:right].min(axis=1) > 180).sum()  # ticks stick out above the bar
    assert ticks >= ROUNDS - 1
