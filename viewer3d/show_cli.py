"""``robots-view FILE`` for every game but the robot game's own sources: open the file as the
game's ``GameShow`` and play it in the shared window, or export it headless.

The robot game keeps its richer sources (live AI games, game folders reloaded when rewritten,
round records, analysis) in ``viewer3d.cli``; every other game comes here through its registry
entry (``viewer3d.games``), with the same window, keys, HUD and export as robot games.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import InputError
from viewer3d.games import Game, ViewOptions
from viewer3d.games.base import GameShow

if TYPE_CHECKING:
    from viewer3d.games.tron.live import LiveTronGame


def play_file(game: Game, path: Path, options: ViewOptions) -> int:
    """Show (or headless, export) a file of ``game``; returns the exit status."""
    from viewer3d.cli import resolve_theme

    show = game.open(path)
    theme = resolve_theme(options.theme)  # None: the game's default look
    if options.headless:
        assert options.out is not None
        return export(show, Path(options.out), options, theme)
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return no_window(options, "no display (DISPLAY and WAYLAND_DISPLAY are unset)")
    return watch(show, options, theme)


def play_live(live: LiveTronGame, options: ViewOptions) -> int:
    """Watch a Tron game while the server plays it (``live`` started): the window opens at once,
    follows the rounds as they come and shows the result; closing it or Esc before the end
    cancels the game and kills its bots. The saved game joins the recent Tron games."""
    from viewer3d.cli import LIVE_STOP_SECONDS, resolve_theme
    from viewer3d.games import by_name
    from viewer3d.recent import RecentGames

    def closed() -> None:
        if not live.finished.is_set():
            live.cancel()
        live.wait(LIVE_STOP_SECONDS)
        if live.path is not None and not options.screenshot:
            RecentGames(name=by_name("tron").recent_file).add(live.path)

    try:
        return watch(live.show, options, resolve_theme(options.theme), live.listeners, on_close=closed)
    finally:
        live.cancel()  # whatever ended the window (an error included) ends the game's bots


def watch(
    show: GameShow[Any],
    options: ViewOptions,
    theme: object | None,
    listeners: list[Callable[[], None]] | None = None,
    on_close: Callable[[], None] | None = None,
) -> int:
    """Show ``show`` in the shared window until it is closed; ``on_close`` runs once it is closed,
    before the start screen comes back (a live game still played is cancelled there)."""
    from viewer3d.gameapp import GameApp
    from viewer3d.window import run_window

    size = options.size or (1024, 768)
    app = GameApp(show, title=show.title, viewport=size, screenshot_dir=Path.cwd(), theme=options.theme)
    try:
        run_window(
            app,
            theme=theme,
            size=size,
            screenshot=Path(options.screenshot) if options.screenshot else None,
            fullscreen=options.fullscreen,
            listeners=listeners,
        )
    except Exception as exc:  # pyglet cannot open a window: the display is unusable
        if type(exc).__module__.startswith(("pyglet", "moderngl", "glcontext")) or "display" in str(exc).lower():
            shown = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
            return no_window(options, f"cannot open a window on display {shown!r} ({exc})")
        raise
    finally:
        if on_close is not None:
            on_close()
    if options.screenshot:  # as a robot game's --screenshot and every export say what they wrote
        print(f"wrote {options.screenshot}")
    if app.reopen is not None and not options.screenshot:  # O (start screen) or a dropped file
        from viewer3d.cli import main

        extra = ["--size", f"{size[0]}x{size[1]}"] if options.size else []
        extra += ["--fullscreen"] if options.fullscreen else []
        return main(extra if app.reopen == "start" else [app.reopen, *extra])
    return 0


def no_window(options: ViewOptions, why: str) -> int:
    from viewer3d.cli import export_command

    print(f"robots-view: {why}; render offscreen instead: {export_command(options.argv)}", file=sys.stderr)
    return 1


def export(show: GameShow[Any], out: Path, options: ViewOptions, theme: object | None = None) -> int:
    from viewer3d.export import ExportError
    from viewer3d.show_export import export_show

    try:
        count = export_show(
            show,
            out,
            options.size,
            options.fps,
            options.view,
            options.speed,
            theme=theme,
            hud=options.hud,
            round_number=options.round,
            zoom=options.zoom,
        )
    except ExportError as exc:
        raise InputError(str(exc)) from None
    except ValueError as exc:  # no such round
        raise InputError(f"--round {options.round}: {exc}") from None
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", out) from None
    print(f"wrote {out} ({count} frame{'s' if count != 1 else ''})")
    return 0
