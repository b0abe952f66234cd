"""The contest's reference AI: it plays the first five cards of the hand in dealt order.

It is what the contest's own ``bot-ki`` did and what the conformance game vectors were made
with, so it must never change.
"""

from __future__ import annotations

from engine.ai.base import BaseAI
from engine.cards import CHOSEN_PER_ROUND, Card
from engine.model import Board, Level, Pose


def reference_chooser(board: object, level: object, pose: object, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The contest's reference AI as a plain function: the first five cards, in dealt order."""
    return tuple(hand[:CHOSEN_PER_ROUND])


class ReferenceAI(BaseAI):
    """The reference AI as a named :class:`BaseAI` (``--ai reference``)."""

    name = "reference"

    def choose(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> tuple[Card, ...]:
        return reference_chooser(board, level, pose, hand)
