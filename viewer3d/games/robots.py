"""The robot game (freiesMagazin 2009) behind the viewer's game interface: game number one.

An adapter over what the robot viewer always had: the board, the replay's ``Timeline`` of card
segments (``viewer3d.playback``) and the ``SceneRenderer``.  It adds no behaviour: the shared
app, HUD, window and export show a robot game exactly as before the seam existed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import moderngl
import numpy as np
from numpy.typing import NDArray

from engine.games import ROBOTS
from engine.model import Board
from viewer3d.clock import GamePlayer
from viewer3d.games.base import ActorPose, DynamicCells, GameRenderer, HudLine, SegmentInfo
from viewer3d.playback import Player, Timeline, TrailCounter
from viewer3d.render.state import FrameState

#: ``cell_kinds`` codes, as the renderer's info texture has them (``viewer3d.render.scene.KIND_*``).
KIND_NAMES = ("floor", "hole", "conveyor", "rotator-left", "rotator-right", "pusher", "crusher", "goal", "oil")
ROBOT_COLOUR = (61, 128, 230)


class RobotShow:
    """A robot game as the viewer shows it (``viewer3d.games.base.GameShow[FrameState]``)."""

    game = ROBOTS
    step_noun = "card"
    follow_noun = "the robot"

    def __init__(self, board: Board, timeline: Timeline, title: str = "") -> None:
        self.board = board
        self._timeline = timeline
        self.title = title

    @property
    def size(self) -> tuple[int, int]:
        return (self.board.width, self.board.height)

    @property
    def timeline(self) -> Timeline:
        return self._timeline

    def start_speed(self) -> float:
        return 1.0

    @cached_property
    def _kinds(self) -> NDArray[np.uint8]:
        from viewer3d.render.scene import KIND_MASK, build_scene

        return (build_scene(self.board).info[..., 2] & KIND_MASK).astype(np.uint8)

    def cell_kinds(self) -> NDArray[np.uint8]:
        return self._kinds

    def kind_names(self) -> tuple[str, ...]:
        return KIND_NAMES

    def actors_at(self, t: float) -> list[ActorPose]:
        robot = self._timeline.state_at(t).robot
        if robot is None:
            return []
        # the renderer's yaw turns the model from north counter-clockwise; the interface's heading is atan2(dy, dx)
        heading = math.remainder(-math.pi / 2 - robot.yaw, 2 * math.pi)
        return [ActorPose(robot.bx, robot.by, heading, ROBOT_COLOUR, robot.alpha > 0.0, robot.alpha)]

    def dynamic_cells_at(self, t: float) -> DynamicCells:
        strength = TrailCounter(self._timeline).strength(t)
        owner = np.where(strength > 0, 0, -1).astype(np.int16)
        return DynamicCells(owner, strength.astype(np.float32))

    def segments(self) -> Sequence[SegmentInfo]:
        steps = self._timeline.steps
        return [
            SegmentInfo(s.start, s.duration, s.kind, steps[s.step_index].round_number)
            for s in list(self._timeline.segments)
            if s.step_index < len(steps)
        ]

    def frame(self, t: float) -> FrameState:
        return self._timeline.state_at(t)

    def focus_names(self) -> list[str]:
        return [self.follow_noun]

    def focus(self, t: float, actor: int = 0) -> tuple[float, float] | None:
        robot = self._timeline.state_at(t).robot
        return (robot.bx, robot.by) if robot is not None else None

    def status_lines(self, player: GamePlayer[Any]) -> list[HudLine]:
        from viewer3d.hud import flags_line, status_lines

        if not isinstance(player, Player):  # any player of this timeline: the robot HUD names its card
            robot = Player(self._timeline)
            robot.__dict__.update(player.__dict__)
            player = robot
        flags = flags_line(player)  # the app adds them (``ViewerApp`` keeps the robot HUD's own order)
        return [HudLine(line) for line in status_lines(player) if line != flags]

    def outcome_mark(self) -> tuple[str, tuple[int, int, int, int]] | None:
        from viewer3d.hud import OUTCOME_MARK

        timeline = self._timeline
        if timeline.complete and timeline.outcome is not None:
            return OUTCOME_MARK.get(timeline.outcome)
        return None

    def renderer(self, ctx: moderngl.Context, theme: Any) -> GameRenderer[FrameState]:
        from viewer3d.render.renderer import SceneRenderer

        return SceneRenderer(ctx, self.board, theme)
