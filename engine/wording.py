"""Counts in the words people read: "1 round", "2 rounds" (every tool's final lines use this)."""

from __future__ import annotations


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """``number`` and the noun it counts, singular for exactly one ("after 1 round, 1 card"):
    "1 rounds" reads like a bug to the person looking at a game's result."""
    noun = singular if number == 1 else (plural if plural is not None else singular + "s")
    return f"{number} {noun}"
