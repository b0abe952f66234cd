"""The viewer's fixed clock and time control, shared by every game (``viewer3d.games.base.Steps``).

``GamePlayer`` knows nothing of robots or cycles: it walks a game's steps (a robot's cards, a Tron
round) and rounds on a fixed 120 Hz clock (``update(dt)`` accumulates real time into ticks), so
playing, pausing, speeds, stepping, round jumps, looping and seeking behave the same in every
game and are tested once.  A game only says where its steps and rounds begin and end.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Generic, TypeVar

from viewer3d.games.base import Steps

TICK = 1.0 / 120.0
SPEEDS = (0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)

T = TypeVar("T", bound=Steps)


def step_index_at(starts: list[float], t: float) -> int:
    """The step shown at time t: the last step that started before t (-1 before any).

    At a step boundary (where Right pauses) this is the step that just ended, not the next one,
    which has not moved anything yet."""
    return bisect.bisect_left(starts, t) - 1 if starts and t > 0 else -1


class GamePlayer(Generic[T]):
    """Time control over a game's steps: play/pause, speed, stepping, jumping, looping; fixed clock."""

    def __init__(self, timeline: T, on_change: Callable[[], None] | None = None) -> None:
        self.timeline = timeline
        self.time = 0.0
        self.playing = True
        self.speed_index = SPEEDS.index(1.0)
        self.loop = False
        self._accumulator = 0.0
        self.on_change = on_change
        # At a step boundary: show the step about to play (after a jump to a round) rather than
        # the one that just ended (after Right / Left, which pause on a step's end).
        self._next_at_boundary = False

    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_index]

    def start_at_speed(self, speed: float) -> None:
        """Start at the first speed at least ``speed`` (a long game starts faster than 1x)."""
        self.speed_index = next((i for i, s in enumerate(SPEEDS) if s >= speed), len(SPEEDS) - 1)

    @property
    def at_end(self) -> bool:
        return self.timeline.complete and self.time >= self.timeline.duration

    def update(self, dt: float) -> int:
        """Accumulate ``dt`` seconds of real time and run the fixed ticks due; returns how many ran."""
        self._accumulator += max(0.0, dt)
        ticks = 0
        while self._accumulator >= TICK - 1e-9:  # tolerate float rounding of dt sums
            self._accumulator -= TICK
            self.tick()
            ticks += 1
        return ticks

    def tick(self) -> None:
        if not self.playing:
            return
        self._next_at_boundary = False
        end = self.timeline.duration
        self.time = min(end, self.time + TICK * self.speed)
        if self.time >= end and self.timeline.complete:
            if self.loop and end > 0:
                self.time = 0.0
            else:
                self.playing = False

    def toggle_play(self) -> None:
        if not self.playing and self.at_end:
            self.time = 0.0
        self.playing = not self.playing

    def faster(self) -> None:
        self.speed_index = min(len(SPEEDS) - 1, self.speed_index + 1)

    def slower(self) -> None:
        self.speed_index = max(0, self.speed_index - 1)

    def restart(self) -> None:
        self.time = 0.0
        self.playing = True

    def toggle_loop(self) -> None:
        self.loop = not self.loop

    def seek(self, t: float) -> None:
        self._next_at_boundary = False
        self.time = min(max(0.0, t), self.timeline.duration)

    def seek_fraction(self, fraction: float) -> None:
        """Jump to a fraction of the whole timeline (the timeline bar)."""
        self.seek(min(1.0, max(0.0, fraction)) * self.timeline.duration)

    def _boundaries(self) -> list[float]:
        return [0.0, *self.timeline.step_ends]

    def step_forward(self) -> None:
        """Pause and go to the end of the next step."""
        self.playing = False
        self._next_at_boundary = False
        bounds = self._boundaries()
        index = bisect.bisect_right(bounds, self.time + 1e-9)
        if index < len(bounds):
            self.time = bounds[index]

    def step_back(self) -> None:
        """Pause and go back to the end of the previous step."""
        self.playing = False
        self._next_at_boundary = False
        bounds = self._boundaries()
        index = bisect.bisect_left(bounds, self.time - 1e-9) - 1
        self.time = bounds[max(0, index)]

    def jump_to_round(self, number: int) -> bool:
        """Go to the start of round ``number`` (from 1); False if there is no such round (yet)."""
        start = self.timeline.round_starts.get(number)
        if start is None:
            return False
        self.time = start
        self._next_at_boundary = True
        return True

    def current_round(self) -> int:
        index = self.current_step_index()
        return self.timeline.step_round(index) if index is not None else 0

    def round_start(self) -> int | None:
        """The round whose start is shown (after J, PgDn or PgUp, until the clock moves): its first
        step has not begun, so the HUD says the round's start, not its first step's name and event
        (a jump showed "card 1/5  blocked by a wall" before the robot had moved). None otherwise."""
        if not self._next_at_boundary:
            return None
        index = self.current_step_index()
        if index is None or self.timeline.step_starts[index] != self.time:
            return None
        return self.timeline.step_round(index)

    def next_round(self) -> None:
        self.jump_to_round(self.current_round() + 1)

    def previous_round(self) -> None:
        current = self.current_round()
        start = self.timeline.round_starts.get(current, 0.0)
        if self.time > start + 1e-9:
            self.time = start
            self._next_at_boundary = True
        elif current > 1:
            self.jump_to_round(current - 1)

    def current_step_index(self) -> int | None:
        """The step the HUD names: the one playing, or at a boundary the one that just ended
        (or, after a jump to a round, the round's first step); None before the first."""
        starts = self.timeline.step_starts
        index = step_index_at(starts, self.time)
        following = index + 1
        at_boundary = following < len(starts) and starts[following] == self.time
        if self._next_at_boundary and at_boundary:
            index = following
        return index if 0 <= index < len(self.timeline.step_ends) else None
