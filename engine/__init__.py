"""robots engine: the exact rules of the 2009 freiesMagazin robot contest.

The engine is the foundation of the product; the viewer and the editor consume
its model and files and never re-implement a rule.

The names below are loaded on first use (PEP 562), not on ``import engine``: ``robots-ai``
starts a new process every round and must not pay for the rules it does not run.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # not typing's: importing typing costs a warm round milliseconds

if TYPE_CHECKING:
    from engine.cards import Card
    from engine.events import Cause, DeathReason, Event, EventKind, RobotStatus
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
    "Level": "engine.model",
    "Pose": "engine.model",
    "RobotStatus": "engine.events",
    "Rotation": "engine.model",
    "Tile": "engine.model",
    "TileKind": "engine.model",
    "play_card": "engine.rules",
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
    "Level",
    "Pose",
    "RobotStatus",
    "Rotation",
    "Tile",
    "TileKind",
    "play_card",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
