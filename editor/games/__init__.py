"""The games the editor edits, found by name, by sniffing a file (``engine.games.sniff_game``, the one
rule that recognises a file) or by a grid value; each is an ``editor.games.base.EditorGame``.

Game modules are imported on first use, so importing the shared machinery stays cheap.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from editor.games.base import EditorGame, Grid
from engine.games import GAME_NAMES, ROBOTS, TRON, sniff_game

__all__ = ["ROBOTS", "TRON", "EditorGame", "game_for_file", "game_named", "game_of", "games", "sniff_game"]


@cache
def games() -> tuple[EditorGame, ...]:
    """Every game the editor knows, the robot game first (the default)."""
    from editor.games.robots import RobotGame
    from editor.games.tron.game import TronGame

    found = (RobotGame(), TronGame())
    assert tuple(g.name for g in found) == GAME_NAMES, "one editor game per engine game, in the same order"
    return found


def game_named(name: str) -> EditorGame:
    """The game called ``name`` (``robots``, ``tron``); ValueError naming the known ones otherwise."""
    for game in games():
        if game.name == name:
            return game
    raise ValueError(f"unknown game {name!r}; known: {', '.join(g.name for g in games())}")


def game_for_file(path: str | Path) -> EditorGame | None:
    """The game a file belongs to (None when the path does not exist)."""
    name = sniff_game(path)
    return None if name is None else game_named(name)


def game_of(grid: Grid | object) -> EditorGame:
    """The game whose value ``grid`` is (TypeError for anything else)."""
    for game in games():
        if game.owns(grid):
            return game
    raise TypeError(f"no editor game holds a {type(grid).__name__}")
