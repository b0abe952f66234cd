"""A viewer showing a game folder follows it: rewrite the folder and the next picture shows the new
game, from the same camera, at the same round (a real headless window, rendering for real)."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

import json  # noqa: E402
import os  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from pyglet.window import key  # noqa: E402

from engine.cli import main as engine_main  # noqa: E402
from viewer3d import coords  # noqa: E402
from viewer3d.app import ViewerApp  # noqa: E402
from viewer3d.reload import PID_FILE, GameFolderWatch, viewer_watching  # noqa: E402
from viewer3d.sources import from_game_dir  # noqa: E402
from viewer3d.window import ViewerWindow  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHOP = ROOT / "gameboards" / "chop.dat"
WIDTH, HEIGHT = 640, 480


def play(folder: Path, seed: int, board: Path = CHOP) -> dict[str, object]:
    assert engine_main(["play", str(board), "--seed", str(seed), "--level", "hard", "--out", str(folder)]) == 0
    info: dict[str, object] = json.loads((folder / "game.json").read_text())
    return info


@pytest.fixture
def window(tmp_path: Path) -> Iterator[ViewerWindow]:
    folder = tmp_path / "g"
    play(folder, 25)  # 5 rounds, the robot destroyed
    source = from_game_dir(folder)
    app = ViewerApp(source.board, source.timeline, source.title, (WIDTH, HEIGHT), screenshot_dir=tmp_path)
    app.rounds = source.rounds
    win = ViewerWindow(app, WIDTH, HEIGHT, visible=False)
    win._enable_event_queue = False
    win.game_watch = GameFolderWatch(folder)
    yield win
    win.game_watch.release()
    win.close()


def robot_pixel(win: ViewerWindow) -> tuple[int, int]:
    robot = win.app.frame().robot
    assert robot is not None
    px, py, _ = win.app.camera.project(coords.tile_center(robot.bx, robot.by, 0.3))
    return int(px), int(py)


def test_rewriting_the_folder_shows_the_new_game_in_the_next_screenshot(window: ViewerWindow, tmp_path: Path) -> None:
    folder = tmp_path / "g"
    app = window.app
    window.dispatch_event("on_key_press", key._3, 0)  # another view: it must stay
    app.update(2.0)
    app.player.jump_to_round(2)
    app.player.playing = False
    old_timeline, camera_pose = app.timeline, app.camera.pose
    window.draw_frame()
    before = window.read_pixels().astype(int)
    assert not window.watch_game(force=True)  # nothing changed yet
    info = play(folder, 8)  # a different game in the same folder
    assert window.watch_game(force=True)
    assert window.game_reloads == 1
    assert app.timeline is not old_timeline and app.camera.pose == camera_pose
    fresh = from_game_dir(folder)
    assert app.timeline.duration == pytest.approx(fresh.timeline.duration)
    # The new game has a single round: round 2 does not exist there, so the viewer shows its end.
    assert info["rounds"] == 1 and app.player.at_end
    window.draw_frame()
    after = window.read_pixels().astype(int)
    assert np.abs(after - before).sum(axis=2).astype(bool).mean() > 0.001
    final = fresh.timeline.state_at(fresh.timeline.duration).robot
    robot = app.frame().robot
    assert robot is not None and final is not None and (robot.bx, robot.by) == (final.bx, final.by)
    window.save_screenshot(tmp_path / "next.png")
    assert (tmp_path / "next.png").exists()
    assert "reloaded" in app.message


def test_the_same_round_is_kept_when_the_new_game_has_it(window: ViewerWindow, tmp_path: Path) -> None:
    app = window.app
    app.player.jump_to_round(3)
    play(tmp_path / "g", 25)  # the same game again: a rewrite all the same
    assert window.watch_game(force=True)
    assert app.player.current_round() == 3


def test_a_broken_rewrite_keeps_the_old_game_and_says_why(window: ViewerWindow, tmp_path: Path) -> None:
    app = window.app
    timeline = app.timeline
    (tmp_path / "g" / "game.json").write_text("{ not json")
    assert not window.watch_game(force=True)
    assert app.timeline is timeline
    assert "cannot reload" in app.message and "game.json" in app.message
    play(tmp_path / "g", 8)
    assert window.watch_game(force=True)


def test_the_claim_never_writes_through_a_link(tmp_path: Path) -> None:
    """A game folder from elsewhere holding ``.robots-view.pid`` as a link to a file of the user's:
    opening the folder overwrote that file with the viewer's pid."""
    folder = tmp_path / "g"
    play(folder, 25)
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes\n")
    (folder / PID_FILE).symlink_to(mine)
    watch = GameFolderWatch(folder)
    assert mine.read_text() == "my notes\n" and viewer_watching(folder) is None
    watch.release()
    assert mine.read_text() == "my notes\n" and (folder / PID_FILE).is_symlink()


def test_the_watch_claims_the_folder_while_open(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    play(folder, 25)
    watch = GameFolderWatch(folder)
    assert viewer_watching(folder) == os.getpid()
    watch.release()
    assert not (folder / PID_FILE).exists() and viewer_watching(folder) is None
    (folder / PID_FILE).write_text("999999999\n")  # a viewer that died without cleaning up
    assert viewer_watching(folder) is None
