"""``robots-view`` for Tron files: a game file plays, an arena shows its starts; headless export too."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from engine.errors import InputError, read_text
from engine.tron.arena import parse_arena
from engine.tron.record import BotInfo, GameRecord, parse_game


def load_record(path: Path) -> GameRecord:
    """A game file, or an arena shown before its first round (bots at their starts)."""
    text = read_text(path)
    if text.lstrip().startswith("GAMEBOARDSTART"):
        arena = parse_arena(text, path)
        bots = arena.default_bots
        try:
            arena.starts_for(bots)
        except ValueError as exc:
            raise InputError(str(exc), path) from None
        return GameRecord(arena, tuple(BotInfo(f"bot {p}") for p in range(1, bots + 1)), ())
    return parse_game(text, path)


def run(
    path: Path, *, headless: bool, out: str | None, size: tuple[int, int] | None, fps: int | None, view: str
) -> int:
    record = load_record(path)
    if headless:
        from viewer3d.export import ExportError
        from viewer3d.games.tron.export import export_game

        assert out is not None
        target = Path(out)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            count = export_game(
                record,
                target,
                size or ((640, 480) if target.suffix.lower() == ".gif" else (1024, 768)),
                fps or 15,
                view,
            )
        except ExportError as exc:
            raise InputError(str(exc)) from None
        print(f"wrote {out} ({count} frame{'s' if count != 1 else ''})")
        return 0
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        print(
            f"robots-view: no display; render offscreen instead: robots-view {path} --headless --out replay.gif",
            file=sys.stderr,
        )
        return 1
    from viewer3d.games.tron.window import run_tron_window

    run_tron_window(record, path.name, size or (1024, 768))
    return 0
