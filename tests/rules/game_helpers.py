"""Small helpers for whole-game tests: decks written as card lists, and the reference AI."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.game import GameRecord, play_game
from engine.model import Board, Level, Pose


def first_five(board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> Sequence[Card]:
    """The contest's reference AI: the first five cards of the hand, in dealt order."""
    return hand[:5]


def deck_of(text: str) -> list[Card]:
    """A (short) deck from comma-separated cards, e.g. ``"MF 1, RL, RL"``."""
    return [Card.parse(part) for part in text.split(",")]


def game_of(rows: str, level: str, deck: str) -> GameRecord:
    return play_game(Board.from_strings(rows.split("/")), Level(level), deck_of(deck), first_five)
