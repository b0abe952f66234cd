"""``robots-view --demo tron`` (``./run demo tron``): the strong bot against the simple one on a
shipped arena, played by the engine's Tron server as in ``robots-tron play``.  With a display the
window opens at once and shows the game while it is played (``viewer3d.games.tron.live``); without
one (or with ``--headless --out`` or ``--screenshot``) the game is played to its end first, then
rendered offscreen to ``out/demo-tron.gif`` (said in one line) or where asked.  ``--ai BOT`` plays
BOT (a contest entry) instead of the strong bot, ``--time-limit S`` gives the bots S seconds a round.

The game file is kept beside it (``out/demo-tron.json``), so ``robots-view out/demo-tron.json``
shows the same game again.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import InputError
from engine.tron.server import DEFAULT_TIME_LIMIT
from gameboards import tron_arena_path
from viewer3d.games.tron.live import LiveTronGame

if TYPE_CHECKING:
    from viewer3d.games import ViewOptions

DEMO_ARENA = "diamond-25x25.txt"
DEMO_BOTS = ("strong", "simple")
DEMO_GAME = Path("out") / "demo-tron.json"  # relative to where robots-view runs (./run demo: the checkout)
DEMO_OUT = Path("out") / "demo-tron.gif"
DEMO_SIZE, DEMO_FPS, DEMO_MAX_SECONDS = (512, 384), 10, 20.0  # 20 s: about 10 MB of GIF


def start_demo(first: str | None = None, time_limit: float | None = None) -> LiveTronGame:
    """Start the demo game (``first`` instead of the strong bot), to be saved to ``DEMO_GAME``."""
    bots = (first or DEMO_BOTS[0], *DEMO_BOTS[1:])
    print(
        f"robots-view: Tron demo: {' against '.join(bots)} on {DEMO_ARENA}, played by the Tron server...",
        file=sys.stderr,
    )
    DEMO_GAME.parent.mkdir(parents=True, exist_ok=True)  # the demo's own output folder
    limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
    return LiveTronGame(tron_arena_path(DEMO_ARENA), bots, target=DEMO_GAME, time_limit=limit).start()


def play_demo(first: str | None = None, time_limit: float | None = None) -> Path:
    """Play the demo game to its end and save it to ``DEMO_GAME``; Ctrl-C ends the bots too."""
    live = start_demo(first, time_limit)
    try:
        live.wait()
    except KeyboardInterrupt:
        live.cancel()
        live.wait(10)
        raise
    if live.path is None:
        raise InputError(live.error or "the demo game could not be played")
    return live.path


def run_demo(options: ViewOptions, *, display: bool, first: str | None = None, time_limit: float | None = None) -> int:
    """The demo in a window while it is played, exported to ``--out`` (--headless), or to
    ``DEMO_OUT`` without a display."""
    from viewer3d.games import by_name

    show = by_name("tron").show
    assert show is not None
    if not options.headless and not display:
        print(
            f"robots-view: no display (DISPLAY and WAYLAND_DISPLAY are unset); rendering the Tron demo "
            f"offscreen to {DEMO_OUT} instead",
            file=sys.stderr,
        )
    if display and not options.headless and not options.screenshot:
        from viewer3d.show_cli import play_live

        return play_live(start_demo(first, time_limit), options)
    game = play_demo(first, time_limit)
    if options.headless or display:
        return show(game, options)
    from viewer3d.cli import resolve_theme
    from viewer3d.export import ExportError
    from viewer3d.games.tron.show import TronShow
    from viewer3d.show_export import export_show

    try:
        count = export_show(
            TronShow.open(game),
            DEMO_OUT,
            options.size or DEMO_SIZE,
            options.fps or DEMO_FPS,
            options.view,
            options.speed,
            theme=resolve_theme(options.theme),
            hud=options.hud,
            max_seconds=DEMO_MAX_SECONDS,
        )
    except ExportError as exc:
        raise InputError(str(exc)) from None
    print(f"wrote {DEMO_OUT} ({count} frames): open it in an image viewer; the game is {game}")
    return 0
