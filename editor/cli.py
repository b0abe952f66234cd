"""``robots-edit [BOARD] [--theme NAME]``: open the board editor; ``--export OUT`` writes a picture instead.

BOARD may be a robot board or a Tron arena (``engine.games.sniff_game`` tells); ``--tron`` with
``--arena WxH`` starts a new arena. Both games open in the same editor (``editor.games``).

A board that cannot be read is reported as one ``file:line:col: message`` line with
exit status 2 (no traceback). A file that does not exist yet is fine: the editor
starts with a blank board that will be saved there.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from editor.document import Document
from editor.games import ROBOTS, EditorGame
from engine.cliutil import OneLineParser, add_version, parse_size, run_command
from engine.errors import InputError
from engine.shipped import board_or_arena_argument
from engine.tron.arena import MAX_FIELDS as ARENA_MAX_FIELDS
from engine.tron.arena import MAX_SIDE as ARENA_MAX_SIDE

EXIT_BAD_INPUT = 2
MIN_SIZE = (640, 480)  # below this the palette and the side panel cover the board
MAX_SIDE = 8192


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = OneLineParser(
        prog="robots-edit", description="Drag-and-drop editor for the robot game's boards and Tron arenas."
    )
    add_version(parser)
    parser.add_argument("board", nargs="?", type=Path, help="board file to open (created on save if it does not exist)")
    parser.add_argument("--theme", help="tile theme (F2 cycles the installed ones)")
    parser.add_argument("--size", default="1280x800", help="window size WIDTHxHEIGHT (default 1280x800)")
    parser.add_argument("--headless", action="store_true", help="render off-screen (EGL), e.g. with --screenshot")
    parser.add_argument("--screenshot", type=Path, metavar="PNG", help="draw one frame to this PNG and exit")
    export = parser.add_argument_group("export (no display needed)")
    export.add_argument(
        "--export", type=Path, metavar="OUT", help="write the board alone to OUT.png, OUT.svg or OUT.pdf"
    )
    export.add_argument("--tile", type=int, default=48, metavar="N", help="pixels per tile for PNG/SVG (default 48)")
    export.add_argument("--grid", action="store_true", help="draw the tile grid")
    export.add_argument("--coords", action="store_true", help="number the columns and rows")
    export.add_argument("--paper", choices=("a4", "letter"), default="a4", help="PDF page size (default a4)")
    tron = parser.add_argument_group("Tron arenas (the 2014 contest's format)")
    tron.add_argument("--tron", action="store_true", help="edit a Tron arena (implied when the file is one)")
    tron.add_argument("--arena", default=None, metavar="WxH", help="size of a new Tron arena (default 40x30)")
    args: argparse.Namespace = parser.parse_args(argv)
    return args


def run_export(document: Document, args: argparse.Namespace) -> int:
    """``--export``: the board alone as PNG, SVG or PDF; one-line errors, exit 2."""
    from editor.export import ExportOptions, export_board

    if args.board is None or not args.board.exists():
        print("robots-edit: --export needs an existing BOARD file", file=sys.stderr)
        return EXIT_BAD_INPUT
    options = ExportOptions(theme=args.theme, tile_px=args.tile, grid=args.grid, coords=args.coords, paper=args.paper)
    try:
        export_board(document.board, args.export, options, title=args.board.name)
    except (ValueError, OSError) as exc:
        message = getattr(exc, "strerror", None) or str(exc)
        print(f"robots-edit: {args.export}: cannot export: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"wrote {args.export}")  # a result on stdout, worded as robots-view words its exports
    return 0


def load_document(path: Path | None, game: EditorGame | None = None, size: tuple[int, int] | None = None) -> Document:
    """The document for the command line's BOARD (InputError when it cannot be read): the file's
    game unless ``game`` is given; a new one of ``size`` when the file does not exist yet. A path
    that is there but cannot be looked through (a link loop) is refused, not taken for a new file
    (``--export`` said "needs an existing BOARD file", and editing started a blank board)."""
    if path is not None and not path.exists() and os.path.lexists(path):
        try:
            path.stat()
        except FileNotFoundError:
            pass  # a link to a file not made yet: saving makes it
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    if path is not None and path.exists():
        return Document.open(path, game)
    if path is not None and not path.parent.is_dir():
        raise InputError(f"the folder {path.parent} does not exist", path)
    if game is None:
        document = Document(path=path)
        document.remember_disk(None)
        return document
    try:
        board = game.blank(*(size or game.default_size))
    except ValueError as exc:
        raise InputError(f"--arena: {exc}") from None
    document = Document(board, path)
    document.remember_disk(None)  # a new file: one made there meanwhile is another program's
    return document


def choose_game(args: argparse.Namespace) -> EditorGame:
    """``--tron`` or a file that is a Tron arena: the Tron game; else the robot game."""
    from editor.games import TRON, game_for_file, game_named

    if args.tron:
        return game_named(TRON)
    found = game_for_file(args.board) if args.board is not None else None
    return found if found is not None else game_named(ROBOTS)


def theme_usable(name: str) -> bool:
    """Load ``--theme`` as the viewer does: a refused theme (its folder cannot be found or read) is
    reported on stderr, one line per problem; a partial one says what came from its base."""
    from themes import ThemeError, load_theme
    from themes.report import refusal_line, summary

    try:
        theme = load_theme(name)
    except ThemeError as exc:
        for problem in exc.problems:
            print(f"robots-edit: {refusal_line(name, problem)}", file=sys.stderr)
        return False
    for line in summary(list(theme.warnings)):
        print(f"robots-edit: theme {theme.path.name}: {line}", file=sys.stderr)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Through ``engine.cliutil.run_command``, as every tool: Ctrl-C is one line and 130, and
    "wrote OUT" into a pipe whose reader left ends quietly (both were tracebacks)."""
    from engine.textout import readable_streams

    readable_streams()  # a file name that is not UTF-8 is printed as \xNN, never a traceback
    args = parse_args(argv)
    return run_command("robots-edit", lambda: _main(args))


def _main(args: argparse.Namespace) -> int:
    if args.export is not None and args.board is not None:
        # Exporting only reads: a shipped board's or arena's name works where no such file is here.
        # Editing never does (it would save into the installed package): a missing file is new.
        args.board = Path(board_or_arena_argument(str(args.board)))
    game = choose_game(args)
    try:
        arena = None
        if args.arena is not None:
            if game.name == ROBOTS:
                raise InputError("--arena WxH sizes a new Tron arena: add --tron")
            if args.board is not None and args.board.exists():
                raise InputError(f"--arena WxH sizes a new arena, and {args.board} exists already")
            arena = parse_size(args.arena, "--arena", (1, 1), (ARENA_MAX_SIDE, ARENA_MAX_SIDE), "60x40")
            if arena[0] * arena[1] > ARENA_MAX_FIELDS:
                raise InputError(f"--arena {args.arena}: more than {ARENA_MAX_FIELDS} fields (512x512)")
        document = load_document(args.board, game, arena)
    except InputError as exc:
        print(f"robots-edit: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        width, height = parse_size(args.size, "--size", MIN_SIZE, (MAX_SIDE, MAX_SIDE))
    except InputError as exc:
        print(f"robots-edit: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.theme is not None and not theme_usable(args.theme):
        return EXIT_BAD_INPUT
    if args.export is not None:
        return run_export(document, args)
    if args.screenshot is not None and args.screenshot.suffix.lower() != ".png":
        print(f"robots-edit: {args.screenshot}: --screenshot writes PNG (use --export for SVG/PDF)", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.screenshot is not None and not args.screenshot.resolve().parent.is_dir():
        print(
            f"robots-edit: {args.screenshot}: cannot write: folder {args.screenshot.parent} does not exist",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    import pyglet

    if (
        args.headless
        or args.screenshot is not None
        or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    ):
        if not args.headless and args.screenshot is None:
            print(
                "robots-edit: no display (DISPLAY is not set); use --headless --screenshot FILE to render off-screen",
                file=sys.stderr,
            )
            return 1
        pyglet.options["headless"] = True

    from editor.controller import EditorController

    controller = EditorController(document, size=(width, height), theme=args.theme)
    try:
        from editor.window import EditorWindow  # importing pyglet.window already connects to the display

        window = EditorWindow(controller, visible=args.screenshot is None)
    except Exception as exc:  # pyglet cannot reach the display (DISPLAY set but no X server there)
        if not type(exc).__module__.startswith("pyglet"):
            raise
        controller.autosaver.discard()
        shown = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        print(
            f"robots-edit: cannot open a window on display {shown!r} ({exc}); "
            "use --headless --screenshot FILE to render off-screen",
            file=sys.stderr,
        )
        return 1
    if args.screenshot is not None:
        try:
            window.save_png(args.screenshot)
            print(f"wrote {args.screenshot}")  # as --export and robots-view --screenshot say
        except OSError as exc:
            print(f"robots-edit: {args.screenshot}: cannot write: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        finally:
            controller.autosaver.discard()
            controller.close()
            window.close()
        return 0
    try:
        pyglet.app.run(interval=None)  # the window draws only when something changed
    finally:
        controller.close()
    return 0
