"""Rotators (RULES.md: Playing one card, 4)."""

from __future__ import annotations

import pytest

from .cases import Case, check

CASES = [
    Case("L turns left after a blocked step", "L", "normal", "0 0 U", "MF 1", "0 0 L", "A", "RL"),
    Case("R turns right after a card turn", "R", "normal", "0 0 U", "RL", "0 0 U", "A", "RL RR"),
    Case("L after RL makes a u-turn", "L", "normal", "0 0 U", "RL", "0 0 D", "A", "RL RL"),
    Case("card step onto R", " R", "normal", "0 0 R", "MF 1", "1 0 D", "A", "MR RR"),
    Case("card step onto L", " L", "normal", "0 0 R", "MF 1", "1 0 U", "A", "MR RL"),
    Case("stepping off a rotator: no turn", "R ", "normal", "0 0 R", "MF 1", "1 0 R", "A", "MR"),
    Case("MF 2 over a rotator: no turn", " R  ", "normal", "0 0 R", "MF 2", "2 0 R", "A", "MR MR"),
    Case("belt onto L", ">L", "normal", "0 0 U", "RR", "1 0 U", "A", "RR MR RL"),
    Case("R every card", "R", "normal", "0 0 U", "RU, RR", "0 0 R", "A", "RU RR ---- RR RR"),
    Case("easy: rotators act", "R", "easy", "0 0 U", "MF 1", "0 0 R", "A", "RR"),
    Case("hard: rotators act", "L", "hard", "0 0 U", "RU", "0 0 R", "A", "RU RL"),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_rotator(case: Case) -> None:
    check(case)
