"""Walls (written and built-in) and the board's edge, at each level (RULES.md: Board file, Levels, A step)."""

from __future__ import annotations

import pytest

from .cases import Case, check

CASES = [
    # Written walls: the side of the tile left, or the facing side of the tile entered.
    Case("own right wall blocks", "c ", "normal", "0 0 R", "MF 1", "0 0 R", "A", ""),
    Case("target left wall blocks", " b", "normal", "0 0 R", "MF 1", "0 0 R", "A", ""),
    Case("target's far wall does not block", " c", "normal", "0 0 R", "MF 1", "1 0 R", "A", "MR"),
    Case("own left wall blocks", " b", "normal", "1 0 L", "MF 1", "1 0 L", "A", ""),
    Case("target right wall blocks", "c ", "normal", "1 0 L", "MF 1", "1 0 L", "A", ""),
    Case("own up wall blocks", " /e", "normal", "0 1 U", "MF 1", "0 1 U", "A", ""),
    Case("target down wall blocks", "i/ ", "normal", "0 1 U", "MF 1", "0 1 U", "A", ""),
    Case("own down wall blocks", "i/ ", "normal", "0 0 D", "MF 1", "0 0 D", "A", ""),
    Case("target up wall blocks", " /e", "normal", "0 0 D", "MF 1", "0 0 D", "A", ""),
    Case("entering e from below passes", "e/ ", "normal", "0 1 U", "MF 1", "0 0 U", "A", "MU"),
    Case("box blocks from the left", " p ", "normal", "0 0 R", "MF 3", "0 0 R", "A", ""),
    Case("box blocks from the right", " p ", "normal", "2 0 L", "MF 1", "2 0 L", "A", ""),
    Case("box blocks a backward step", " p ", "normal", "2 0 R", "MB", "2 0 R", "A", ""),
    Case("box blocks from below", "p/ ", "normal", "0 1 U", "MF 2", "0 1 U", "A", ""),
    Case("MF 3 stops at a wall after one step", "  b  ", "normal", "0 0 R", "MF 3", "1 0 R", "A", "MR"),
    Case("wall on o lets the robot out only to the left", " o", "normal", "1 0 L", "MF 1", "0 0 L", "A", "ML"),
    Case("o blocks leaving upwards", "  /o ", "normal", "0 1 U", "MF 1", "0 1 U", "A", ""),
    Case("a turn after a blocked step still turns", "c ", "normal", "0 0 R", "MF 1, RL", "0 0 U", "A", "---- RL"),
    Case("a is floor without walls", "aaa", "normal", "0 0 R", "MF 2", "2 0 R", "A", "MR MR"),
    # The edge: a wall on easy and normal, death on hard.
    Case("easy edge left", "  ", "easy", "0 0 L", "MF 1", "0 0 L", "A", ""),
    Case("normal edge left", "  ", "normal", "0 0 L", "MF 1", "0 0 L", "A", ""),
    Case("hard edge left", "  ", "hard", "0 0 L", "MF 1", "-1 0 L", "X", "ML X"),
    Case("easy MF 3 to the right edge", "   ", "easy", "0 0 R", "MF 3", "2 0 R", "A", "MR MR"),
    Case("normal MF 3 to the right edge", "   ", "normal", "0 0 R", "MF 3", "2 0 R", "A", "MR MR"),
    Case("hard MF 3 off the right edge", "   ", "hard", "0 0 R", "MF 3", "3 0 R", "X", "MR MR MR X"),
    Case("hard MB off the top", " / ", "hard", "0 0 D", "MB", "0 -1 D", "X", "MU X"),
    Case("normal MB at the top", " / ", "normal", "0 0 D", "MB", "0 0 D", "A", ""),
    Case("hard MF 2 off the bottom of a 1-wide board", " / / ", "hard", "0 1 D", "MF 2", "0 3 D", "X", "MD MD X"),
    Case("hard turning at the edge is safe", " ", "hard", "0 0 L", "RL", "0 0 D", "A", "RL"),
    Case("hard wall at the edge holds", "b ", "hard", "0 0 L", "MF 1", "0 0 L", "A", ""),
    # Level-dependent tiles and walls.
    Case("easy hole is floor", " H ", "easy", "0 0 R", "MF 2", "2 0 R", "A", "MR MR"),
    Case("normal hole kills", " H ", "normal", "0 0 R", "MF 2", "1 0 R", "X", "MR X"),
    Case("easy crusher M is floor without jaws", " M ", "easy", "0 0 R", "MF 2", "2 0 R", "A", "MR MR"),
    Case("normal crusher M's jaw blocks", " M ", "normal", "0 0 R", "MF 2", "0 0 R", "A", ""),
    Case("easy pusher's back still blocks", " D ", "easy", "0 0 R", "MF 1", "0 0 R", "A", ""),
    Case("start tiles are floor", "STUV ", "normal", "0 0 R", "MF 3", "3 0 R", "A", "MR MR MR"),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_walls_and_edges(case: Case) -> None:
    check(case)
