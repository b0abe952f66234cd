"""The frames of an export: which camera and which moment of the replay each image shows.

``plan_frames`` returns a lazy sequence of ``(CameraMatrices, FrameState)`` pairs, computed
when the exporter asks for them, so even a long game on a 512x512 board needs memory for one
frame's trail only. A long game is sped up so the film lasts at most ``MAX_SECONDS``.

The camera either shows the whole board (``fit``) or keeps the robot in the middle of every
frame (``follow``); ``auto`` follows on boards where the whole view would make tiles smaller
than a few pixels (the robot would be lost in a GIF). ``zoom`` is how many times closer than
the whole-board view the camera is (default 1 for fit; for follow, tiles of about 16 pixels).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import overload

from viewer3d import coords
from viewer3d.camera import AUTO_FOLLOW_BELOW_PX, Camera
from viewer3d.playback import Timeline, TrailCounter
from viewer3d.render.state import CameraMatrices, FrameState, RobotVisual
from viewer3d.roundview import ghost_visual, round_and_cards_done
from viewer3d.sources import GameSource

MAX_SECONDS = 60.0
HOLD_SECONDS = 1.0  # the last picture stays a moment
CAMERAS = ("auto", "follow", "fit")
FOLLOW_TILE_PX = 16.0  # default follow zoom of an export: a tile this many pixels wide


def camera_for_view(
    board_size: tuple[int, int], size: tuple[int, int], view: str, zoom: float = 1.0, hud_top: float = 0.0
) -> Camera:
    """A camera showing the whole board from ``view`` (iso1-iso4, top or persp), ``zoom`` times
    closer than the whole board (towards its centre), framed below a ``hud_top`` pixels high strip
    (the export's HUD text box) so the HUD never covers the board."""
    camera = Camera(board_size, size)
    camera.insets = (hud_top, 0.0, 0.0, 0.0)
    if view.startswith("iso"):
        camera.iso_view(int(view[3:]), animate=False)
    elif view == "top":
        camera.top_view(animate=False)
    elif view == "persp":
        camera.iso_view(1, animate=False)
        camera.toggle_projection()
        camera.animate_to(replace(camera.pose, yaw=30.0, pitch=48.0), animate=False)
    else:
        raise ValueError(f"unknown view {view!r}")
    camera.fit(animate=False)
    if zoom != 1.0:
        camera.animate_to(replace(camera.pose, distance=camera.pose.distance / zoom), animate=False)
    return camera


def follows(camera: Camera, mode: str) -> bool:
    """Whether an export with camera ``mode`` follows the robot (``auto``: when tiles are tiny)."""
    if mode not in CAMERAS:
        raise ValueError(f"unknown camera {mode!r}")
    return mode == "follow" or (mode == "auto" and camera.tile_pixels() < AUTO_FOLLOW_BELOW_PX)


def still_time(timeline: Timeline) -> float:
    """The moment a single picture shows: the end, or just before a final fall/crush so the robot is seen."""
    end = timeline.duration
    last = [s for s in timeline.segments if s.event is not None]
    if last and last[-1].kind in ("fall", "crush"):
        return last[-1].start
    return end


class FramePlan(Sequence[tuple[CameraMatrices, FrameState]]):
    """Frame ``k`` shows the replay at ``times[k]`` through a fixed camera, with the trail."""

    def __init__(
        self,
        timeline: Timeline,
        camera: Camera,
        times: list[float],
        trail: bool = True,
        follow: bool = False,
        ghost: Callable[[float], RobotVisual | None] | None = None,
        round_number: int | None = None,
    ) -> None:
        #: The best choice's robot at a replay time (``robots-engine analyse``), drawn see-through.
        self.ghost = ghost
        #: The one round the frames show (``--round``): its end is labelled as it, not the next round.
        self.round_number = round_number
        self.timeline = timeline
        self.camera = camera
        self.matrices = camera.matrices()
        self.times = times
        self.follow = follow
        self._trail = TrailCounter(timeline) if trail else None

    def __len__(self) -> int:
        return len(self.times)

    def frame(self, index: int) -> tuple[CameraMatrices, FrameState]:
        t = self.times[index]
        state = self.timeline.state_at(t)
        if self._trail is not None:
            state = replace(state, trail=self._trail.strength(t))
        if self.ghost is not None:
            state = replace(state, ghost=self.ghost(t))
        if self.follow and state.robot is not None:  # the robot in the middle of every frame
            self.camera.pose = replace(self.camera.pose, target=coords.tile_center(state.robot.bx, state.robot.by))
            return self.camera.matrices(), state
        return self.matrices, state

    @overload
    def __getitem__(self, index: int) -> tuple[CameraMatrices, FrameState]: ...
    @overload
    def __getitem__(self, index: slice) -> list[tuple[CameraMatrices, FrameState]]: ...
    def __getitem__(
        self, index: int | slice
    ) -> tuple[CameraMatrices, FrameState] | list[tuple[CameraMatrices, FrameState]]:
        if isinstance(index, slice):
            return [self.frame(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self.frame(index)


def frame_times(duration: float, fps: int, speed: float | None, max_seconds: float = MAX_SECONDS) -> list[float]:
    """Replay times of the frames: ``speed`` x real time (auto: fit into ``max_seconds``), then a hold."""
    if speed is None:
        speed = max(1.0, duration / max_seconds)
    count = max(1, math.ceil(duration / speed * fps))
    times = [min(duration, k * speed / fps) for k in range(count + 1)]
    times += [duration] * int(HOLD_SECONDS * fps)
    return times


def round_span(timeline: Timeline, number: int, card: int | None = None) -> tuple[float, float]:
    """Replay times of round ``number`` (from 1): its start and end, or with ``card`` (from 1) the
    start and end of that card. ValueError naming what exists when there is no such round or card."""
    starts = timeline.round_starts
    if number not in starts:
        last = max(starts) if starts else 0
        raise ValueError(f"there is no round {number}: the game has {last} round{'s' if last != 1 else ''} with cards")
    first = timeline.card_starts.index(starts[number])
    indexes = [i for i in range(first, len(timeline.steps)) if timeline.steps[i].round_number == number]
    if card is None:
        return starts[number], timeline.card_ends[indexes[-1]]
    if not 1 <= card <= len(indexes):
        raise ValueError(
            f"round {number} played {len(indexes)} card{'s' if len(indexes) != 1 else ''}, not card {card}"
        )
    index = indexes[card - 1]
    return timeline.card_starts[index], timeline.card_ends[index]


def plan_frames(
    source: GameSource,
    size: tuple[int, int],
    fps: int,
    view: str,
    speed: float | None,
    still: bool = False,
    max_seconds: float = MAX_SECONDS,
    span: tuple[float, float] | None = None,
    still_at: float | None = None,
    camera_mode: str = "auto",
    zoom: float | None = None,
    hud_top: float = 0.0,
    round_number: int | None = None,
) -> FramePlan:
    """Frames of the whole game, or of ``span`` (a round or card, of round ``round_number``); a
    still at ``still_at`` if given."""
    timeline = source.timeline
    board_size = (source.board.width, source.board.height)
    camera = camera_for_view(board_size, size, view, hud_top=hud_top)
    follow = follows(camera, camera_mode)
    if follow:
        fitted_span = camera.tiles_across()
        closer = zoom if zoom is not None else max(1.0, fitted_span / (size[0] / FOLLOW_TILE_PX))
        camera = camera_for_view(board_size, size, view, closer, hud_top)
    elif zoom is not None:
        camera = camera_for_view(board_size, size, view, zoom, hud_top)
    if still:
        times = [still_at if still_at is not None else still_time(timeline)]
    elif span is not None:
        begin, end = span
        times = [begin + t for t in frame_times(end - begin, fps, speed, max_seconds)]
    else:
        times = frame_times(timeline.duration, fps, speed, max_seconds)
    analysis = source.analysis

    def ghost(t: float) -> RobotVisual | None:
        number, done = round_and_cards_done(timeline, t, round_number)
        return ghost_visual(analysis.get(number), done)

    return FramePlan(
        timeline, camera, times, follow=follow, ghost=ghost if analysis else None, round_number=round_number
    )
