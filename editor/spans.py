"""An area of the board as runs of tiles per row, for edits that cover many tiles at once.

A flood fill or a rectangle on a 512x512 board covers up to 262,144 tiles. As a set of
positions that is 262,144 tuples, built, hashed, checked and copied one by one in Python (about
a second of CPU for one fill). As runs it is one ``(start, stop)`` pair per row and stretch of
equal tiles: 512 pairs for the whole board, and the game writes each run as one tuple slice.
No GL, no game rules here.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, groupby
from operator import attrgetter
from typing import TypeVar

from editor.games.base import Cell, Grid

Position = tuple[int, int]
Run = tuple[int, int]  # x from ``start`` up to, not including, ``stop``
Box = tuple[int, int, int, int]  # x0, y0, x1, y1, all included

_char = attrgetter("char")
T = TypeVar("T")


@dataclass(frozen=True)
class Spans:
    """Rows of runs: ``rows[y]`` are the sorted, disjoint runs ``(x0, x1)`` (x1 excluded) of row y."""

    rows: Mapping[int, tuple[Run, ...]]

    @classmethod
    def rect(cls, x0: int, y0: int, x1: int, y1: int) -> Spans:
        """The rectangle between two corners (both included, any order)."""
        left, right = min(x0, x1), max(x0, x1)
        run = ((left, right + 1),)
        return cls({y: run for y in range(min(y0, y1), max(y0, y1) + 1)})

    def clipped(self, width: int, height: int) -> Spans:
        """Only the part inside a ``width`` x ``height`` board."""
        rows: dict[int, tuple[Run, ...]] = {}
        for y, runs in self.rows.items():
            if 0 <= y < height:
                kept = tuple((max(a, 0), min(b, width)) for a, b in runs if b > 0 and a < width)
                if kept:
                    rows[y] = kept
        return Spans(rows)

    def __len__(self) -> int:
        """How many tiles."""
        return sum(b - a for runs in self.rows.values() for a, b in runs)

    def __bool__(self) -> bool:
        return bool(self.rows)

    def __iter__(self) -> Iterator[Position]:
        for y, runs in self.rows.items():
            for a, b in runs:
                for x in range(a, b):
                    yield x, y

    def positions(self) -> set[Position]:
        return set(self)

    @property
    def box(self) -> Box | None:
        """The bounding box (x0, y0, x1, y1, all included), None when empty."""
        if not self.rows:
            return None
        ys = self.rows.keys()
        x0 = min(runs[0][0] for runs in self.rows.values())
        x1 = max(runs[-1][1] for runs in self.rows.values()) - 1
        return x0, min(ys), x1, max(ys)


def fill_row(row: Sequence[T], runs: tuple[Run, ...], cell: T) -> tuple[T, ...]:
    """``row`` with the cells of ``runs`` (sorted, disjoint) set to ``cell``: each old stretch and
    each run is copied once, by C (``chain``), whatever the number of runs."""
    pieces: list[Sequence[T]] = []
    done = 0
    for a, b in runs:
        pieces.append(row[done:a])
        pieces.append((cell,) * (b - a))
        done = b
    pieces.append(row[done:])
    return tuple(chain.from_iterable(pieces))


def row_runs(row: Sequence[Cell]) -> tuple[list[int], list[int], list[str]]:
    """A row as runs of equal chars: their starts, stops and chars (the grouping runs in C)."""
    starts: list[int] = []
    stops: list[int] = []
    chars: list[str] = []
    x = 0
    for char, group in groupby(map(_char, row)):
        n = len(list(group))
        starts.append(x)
        stops.append(x + n)
        chars.append(char)
        x += n
    return starts, stops, chars


def flood_spans(grid: Grid, start: Position) -> Spans:
    """The 4-connected area of tiles holding the same character as ``start``, as runs.

    A scanline fill over runs of equal tiles: each run is visited once, and the tiles of a run
    are never looked at one by one in Python, so filling an open 512x512 board visits 512 runs,
    not 262,144 tiles."""
    rows = grid.rows
    height = grid.height
    cache: dict[int, tuple[list[int], list[int], list[str]]] = {}

    def runs(y: int) -> tuple[list[int], list[int], list[str]]:
        found = cache.get(y)
        if found is None:
            found = cache[y] = row_runs(rows[y])
        return found

    x0, y0 = start
    starts, _, chars = runs(y0)
    first = bisect_right(starts, x0) - 1
    char = chars[first]
    seen = {(y0, first)}
    stack = [(y0, first)]
    while stack:
        y, i = stack.pop()
        a, b = runs(y)[0][i], runs(y)[1][i]
        for ny in (y - 1, y + 1):
            if not 0 <= ny < height:
                continue
            n_starts, n_stops, n_chars = runs(ny)
            j = bisect_right(n_starts, a) - 1
            while j < len(n_starts) and n_starts[j] < b:
                if n_chars[j] == char and n_stops[j] > a and (ny, j) not in seen:
                    seen.add((ny, j))
                    stack.append((ny, j))
                j += 1
    by_row: dict[int, list[Run]] = {}
    for y, i in seen:
        starts, stops, _ = cache[y]
        by_row.setdefault(y, []).append((starts[i], stops[i]))
    return Spans({y: tuple(sorted(r)) for y, r in sorted(by_row.items())})
