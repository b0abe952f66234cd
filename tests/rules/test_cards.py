"""Each card kind on open floor (RULES.md: Playing one card, 1)."""

from __future__ import annotations

import pytest

from engine.cards import DECK_COMPOSITION, Card

from .cases import Case, check

OPEN = "     /     /     /     /     "

CASES = [
    Case("MF 1 up", OPEN, "normal", "2 2 U", "MF 1", "2 1 U", "A", "MU"),
    Case("MF 1 left", OPEN, "normal", "2 2 L", "MF 1", "1 2 L", "A", "ML"),
    Case("MF 2 left", OPEN, "normal", "2 2 L", "MF 2", "0 2 L", "A", "ML ML"),
    Case("MF 2 down", OPEN, "normal", "2 1 D", "MF 2", "2 3 D", "A", "MD MD"),
    Case("MF 3 right", OPEN, "normal", "1 2 R", "MF 3", "4 2 R", "A", "MR MR MR"),
    Case("MF 3 down, third step blocked by the edge", OPEN, "normal", "2 2 D", "MF 3", "2 4 D", "A", "MD MD"),
    Case("MB facing up moves down", OPEN, "normal", "2 2 U", "MB", "2 3 U", "A", "MD"),
    Case("MB facing right moves left", OPEN, "normal", "2 2 R", "MB", "1 2 R", "A", "ML"),
    Case("MB facing down moves up", OPEN, "normal", "2 2 D", "MB", "2 1 D", "A", "MU"),
    Case("MB facing left moves right", OPEN, "normal", "2 2 L", "MB", "3 2 L", "A", "MR"),
    Case("RL from up", OPEN, "normal", "2 2 U", "RL", "2 2 L", "A", "RL"),
    Case("RL from down", OPEN, "normal", "2 2 D", "RL", "2 2 R", "A", "RL"),
    Case("RR from up", OPEN, "normal", "2 2 U", "RR", "2 2 R", "A", "RR"),
    Case("RR from left", OPEN, "normal", "2 2 L", "RR", "2 2 U", "A", "RR"),
    Case("RU from left", OPEN, "normal", "2 2 L", "RU", "2 2 R", "A", "RU"),
    Case("RU from up", OPEN, "normal", "2 2 U", "RU", "2 2 D", "A", "RU"),
    Case(
        "four RR make a full circle",
        OPEN,
        "normal",
        "2 2 U",
        "RR, RR, RR, RR",
        "2 2 U",
        "A",
        "RR ---- RR ---- RR ---- RR",
    ),
    Case(
        "walk a square",
        OPEN,
        "normal",
        "1 1 R",
        "MF 2, RR, MF 2, RR, MF 2",
        "1 3 L",
        "A",
        "MR MR ---- RR ---- MD MD ---- RR ---- ML ML",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_card(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("MF 1", Card.MF1),
        ("MF 2", Card.MF2),
        ("MF 3", Card.MF3),
        ("MB", Card.MB),
        ("RL", Card.RL),
        ("RR", Card.RR),
        ("RU", Card.RU),
        ("  RU  ", Card.RU),
    ],
)
def test_card_text(text: str, card: Card) -> None:
    assert Card.parse(text) is card


def test_deck_mix_matches_the_contest_table() -> None:
    assert {card.value: count for card, count in DECK_COMPOSITION.items()} == {
        "MF 3": 400,
        "MF 2": 800,
        "MF 1": 1200,
        "MB": 400,
        "RL": 1200,
        "RR": 1200,
        "RU": 400,
    }
