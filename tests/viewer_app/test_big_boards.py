"""Big boards in the app (no GL): a board too big to see the robot starts following it."""

from __future__ import annotations

import pytest

from engine.boardfile import load_board
from engine.model import Board, Direction, Pose
from tests.viewer_app.conftest import CHOP
from viewer3d import coords
from viewer3d.app import FOLLOW_TILE_PX, ViewerApp
from viewer3d.camera import AUTO_FOLLOW_BELOW_PX
from viewer3d.playback import Timeline


def app_for(board: Board, start: Pose) -> ViewerApp:
    return ViewerApp(board, Timeline(start, (board.width, board.height)), "t", (1024, 768))


def test_a_512_board_starts_following_the_robot_zoomed_in() -> None:
    board = Board.from_strings([" " * 512] * 512)
    app = app_for(board, Pose(400, 100, Direction.UP))
    assert app.auto_followed and app.camera.following
    assert app.camera.tile_pixels() == pytest.approx(FOLLOW_TILE_PX, rel=0.01)
    px, py, _ = app.camera.project(coords.tile_center(400, 100))
    assert abs(px - 512) < 2 and abs(py - 384) < 2  # the robot in the middle at once
    assert "following the robot" in app.message
    app.key("HOME")  # the whole board on request
    for _ in range(200):
        app.update(1 / 120)
    assert not app.camera.following and app.camera.tile_pixels() < AUTO_FOLLOW_BELOW_PX


def test_a_contest_board_starts_with_the_whole_board() -> None:
    board = load_board(CHOP)
    app = app_for(board, board.start)
    assert not app.auto_followed and not app.camera.following and app.camera.fitted


def test_paused_app_is_not_busy_and_its_signature_is_stable() -> None:
    board = load_board(CHOP)
    app = app_for(board, board.start)
    app.key("SPACE")
    for _ in range(600):
        app.update(1 / 120)
    assert not app.busy
    signature = app.view_signature()
    app.update(1.0)
    assert app.view_signature() == signature
    app.key("UP")  # zoom: the picture changes
    assert app.view_signature() != signature
