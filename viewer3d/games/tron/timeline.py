"""What a Tron game looks like at any moment: plain numbers from the rules engine's replay, no GL.

Time is measured in rounds: at ``t = r + u`` round ``r + 1`` is ``u`` of the way through.  Positions
are 0-based cells (field (1, 1) of the contest is cell (0, 0), drawn centred at world (0.5, 0.5)), as
every game's actors (``viewer3d.games.base``).  Each cycle's trail is a chain of segments between
the fields it drove through; the newest segment grows with the cycle and every segment rises from
the floor as it appears, so the walls seem to grow out of the cycle's tail.  A crash is a flash where the cycle hit.
"""

from __future__ import annotations

import bisect
import colorsys
import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tron.record import GameRecord, out_reason
from engine.tron.rules import Event, Out, OutReason, State, initial_state, rounds_survived
from engine.wording import counted

#: Bot colours (cyan, orange, magenta, green, yellow, blue, red, white), as light colours.
COLOURS = (
    (0.1, 0.85, 1.0),
    (1.0, 0.55, 0.1),
    (1.0, 0.2, 0.8),
    (0.3, 1.0, 0.35),
    (1.0, 0.95, 0.2),
    (0.35, 0.45, 1.0),
    (1.0, 0.2, 0.2),
    (0.9, 0.9, 0.95),
)


def bot_colour(bot: int) -> tuple[float, float, float]:
    """Bot ``bot``'s (0-based) light colour: the eight above, then bright hues a golden angle apart.

    Arenas may have up to 32 starts; with the eight colours in turn bot 9 was bot 1's cyan."""
    if bot < len(COLOURS):
        return COLOURS[bot]
    hue = ((bot - len(COLOURS)) * 0.381966 + 0.525) % 1.0
    red, green, blue = colorsys.hsv_to_rgb(hue, 1.0 if bot % 2 else 0.5, 1.0 if bot % 3 else 0.8)
    return (round(red, 3), round(green, 3), round(blue, 3))


WALL_HEIGHT = 0.55
RISE_ROUNDS = 0.8  # how long a new stretch of wall takes to reach full height
CRASH_ROUNDS = 1.2  # how long a crash flash lasts


@dataclass(frozen=True)
class Segment:
    """A stretch of light wall from (x0, z0) to (x1, z1) in world units (field centres), of ``height``."""

    bot: int
    x0: float
    z0: float
    x1: float
    z1: float
    height: float


@dataclass(frozen=True)
class CycleView:
    bot: int
    x: float
    z: float
    yaw: float  # radians, 0 = facing +x (east), growing towards +z (south)
    alive: bool


@dataclass(frozen=True)
class Flash:
    x: float
    z: float
    phase: float  # 0..1 over CRASH_ROUNDS
    bot: int


@dataclass(frozen=True)
class WallRuns:
    """A bot's settled light wall (full height, no longer changing) as straight runs: run ``i`` goes
    from ``path[starts[i]]`` to ``path[starts[i + 1]]``, for ``i < count``.  ``path`` and ``starts``
    are the timeline's own lists (they only grow), so a moment costs nothing per round driven and
    the renderer uploads each run once (``TronRenderer``)."""

    bot: int
    path: Sequence[tuple[float, float]]
    starts: Sequence[int]
    count: int

    def run(self, i: int) -> tuple[float, float, float, float]:
        (x0, z0), (x1, z1) = self.path[self.starts[i]], self.path[self.starts[i + 1]]
        return x0, z0, x1, z1


@dataclass(frozen=True)
class Moment:
    fresh: list[Segment]  # what is not in ``walls``: rising walls, the part of a run still growing
    cycles: list[CycleView]
    flashes: list[Flash]
    round: int  # the round being played (1-based), or the last one when the game is over
    hud: list[str]
    walls: tuple[WallRuns, ...] = ()

    @property
    def segments(self) -> list[Segment]:
        """Every stretch of light wall: the settled runs (built here: as long as the game so far)
        and the fresh ones."""
        runs = [Segment(w.bot, *w.run(i), WALL_HEIGHT) for w in self.walls for i in range(w.count)]
        return runs + self.fresh


_YAW = {"EAST": 0.0, "SOUTH": math.pi / 2, "WEST": math.pi, "NORTH": -math.pi / 2}


def _lerp_angle(a: float, b: float, u: float) -> float:
    delta = (b - a + math.pi) % (2 * math.pi) - math.pi
    return a + delta * u


class Timeline:
    """A replayed game, ready to be sampled at any time ``0 <= t <= duration``.

    A game being played (``viewer3d.games.tron.live``) is built round by round: ``start`` with
    no rounds, ``add_round`` for each round the server decides (from its thread), ``finish`` at
    the end.  Each round's data is in place before ``duration`` grows, so a reader on another
    thread never samples a round that is not there yet.
    """

    def __init__(self, record: GameRecord) -> None:
        self.start(record, record.initial())
        for state, happened in record.rounds_replayed():  # one state at a time: a long game is big
            self.add_round(state, happened)
        self.finish(record)

    @classmethod
    def live(cls, record: GameRecord) -> Timeline:
        """The timeline of a game about to be played: ``record`` names the arena and bots (no rounds)."""
        timeline = cls.__new__(cls)
        timeline.start(record, initial_state(record.arena, record.arena.starts_for(len(record.bots))))
        return timeline

    def start(self, record: GameRecord, first: State) -> None:
        self.record = record
        self.width, self.height = record.arena.width, record.arena.height
        self.bots = len(record.bots)
        self.names = [b.name for b in record.bots]
        self.duration = 0.0
        self.complete = False
        # per bot: field centres per round while it is in (index k = after k rounds), headings, where it crashed
        self.paths: list[list[tuple[float, float]]] = [[] for _ in range(self.bots)]
        self.yaws: list[list[float]] = [[] for _ in range(self.bots)]
        # per bot: the index of the path step where each straight run of its trail begins
        self.run_starts: list[list[int]] = [[] for _ in range(self.bots)]
        self._heading: list[tuple[float, float] | None] = [None] * self.bots
        self.crash: list[tuple[int, float, float] | None] = [None] * self.bots
        # per bot that drove onto the same field as another: that field (0-based cell), blocked from then on
        self.claimed: list[tuple[float, float] | None] = [None] * self.bots
        self.survived = [0] * self.bots
        self.points: list[int] = []
        self.reasons = ["still in"] * self.bots
        self._extend(first)

    def _extend(self, state: State) -> None:
        """Each bot still in stands on a field of ``state`` (one never comes back once out)."""
        for bot, cycle in enumerate(state.cycles):
            if cycle.alive:
                path = self.paths[bot]
                path.append((cycle.x - 1.0, cycle.y - 1.0))  # 0-based cells, as every game's actors
                self.yaws[bot].append(_YAW[cycle.heading.name])
                if len(path) >= 2:
                    (x0, z0), (x1, z1) = path[-2], path[-1]
                    heading = (x1 - x0, z1 - z0)
                    if heading != self._heading[bot]:  # a turn: a new straight run
                        self.run_starts[bot].append(len(path) - 2)
                        self._heading[bot] = heading
            self.survived[bot] = rounds_survived(cycle, state.round)

    def add_round(self, state: State, happened: Sequence[Event]) -> None:
        """Round ``state.round`` was played: ``state`` is the state after it, ``happened`` its events."""
        round_no = state.round
        self._extend(state)
        for event in happened:
            if isinstance(event, Out):
                x, z = self.paths[event.bot - 1][round_no - 1]
                if event.at is not None:
                    ax, az = event.at[0] - 1.0, event.at[1] - 1.0
                    x, z = (x + ax) / 2, (z + az) / 2  # the flash sits where the cycle met the obstacle
                self.crash[event.bot - 1] = (round_no, x, z)
                if event.reason is OutReason.COLLISION and event.at is not None:
                    self.claimed[event.bot - 1] = (event.at[0] - 1.0, event.at[1] - 1.0)
                self.reasons[event.bot - 1] = f"round {round_no}: {out_reason(event)}"
        self.duration = float(round_no)  # last: the round is complete before anyone samples it

    def finish(self, record: GameRecord) -> None:
        """The game is over: ``record`` is all of it (its points are the result)."""
        self.record = record
        self.points = record.points()
        self.complete = True

    def at(self, t: float) -> Moment:
        t = max(0.0, min(self.duration, t))
        r = min(int(t), max(0, int(self.duration) - 1)) if self.duration else 0
        u = t - r
        segments: list[Segment] = []
        cycles: list[CycleView] = []
        flashes: list[Flash] = []
        walls: list[WallRuns] = []
        for bot in range(self.bots):
            path, yaws, crash = self.paths[bot], self.yaws[bot], self.crash[bot]
            out_round = crash[0] if crash else None
            moves = len(path) - 1  # rounds it drove
            done = min(r, moves)
            # steps k < settled have risen to full height: whole runs go to ``walls``, the rest of
            # the run they end in is one segment; only the last round or so rises step by step
            settled = min(done, max(0, math.floor(t - RISE_ROUNDS) + 1))
            starts = self.run_starts[bot]
            count = max(0, bisect.bisect_right(starts, settled, 0, min(len(starts), settled + 1)) - 1)
            walls.append(WallRuns(bot, path, starts, count))
            if count < len(starts) and starts[count] < settled:
                segments.append(Segment(bot, *path[starts[count]], *path[settled], WALL_HEIGHT))
            for k in range(settled, done):
                rise = min(1.0, (t - k) / RISE_ROUNDS)
                (x0, z0), (x1, z1) = path[k], path[k + 1]
                segments.append(Segment(bot, x0, z0, x1, z1, WALL_HEIGHT * max(0.15, rise)))
            alive = out_round is None or t < out_round - 0.5
            if r < moves:  # driving through round r + 1
                (x0, z0), (x1, z1) = path[r], path[r + 1]
                x, z = x0 + (x1 - x0) * u, z0 + (z1 - z0) * u
                yaw = _lerp_angle(yaws[r], yaws[r + 1], min(1.0, u * 3))
                segments.append(Segment(bot, x0, z0, x, z, WALL_HEIGHT * max(0.15, min(1.0, u / RISE_ROUNDS))))
            else:
                x, z = path[moves]
                yaw = yaws[moves]
                if crash is not None and out_round is not None and r + 1 >= out_round:
                    # the last round: drive towards the obstacle, then burst
                    cx, cz = crash[1], crash[2]
                    reach = min(1.0, (t - (out_round - 1)) * 2) if t >= out_round - 1 else 0.0
                    x, z = x + (cx - x) * reach, z + (cz - z) * reach
            if not alive:
                # What the crash left blocked: the field both drove onto (it stood empty, and a third
                # bot crashed into nothing), and the start field of a bot that never moved (not drawn).
                claimed = self.claimed[bot]
                if claimed is not None:
                    segments.append(Segment(bot, *path[moves], *claimed, WALL_HEIGHT))
                elif moves == 0:
                    (sx, sz), dx, dz = path[0], 0.25 * math.cos(yaws[0]), 0.25 * math.sin(yaws[0])
                    segments.append(Segment(bot, sx - dx, sz - dz, sx + dx, sz + dz, WALL_HEIGHT))
            if crash is not None and out_round is not None:
                phase = (t - (out_round - 0.5)) / CRASH_ROUNDS
                if 0.0 <= phase <= 1.0:
                    flashes.append(Flash(crash[1], crash[2], phase, bot))
            cycles.append(CycleView(bot, x, z, yaw, alive))
        round_no = min(r + 1, int(self.duration)) if self.duration else 0
        return Moment(segments, cycles, flashes, round_no, self.hud(t, round_no), tuple(walls))

    def hud(self, t: float, round_no: int) -> list[str]:
        lines = [f"Tron  {self.width}x{self.height}  round {round_no} / {int(self.duration)}"]
        for bot in range(self.bots):
            crash = self.crash[bot]
            if crash is not None and t >= crash[0] - 0.5:
                state = f"out after {counted(self.survived[bot], 'round')} - {self.reasons[bot].split(': ', 1)[-1]}"
            else:
                state = "driving"
            lines.append(f"{bot + 1} {self.names[bot]}: {state}")
        if self.complete and t >= self.duration:
            lines.append("points: " + ", ".join(f"{self.names[b]} {self.points[b]}" for b in range(self.bots)))
        return lines
