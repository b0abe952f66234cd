"""The order inside one card: card, conveyors, pushers and crushers, rotators (RULES.md: Playing one card)."""

from __future__ import annotations

import pytest

from .cases import Case, check

CASES = [
    # The contest's own example: a belt carries the robot to a pusher that pushes it onto a rotator.
    Case("belt, then pusher, then rotator in one card", ">F/ R", "normal", "0 0 U", "RL", "1 1 U", "A", "RL MR MD RR"),
    Case("card, belt and rotator in one card", "T>L", "normal", "0 0 R", "MF 1", "2 0 U", "A", "MR MR RL"),
    Case("belt before crusher: carried onto N then crushed", ">N", "normal", "0 0 U", "RR", "1 0 R", "X", "RR MR X"),
    Case(
        "pusher after belt: a belt cannot act on a robot the pusher moved",
        "F /> /  ",
        "normal",
        "0 0 U",
        "RL",
        "0 1 L",
        "A",
        "RL MD",
    ),
    Case("a belt acts only once per card", ">>>", "normal", "0 0 U", "RR", "1 0 R", "A", "RR MR"),
    Case("rotator acts after the belt left it", "R> ", "normal", "1 0 U", "RL", "2 0 L", "A", "RL MR"),
    Case("board acts after a card that did nothing", "  /D ", "normal", "0 1 L", "MF 1", "1 1 L", "A", "MR"),
    Case("nothing acts after destruction", " H", "normal", "0 0 R", "MF 3", "1 0 R", "X", "MR X"),
    Case("nothing acts on a goal", "TZ>", "normal", "0 0 R", "MF 1", "1 0 R", "Z", "MR Z"),
    Case("a crusher is checked before rotators", "M", "normal", "0 0 U", "RR", "0 0 R", "X", "RR X"),
    Case(
        "the pusher moves the robot away before the rotator phase",
        "R /D ",
        "normal",
        "0 1 U",
        "RL",
        "1 1 L",
        "A",
        "RL MR",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_phase_order(case: Case) -> None:
    check(case)
