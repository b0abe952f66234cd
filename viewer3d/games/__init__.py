"""The games the viewer shows, found by name or by sniffing a file (``engine.games.sniff_game``).

Each entry says how the game is shown: the robot game by the viewer's own path (``viewer3d.cli``,
``app``, ``render``), Tron by ``viewer3d.games.tron`` (its scene: arena cells, cycles with poses
over time, light walls as growing dynamic cells, crash events, HUD lines).  ``robots-view FILE``
plays either; a third game adds an entry here and a package beside ``tron``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from engine.games import ROBOTS, TRON, sniff_game


class ViewOptions(NamedTuple):
    """What ``robots-view`` was asked for, as every game's viewer takes it."""

    headless: bool
    out: str | None
    size: tuple[int, int] | None
    fps: int | None
    view: str


@dataclass(frozen=True)
class Game:
    """A hosted game: its name, what it is, and how to show a file of it (None: the robot viewer)."""

    name: str
    title: str
    show: Callable[[Path, ViewOptions], int] | None


def _show_tron(path: Path, options: ViewOptions) -> int:
    from viewer3d.games.tron.cli import run

    return run(path, headless=options.headless, out=options.out, size=options.size, fps=options.fps, view=options.view)


GAMES: tuple[Game, ...] = (
    Game(ROBOTS, "robots (freiesMagazin 2009): a RoboRally-style game", None),
    Game(TRON, "Tron (freiesMagazin 2014): lightcycles", _show_tron),
)


def by_name(name: str) -> Game:
    for game in GAMES:
        if game.name == name:
            return game
    raise KeyError(f"no game named {name!r} (known: {', '.join(g.name for g in GAMES)})")


def sniff(path: str | Path) -> Game | None:
    """The game a file or folder belongs to, None when it does not exist."""
    name = sniff_game(path)
    return by_name(name) if name is not None else None
