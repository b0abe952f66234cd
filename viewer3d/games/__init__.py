"""The games the product hosts, found by name or by sniffing a file.

The viewer and the editor were written for the robot game (2009); Tron (2014) is the second game.
``sniff(path)`` tells which game a file or folder belongs to, so ``robots-view FILE`` plays either:
a robot game directory, board or ``game.json``; a Tron game file (``tron-game.json``) or arena.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SNIFF_BYTES = 4096


@dataclass(frozen=True)
class Game:
    """A hosted game: its name, what it is, and how to recognise its files."""

    name: str
    title: str
    sniff: Callable[[Path], bool]


def _head(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(SNIFF_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""


def _is_tron(path: Path) -> bool:
    if not path.is_file():
        return False
    head = _head(path)
    return '"robots-tron-game"' in head or head.lstrip().startswith("GAMEBOARDSTART")


def _is_robots(path: Path) -> bool:
    return path.is_dir() or (path.is_file() and not _is_tron(path))


GAMES: tuple[Game, ...] = (
    Game("tron", "Tron (freiesMagazin 2014): lightcycles", _is_tron),
    Game("robots", "robots (freiesMagazin 2009): a RoboRally-style game", _is_robots),
)


def by_name(name: str) -> Game:
    for game in GAMES:
        if game.name == name:
            return game
    raise KeyError(f"no game named {name!r} (known: {', '.join(g.name for g in GAMES)})")


def sniff(path: str | Path) -> Game | None:
    """The game a file or folder belongs to (the most specific test first), None when it does not exist."""
    target = Path(path)
    if not target.exists():
        return None
    return next((game for game in GAMES if game.sniff(target)), None)
