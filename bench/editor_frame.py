"""What one frame of the editor's window costs on a tiny board, where the board itself is cheap and
the panels' text is most of the frame (headless EGL window 1280x800, no display needed).

For a 12x12 robot board and a 40x30 Tron arena it draws frames after: nothing (idle), the
pointer moving to another tile (the status bar's readout changes), a pan step, a paint step
(the board panel says "(modified)", the status readout moves), and a new status message. Each
figure is the median CPU time of the action plus the frame, finished by the GL driver, and the
text layouts (pyglet labels, drawn or measured) built per frame. Run from the repo root:

    python3 bench/editor_frame.py [--frames 40]
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))  # the tree it is run in (run it in an older checkout to compare)

import pyglet

pyglet.options["headless"] = True

from editor.commands import blank_board  # noqa: E402
from editor.controller import EditorController  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.games import game_named  # noqa: E402
from editor.window import EditorWindow  # noqa: E402

LABELS = [0]
_label_init = pyglet.text.Label.__init__


def _counting_init(self: pyglet.text.Label, *args: object, **kwargs: object) -> None:
    LABELS[0] += 1
    _label_init(self, *args, **kwargs)


pyglet.text.Label.__init__ = _counting_init  # counts every label of any version of the view


def frames(window: EditorWindow, action: Callable[[int], None], count: int) -> tuple[float, float]:
    """Median CPU ms of action + frame, and labels built per frame."""
    times = []
    before = LABELS[0]
    for index in range(count):
        cpu = time.process_time()
        action(index)
        window.on_draw()
        pyglet.gl.glFinish()
        times.append(time.process_time() - cpu)
    return sorted(times)[count // 2] * 1000, (LABELS[0] - before) / count


def bench(game: str, count: int) -> dict[str, tuple[float, float]]:
    board = blank_board(12, 12) if game == "robots" else game_named("tron").blank(40, 30)
    state = Path(tempfile.mkdtemp(prefix="robots-edit-frame-"))
    ctl = EditorController(Document(board), size=(1280, 800), autosave_folder=state)
    window = EditorWindow(ctl, visible=False)
    window.switch_to()
    window.on_draw()
    ctl.finish_validation(timeout=60)
    window.on_draw()
    left, top, tile, _ = ctl.mapping.tile_rect(0, 0)
    row = min(board.width, 10)

    def hover(index: int) -> None:
        ctl.mouse_motion(left + tile / 2 + (index % row) * tile, top + tile / 2)

    figures = {"idle": frames(window, lambda index: None, count)}
    figures["pointer to another tile"] = frames(window, hover, count)
    figures["pan step"] = frames(window, lambda index: ctl.scroll(640, 380, -1 if index % 2 else 1), count)
    ctl.mouse_press(left + 1, top + tile + 1, "left")
    figures["paint step"] = frames(
        window, lambda index: ctl.mouse_drag(left + 1 + (index % row) * tile, top + tile + 1, tile, 0, "left"), count
    )
    ctl.mouse_release(left + 1, top + tile + 1, "left")
    figures["status message"] = frames(window, lambda index: ctl.say(f"message {index}"), count)
    ctl.close()
    window.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40)
    args = parser.parse_args()
    print(f"{platform.machine()} {platform.python_version()} pyglet {pyglet.version}")
    for game in ("robots", "tron"):
        for name, (ms, labels) in bench(game, args.frames).items():
            print(f"{game:7s} {name:24s} {ms:6.1f} ms  {labels:5.1f} labels/frame")


if __name__ == "__main__":
    main()
