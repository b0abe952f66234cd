"""The simple bots: the contest's dummy-bot idea, and a random one.

``simple`` drives ahead and turns only to avoid crashing this very round (left first, then right), the
sparring partner every entry of the time was tested against.  ``random`` picks any move that does not
crash this round at random: a bot with random elements, for the tournament's repeated games.
"""

from __future__ import annotations

import random

from engine.tron.bots.client import View


def safe_moves(view: View) -> list[str]:
    """The answers that do not drive into a blocked field this round (the order AHEAD, LEFT, RIGHT)."""
    return [a for a in ("AHEAD", "LEFT", "RIGHT") if view.free[view.move_target(a)]]


def choose_simple(view: View) -> str:
    moves = safe_moves(view)
    return moves[0] if moves else "AHEAD"


class RandomBot:
    """Chooses uniformly among safe moves; seeded for reproducible tests."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, view: View) -> str:
        moves = safe_moves(view)
        return self.rng.choice(moves) if moves else "AHEAD"
