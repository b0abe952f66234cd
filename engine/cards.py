"""The seven card kinds and their counts in a 5,600-card deck."""

from __future__ import annotations

import re
from enum import Enum
from functools import cached_property

from engine.bounds import shown
from engine.model import Rotation


class Card(Enum):
    """A program card; the value is exactly how it is written in deck and card files."""

    MF3 = "MF 3"
    MF2 = "MF 2"
    MF1 = "MF 1"
    MB = "MB"
    RL = "RL"
    RR = "RR"
    RU = "RU"

    @cached_property  # read for every card played: a member attribute, not a dictionary lookup
    def steps_forward(self) -> int:
        """How many forward steps the card asks for (0 for turns and MB)."""
        return _STEPS[self]

    @cached_property
    def rotation(self) -> Rotation | None:
        """The turn the card makes, or None for a move card."""
        return _ROTATIONS[self]

    @property
    def probability(self) -> float:
        """The chance that a card drawn from a full deck is this one."""
        return DECK_COMPOSITION[self] / DECK_SIZE

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from its written form (surrounding white space ignored); ValueError if unknown."""
        try:
            return cls(text.strip())
        except ValueError:
            pass
        word = text.strip()
        if word.startswith("\ufeff"):
            # Notepad, PowerShell and Python's "utf-8-sig" put it there; it is invisible in an editor.
            raise ValueError(
                f"a UTF-8 byte-order mark (BOM) before {shown(word[1:], 30)}: write plain ASCII without one"
            )
        several = _CARD_WORD.findall(word)
        if len(several) > 1 and not _CARD_WORD.sub("", word).strip(" \t,;"):
            raise ValueError(f"{len(several)} cards on one line, {shown(word, 30)}: write one card a line")
        glued = _CARD_NAME.findall(word)
        if len(glued) > 1 and _GLUED.fullmatch(word):
            # C's fprintf(f, "%s", card) or Python's write(card) without "\n": the names run together.
            raise ValueError(f"{len(glued)} cards run together, {shown(word, 30)}: write a line end after each card")
        squeezed = "".join(word.upper().split())
        alike = next((c for c in cls if len(word) < 10 and c.value.replace(" ", "") == squeezed), None)
        if alike is not None:
            raise ValueError(f"unknown card {word!r}: card names are case-sensitive, one space inside: {alike.value!r}")
        raise ValueError(f"unknown card {shown(word, 30)} (expected one of: {', '.join(c.value for c in cls)})")


# A card name as a word of its own, to recognise several written on one line.
_CARD_WORD = re.compile(r"\b(?:MF [123]|MB|RL|RR|RU)\b")
# Card names written with nothing between them ("RRMF 1MB"): a line end forgotten after each.
_CARD_NAME = re.compile(r"MF [123]|MB|RL|RR|RU")
_GLUED = re.compile(r"(?:MF [123]|MB|RL|RR|RU)+")

# Module-level tables, not dicts built per call: the planner's tables play these cards millions of times.
_STEPS = {Card.MF3: 3, Card.MF2: 2, Card.MF1: 1, Card.MB: 0, Card.RL: 0, Card.RR: 0, Card.RU: 0}
_ROTATIONS = {
    Card.MF3: None,
    Card.MF2: None,
    Card.MF1: None,
    Card.MB: None,
    Card.RL: Rotation.LEFT,
    Card.RR: Rotation.RIGHT,
    Card.RU: Rotation.UTURN,
}

DECK_COMPOSITION: dict[Card, int] = {
    Card.MF3: 400,
    Card.MF2: 800,
    Card.MF1: 1200,
    Card.MB: 400,
    Card.RL: 1200,
    Card.RR: 1200,
    Card.RU: 400,
}
DECK_SIZE = sum(DECK_COMPOSITION.values())
HAND_SIZE = 8
CHOSEN_PER_ROUND = 5
MAX_ROUNDS = DECK_SIZE // HAND_SIZE
assert DECK_SIZE == 5600 and MAX_ROUNDS == 700
