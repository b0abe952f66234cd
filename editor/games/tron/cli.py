"""``robots-edit`` on a Tron arena: open (or create) it, edit it in a window, or check it headless."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from editor.games.tron.document import TronDocument
from engine.errors import InputError
from engine.tron.cli import bot_spec
from engine.tron.record import GameRecord, save_game
from engine.tron.server import play_game

DEFAULT_SIZE = (40, 30)


def test_play(document: TronDocument) -> GameRecord:
    """A quick game on the arena as drawn: the strong bot against the simple one (two starts needed)."""
    arena = document.arena()
    bots = [bot_spec("strong"), bot_spec("simple")]
    count = min(2, arena.default_bots)
    record, _ = play_game(arena, bots[:count])
    folder = Path(tempfile.mkdtemp(prefix="tron-test-play-"))
    save_game(record, folder / "tron-game.json")
    return record


def open_document(path: Path | None, size: tuple[int, int] | None) -> TronDocument:
    if path is not None and path.exists():
        return TronDocument.open(path)
    width, height = size or DEFAULT_SIZE
    return TronDocument.new(width, height, path)


def run(
    path: Path | None,
    *,
    arena_size: tuple[int, int] | None,
    window_size: tuple[int, int],
    screenshot: Path | None,
    headless: bool,
) -> int:
    try:
        document = open_document(path, arena_size)
    except InputError as exc:
        print(f"robots-edit: {exc}", file=sys.stderr)
        return 2
    import pyglet

    if headless or screenshot is not None or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        if not headless and screenshot is None:
            print(
                "robots-edit: no display (DISPLAY is not set); use --headless --screenshot FILE to render off-screen",
                file=sys.stderr,
            )
            return 1
        pyglet.options["headless"] = True
    from editor.games.tron.controller import TronController
    from editor.games.tron.window import TronEditorWindow

    window = TronEditorWindow(TronController(document, test_play), window_size, visible=screenshot is None)
    if screenshot is not None:
        window.on_draw()
        window.save_screenshot(screenshot)
        window.close()
        print(f"wrote {screenshot}")
        return 0
    pyglet.app.run()
    return 0
