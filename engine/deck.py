"""Card decks: generate (seedable), read, write and validate 5,600-card decks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from engine.atomic import write_text_atomic
from engine.cards import DECK_COMPOSITION, DECK_SIZE, Card
from engine.errors import DeckError, InputError, read_text


def generate_deck(seed: int | None = None) -> list[Card]:
    """A shuffled full deck; the same ``seed`` always gives the same deck (None: fresh randomness)."""
    cards = [card for card, count in DECK_COMPOSITION.items() for _ in range(count)]
    random.Random(seed).shuffle(cards)
    return cards


def parse_cards(text: str, path: str | Path | None = None, error: type[InputError] = DeckError) -> list[Card]:
    """Cards written one per line (deck, ``cards.txt``, ``ccards.txt``); blank lines are skipped.

    Raises ``error`` (DeckError; ProtocolError for the AI's files) naming the line and column
    of the first unknown card.
    """
    cards: list[Card] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            cards.append(Card.parse(line))
        except ValueError as exc:
            column = len(line) - len(line.lstrip()) + 1
            raise error(str(exc), path, number, column) from None
    return cards


def write_cards(cards: Sequence[Card]) -> str:
    """Cards one per line, each line ending in ``\\n`` (the contest's format)."""
    return "".join(card.value + "\n" for card in cards)


def deck_problems(cards: Sequence[Card]) -> list[str]:
    """Why a card list is not a full deck, in plain words (empty list: it is one)."""
    problems = []
    if len(cards) != DECK_SIZE:
        problems.append(f"has {len(cards)} cards, a deck has {DECK_SIZE}")
    counts = Counter(cards)
    for card, expected in DECK_COMPOSITION.items():
        if counts[card] != expected:
            problems.append(f"has {counts[card]} x {card.value!r}, a deck has {expected}")
    return problems


def parse_deck(text: str, path: str | Path | None = None, *, strict: bool = True) -> list[Card]:
    """Parse a deck file; with ``strict`` it must be a full 5,600-card deck of the right mix."""
    cards = parse_cards(text, path)
    if strict:
        if not cards:  # else eight problems, "has 0 x 'MF 3', a deck has 400; ...": 290 characters
            raise DeckError(f"no cards: expected a deck of {DECK_SIZE} cards, one per line", path, 1, 1)
        problems = deck_problems(cards)
        if len(problems) > MAX_PROBLEMS:
            problems[MAX_PROBLEMS:] = [f"and {len(problems) - MAX_PROBLEMS} more"]
        if problems:
            where = (card_line(text, DECK_SIZE), 1) if len(cards) > DECK_SIZE else ()
            raise DeckError("not a valid deck: " + "; ".join(problems), path, *where)
    return cards


#: Problems of a deck named in its one-line error (a list of cards is short of every kind).
MAX_PROBLEMS = 3


def card_line(text: str, index: int) -> int:
    """The line of ``text`` holding card ``index`` (from 0; blank lines hold none), or the line
    after its last when it has fewer cards (where the missing card was due)."""
    lines = text.splitlines()
    seen = 0
    for number, line in enumerate(lines, start=1):
        if line.strip():
            if seen == index:
                return number
            seen += 1
    return len(lines) + 1


def load_deck(path: str | Path, *, strict: bool = True) -> list[Card]:
    return parse_deck(read_text(path, DeckError), path, strict=strict)


def save_deck(cards: Sequence[Card], path: str | Path) -> None:
    """Write a deck file atomically."""
    write_text_atomic(path, write_cards(cards))
