"""Editor speed figures: ``python -m editor.bench``. Prints timings; no pass/fail.

Measures the validation pose search, one paint step (command + undo bookkeeping) and
headless frame drawing (a frame after an edit rebuilds the board batch; an idle frame
only redraws the cached batches) for growing board sizes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pyglet

pyglet.options["headless"] = True

from editor.commands import SetTiles  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.validate import validate  # noqa: E402
from engine.boardfile import load_board  # noqa: E402
from engine.model import Board, Tile  # noqa: E402

MIX = " " * 20 + "bcdefHOLR<>^vCDEFMN"
TOGGLE = (Tile.from_char("H"), Tile.from_char("O"))


def random_board(width: int, height: int, seed: int = 1) -> Board:
    rng = random.Random(seed)
    rows = [[rng.choice(MIX) for _ in range(width)] for _ in range(height)]
    rows[0][0] = "T"
    rows[height - 1][width - 1] = "Z"
    return Board.from_strings(["".join(r) for r in rows])


def timed(function: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    from editor.controller import EditorController
    from editor.window import EditorWindow

    boards = {
        "chop 12x12": load_board("gameboards/chop.dat"),
        **{f"random {n}x{n}": random_board(n, n) for n in (20, 40, 80)},
    }
    print(f"{'board':<16}{'validate ms':>13}{'paint step ms':>15}{'edit frame ms':>15}{'idle frame ms':>15}")
    for name, board in boards.items():
        # validation: a fresh copy each time so the per-board cache does not help
        def validate_fresh(b: Board = board) -> object:
            return validate(Board(b.rows))

        v = timed(validate_fresh, repeat=1)
        document = Document(board)

        def paint_step(document: Document = document) -> None:
            document.push(SetTiles({(1, 1): TOGGLE[len(document.history) % 2]}))

        p = timed(paint_step, repeat=20)
        controller = EditorController(Document(board), size=(1280, 800))
        window = EditorWindow(controller, visible=False)
        window.switch_to()
        window.on_draw()

        def edit_frame(c: EditorController = controller, w: EditorWindow = window) -> None:
            c.document.push(SetTiles({(1, 1): TOGGLE[len(c.document.history) % 2]}))
            w.on_draw()
            pyglet.gl.glFinish()

        def idle_frame(w: EditorWindow = window) -> None:
            w.on_draw()
            pyglet.gl.glFinish()

        e = timed(edit_frame, repeat=5)
        i = timed(idle_frame, repeat=10)
        window.close()
        print(f"{name:<16}{v * 1000:>13.1f}{p * 1000:>15.2f}{e * 1000:>15.1f}{i * 1000:>15.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
