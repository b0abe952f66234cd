"""Is an arena playable, and how much room does each bot get? The arena checks every front end shows.

Errors keep a game from starting (a start on a blocked field, too few starts for a game of two
without start lines); warnings are legal but probably unintended (a bot walled in, bots that can
never meet); the reachable space per bot is always reported, since it decides most games. Every
problem names the fields it concerns (1-based, as in the arena file), so an editor can mark them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.tron.arena import Arena, Start

ERROR, WARNING, INFO = "error", "warning", "info"
Field = tuple[int, int]


@dataclass(frozen=True)
class ArenaProblem:
    """One finding: ``severity`` is ``error``, ``warning`` or ``info``; ``fields`` are 1-based."""

    severity: str
    message: str
    fields: tuple[Field, ...] = ()


class Regions:
    """The connected pieces of an arena's free fields with the cycles' start fields taken out (a
    cycle never drives onto a head), labelled once for every bot: what a cycle on a start can reach
    is the pieces next to it. Runs of free fields per row are joined where they touch the next
    row's (numpy finds the runs and the touching pairs; Python joins at most one pair per touch),
    so a 512x512 arena costs milliseconds, not a flood fill of 262,144 fields per bot in Python."""

    def __init__(self, arena: Arena, heads: set[Field]) -> None:
        self.width, self.height = arena.width, arena.height
        free = np.frombuffer(arena.blocked, dtype=np.uint8).reshape(arena.height, arena.width) == 0
        for x, y in heads:
            if arena.inside(x, y):
                free[y - 1, x - 1] = False
        begins = free.copy()
        begins[:, 1:] &= ~free[:, :-1]  # a run begins at a free field whose left neighbour is not
        run = np.cumsum(begins).reshape(free.shape) - 1  # the run of each free field
        count = int(begins.sum())
        touching = free[:-1] & free[1:]
        keys = np.unique(run[:-1][touching] * max(count, 1) + run[1:][touching])  # each touching pair once
        pairs = np.stack(np.divmod(keys, max(count, 1)), axis=1)
        parent = list(range(count))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for a, b in pairs.tolist():
            ra, rb = root(a), root(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
        piece_of_run = np.array([root(i) for i in range(count)], dtype=np.int64)
        self._piece = np.full(free.shape, -1, dtype=np.int64)  # -1: blocked or a head
        self._piece[free] = piece_of_run[run[free]]
        self._sizes = np.bincount(self._piece[free], minlength=count)

    def pieces(self, x: int, y: int) -> frozenset[int]:
        """The pieces a cycle on the 1-based field x,y can drive into."""
        return frozenset(
            int(self._piece[ny - 1, nx - 1])
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
            if 1 <= nx <= self.width and 1 <= ny <= self.height and self._piece[ny - 1, nx - 1] >= 0
        )

    def size(self, pieces: frozenset[int]) -> int:
        """How many fields the pieces hold together."""
        return int(sum(int(self._sizes[p]) for p in pieces))


def _game_starts(arena: Arena) -> tuple[tuple[Start, ...], list[ArenaProblem]]:
    """The starts a default game uses, or the error that keeps it from starting."""
    blocked = [
        ArenaProblem(ERROR, f"bot {bot} starts on the blocked field {s.x},{s.y}", ((s.x, s.y),))
        for bot, s in enumerate(arena.starts, 1)
        if arena.is_blocked(s.x, s.y)
    ]
    if blocked:
        return (), blocked
    try:
        return arena.starts_for(arena.default_bots), []
    except ValueError as exc:
        return (), [ArenaProblem(ERROR, f"cannot start a game of two: {exc}")]


def arena_problems(arena: Arena) -> list[ArenaProblem]:
    """Every finding about ``arena``, errors first."""
    starts, errors = _game_starts(arena)
    if errors:
        return errors
    problems: list[ArenaProblem] = []
    if arena.default_bots == 1:
        first = arena.starts[0]
        problems.append(
            ArenaProblem(
                WARNING, "one start line: only a one-bot (space-filling) game can be played", ((first.x, first.y),)
            )
        )
    if not arena.starts:
        fields = tuple((s.x, s.y) for s in starts)
        problems.append(ArenaProblem(INFO, "no start lines: two bots start on the contest's default fields", fields))
    labels = Regions(arena, {(s.x, s.y) for s in starts})
    regions = []
    for bot, start in enumerate(starts, 1):
        region = labels.pieces(start.x, start.y)
        regions.append(region)
        where = ((start.x, start.y),)
        if not region:
            problems.append(ArenaProblem(WARNING, f"bot {bot} is walled in: it is out in round 1", where))
        reached = labels.size(region)
        problems.append(
            ArenaProblem(INFO, f"bot {bot} at {start.x},{start.y} {start.heading.name}: {reached} fields reachable")
        )
    for a in range(len(regions)):
        for b in range(a + 1, len(regions)):
            if regions[a] and regions[b] and not (regions[a] & regions[b]):
                fields = ((starts[a].x, starts[a].y), (starts[b].x, starts[b].y))
                problems.append(
                    ArenaProblem(WARNING, f"bots {a + 1} and {b + 1} can never meet (separate regions)", fields)
                )
    order = {ERROR: 0, WARNING: 1, INFO: 2}
    return sorted(problems, key=lambda p: order[p.severity])
