"""Pushers and crushers, including when a crusher acts (RULES.md: Playing one card, 3)."""

from __future__ import annotations

import pytest

from .cases import Case, check

CASES = [
    Case("D pushes right", "D  ", "normal", "0 0 U", "RL", "1 0 L", "A", "RL MR"),
    Case("C pushes left", "  C", "normal", "2 0 U", "RL", "1 0 L", "A", "RL ML"),
    Case("E pushes up", " /E", "normal", "0 1 L", "RR", "0 0 U", "A", "RR MU"),
    Case("F pushes down", "F/ ", "normal", "0 0 L", "RR", "0 1 U", "A", "RR MD"),
    Case("pusher into a wall", "Db", "normal", "0 0 U", "RL", "0 0 L", "A", "RL"),
    Case("pusher into a box", "Dp", "normal", "0 0 U", "RL", "0 0 L", "A", "RL"),
    Case("pusher into the edge, normal", "E/ ", "normal", "0 0 U", "RR", "0 0 R", "A", "RR"),
    Case("pusher off the edge, hard", "E/ ", "hard", "0 0 U", "RR", "0 -1 R", "X", "RR MU X"),
    Case("pusher into a hole", "DH", "normal", "0 0 U", "RL", "1 0 L", "X", "RL MR X"),
    Case("pusher next to a hole pushes past it", "H /D ", "normal", "0 1 U", "RL", "1 1 L", "A", "RL MR"),
    Case("pusher onto oil slides", "DOO ", "normal", "0 0 U", "RL", "3 0 L", "A", "RL MR MR MR"),
    Case("pusher onto a rotator: rotated the same card", "DR", "normal", "0 0 U", "RL", "1 0 U", "A", "RL MR RR"),
    Case("pusher onto a left rotator", "LC", "normal", "1 0 U", "RR", "0 0 U", "A", "RR ML RL"),
    Case("pusher onto a goal", "DZ", "normal", "0 0 U", "RL", "1 0 L", "Z", "RL MR Z"),
    Case("pusher's back blocks entry", " D ", "normal", "0 0 R", "MF 1", "0 0 R", "A", ""),
    Case("pusher's back blocks leaving, then it pushes", " D ", "normal", "1 0 L", "MF 1", "2 0 L", "A", "MR"),
    Case("pusher entered from its side, then pushed", " T / D /  Z", "normal", "1 0 D", "MF 1", "2 1 D", "A", "MD MR"),
    Case("pusher into the next pusher's back", "DD ", "normal", "0 0 U", "RR", "0 0 R", "A", "RR"),
    Case(
        "belt onto a pusher that pushes into a hole", ">FZ/TH ", "normal", "0 1 U", "MF 1", "1 1 U", "X", "MU MR MD X"
    ),
    Case("belt into a pusher's back: blocked", ">D", "normal", "0 0 U", "RR", "0 0 R", "A", "RR"),
    Case("easy: pushers still push", "D  ", "easy", "0 0 U", "RL", "1 0 L", "A", "RL MR"),
    # Crushers.
    Case("card onto N: crushed after the card", " N ", "normal", "0 0 R", "MF 1", "1 0 R", "X", "MR X"),
    Case("card onto M from above: crushed", " /M", "normal", "0 0 D", "MF 1", "0 1 D", "X", "MD X"),
    Case("MF 2 through N survives", " N  ", "normal", "0 0 R", "MF 2", "2 0 R", "A", "MR MR"),
    Case("M's jaw blocks from the left", " M ", "normal", "0 0 R", "MF 1", "0 0 R", "A", ""),
    Case("N's jaw blocks from below", "N/ ", "normal", "0 1 U", "MF 1", "0 1 U", "A", ""),
    Case("belt onto N: crushed after the belt", ">N", "normal", "0 0 U", "RR", "1 0 R", "X", "RR MR X"),
    Case("belt v onto M: crushed", "v/M", "normal", "0 0 L", "RR", "0 1 U", "X", "RR MD X"),
    Case("belt into M's jaw: blocked", ">M", "normal", "0 0 U", "RR", "0 0 R", "A", "RR"),
    Case("belt into N's jaw: blocked", "v/N", "normal", "0 0 L", "RR", "0 0 U", "A", "RR"),
    Case(
        "pushed onto a crusher: safe this card, crushed the next",
        "M/E/ ",
        "normal",
        "0 1 L",
        "RR, RL",
        "0 0 L",
        "X",
        "RR MU ---- RL X",
    ),
    Case(
        "pushed over oil onto a crusher: safe this card",
        "DON",
        "normal",
        "0 0 U",
        "RR, RR",
        "2 0 D",
        "X",
        "RR MR MR ---- RR X",
    ),
    Case("on a crusher, turning only: crushed", "M", "normal", "0 0 U", "RL", "0 0 L", "X", "RL X"),
    Case("on a crusher, driving off: safe", " /M", "normal", "0 1 U", "MF 1", "0 0 U", "A", "MU"),
    Case("on a crusher, blocked step: crushed", "M ", "normal", "0 0 L", "MF 1", "0 0 L", "X", "X"),
    Case("easy: crusher is floor", "N", "easy", "0 0 U", "RL", "0 0 L", "A", "RL"),
    Case("hard: crusher crushes", "N", "hard", "0 0 U", "RL", "0 0 L", "X", "RL X"),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_pushers_and_crushers(case: Case) -> None:
    check(case)
