"""Built-in Tron bots, run as programs over the contest's protocol like any contest entry.

    python -m engine.tron.bots strong      (or the console scripts robots-tron-strong / -simple)

``client`` speaks the protocol and keeps the bot's view of the board; ``simple`` is the contest's
dummy-bot idea (drive ahead, turn only to avoid a crash), ``random`` picks a random safe move and
``strong`` reasons about territory and space.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.tron.bots.client import View

#: name -> factory of a move chooser (a fresh one per game).
Chooser = Callable[[View], str]
BUILTIN_NAMES = ("simple", "random", "strong")


def make_chooser(name: str, budget: float | None = None, seed: int | None = None) -> Chooser:
    """A fresh chooser for the built-in bot ``name``; ValueError for unknown names."""
    if name == "simple":
        from engine.tron.bots.simple import choose_simple

        return choose_simple
    if name == "random":
        from engine.tron.bots.simple import RandomBot

        return RandomBot(seed)
    if name == "strong":
        from engine.tron.bots.strong import StrongBot

        return StrongBot(budget) if budget is not None else StrongBot()
    raise ValueError(f"unknown built-in Tron bot {name!r} (known: {', '.join(BUILTIN_NAMES)})")
