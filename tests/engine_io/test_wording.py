"""Counts are worded for people: "1 round", never "1 rounds"."""

from __future__ import annotations

import pytest

from engine.wording import counted


@pytest.mark.parametrize(
    ("number", "singular", "plural", "expected"),
    [
        (0, "round", None, "0 rounds"),
        (1, "round", None, "1 round"),
        (2, "round", None, "2 rounds"),
        (1, "AI", None, "1 AI"),
        (3, "AI", None, "3 AIs"),
        (1, "bus", "buses", "1 bus"),
        (2, "bus", "buses", "2 buses"),
        (-1, "card", None, "-1 cards"),
    ],
)
def test_counted(number: int, singular: str, plural: str | None, expected: str) -> None:
    assert counted(number, singular, plural) == expected
