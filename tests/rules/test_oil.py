"""Oil: slides, and card turns doubled on oil (RULES.md: A step; Playing one card, 1)."""

from __future__ import annotations

import pytest

from .cases import Case, check

CASES = [
    Case("MF 1 onto a run slides to its end", "TOOO Z", "normal", "0 0 R", "MF 1", "4 0 R", "A", "MR MR MR MR"),
    Case("slide into a wall stops on the oil", " OOb ", "normal", "0 0 R", "MF 1", "2 0 R", "A", "MR MR"),
    Case("slide into a box stops on the oil", " OOp", "normal", "0 0 R", "MF 1", "2 0 R", "A", "MR MR"),
    Case("slide into a hole", " OOH", "normal", "0 0 R", "MF 1", "3 0 R", "X", "MR MR MR X"),
    Case("slide to the edge, normal", " OO", "normal", "0 0 R", "MF 1", "2 0 R", "A", "MR MR"),
    Case("slide off the edge, hard", " OO", "hard", "0 0 R", "MF 1", "3 0 R", "X", "MR MR MR X"),
    Case("slide onto a goal", " OOZ ", "normal", "0 0 R", "MF 1", "3 0 R", "Z", "MR MR MR Z"),
    Case(
        "MF 2: the first step slides, the second goes on",
        "TOO   Z",
        "normal",
        "0 0 R",
        "MF 2",
        "4 0 R",
        "A",
        "MR MR MR MR",
    ),
    Case("MB onto oil slides backwards, facing kept", " OO  ", "normal", "0 0 L", "MB", "3 0 L", "A", "MR MR MR"),
    Case("leaving oil onto oil slides on", "OO  ", "normal", "0 0 R", "MF 1", "2 0 R", "A", "MR MR"),
    Case("sliding up", " /O/O/ ", "normal", "0 3 U", "MF 1", "0 0 U", "A", "MU MU MU"),
    Case("MF on oil into a wall stays on the oil", "Ob", "normal", "0 0 R", "MF 1", "0 0 R", "A", ""),
    Case("RL on oil is two left turns", "O", "normal", "0 0 U", "RL", "0 0 D", "A", "RL RL"),
    Case("RR on oil is two right turns", "O", "normal", "0 0 U", "RR", "0 0 D", "A", "RR RR"),
    Case("RU on oil is a full turn", "O", "normal", "0 0 U", "RU", "0 0 U", "A", "RU RU"),
    Case("RL on oil from left", "O", "hard", "0 0 L", "RL", "0 0 R", "A", "RL RL"),
    Case("stopped on oil, then a turn is doubled", "Ob", "normal", "0 0 R", "MF 1, RL", "0 0 L", "A", "---- RL RL"),
    Case("easy: oil is floor, no slide", " OO ", "easy", "0 0 R", "MF 1", "1 0 R", "A", "MR"),
    Case("easy: oil is floor, no doubled turn", "O", "easy", "0 0 U", "RL", "0 0 L", "A", "RL"),
    Case("slide onto a crusher: crushed after the card", " ON ", "normal", "0 0 R", "MF 1", "2 0 R", "X", "MR MR X"),
    Case("slide blocked by crusher M's jaw", " OM ", "normal", "0 0 R", "MF 1", "1 0 R", "A", "MR"),
    Case("slide blocked by a pusher's back", " OD ", "normal", "0 0 R", "MF 1", "1 0 R", "A", "MR"),
    Case("slide onto a rotator: turned after the card", " OR ", "normal", "0 0 R", "MF 1", "2 0 D", "A", "MR MR RR"),
    Case(
        "slide onto a belt: no turn, then the belt moves it",
        "   Z/ O^ /    ",
        "normal",
        "0 1 R",
        "MF 1",
        "2 0 R",
        "A",
        "MR MR MU",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_oil(case: Case) -> None:
    check(case)
