"""Whole-arena edits of a Tron arena in the editor's document, without a window: resize by one row
and column, the four transforms and point symmetry on a busy arena (a third of its fields blocked,
eight starts), each pushed onto the document's undo stack and undone again (undo restores the
board the step replaced, so it costs nothing), and the arena checks the panel shows after every
edit (``engine.tron.status`` through the game's validation, on an open arena without start lines and
on the busy one).
Prints CPU ms per edit, the median of ``--repeat``.
Run from the repo root:

    python3 bench/tron_arena_edits.py [--sizes 200,512] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from editor.commands import Command, GameEdit, Resize, TransformBoard  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.games import TRON, game_named  # noqa: E402
from editor.games.base import Grid, Transform  # noqa: E402
from editor.games.tron.game import SYMMETRIC  # noqa: E402
from editor.games.tron.grid import BLOCKED_CELL, put_cells, start_cell  # noqa: E402
from engine.tron.arena import Heading  # noqa: E402


def busy_arena(size: int, seed: int = 1) -> Grid:
    rng = random.Random(seed)
    grid = game_named(TRON).blank(size, size)
    blocked = {(rng.randrange(size), rng.randrange(size)): BLOCKED_CELL for _ in range(size * size // 3)}
    starts = {(rng.randrange(size), rng.randrange(size)): start_cell(bot, Heading.EAST) for bot in range(1, 9)}
    grid = put_cells(grid, blocked)[0]  # type: ignore[arg-type]
    return put_cells(grid, starts)[0]


def edits(size: int) -> dict[str, Command]:
    return {
        "resize": Resize(size - 1, size - 1, "center"),
        "rotate": TransformBoard(Transform.ROTATE_CW),
        "rotate back": TransformBoard(Transform.ROTATE_CCW),
        "mirror": TransformBoard(Transform.MIRROR_H),
        "flip": TransformBoard(Transform.MIRROR_V),
        "symmetric": GameEdit(SYMMETRIC),
    }


def cpu_ms(document: Document, command: Command, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        document.push(command)
        times.append((time.process_time() - start) * 1000)
        document.undo()
    return statistics.median(times)


def checks_ms(grid: Grid, repeat: int) -> float:
    game = game_named(TRON)
    times = []
    for _ in range(repeat):
        start = time.process_time()
        game.validation(grid)  # the Tron checks run when the validation is made
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200,512")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    names = [*edits(1), "checks, open", "checks, busy"]
    print("| arena | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for size in sizes:
        document = Document(busy_arena(size))
        row = [f"{cpu_ms(document, command, args.repeat):.1f}" for command in edits(size).values()]
        open_arena = game_named(TRON).blank(size, size)  # no start lines: the two default starts
        row += [f"{checks_ms(open_arena, args.repeat):.1f}", f"{checks_ms(document.board, args.repeat):.1f}"]
        print(f"| {size}x{size} | " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
