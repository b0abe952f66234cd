"""The games the viewer shows, found by name or by sniffing a file (``engine.games.sniff_game``).

Every game plays through the same machinery (``viewer3d.gameapp``, ``window``, ``hud``, ``clock``,
``export``) behind the interface in ``viewer3d.games.base``.  An entry here says what the game is,
which paths are playable files of it and how to open one as a ``GameShow`` (``playable``,
``open``), and how ``robots-view FILE`` shows it (``show``: None for the robot game, whose command
line has its own richer sources; ``viewer3d.show_cli.play_file`` for every other game).

An entry also carries what the start screen offers for it: its tab label, its shipped boards and
their thumbnails, the built-in players, and the file its recent games are remembered in (each game
keeps its own list, so opening Tron files never pushes robot games off the start screen).

Adding a third game is a package beside ``tron`` with a ``GameShow`` and an entry here
(docs/viewer.md, "Games").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from engine.games import ROBOTS, TRON, sniff_game

if TYPE_CHECKING:
    from viewer3d.games.base import GameShow


class ViewOptions(NamedTuple):
    """What ``robots-view`` was asked for, as every game's viewer takes it."""

    headless: bool
    out: str | None
    size: tuple[int, int] | None
    fps: int | None
    view: str
    speed: float | None = None
    hud: bool = True
    screenshot: str | None = None
    fullscreen: bool = False
    argv: Sequence[str] = ()  # the command line, for "render offscreen instead: ..." and reopening
    theme: str | None = None  # --theme: a game draws its pictures from it (Tron: the theme's tron/)
    round: int | None = None  # --round N: export only that round (a .png: its start)
    zoom: float | None = None  # --zoom Z: the export's camera Z times closer than the whole board


def _robots_playable(path: Path) -> bool:
    """A game folder written by ``robots-engine play`` or a board file (shown with its start pose)."""
    if path.is_dir():
        return (path / "globalseq.txt").is_file()
    return path.is_file() and path.suffix.lower() == ".dat" and sniff_game(path) == ROBOTS


def _open_robots(path: Path) -> GameShow[Any]:
    from viewer3d import sources
    from viewer3d.games.robots import RobotShow

    source = sources.from_game_dir(path) if path.is_dir() else sources.from_board_file(path)
    return RobotShow(source.board, source.timeline, source.title)


def _never(path: Path) -> bool:
    return False


def _cannot_open(path: Path) -> GameShow[Any]:
    from engine.errors import InputError

    raise InputError("this game has no viewer", path)


@dataclass(frozen=True)
class Game:
    """A hosted game: its name, what it is, how ``robots-view`` shows a file of it (None: the
    robot viewer's own path), what its start screen tab needs (the robot game's tab is
    ``viewer3d.start``'s own), whether a path is a file of it the viewer plays, and how to open
    one as a ``GameShow`` (``InputError``, one line naming file and place, for a bad file)."""

    name: str
    title: str
    show: Callable[[Path, ViewOptions], int] | None
    tab: str = ""  # the start screen's tab label
    boards: Callable[[], list[Path]] | None = None  # the shipped boards, in the order shown
    thumbnail: Callable[[Path], NDArray[np.uint8]] | None = None  # a board's picture (RGB, top row first)
    players: tuple[str, ...] = ()  # the built-in players (bots) a new game may use
    check: Callable[[Path], None] | None = None  # raises InputError when a file cannot be shown
    recent_file: str = "recent.json"  # where its recent games are remembered (viewer3d.recent)
    playable: Callable[[Path], bool] = _never
    open: Callable[[Path], GameShow[Any]] = _cannot_open


def _show_in_shared_viewer(path: Path, options: ViewOptions) -> int:
    from viewer3d.show_cli import play_file

    return play_file(by_name(sniff_game(path) or TRON), path, options)


def _tron_boards() -> list[Path]:
    from gameboards import tron_arena_names, tron_arena_path

    return [tron_arena_path(name) for name in tron_arena_names()]


def _tron_thumbnail(path: Path) -> NDArray[np.uint8]:
    from engine.tron.arena import load_arena
    from viewer3d.games.tron.thumbnail import arena_thumbnail

    return arena_thumbnail(load_arena(path))


def _tron_check(path: Path) -> None:
    from viewer3d.games.tron.show import load_record

    load_record(path)


def _tron_players() -> tuple[str, ...]:
    from engine.tron.bots import BUILTIN_NAMES

    return BUILTIN_NAMES


def _tron_playable(path: Path) -> bool:
    """A Tron game file (``robots-tron play --out``) or an arena (its bots at their starts)."""
    return path.is_file() and sniff_game(path) == TRON


def _open_tron(path: Path) -> GameShow[Any]:
    from viewer3d.games.tron.show import TronShow

    return TronShow.open(path)


GAMES: tuple[Game, ...] = (
    Game(
        ROBOTS,
        "robots (freiesMagazin 2009): a RoboRally-style game",
        None,
        tab="robots",
        playable=_robots_playable,
        open=_open_robots,
    ),
    Game(
        TRON,
        "Tron (freiesMagazin 2014): lightcycles",
        _show_in_shared_viewer,
        tab="Tron",
        boards=_tron_boards,
        thumbnail=_tron_thumbnail,
        players=_tron_players(),
        check=_tron_check,
        recent_file="recent-tron.json",
        playable=_tron_playable,
        open=_open_tron,
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


def playable(path: str | Path) -> Game | None:
    """The game whose viewer plays ``path`` (a game file, arena, game folder or board), or None."""
    game = sniff(path)
    return game if game is not None and game.playable(Path(path)) else None
