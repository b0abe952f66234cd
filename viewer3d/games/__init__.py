"""The games the viewer shows, found by name or by sniffing a file (``engine.games.sniff_game``).

Each entry says how the game is shown: the robot game by the viewer's own path (``viewer3d.cli``,
``app``, ``render``), Tron by ``viewer3d.games.tron`` (its scene: arena cells, cycles with poses
over time, light walls as growing dynamic cells, crash events, HUD lines).  ``robots-view FILE``
plays either; a third game adds an entry here and a package beside ``tron``.

An entry also carries what the start screen offers for it: its tab label, its shipped boards and
their thumbnails, the built-in players, and the file its recent games are remembered in (each game
keeps its own list, so opening Tron files never pushes robot games off the start screen).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

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
    """A hosted game: its name, what it is, how to show a file of it (None: the robot viewer), and
    what its start screen tab needs (the robot game's tab is ``viewer3d.start``'s own)."""

    name: str
    title: str
    show: Callable[[Path, ViewOptions], int] | None
    tab: str = ""  # the start screen's tab label
    boards: Callable[[], list[Path]] | None = None  # the shipped boards, in the order shown
    thumbnail: Callable[[Path], NDArray[np.uint8]] | None = None  # a board's picture (RGB, top row first)
    players: tuple[str, ...] = ()  # the built-in players (bots) a new game may use
    check: Callable[[Path], None] | None = None  # raises InputError when a file cannot be shown
    recent_file: str = "recent.json"  # where its recent games are remembered (viewer3d.recent)


def _show_tron(path: Path, options: ViewOptions) -> int:
    from viewer3d.games.tron.cli import run

    return run(path, headless=options.headless, out=options.out, size=options.size, fps=options.fps, view=options.view)


def _tron_boards() -> list[Path]:
    from gameboards import tron_arena_names, tron_arena_path

    return [tron_arena_path(name) for name in tron_arena_names()]


def _tron_thumbnail(path: Path) -> NDArray[np.uint8]:
    from engine.tron.arena import load_arena
    from viewer3d.games.tron.thumbnail import arena_thumbnail

    return arena_thumbnail(load_arena(path))


def _tron_check(path: Path) -> None:
    from viewer3d.games.tron.cli import load_record

    load_record(path)


def _tron_players() -> tuple[str, ...]:
    from engine.tron.bots import BUILTIN_NAMES

    return BUILTIN_NAMES


GAMES: tuple[Game, ...] = (
    Game(ROBOTS, "robots (freiesMagazin 2009): a RoboRally-style game", None, tab="robots"),
    Game(
        TRON,
        "Tron (freiesMagazin 2014): lightcycles",
        _show_tron,
        tab="Tron",
        boards=_tron_boards,
        thumbnail=_tron_thumbnail,
        players=_tron_players(),
        check=_tron_check,
        recent_file="recent-tron.json",
    ),
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
