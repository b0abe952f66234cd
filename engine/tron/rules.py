"""The exact rules of a Tron round, as a pure function from a state and the answers to a state and events.

A round: every bot still in turns as it answered, then all move one field forward at once.  Every
field a bot has stood on stays blocked for the rest of the game, for every bot.  A bot is out when its
target is outside the board, blocked (from the start, by a trail, or by a head being left in this
round: so a head-on swap puts both out), or the target of another bot too (all of them go out and that
field becomes blocked).  A bot whose answer failed (invalid, late, missing) is out and does not move.
Nothing here knows about programs or time; ``server`` and ``record`` both replay games through
:func:`step`, so a game file is checked by the very code that played it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum

from engine.tron.arena import Arena, Heading, Start


class Turn(Enum):
    """A bot's answer to ``ROUND``: the word it writes."""

    LEFT = "LEFT"
    RIGHT = "RIGHT"
    AHEAD = "AHEAD"

    def apply(self, heading: Heading) -> Heading:
        if self is Turn.LEFT:
            return heading.left()
        if self is Turn.RIGHT:
            return heading.right()
        return heading


class OutReason(Enum):
    """Why a bot left the game."""

    EDGE = "edge"  # drove off the board
    WALL = "wall"  # drove into a field blocked from the start
    TRAIL = "trail"  # drove into a trail (or a head being left)
    COLLISION = "collision"  # drove onto the field another bot drove onto in the same round
    ANSWER = "answer"  # its answer was invalid, late or missing


@dataclass(frozen=True)
class Cycle:
    """One bot: where it stands, where it looks, whether it is still in, and the round it went out."""

    x: int
    y: int
    heading: Heading
    alive: bool = True
    out_round: int | None = None


@dataclass(frozen=True)
class State:
    """A game between rounds: fields blocked so far (1 per field, row by row) and the cycles (bot p is index p-1)."""

    arena: Arena
    blocked: bytes
    cycles: tuple[Cycle, ...]
    round: int = 0  # rounds played

    @property
    def alive(self) -> list[int]:
        """Numbers (1-based) of the bots still in the game, ascending."""
        return [p for p, cycle in enumerate(self.cycles, 1) if cycle.alive]

    @property
    def over(self) -> bool:
        return not any(cycle.alive for cycle in self.cycles)

    def is_blocked(self, x: int, y: int) -> bool:
        return bool(self.blocked[(y - 1) * self.arena.width + (x - 1)])


@dataclass(frozen=True)
class Moved:
    """Event: bot ``bot`` turned to ``heading`` and drove from ``start`` to ``end`` (1-based fields)."""

    bot: int
    start: tuple[int, int]
    end: tuple[int, int]
    heading: Heading


@dataclass(frozen=True)
class Out:
    """Event: bot ``bot`` went out; ``at`` is the field it drove into (None when it did not move)."""

    bot: int
    reason: OutReason
    heading: Heading
    at: tuple[int, int] | None
    detail: str = ""


Event = Moved | Out


def initial_state(arena: Arena, starts: tuple[Start, ...]) -> State:
    """The state before round 1: every start field is occupied, so it is blocked."""
    blocked = bytearray(arena.blocked)
    for start in starts:
        index = arena.index(start.x, start.y)
        if not arena.inside(start.x, start.y) or blocked[index]:
            raise ValueError(f"start {start.x},{start.y} is outside the arena, blocked or shared")
        blocked[index] = 1
    return State(arena, bytes(blocked), tuple(Cycle(s.x, s.y, s.heading) for s in starts))


def step(state: State, answers: dict[int, Turn | str]) -> tuple[State, list[Event]]:
    """Play one round.  ``answers`` maps every bot still in to its Turn, or to a reason string when its
    answer failed.  Returns the new state and the events in ascending bot order (all moves, all outs)."""
    alive = state.alive
    if not alive:
        raise ValueError("the game is over: no bot is left")
    if set(answers) != set(alive):
        raise ValueError(f"answers for bots {sorted(answers)} but bots {alive} are in the game")
    arena = state.arena
    round_no = state.round + 1
    blocked = bytearray(state.blocked)
    cycles = list(state.cycles)
    targets: dict[int, tuple[int, int, Heading]] = {}
    outs: dict[int, Out] = {}
    for bot in alive:
        cycle = cycles[bot - 1]
        answer = answers[bot]
        if isinstance(answer, str):
            outs[bot] = Out(bot, OutReason.ANSWER, cycle.heading, None, answer)
            continue
        heading = answer.apply(cycle.heading)
        targets[bot] = (cycle.x + heading.dx, cycle.y + heading.dy, heading)
    shared = Counter((x, y) for x, y, _ in targets.values())
    for bot, (x, y, heading) in targets.items():
        if not arena.inside(x, y):
            outs[bot] = Out(bot, OutReason.EDGE, heading, (x, y))
        elif blocked[arena.index(x, y)]:
            kind = OutReason.WALL if arena.blocked[arena.index(x, y)] else OutReason.TRAIL
            outs[bot] = Out(bot, kind, heading, (x, y))
        elif shared[(x, y)] > 1:
            outs[bot] = Out(bot, OutReason.COLLISION, heading, (x, y))
    events: list[Event] = []
    for bot, (x, y, heading) in targets.items():
        cycle = cycles[bot - 1]
        if bot in outs:
            continue
        events.append(Moved(bot, (cycle.x, cycle.y), (x, y), heading))
        cycles[bot - 1] = Cycle(x, y, heading)
    for bot, (x, y, _) in targets.items():
        if bot not in outs or outs[bot].reason is OutReason.COLLISION:
            blocked[arena.index(x, y)] = 1
    for bot in sorted(outs):
        out = outs[bot]
        old = cycles[bot - 1]
        cycles[bot - 1] = Cycle(old.x, old.y, out.heading, alive=False, out_round=round_no)
        events.append(out)
    return State(arena, bytes(blocked), tuple(cycles), round_no), events


def rounds_survived(cycle: Cycle, rounds_played: int) -> int:
    """Rounds a bot completed without going out (all of them while it is still in)."""
    return rounds_played if cycle.out_round is None else cycle.out_round - 1


def pair_points(mine: int, theirs: int) -> int:
    """The contest's points for one pair: 3 for surviving longer, 1 each for the same round, else 0."""
    return 3 if mine > theirs else 1 if mine == theirs else 0


def game_points(state: State) -> list[int]:
    """Each bot's points in a finished game: the sum over its opponents of :func:`pair_points`."""
    survived = [rounds_survived(c, state.round) for c in state.cycles]
    return [
        sum(pair_points(mine, other) for j, other in enumerate(survived) if j != i) for i, mine in enumerate(survived)
    ]
