"""Conveyors: one step, turns when carried onto another belt (RULES.md: Playing one card, 2)."""

from __future__ import annotations

import pytest

from .cases import Case, check

CASES = [
    Case("belt moves one step", ">  ", "normal", "0 0 U", "RL", "1 0 L", "A", "RL MR"),
    Case("belt moves after a blocked card step", "> ", "normal", "0 0 L", "MF 1", "1 0 L", "A", "MR"),
    Case("chain: one step per card, no turn", ">> ", "normal", "0 0 U", "RL, RL", "2 0 D", "A", "RL MR ---- RL MR"),
    Case("> onto ^ turns left", ">^", "normal", "0 0 D", "RU", "1 0 L", "A", "RU MR RL"),
    Case("> onto v turns right", ">v", "normal", "0 0 U", "RU", "1 0 L", "A", "RU MR RR"),
    Case("v onto > turns left", "v/>", "normal", "0 0 L", "RL", "0 1 R", "A", "RL MD RL"),
    Case("v onto < turns right", "v/<", "normal", "0 0 U", "RU", "0 1 L", "A", "RU MD RR"),
    Case("< onto ^ turns right", "^<", "normal", "1 0 L", "RU", "0 0 D", "A", "RU ML RR"),
    Case("< onto v turns left", "v<", "normal", "1 0 D", "RU", "0 0 L", "A", "RU ML RL"),
    Case("^ onto < turns left", "</^", "normal", "0 1 U", "RU", "0 0 R", "A", "RU MU RL"),
    Case("^ onto > turns right", ">/^", "normal", "0 1 R", "RL", "0 0 R", "A", "RL MU RR"),
    Case("head-on belts: no turn", "><", "normal", "0 0 U", "RR", "1 0 R", "A", "RR MR"),
    Case("head-on belts ping-pong", "><", "normal", "0 0 U", "RR, RR", "0 0 D", "A", "RR MR ---- RR ML"),
    Case("belt blocked by a wall does nothing", ">b", "normal", "0 0 U", "RR", "0 0 R", "A", "RR"),
    Case("belt blocked by its own wall", "c ", "normal", "0 0 U", "RR", "0 0 R", "A", "RR"),
    Case("belt blocked by the edge, normal", "< ", "normal", "0 0 D", "RL", "0 0 R", "A", "RL"),
    Case("belt blocked by the edge, easy", "< ", "easy", "0 0 D", "RL", "0 0 R", "A", "RL"),
    Case("belt off the edge, hard", "< ", "hard", "0 0 D", "RL", "-1 0 R", "X", "RL ML X"),
    Case("belt into a hole", ">H", "normal", "0 0 U", "RR", "1 0 R", "X", "RR MR X"),
    Case("belt onto a goal", ">Z", "normal", "0 0 U", "RR", "1 0 R", "Z", "RR MR Z"),
    Case(
        "belt onto oil onto a perpendicular belt turns", ">OOv", "normal", "0 0 U", "RL", "3 0 U", "A", "RL MR MR MR RR"
    ),
    Case("belt onto oil onto ^ turns left", ">OO^", "normal", "0 0 D", "RU", "3 0 L", "A", "RU MR MR MR RL"),
    Case("belt onto oil onto a head-on belt: no turn", ">O<", "normal", "0 0 U", "RR", "2 0 R", "A", "RR MR MR"),
    Case("belt onto oil that ends on floor: no turn", ">O ", "normal", "0 0 U", "RR", "2 0 R", "A", "RR MR MR"),
    Case("belt onto oil into a hole", ">OH", "normal", "0 0 U", "RR", "2 0 R", "X", "RR MR MR X"),
    Case("belt onto oil to the edge, normal", ">OO", "normal", "0 0 U", "RR", "2 0 R", "A", "RR MR MR"),
    Case("card step onto a belt does not turn", "T>^", "normal", "0 0 R", "MF 1", "2 0 U", "A", "MR MR RL"),
    Case("pushed onto a belt: no turn, belt waits", "F/^/ ", "normal", "0 0 R", "RL", "0 1 U", "A", "RL MD"),
    Case("easy: belts still move", ">  ", "easy", "0 0 U", "RL", "1 0 L", "A", "RL MR"),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_conveyor(case: Case) -> None:
    check(case)
