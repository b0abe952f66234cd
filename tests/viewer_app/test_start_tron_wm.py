"""``robots-view`` alone, as a user meets it: a real window under Xvfb with a window manager
(openbox), driven from outside with xdotool. The start screen's Tron tab is chosen, an arena and a
bot, Start plays the game through the Tron server, and the game opens in the Tron window.

Every wait is on an X event (``xdotool search --sync`` returns when the window exists) or on the
process's exit; clicks queue in order, so no step waits on a timer. ``./run setup`` installs
Xvfb, openbox and xdotool.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gameboards import board_names, tron_arena_path
from tests.editor.conftest import desktop, xvfb  # noqa: F401 (fixtures)
from tests.viewer_games.xviewer import assert_clean_exit, ended, running_viewer, viewer_env, xdo
from viewer3d.cli import tron_tab
from viewer3d.start import StartScreen

ARENA = "open-10x10.txt"


def test_tron_chosen_and_played_from_the_start_screen(
    tmp_path: Path,
    desktop: dict[str, str],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = tmp_path / "state"
    env = viewer_env(desktop, state)
    with running_viewer([], env, tmp_path) as viewer:
        start = xdo(env, "search", "--sync", "--onlyvisible", "--name", "robots-view - start").split()[0]
        xdo(env, "windowactivate", "--sync", start)
        size = re.search(r"Geometry: (\d+)x(\d+)", xdo(env, "getwindowgeometry", start))
        assert size is not None
        viewport = (int(size[1]), int(size[2]))
        monkeypatch.setenv("XDG_STATE_HOME", str(state))  # the same (empty) recent lists as the viewer's
        screen = StartScreen(board_names(), tron=tron_tab())

        def click(action: str) -> None:
            box = next(b for b in screen.layout(viewport) if b.action == action)
            screen.click(viewport, box.left + box.width / 2, box.top + box.height / 2)  # the same click here
            x, y = int(box.left + box.width / 2), int(box.top + box.height / 2)
            xdo(env, "mousemove", "--window", start, str(x), str(y), "click", "1")

        click("game:tron")
        assert screen.tron is not None
        click(f"arena:{next(i for i, a in enumerate(screen.tron.arenas) if a.name == ARENA)}")
        click("bot:2:random")
        screen.play_tron = lambda choice: pytest.fail("only the viewer plays")  # type: ignore[assignment]
        box = next(b for b in screen.layout(viewport) if b.action == "start")
        xdo(env, "mousemove", "--window", start, str(int(box.left + 20)), str(int(box.top + 20)), "click", "1")
        # The game is played in the background, saved, and opened in the Tron window.
        game = xdo(env, "search", "--sync", "--onlyvisible", "--name", r"robots-view - open-10x10-.*\.json").split()[0]
        xdo(env, "windowactivate", "--sync", game)
        xdo(env, "keydown", "--window", game, "Escape")  # the window is gone before a release could reach it
        err = ended(viewer)
    assert_clean_exit(viewer, err)
    games = list((state / "robots-view" / "tron-games").iterdir())
    assert len(games) == 1 and games[0].name.startswith("open-10x10-")
    record = json.loads(games[0].read_text())
    assert [b["name"] for b in record["bots"]] == ["strong", "random"]
    recent = json.loads((state / "robots-view" / "recent-tron.json").read_text())
    assert [Path(e["path"]) for e in recent] == [games[0], tron_arena_path(ARENA)]
    assert not (state / "robots-view" / "recent.json").exists()  # the robot game's list is untouched
