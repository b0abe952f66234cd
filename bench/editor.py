"""Board editor responsiveness on big boards (headless EGL window, no display needed).

For each board size it times, as the user feels them, the whole frame after:
a zoom step (Ctrl+wheel), a pan step, a paint stroke step, a flood fill of 10,000
tiles and its undo (command + redraw), plus how long the background validation takes
and whether the process ever used more than one core for it (CPU time / wall time).
Run from the repo root:

    python3 bench/editor.py [--boards 100,256] [--repeat 5] [--whole 12,512]

``--whole`` adds a second table: actions over a whole open board (robot boards and Tron
arenas): filling it, undo and redo of that fill, one frame of dragging a rectangle over all of
it, that rectangle's release, a resize by one row and column, a rotation, and a paint step.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyglet

pyglet.options["headless"] = True

from editor.commands import SetTiles  # noqa: E402
from editor.controller import EditorController  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.window import EditorWindow  # noqa: E402
from engine.model import Board, Tile  # noqa: E402

MIX = " " * 30 + "bcdefHOLR<>^vCDEFMN"


def mixed_board(size: int, seed: int = 1) -> Board:
    """A busy board with a fenced 100x100 (10,000 tile) block of plain floor in the top-left for the fill."""
    rng = random.Random(seed)
    rows = [[rng.choice(MIX) for _ in range(size)] for _ in range(size)]
    for y in range(min(size, 101)):
        for x in range(min(size, 101)):
            rows[y][x] = " " if x < 100 and y < 100 else "H"  # a fenced block: the fill covers 10,000 tiles
    rows[size - 1][size - 2] = "T"
    rows[size - 1][size - 1] = "Z"
    return Board.from_strings(["".join(r) for r in rows])


def frame_ms(window: EditorWindow, action: Callable[[], None], repeat: int) -> float:
    """The median of ``repeat`` frames: the action plus a full redraw, finished by the GL driver.

    CPU time of the process (Python, GL calls and Mesa's llvmpipe threads, which render in
    this process) with the background validation held, so that other programs on a shared
    machine and the validation do not count; ``wall`` figures are printed too."""
    times = []
    walls = []
    for _ in range(repeat):
        cpu, wall = time.process_time(), time.perf_counter()
        action()
        window.on_draw()
        pyglet.gl.glFinish()
        times.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    WALLS.append(sorted(walls)[len(walls) // 2] * 1000)
    return sorted(times)[len(times) // 2] * 1000


WALLS: list[float] = []


def bench(size: int, repeat: int) -> dict[str, float]:
    state = Path(tempfile.mkdtemp(prefix="robots-edit-bench-"))
    ctl = EditorController(Document(mixed_board(size)), size=(1280, 800), autosave_folder=state)
    window = EditorWindow(ctl, visible=False)
    window.switch_to()
    window.on_draw()
    ctl.finish_validation(timeout=600)
    background = ctl._background
    assert background is not None
    background.pause()
    cx, cy = 640.0, 380.0
    zoom_in = [True]

    def zoom() -> None:
        ctl.scroll(cx, cy, 1 if zoom_in[0] else -1, ctrl=True)
        zoom_in[0] = not zoom_in[0]

    def pan() -> None:
        ctl.scroll(cx, cy, -1)

    ctl.key_press("HOME")
    window.on_draw()
    figures = {"idle": frame_ms(window, lambda: None, repeat)}
    figures["zoom"] = frame_ms(window, zoom, repeat)
    figures["pan"] = frame_ms(window, pan, repeat)
    ctl.key_press("HOME")
    window.on_draw()
    left, top, tile, _ = ctl.mapping.tile_rect(2, size - 3)
    ctl.mouse_press(left + 1, top + 1, "left")
    step = [0]

    def paint() -> None:
        step[0] += 1
        ctl.mouse_drag(left + 1 + step[0] * tile, top + 1, tile, 0, "left")

    figures["paint"] = frame_ms(window, paint, repeat)
    ctl.mouse_release(left + 1, top + 1, "left")
    ctl.key_press("F")
    fx, fy = ctl.mapping.tile_rect(5, 5)[:2]
    filled = [0]

    def fill() -> None:
        ctl.mouse_press(fx + 1, fy + 1, "left")
        ctl.mouse_release(fx + 1, fy + 1, "left")
        filled[0] = sum(1 for y in range(100) for x in range(100) if ctl.document.board.tile(x, y).char == ">")

    figures["fill"] = frame_ms(window, fill, 1)
    figures["filled"] = filled[0]
    figures["undo"] = frame_ms(window, lambda: ctl.key_press("Z", ctrl=True), 1)
    # Validation after an edit: wall and CPU time of the background search (never > one core).
    background.pause(False)
    ctl.finish_validation(timeout=600)
    ctl.document.push(SetTiles({(size - 3, size - 1): Tile.from_char("H")}))
    cpu0, wall0 = time.process_time(), time.perf_counter()
    ctl.finish_validation(timeout=600)
    figures["validate_s"] = time.perf_counter() - wall0
    figures["cores"] = (time.process_time() - cpu0) / max(1e-9, figures["validate_s"])
    ctl.close()
    window.close()
    shutil.rmtree(state, ignore_errors=True)
    return figures


def whole_board(size: int, tron: bool) -> dict[str, float]:
    """CPU ms (action + redraw) of whole-board actions on an open ``size`` x ``size`` board."""
    from editor.commands import Resize, blank_board
    from editor.games import game_named

    state = Path(tempfile.mkdtemp(prefix="robots-edit-bench-"))
    board = game_named("tron").blank(size, size) if tron else blank_board(size, size)
    ctl = EditorController(Document(board), size=(1280, 800), autosave_folder=state)
    window = EditorWindow(ctl, visible=False)
    window.switch_to()
    window.on_draw()
    background = ctl._background
    assert background is not None
    background.pause()  # the validation thread's work is not the action's (see bench())
    ctl.key_press("HOME")
    window.on_draw()
    x0, y0 = ctl.mapping.tile_rect(0, 0)[:2]
    x1, y1 = ctl.mapping.tile_rect(size - 1, size - 1)[:2]
    figures = {}
    ctl.key_press("F")
    ctl.pick_brush("#" if tron else ">")
    figures["fill"] = frame_ms(
        window, lambda: (ctl.mouse_press(x0 + 2, y0 + 2, "left"), ctl.mouse_release(x0 + 2, y0 + 2, "left")), 1
    )
    figures["undo"] = frame_ms(window, lambda: ctl.key_press("Z", ctrl=True), 1)
    figures["redo"] = frame_ms(window, lambda: ctl.key_press("Y", ctrl=True), 1)
    ctl.key_press("Q")
    ctl.pick_brush("." if tron else "H")
    ctl.mouse_press(x0 + 1, y0 + 1, "left")
    wiggle = [0]

    def drag() -> None:
        wiggle[0] ^= 1
        ctl.mouse_drag(x1 + 1 - 2 * wiggle[0], y1 + 1, 1, 0, "left")

    figures["rect drag"] = frame_ms(window, drag, 3)
    figures["rect"] = frame_ms(window, lambda: ctl.mouse_release(x1 + 1, y1 + 1, "left"), 1)
    figures["resize"] = frame_ms(window, lambda: ctl.document.push(Resize(size - 1, size - 1, "center")), 1)
    ctl.key_press("Z", ctrl=True)
    figures["rotate"] = frame_ms(window, lambda: ctl.key_press("R", ctrl=True), 1)
    ctl.key_press("HOME")
    window.on_draw()
    ctl.key_press("B")
    left, top, tile, _ = ctl.mapping.tile_rect(2, 2)
    ctl.mouse_press(left + 1, top + 1, "left")
    step = [0]

    def paint() -> None:
        step[0] += 1
        ctl.mouse_drag(left + 1 + step[0] * tile, top + 1, tile, 0, "left")

    figures["paint"] = frame_ms(window, paint, 5)
    ctl.mouse_release(left + 1, top + 1, "left")
    ctl.close()
    window.close()
    shutil.rmtree(state, ignore_errors=True)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="100,256")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--whole", default="", help="sizes for the whole-board table, e.g. 12,512")
    args = parser.parse_args()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print("frame = the action + a full redraw; CPU ms of the process (wall ms in brackets)")
    print(f"{'board':<9}{'idle':>13}{'zoom':>13}{'pan':>13}{'paint':>13}{'fill':>13}{'(tiles)':>9}{'undo':>13}"
          f"{'validate s':>12}{'cores':>7}")  # fmt: skip
    for size in (int(v) for v in args.boards.split(",") if v):
        WALLS.clear()
        f = bench(size, args.repeat)
        cells = [
            f"{f[k]:>6.1f} ({w:>4.0f})"
            for k, w in zip(("idle", "zoom", "pan", "paint", "fill", "undo"), WALLS, strict=True)
        ]
        print(f"{size}x{size:<5}" + "".join(c.rjust(13) for c in cells[:5]) + f"{f['filled']:>9.0f}" + cells[5].rjust(13)
              + f"{f['validate_s']:>12.2f}{f['cores']:>7.2f}")  # fmt: skip
    if args.whole:
        names = ("fill", "undo", "redo", "rect drag", "rect", "resize", "rotate", "paint")
        print("whole open board: CPU ms of the action + redraw (fill/rect: every tile; rect drag: one frame)")
        print(f"{'board':<16}" + "".join(f"{n:>11}" for n in names))
        for size in (int(v) for v in args.whole.split(",") if v):
            for tron in (False, True):
                f = whole_board(size, tron)
                label = f"{size}x{size} {'tron' if tron else 'robots'}"
                print(f"{label:<16}" + "".join(f"{f[n]:>11.1f}" for n in names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
