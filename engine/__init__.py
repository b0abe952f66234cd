"""robots engine: the exact rules of the 2009 freiesMagazin robot contest.

The engine is the foundation of the product; the viewer and the editor consume
its model and files and never re-implement a rule.

For scripts (docs/python.md): the value types, ``play_card``, reading boards and decks, playing
whole games and ``InputError`` (every bad file, located) are importable from here; replays, game
folders, the oracles and Tron live in the submodules that guide names.

The names below are loaded on first use (PEP 562), not on ``import engine``: ``robots-ai``
starts a new process every round and must not pay for the rules it does not run.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # not typing's: importing typing costs a warm round milliseconds

if TYPE_CHECKING:
    from engine.boardfile import load_board, parse_board, write_board
    from engine.cards import Card
    from engine.deck import generate_deck, load_deck
    from engine.errors import InputError
    from engine.events import Cause, DeathReason, Event, EventKind, RobotStatus
    from engine.game import GameRecord, Outcome, play_game
    from engine.model import Board, Direction, Level, Pose, Rotation, Tile, TileKind
    from engine.rules import CardResult, play_card

#: Where each public name lives.
_HOMES = {
    "Board": "engine.model",
    "Card": "engine.cards",
    "CardResult": "engine.rules",
    "Cause": "engine.events",
    "DeathReason": "engine.events",
    "Direction": "engine.model",
    "Event": "engine.events",
    "EventKind": "engine.events",
    "GameRecord": "engine.game",
    "InputError": "engine.errors",
    "Level": "engine.model",
    "Outcome": "engine.game",
    "Pose": "engine.model",
    "RobotStatus": "engine.events",
    "Rotation": "engine.model",
    "Tile": "engine.model",
    "TileKind": "engine.model",
    "generate_deck": "engine.deck",
    "load_board": "engine.boardfile",
    "load_deck": "engine.deck",
    "parse_board": "engine.boardfile",
    "play_card": "engine.rules",
    "play_game": "engine.game",
    "write_board": "engine.boardfile",
}

__all__ = [
    "Board",
    "Card",
    "CardResult",
    "Cause",
    "DeathReason",
    "Direction",
    "Event",
    "EventKind",
    "GameRecord",
    "InputError",
    "Level",
    "Outcome",
    "Pose",
    "RobotStatus",
    "Rotation",
    "Tile",
    "TileKind",
    "generate_deck",
    "load_board",
    "load_deck",
    "parse_board",
    "play_card",
    "play_game",
    "write_board",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
