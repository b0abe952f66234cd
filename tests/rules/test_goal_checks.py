"""Goals: checked before each step of MF 2 / MF 3 and after every phase (RULES.md: Playing one card, 1)."""

from __future__ import annotations

import pytest

from .cases import Case, check

CASES = [
    Case("MF 1 onto a goal", "TZ", "normal", "0 0 R", "MF 1", "1 0 R", "Z", "MR Z"),
    Case("MF 3 over a goal stops on it", "T Z  ", "normal", "0 0 R", "MF 3", "2 0 R", "Z", "MR MR Z"),
    Case("MF 2 over a goal stops on it", "TZ  ", "normal", "0 0 R", "MF 2", "1 0 R", "Z", "MR Z"),
    Case("later cards are not played", "T Z  ", "normal", "0 0 R", "MF 3, MF 1, RL", "2 0 R", "Z", "MR MR Z"),
    Case("oil slide onto a goal, MF 2", "TOZO ", "normal", "0 0 R", "MF 2", "2 0 R", "Z", "MR MR Z"),
    Case("MB onto a goal", "ZT", "hard", "1 0 R", "MB", "0 0 R", "Z", "ML Z"),
    Case("belt onto a goal", ">Z", "normal", "0 0 U", "RR", "1 0 R", "Z", "RR MR Z"),
    Case("pushed onto a goal", "F/Z", "normal", "0 0 U", "RR", "0 1 R", "Z", "RR MD Z"),
    Case("any of several goals", "Z T Z", "normal", "2 0 L", "MF 3", "0 0 L", "Z", "ML ML Z"),
    Case("turning on a goal finishes", "Z", "normal", "0 0 U", "RL", "0 0 L", "Z", "RL Z"),
    Case("easy goals count too", "T HZ", "easy", "0 0 R", "MF 3", "3 0 R", "Z", "MR MR MR Z"),
    Case("goal behind a wall is not reached", "T bZ", "normal", "0 0 R", "MF 3", "1 0 R", "A", "MR"),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_goal_checks(case: Case) -> None:
    check(case)
