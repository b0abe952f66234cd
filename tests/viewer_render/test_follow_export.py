"""Exports of a 512x512 game: ``--camera follow`` keeps the robot in the middle of every frame,
``auto`` picks it on such a board, ``fit`` shows the whole board."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.conformance import reference_chooser
from engine.deck import generate_deck
from engine.game import play_game
from engine.model import Board, Level
from engine.outputs import format_globalseq
from engine.replay import load_replay
from viewer3d import coords
from viewer3d.movie import plan_frames
from viewer3d.render.offscreen import OffscreenTarget
from viewer3d.render.renderer import SceneRenderer
from viewer3d.sources import GameSource, timeline_from_replay

SIZE = (160, 120)


@pytest.fixture(scope="module")
def big_game() -> GameSource:
    rng = np.random.default_rng(7)
    grid = rng.choice(np.array(list("     abcdHO><^v")), size=(512, 512))
    grid[300, 200] = "V"
    grid[50, 450] = "Z"
    board = Board.from_strings(["".join(row) for row in grid])
    game = play_game(board, Level.EASY, generate_deck(5), reference_chooser)
    replay = load_replay(board, Level.EASY, game.start, format_globalseq(game))
    return GameSource(board, Level.EASY, timeline_from_replay(replay), "big")


def test_follow_export_shows_the_robot_in_every_frame(big_game: GameSource, ctx) -> None:
    plan = plan_frames(big_game, SIZE, 4, "iso1", speed=8.0, camera_mode="follow")
    assert plan.follow and len(plan) > 10
    renderer = SceneRenderer(ctx, big_game.board)
    target = OffscreenTarget(ctx, SIZE, samples=0)
    try:
        for index in range(0, len(plan), max(1, len(plan) // 12)):
            camera, state = plan[index]
            assert state.robot is not None
            px, py, depth = coords.project(
                coords.tile_center(state.robot.bx, state.robot.by), camera.view_proj_columns(), SIZE
            )
            assert abs(px - SIZE[0] / 2) < 2 and abs(py - SIZE[1] / 2) < 2 and 0 < depth < 1
            shown = np.asarray(target.render(lambda c=camera, s=state: renderer.render(c, s, SIZE)), dtype=int)
            hidden = replace(state, robot=None)
            empty = np.asarray(target.render(lambda c=camera, s=hidden: renderer.render(c, s, SIZE)), dtype=int)
            changed = np.abs(shown - empty)[..., :3].sum(axis=2) > 60
            middle = changed[SIZE[1] // 2 - 8 : SIZE[1] // 2 + 8, SIZE[0] // 2 - 8 : SIZE[0] // 2 + 8]
            if state.robot.alpha > 0.3:
                assert middle.mean() > 0.2, index  # the robot is drawn in the middle
    finally:
        target.release()
        renderer.release()


def test_auto_follows_a_huge_board_and_fits_a_small_one(big_game: GameSource) -> None:
    assert plan_frames(big_game, SIZE, 4, "iso1", speed=8.0).follow
    assert not plan_frames(big_game, SIZE, 4, "iso1", speed=8.0, camera_mode="fit").follow
    small = Board.from_strings(["V  ", "   ", "  Z"])
    source = GameSource(small, Level.EASY, timeline_from_replay(load_replay(small, Level.EASY, small.start, "")), "s")
    assert not plan_frames(source, SIZE, 4, "iso1", speed=1.0).follow


def test_zoom_brings_the_fit_camera_closer(big_game: GameSource) -> None:
    whole = plan_frames(big_game, SIZE, 4, "iso1", speed=8.0, camera_mode="fit")
    closer = plan_frames(big_game, SIZE, 4, "iso1", speed=8.0, camera_mode="fit", zoom=4.0)
    assert closer.camera.tiles_across() == pytest.approx(whole.camera.tiles_across() / 4)
