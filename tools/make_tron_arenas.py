"""Write the project's own Tron arenas into ``gameboards/tron/`` (deterministic: fixed seeds).

Every arena is point-symmetric (turned by 180 degrees it is itself) and its two start lines are each
other's image, so neither start position is favoured by the board; the tournament plays both anyway.
Run ``python3 tools/make_tron_arenas.py`` from the repository root; the committed files are what count.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.tron.arena import Arena, Heading, Start, write_arena  # noqa: E402

Grid = list[list[str]]
OUT = ROOT / "gameboards" / "tron"


def blank(w: int, h: int) -> Grid:
    return [["."] * w for _ in range(h)]


def symmetrize(grid: Grid) -> Grid:
    """Block every field whose 180-degree image is blocked."""
    h, w = len(grid), len(grid[0])
    for y in range(h):
        for x in range(w):
            if grid[h - 1 - y][w - 1 - x] == "#":
                grid[y][x] = "#"
    return grid


def starts(grid: Grid, x: int, y: int, heading: Heading, short: bool = False) -> tuple[Start, ...]:
    """Bot 1 at (x, y) (1-based) and bot 2 at its 180-degree image, facing the opposite way."""
    h, w = len(grid), len(grid[0])
    opposite = heading.left().left()
    for sx, sy in ((x, y), (w + 1 - x, h + 1 - y)):
        grid[sy - 1][sx - 1] = "."
    return (Start(x, y, heading, short), Start(w + 1 - x, h + 1 - y, opposite, short))


def arena(grid: Grid, start: tuple[Start, ...]) -> Arena:
    return Arena.from_rows(["".join(row) for row in grid], start)


def open_field(w: int, h: int, with_starts: bool = True) -> Arena:
    grid = blank(w, h)
    return arena(grid, starts(grid, w // 4 + 1, (h + 1) // 2, Heading.EAST) if with_starts else ())


def pillars(w: int, h: int, gap: int) -> Arena:
    grid = blank(w, h)
    for y in range(gap, h - 1, gap):
        for x in range(gap, w - 1, gap):
            grid[y][x] = "#"
    symmetrize(grid)
    return arena(grid, starts(grid, 2, 2, Heading.SOUTH))


def rings(size: int, spacing: int, seed: int) -> Arena:
    """Concentric square rings with doors, symmetric: a fight about which ring to hold."""
    rng = random.Random(seed)
    grid = blank(size, size)
    centre = size // 2
    for r in range(spacing, centre, spacing):
        lo, hi = centre - r, centre + r
        for i in range(lo, hi + 1):
            grid[lo][i] = grid[hi][i] = grid[i][lo] = grid[i][hi] = "#"
        for _ in range(2):  # two doors per ring and their images
            side, offset = rng.randrange(4), rng.randrange(1, 2 * r)
            x, y = [(lo + offset, lo), (hi, lo + offset), (lo + offset, hi), (lo, lo + offset)][side]
            grid[y][x] = "."
            grid[size - 1 - y][size - 1 - x] = "."
    return arena(grid, starts(grid, centre + 1 - spacing // 2, centre + 1, Heading.NORTH))


def maze(w: int, h: int, seed: int, braid: float) -> Arena:
    """A maze of 1-wide corridors (odd sizes), loops opened with probability ``braid``, made symmetric."""
    rng = random.Random(seed)
    grid = [["#"] * w for _ in range(h)]
    stack = [(1, 1)]
    grid[1][1] = "."
    while stack:
        x, y = stack[-1]
        options = [
            (dx, dy)
            for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2))
            if 0 < x + dx < w - 1 and 0 < y + dy < h - 1 and grid[y + dy][x + dx] == "#"
        ]
        if not options:
            stack.pop()
            continue
        dx, dy = rng.choice(options)
        grid[y + dy // 2][x + dx // 2] = grid[y + dy][x + dx] = "."
        stack.append((x + dx, y + dy))
    for y in range(1, h - 1):
        for x in range(1, w - 1):
            if grid[y][x] == "#" and (x + y) % 2 == 1 and rng.random() < braid:
                grid[y][x] = "."
    # make it point-symmetric by opening every field whose image is open (keeps it connected)
    for y in range(h):
        for x in range(w):
            if grid[h - 1 - y][w - 1 - x] == ".":
                grid[y][x] = "."
    return arena(grid, starts(grid, 2, 2, Heading.EAST))


def corridors(w: int, h: int) -> Arena:
    """Lanes of width 1 behind walls with one door each, at alternate ends: a race through corridors."""
    grid = blank(w, h)
    for y in range(1, h // 2, 2):
        grid[y] = ["#"] * w
        grid[y][1 if (y // 2) % 2 else w - 2] = "."
    for y in range(h // 2):  # the lower half is the upper half turned by 180 degrees
        for x in range(w):
            grid[h - 1 - y][w - 1 - x] = grid[y][x]
    return arena(grid, starts(grid, 1, 1, Heading.EAST))


def rooms(size: int, door: int) -> Arena:
    """Four rooms behind a cross of walls with narrow doors: who gets the bigger rooms?"""
    grid = blank(size, size)
    mid = size // 2
    for i in range(size):
        grid[mid][i] = grid[i][mid] = "#"
    for d in range(door):
        for pos in (size // 4 + d, size - 1 - size // 4 - d):
            grid[mid][pos] = grid[pos][mid] = "."
    symmetrize(grid)
    return arena(grid, starts(grid, size // 4, size // 4 - 2, Heading.EAST))


def spiral(size: int) -> Arena:
    """Two interleaved spiral arms: long corridors that wind to the centre."""
    grid = blank(size, size)
    x, y, dx, dy, length = 2, 2, 1, 0, size - 4
    while length > 2:
        for _ in range(2):
            for _ in range(length):
                grid[y][x] = "#"
                x, y = x + dx, y + dy
            dx, dy = -dy, dx
        length -= 4
    symmetrize(grid)
    return arena(grid, starts(grid, 1, size // 2, Heading.NORTH))


def diamond(size: int) -> Arena:
    grid = blank(size, size)
    c = size // 2
    for y in range(size):
        for x in range(size):
            if abs(x - c) + abs(y - c) in (c // 2, c // 2 + 1) and (x != c and y != c):
                grid[y][x] = "#"
    symmetrize(grid)
    return arena(grid, starts(grid, 2, c + 1, Heading.NORTH, short=True))


ARENAS: dict[str, Callable[[], Arena]] = {
    "open-10x10": lambda: open_field(10, 10),
    "default-starts-15x11": lambda: open_field(15, 11, with_starts=False),
    "pillars-30x30": lambda: pillars(30, 30, 4),
    "diamond-25x25": lambda: diamond(25),
    "maze-21x21": lambda: maze(21, 21, 7, 0.25),
    "corridors-50x21": lambda: corridors(50, 21),
    "rings-41x41": lambda: rings(41, 4, 3),
    "rooms-40x40": lambda: rooms(40, 2),
    "spiral-51x51": lambda: spiral(51),
    "maze-61x61": lambda: maze(61, 61, 11, 0.15),
    "open-100x60": lambda: open_field(100, 60),
    "rings-101x101": lambda: rings(101, 6, 5),
    "open-200x200": lambda: open_field(200, 200),
    "maze-199x199": lambda: maze(199, 199, 13, 0.3),
}


def main() -> int:
    # Arguments are parsed only so that --help answers (it rewrote every file) and a typo is refused.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in ARENAS.items():
        (OUT / f"{name}.txt").write_text(write_arena(make()), encoding="utf-8")
    print(f"wrote {len(ARENAS)} arenas to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
