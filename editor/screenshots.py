"""Render the documentation screenshots (``docs/img/editor-*.png``) headless, by driving the editor.

``python -m editor.screenshots [FOLDER]``. Every picture is made the way a user would
make it: events go into the controller, the real view draws, the frame is read back.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pyglet

pyglet.options["headless"] = True

from editor.controller import EditorController  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.layout import PALETTE_CHARS  # noqa: E402
from editor.tools import LEFT  # noqa: E402
from editor.window import EditorWindow  # noqa: E402
from engine.model import Board  # noqa: E402
from gameboards import board_path  # noqa: E402

SIZE = (1280, 800)
CHOP = board_path("chop.dat")

PROBLEM_BOARD = [
    "T  >>>>v   ",
    "       v   ",
    "  HHHHHHH  ",
    "  H     H  ",
    "  H  Z  H N",
    "  H  L  H  ",
    "  HHHHHHH  ",
    "<<<<   D   ",
]


def _centre(ctl: EditorController, x: int, y: int, dx: float = 0.5, dy: float = 0.5) -> tuple[float, float]:
    left, top, size, _ = ctl.mapping.tile_rect(x, y)
    return left + size * dx, top + size * dy


def _click(ctl: EditorController, px: float, py: float, button: str = LEFT) -> None:
    ctl.mouse_motion(px, py)
    ctl.mouse_press(px, py, button)
    ctl.mouse_release(px, py, button)


def _window(document: Document, state: Path, theme: str | None = None) -> EditorWindow:
    controller = EditorController(document, size=SIZE, theme=theme, autosave_folder=state)
    return EditorWindow(controller, visible=False)


def render_all(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp)
        work = state / "chop.dat"
        work.write_bytes(CHOP.read_bytes())

        # 1. The main view: chop.dat, the pointer over a conveyor.
        win = _window(Document.open(work), state)
        ctl = win.ctl
        ctl.mouse_motion(*_centre(ctl, 6, 3))
        written.append(folder / "editor-main.png")
        win.save_png(written[-1])

        # 2. Walls: the wall tool, a few walls drawn by dragging along edges, a refused wall.
        ctl.run("tool_walls")
        ctl.mouse_press(*_centre(ctl, 0, 11, 0.5, 0.03), LEFT)
        for x in range(3):
            ctl.mouse_drag(*_centre(ctl, x, 11, 0.5, 0.03), 0, 0, LEFT)
        ctl.mouse_release(*_centre(ctl, 2, 11, 0.5, 0.03), LEFT)
        _click(ctl, *_centre(ctl, 5, 3, 0.5, 0.04))  # a belt below a rotator: refused, with the reason
        ctl.mouse_motion(*_centre(ctl, 8, 2, 0.97, 0.5))
        written.append(folder / "editor-walls.png")
        win.save_png(written[-1])
        win.close()

        # 3. Validation: the goal inside a ring of holes is reachable on easy only (holes are floor there).
        win = _window(Document(Board.from_strings(PROBLEM_BOARD), state / "broken.dat"), state)
        win.ctl.mouse_motion(*_centre(win.ctl, 5, 4))
        written.append(folder / "editor-validation.png")
        win.save_png(written[-1])
        win.ctl.key_press("E", ctrl=True)  # the resize prompt in the status bar
        written.append(folder / "editor-resize-prompt.png")
        win.save_png(written[-1])
        win.close()

        # 4. The pen theme, dragging a pusher from the palette onto the board.
        win = _window(Document.open(work), state, theme="pen")
        ctl = win.ctl
        left, top, size, _ = ctl.layout.palette_cell(PALETTE_CHARS.index("D"))
        ctl.mouse_press(left + size / 2, top + size / 2, LEFT)
        tx, ty = _centre(ctl, 4, 6, 0.6, 0.6)
        ctl.mouse_drag(tx, ty, 0, 0, LEFT)
        written.append(folder / "editor-drag-pen.png")
        win.save_png(written[-1])
        ctl.mouse_release(tx, ty, LEFT)

        # 5. Help overlay.
        ctl.run("help")
        written.append(folder / "editor-help.png")
        win.save_png(written[-1])
        ctl.run("help")

        # 6. The command palette, filtered by what was typed.
        ctl.run("palette")
        ctl.text("board")
        written.append(folder / "editor-palette.png")
        win.save_png(written[-1])
        ctl.key_press("ESCAPE")
        win.close()

        # 7. The file browser of Ctrl+O, in a folder of boards, one selected with the keyboard.
        boards = state / "boards"
        (boards / "drafts").mkdir(parents=True)
        for name in ("chop.dat", "maze.dat", "spiral.dat", "notes.txt"):
            (boards / name).write_bytes(CHOP.read_bytes())
        win = _window(Document.open(boards / "chop.dat"), state)
        ctl = win.ctl
        ctl.run("open")
        ctl.key_press("DOWN")
        ctl.key_press("DOWN")
        ctl.key_press("DOWN")
        written.append(folder / "editor-open.png")
        win.save_png(written[-1])
        win.close()
        written.append(render_tron(folder, state))
    return written


def render_tron(folder: Path, state: Path) -> Path:
    """8. A Tron arena in the same editor: rings-41x41, bot 3's start placed, the pointer on it (field 21,3)."""
    arena = state / "rings-41x41.txt"
    arena.write_bytes((CHOP.parent / "tron" / "rings-41x41.txt").read_bytes())
    win = _window(Document.open(arena), state)
    ctl = win.ctl
    ctl.key_press("3")
    _click(ctl, *_centre(ctl, 20, 2))
    ctl.mouse_motion(*_centre(ctl, 20, 2))
    target = folder / "editor-tron.png"
    win.save_png(target)
    win.close()
    return target


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    folder = Path(args[0]) if args else Path("docs/img")
    for path in render_all(folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
