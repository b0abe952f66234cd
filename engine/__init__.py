"""robots engine: the exact rules of the 2009 freiesMagazin robot contest.

The engine is the foundation of the product; the viewer and the editor consume
its model and files and never re-implement a rule.
"""

from engine.cards import Card
from engine.events import Cause, DeathReason, Event, EventKind, RobotStatus
from engine.model import (
    Board,
    Direction,
    Level,
    Pose,
    Rotation,
    Tile,
    TileKind,
)
from engine.rules import CardResult, play_card

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
