"""``robots-view FILE`` for every game but the robot game's own sources: open the file as the
game's ``GameShow`` and play it in the shared window, or export it headless.

The robot game keeps its richer sources (live AI games, game folders reloaded when rewritten,
round records, analysis) in ``viewer3d.cli``; every other game comes here through the registry
(``viewer3d.games``), with the same window, keys, HUD and export as robot games.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.errors import InputError
from viewer3d.games import Game
from viewer3d.games.base import GameShow

#: Options that only mean something for a robot game's sources and exports.
ROBOT_ONLY = (
    ("ai", "--ai"),
    ("sequence", "--sequence"),
    ("board", "--board"),
    ("round", "--round"),
    ("card", "--card"),
)


def play_file(
    game: Game, path: Path, args: argparse.Namespace, argv: Sequence[str], size: tuple[int, int] | None
) -> int:
    """Show (or with --headless export) a file of ``game``; returns the exit status."""
    from viewer3d import cli

    for name, option in ROBOT_ONLY:
        if getattr(args, name, None) is not None:
            raise InputError(f"{option} is for robot games; {path.name} is a {game.name} file")
    show = game.open(path)
    if args.headless:
        return export(show, Path(args.out), size, args)
    if not cli.has_display():
        print(
            f"robots-view: no display (DISPLAY and WAYLAND_DISPLAY are unset); render offscreen instead: "
            f"{cli.export_command(argv)}",
            file=sys.stderr,
        )
        return 1
    from viewer3d.gameapp import GameApp
    from viewer3d.window import run_window

    app = GameApp(show, title=show.title, viewport=size or (1024, 768), screenshot_dir=Path.cwd())
    app.player.start_at_speed(show.start_speed())
    try:
        run_window(
            app,
            size=size or (1024, 768),
            screenshot=Path(args.screenshot) if args.screenshot else None,
            fullscreen=args.fullscreen,
        )
    except Exception as exc:  # pyglet cannot open a window: the display is unusable
        if type(exc).__module__.startswith(("pyglet", "moderngl", "glcontext")) or "display" in str(exc).lower():
            shown = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
            print(
                f"robots-view: cannot open a window on display {shown!r} ({exc}); render offscreen instead: "
                f"{cli.export_command(argv)}",
                file=sys.stderr,
            )
            return 1
        raise
    if app.reopen is not None and not args.screenshot:  # O (start screen) or a dropped file
        return cli.reopen(app.reopen, args, argv)
    return 0


def export(show: GameShow[Any], out: Path, size: tuple[int, int] | None, args: argparse.Namespace) -> int:
    from viewer3d.export import ExportError
    from viewer3d.show_export import export_show

    try:
        count = export_show(show, out, size, args.fps, args.view, args.speed, hud=not args.no_hud)
    except ExportError as exc:
        raise InputError(str(exc)) from None
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", out) from None
    print(f"wrote {out} ({count} frame{'s' if count != 1 else ''})")
    return 0
