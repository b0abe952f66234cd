"""Decks and dealing (RULES.md: Rounds and the deck)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from engine.cards import DECK_COMPOSITION, DECK_SIZE, HAND_SIZE, Card
from engine.deck import deck_problems, generate_deck, parse_deck, write_cards
from engine.errors import InputError
from engine.game import deal


def test_deck_size_and_mix() -> None:
    deck = generate_deck(3)
    assert len(deck) == DECK_SIZE == 5600
    assert Counter(deck) == Counter(DECK_COMPOSITION)
    assert deck_problems(deck) == []


def test_same_seed_same_deck_other_seed_other_deck() -> None:
    assert generate_deck(11) == generate_deck(11)
    assert generate_deck(11) != generate_deck(12)


@pytest.mark.parametrize(("round_number", "begin"), [(1, 0), (2, 8), (3, 16), (700, 5592)])
def test_round_r_deals_cards_8r_minus_8_to_8r_minus_1(round_number: int, begin: int) -> None:
    deck = generate_deck(5)
    assert deal(deck, round_number) == tuple(deck[begin : begin + HAND_SIZE])


@pytest.mark.parametrize(("size", "rounds"), [(5600, 700), (8, 1), (15, 1), (16, 2), (7, 0), (0, 0)])
def test_rounds_that_can_be_dealt(size: int, rounds: int) -> None:
    deck = [Card.RL] * size
    dealt = 0
    while deal(deck, dealt + 1) is not None:
        dealt += 1
    assert dealt == rounds


def test_deck_file_round_trip() -> None:
    deck = generate_deck(9)
    text = write_cards(deck)
    assert text.endswith("\n") and len(text.splitlines()) == 5600
    assert all(line in {"MF 1", "MF 2", "MF 3", "MB", "RL", "RR", "RU"} for line in text.splitlines())
    assert parse_deck(text) == deck


def _swap_first(lines: list[str]) -> list[str]:
    """Replace the first card by a different one: the size stays, the mix is wrong."""
    return ["RR" if lines[0] == "RL" else "RL", *lines[1:]]


@pytest.mark.parametrize(
    ("edit", "needle"),
    [(lambda lines: lines[1:], "5599 cards"), (_swap_first, "a deck has")],
)
def test_strict_deck_refuses_a_wrong_mix(edit: Callable[[list[str]], list[str]], needle: str) -> None:
    lines = write_cards(generate_deck(2)).splitlines()
    with pytest.raises(InputError) as info:
        parse_deck("\n".join(edit(lines)) + "\n", "deck.txt")
    assert needle in str(info.value)
    assert str(info.value).startswith("deck.txt")
