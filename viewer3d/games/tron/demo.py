"""``robots-view --demo tron`` (``./run demo tron``): the strong bot against the simple one on a
shipped arena, played by the engine's Tron server as in ``robots-tron play``, then shown in the
Tron window, or, without a display, rendered offscreen to ``out/demo-tron.gif`` (said in one line).

The game file is kept beside it (``out/demo-tron.json``), so ``robots-view out/demo-tron.json``
shows the same game again.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import InputError
from gameboards import tron_arena_path
from viewer3d.games.tron.live import LiveTronGame

if TYPE_CHECKING:
    from viewer3d.games import ViewOptions

DEMO_ARENA = "diamond-25x25.txt"
DEMO_BOTS = ("strong", "simple")
DEMO_GAME = Path("out") / "demo-tron.json"  # relative to where robots-view runs (./run demo: the checkout)
DEMO_OUT = Path("out") / "demo-tron.gif"
DEMO_SIZE, DEMO_FPS, DEMO_MAX_SECONDS = (512, 384), 10, 20.0  # 20 s: about 10 MB of GIF


def play_demo() -> Path:
    """Play the demo game to its end and save it to ``DEMO_GAME``; Ctrl-C ends the bots too."""
    print(
        f"robots-view: Tron demo: {' against '.join(DEMO_BOTS)} on {DEMO_ARENA}, played by the Tron server...",
        file=sys.stderr,
    )
    DEMO_GAME.parent.mkdir(parents=True, exist_ok=True)  # the demo's own output folder
    live = LiveTronGame(tron_arena_path(DEMO_ARENA), DEMO_BOTS, target=DEMO_GAME).start()
    try:
        live.wait()
    except KeyboardInterrupt:
        live.cancel()
        live.wait(10)
        raise
    if live.path is None:
        raise InputError(live.error or "the demo game could not be played")
    return live.path


def run_demo(options: ViewOptions, *, display: bool) -> int:
    """The demo in a window, exported to ``--out`` (--headless), or to ``DEMO_OUT`` without a display."""
    from viewer3d.games import by_name

    show = by_name("tron").show
    assert show is not None
    if not options.headless and not display:
        print(
            f"robots-view: no display (DISPLAY and WAYLAND_DISPLAY are unset); rendering the Tron demo "
            f"offscreen to {DEMO_OUT} instead",
            file=sys.stderr,
        )
    game = play_demo()
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
