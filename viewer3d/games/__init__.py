"""The games the viewer shows, found by name or by sniffing a file (``engine.games.sniff_game``).

Every game plays through the same machinery (``viewer3d.gameapp``, ``window``, ``hud``, ``clock``,
``export``) behind the interface in ``viewer3d.games.base``; an entry here says what the game is,
which paths are playable files of it, and how to open one as a ``GameShow``.  ``robots-view FILE``
and the start screen use it; adding a third game is a package beside ``tron`` and an entry here
(docs/viewer.md, "Games").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.games import ROBOTS, TRON, sniff_game

if TYPE_CHECKING:
    from viewer3d.games.base import GameShow


@dataclass(frozen=True)
class Game:
    """A hosted game: its name, what it is, whether a path is a file of it that the viewer plays,
    and how to open one (``InputError``, one line naming file and place, for a bad file)."""

    name: str
    title: str
    playable: Callable[[Path], bool]
    open: Callable[[Path], GameShow[Any]]


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


def _tron_playable(path: Path) -> bool:
    """A Tron game file (``robots-tron play --log``) or an arena (its bots at their starts)."""
    return path.is_file() and sniff_game(path) == TRON


def _open_tron(path: Path) -> GameShow[Any]:
    from viewer3d.games.tron.show import TronShow

    return TronShow.open(path)


GAMES: tuple[Game, ...] = (
    Game(ROBOTS, "robots (freiesMagazin 2009): a RoboRally-style game", _robots_playable, _open_robots),
    Game(TRON, "Tron (freiesMagazin 2014): lightcycles", _tron_playable, _open_tron),
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
