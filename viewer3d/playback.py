"""Playback: the replay's events laid out on a timeline, and the player that walks it.

Every engine event becomes a ``Segment`` with a duration that depends on what
happened (a card step, an oil slide, a belt move, a push, a turn, a bump against a
wall, a fall, a crush, reaching the goal), so the kinds look different on screen.
``Timeline.state_at(t)`` interpolates the robot between the poses the engine
reported: at every segment boundary the robot stands exactly on the engine's pose.

``Player`` (the shared ``viewer3d.clock.GamePlayer``) advances time on a fixed 120 Hz clock (``update(dt)`` accumulates real
time into ticks), independent of how often the window draws. Steps can be appended
while a game is still being computed (``Timeline.append``).
"""

from __future__ import annotations

import bisect
import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from engine.cards import Card
from engine.events import Cause, DeathReason, Event, EventKind
from engine.game import Outcome
from engine.model import Pose, Rotation
from engine.replay import CardStep
from viewer3d.clock import SPEEDS, TICK, GamePlayer, step_index_at
from viewer3d.coords import facing_yaw
from viewer3d.render.state import FrameState, RobotVisual

CARD_PAUSE = 0.15  # a short rest after each card so cards read as units

#: Seconds per segment kind (at speed 1).
DURATIONS: dict[str, float] = {
    "card_move": 0.40,
    "slide": 0.28,
    "belt": 0.45,
    "push": 0.16,
    "turn": 0.32,
    "uturn": 0.50,
    "board_turn": 0.40,
    "blocked": 0.30,
    "fall": 0.90,
    "crush": 0.55,
    "goal": 0.90,
    "pause": CARD_PAUSE,
}
SINK_DEPTH = 1.4
CRUSH_SQUASH = 0.12


def segment_kind(event: Event) -> str:
    """The animation kind of one event."""
    kind, cause = event.kind, event.cause
    if kind is EventKind.SLIDE:
        return "slide"
    if kind is EventKind.MOVE:
        return {Cause.CONVEYOR: "belt", Cause.PUSHER: "push"}.get(cause, "card_move")
    if kind is EventKind.TURN:
        if cause is not Cause.CARD:
            return "board_turn"
        return "uturn" if event.rotation is Rotation.UTURN else "turn"
    if kind is EventKind.BLOCKED:
        return "blocked"
    if kind is EventKind.DESTROYED:
        return "crush" if event.reason is DeathReason.CRUSHER else "fall"
    return "goal"


@dataclass(frozen=True)
class Segment:
    """One event's animation: from ``before`` to ``after`` in ``[start, start + duration]``."""

    start: float
    duration: float
    step_index: int
    kind: str
    before: Pose
    after: Pose
    event: Event | None

    @property
    def end(self) -> float:
        return self.start + self.duration


def _ease_in_out(u: float) -> float:
    return u * u * (3.0 - 2.0 * u)


def _ease_out(u: float) -> float:
    return 1.0 - (1.0 - u) ** 3


_ROTATION_DEGREES = {Rotation.LEFT: 90.0, Rotation.RIGHT: -90.0, Rotation.UTURN: 180.0}


def robot_in_segment(segment: Segment, u: float) -> tuple[RobotVisual, float | None]:
    """The robot a fraction ``u`` (0..1) through a segment, and the phase of the board element acting (or None)."""
    before, after, kind = segment.before, segment.after, segment.kind
    yaw = facing_yaw(before.facing)
    bx, by = float(before.x), float(before.y)
    if kind in ("card_move", "slide", "belt", "push"):
        eased = {"card_move": _ease_in_out, "slide": _ease_out, "push": _ease_out}.get(kind, lambda v: v)(u)
        bx += (after.x - before.x) * eased
        by += (after.y - before.y) * eased
        tilt = 0.35 * math.sin(math.pi * u) if kind == "slide" else 0.0
        phase = u if kind in ("belt", "push") else None
        return RobotVisual(bx, by, yaw=yaw, tilt=tilt), phase
    if kind in ("turn", "uturn", "board_turn"):
        event = segment.event
        degrees = _ROTATION_DEGREES[event.rotation] if event is not None and event.rotation is not None else 0.0
        turned = yaw + math.radians(degrees) * _ease_in_out(u)
        if u >= 1.0:
            turned = facing_yaw(after.facing)
        return RobotVisual(bx, by, yaw=turned), (u if kind == "board_turn" else None)
    if kind == "blocked":
        event = segment.event
        direction = event.direction if event is not None else None
        bump = 0.18 * math.sin(math.pi * u)
        if direction is not None:
            bx += direction.dx * bump
            by += direction.dy * bump
        return RobotVisual(bx, by, yaw=yaw), None
    if kind == "fall":
        sink = u * u
        return RobotVisual(
            bx, by, height=-SINK_DEPTH * sink, yaw=yaw + 1.5 * sink, alpha=1.0 - sink, tilt=0.4 * sink
        ), None
    if kind == "crush":
        squash = 1.0 - (1.0 - CRUSH_SQUASH) * _ease_out(min(1.0, u * 1.6))
        return RobotVisual(bx, by, yaw=yaw, squash=squash, alpha=1.0 - 0.6 * max(0.0, u - 0.6) / 0.4), u
    if kind == "goal":
        return RobotVisual(
            bx, by, height=0.35 * math.sin(math.pi * u), yaw=yaw + 2 * math.pi * _ease_in_out(u), glow=min(1.0, 1.5 * u)
        ), None
    return RobotVisual(bx, by, yaw=yaw), None


def _after_state(segment: Segment) -> RobotVisual:
    """The robot as it stays after a segment (falls and crushes leave it gone, goals glowing)."""
    robot, _ = robot_in_segment(segment, 1.0)
    if segment.kind in ("fall", "crush", "goal"):
        return robot
    return RobotVisual(float(segment.after.x), float(segment.after.y), yaw=facing_yaw(segment.after.facing))


def card_label(candidates: Iterable[Card]) -> str:
    """The card's name as shown: 'MF 2', or 'MF 1/2/3' when several cards fit the lines."""
    names = [c.value for c in candidates]
    if not names:
        return "?"
    if len(names) == 1:
        return names[0]
    heads = {n.split()[0] for n in names}
    if len(heads) == 1 and all(len(n.split()) == 2 for n in names):
        head = heads.pop()
        return f"{head} " + "/".join(sorted(n.split()[1] for n in names))
    return " | ".join(names)


def chosen_card(step: CardStep, chosen: Sequence[Card] | None) -> Card | None:
    """The card ``step`` played as the AI's round record names it (``chosen``: the round's chosen
    cards), when that card fits the step's lines; else None (no record, or one that does not fit)."""
    if chosen is None or not 0 <= step.index < len(chosen):
        return None
    card = chosen[step.index]
    return card if card in step.candidates else None


def step_label(step: CardStep, chosen: Sequence[Card] | None = None) -> str:
    """The card's name for a step: the AI's own choice where its round record names it (a
    blocked move writes the same lines for MF 1, 2 and 3), else ``card_label`` of the candidates."""
    card = chosen_card(step, chosen)
    return card.value if card is not None else card_label(step.candidates)


class Timeline:
    """The segments of a replay; thread-safe appends so a game can be shown while it is computed."""

    def __init__(self, start: Pose, board_size: tuple[int, int]) -> None:
        self.start_pose = start
        self.board_size = board_size
        self.steps: list[CardStep] = []
        self.segments: list[Segment] = []
        self._segment_starts: list[float] = []
        self.card_starts: list[float] = []
        self.card_ends: list[float] = []
        self.round_starts: dict[int, float] = {}
        self.visits: list[tuple[float, int, int]] = [(0.0, start.x, start.y)]
        self.outcome: Outcome | None = None
        self.complete = False  # no more steps will come
        self.error: str | None = None
        self.deck: tuple[Card, ...] | None = None  # when known, the HUD shows each round's hand
        self._lock = threading.Lock()

    @classmethod
    def from_steps(
        cls, start: Pose, board_size: tuple[int, int], steps: Iterable[CardStep], outcome: Outcome | None
    ) -> Timeline:
        timeline = cls(start, board_size)
        for step in steps:
            timeline.append(step)
        timeline.finish(outcome)
        return timeline

    @property
    def duration(self) -> float:
        return self.card_ends[-1] if self.card_ends else 0.0

    # -- the shared clock's view (``viewer3d.games.base.Steps``): a step is a card -------------
    @property
    def step_starts(self) -> list[float]:
        return self.card_starts

    @property
    def step_ends(self) -> list[float]:
        return self.card_ends

    def step_round(self, index: int) -> int:
        steps = self.steps
        return steps[index].round_number if 0 <= index < len(steps) else 0

    def append(self, step: CardStep) -> None:
        """Add one card's events at the end of the timeline."""
        with self._lock:
            index = len(self.steps)
            time = self.duration
            self.card_starts.append(time)
            self.round_starts.setdefault(step.round_number, time)
            pose = step.start
            segments: list[Segment] = []
            for event in step.result.events:
                kind = segment_kind(event)
                duration = DURATIONS[kind]
                segments.append(Segment(time, duration, index, kind, pose, event.pose, event))
                time += duration
                if event.kind in (EventKind.MOVE, EventKind.SLIDE):
                    # A visit counts once the robot is more than half way onto the tile.
                    self.visits.append((time - duration / 2, event.pose.x, event.pose.y))
                pose = event.pose
            segments.append(Segment(time, CARD_PAUSE, index, "pause", pose, pose, None))
            time += CARD_PAUSE
            self.segments.extend(segments)
            self._segment_starts.extend(s.start for s in segments)
            self.card_ends.append(time)
            self.steps.append(step)

    def hand(self, round_number: int) -> tuple[Card, ...] | None:
        """The 8 cards dealt in a round (None when the deck is unknown or used up)."""
        if self.deck is None:
            return None
        begin = 8 * (round_number - 1)
        hand = self.deck[begin : begin + 8]
        return hand if len(hand) == 8 else None

    def set_deck(self, deck: Sequence[Card]) -> bool:
        """Attach the game's deck if every card played so far was dealt in its round; False (and
        no deck) if the deck does not fit the game (another seed, a different file)."""
        self.deck = tuple(deck)
        for step in self.steps:
            hand = self.hand(step.round_number)
            if hand is None or not any(card in hand for card in step.candidates):
                self.deck = None
                return False
        return True

    def finish(self, outcome: Outcome | None, error: str | None = None) -> None:
        self.outcome = outcome
        self.error = error
        self.complete = True

    def segment_at(self, t: float) -> Segment | None:
        index = bisect.bisect_right(self._segment_starts, t) - 1
        return self.segments[index] if index >= 0 else None

    def step_index_at(self, t: float) -> int:
        """The card shown at time t: the last card that started before t (-1 before any).

        At a card boundary (where Right pauses) this is the card that just ended, not the next one,
        which has not moved the robot yet."""
        return step_index_at(self.card_starts, t)

    def state_at(self, t: float) -> FrameState:
        with self._lock:
            segment = self.segment_at(t)
            if segment is None:
                robot = RobotVisual(
                    float(self.start_pose.x), float(self.start_pose.y), yaw=facing_yaw(self.start_pose.facing)
                )
                return FrameState(robot, None, {}, t)
            u = 1.0 if segment.duration <= 0 else min(1.0, max(0.0, (t - segment.start) / segment.duration))
            if segment.kind == "pause":
                previous = self._previous_real(segment)
                robot = (
                    _after_state(previous)
                    if previous is not None
                    else RobotVisual(
                        float(segment.after.x), float(segment.after.y), yaw=facing_yaw(segment.after.facing)
                    )
                )
                return FrameState(robot, None, {}, t)
            robot, phase = robot_in_segment(segment, u)
            active: dict[tuple[int, int], float] = {}
            if phase is not None:
                active[self._element_tile(segment)] = phase
            return FrameState(robot, None, active, t)

    def _previous_real(self, pause: Segment) -> Segment | None:
        index = bisect.bisect_left(self._segment_starts, pause.start)
        while index > 0:
            index -= 1
            candidate = self.segments[index]
            if candidate.kind != "pause":
                return candidate if candidate.step_index == pause.step_index else None
        return None

    @staticmethod
    def _element_tile(segment: Segment) -> tuple[int, int]:
        """The board element acting: where the robot stood when it began (a crusher: where it is)."""
        pose = segment.after if segment.kind == "crush" else segment.before
        return (pose.x, pose.y)


class TrailCounter:
    """Visit counts per tile up to a time, updated incrementally as time moves either way."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        width, height = timeline.board_size
        self.counts = np.zeros((height, width), dtype=np.int32)
        self._applied = 0  # visits[:_applied] are counted
        self._strength: tuple[int, NDArray[np.float32]] | None = None  # (applied, strength) of the last call

    def _add(self, index: int, sign: int) -> None:
        _, x, y = self.timeline.visits[index]
        height, width = self.counts.shape
        if 0 <= x < width and 0 <= y < height:
            self.counts[y, x] += sign

    def seek(self, t: float) -> NDArray[np.int32]:
        visits = self.timeline.visits
        target = bisect.bisect_right(visits, (t, math.inf, math.inf))
        while self._applied < target:
            self._add(self._applied, 1)
            self._applied += 1
        while self._applied > target:
            self._applied -= 1
            self._add(self._applied, -1)
        return self.counts

    def strength(self, t: float) -> NDArray[np.float32]:
        """0 for unvisited tiles, from 0.35 (once) to 1 (the most visited tile) on a log scale.

        The same array object is returned while no visit was added or removed, so a renderer
        can skip re-uploading it."""
        counts = self.seek(t)
        if self._strength is not None and self._strength[0] == self._applied:
            return self._strength[1]
        top = int(counts.max()) if counts.size else 0
        strength = np.zeros(counts.shape, dtype=np.float32)
        if top <= 0:
            return strength
        visited = counts > 0
        scale = math.log1p(top)
        strength[visited] = (
            0.35 + 0.65 * (np.log1p(counts[visited]) - math.log(2.0)) / max(1e-9, scale - math.log(2.0))
            if top > 1
            else 0.35
        )
        strength = np.clip(strength, 0.0, 1.0)
        self._strength = (self._applied, strength)
        return strength


class Player(GamePlayer[Timeline]):
    """The shared clock (``viewer3d.clock.GamePlayer``) over a robot game: its steps are cards."""

    def current_step(self) -> CardStep | None:
        """The card the HUD names: the one playing, or at a boundary the one that just ended
        (or, after a jump to a round, the round's first card)."""
        index = self.current_step_index()
        steps = self.timeline.steps
        return steps[index] if index is not None and index < len(steps) else None


__all__ = ["SPEEDS", "TICK", "Player", "Segment", "Timeline", "TrailCounter"]
