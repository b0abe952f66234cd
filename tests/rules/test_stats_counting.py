"""stats.txt counting: Card Moves (card steps, its slides, doubled turns) versus Board Moves (belts,
pushers, rotators and their slides); X and Z lines are neither (RULES.md: Output files)."""

from __future__ import annotations

import pytest

from engine.outputs import Stats

from .game_helpers import game_of

FOUR_RL = "RL, RL, RL, RL"
TAIL = ", MF 1, MF 1, MF 1"


@pytest.mark.parametrize(
    ("name", "rows", "deck", "card_moves", "board_moves", "cards"),
    [
        ("card slide counts as card", "TOO ", "MF 1, " + FOUR_RL + TAIL, 3 + 4, 0, 5),
        ("doubled turns count twice", "TOb", "MF 1, " + FOUR_RL + TAIL, 1 + 8, 0, 5),
        ("belt move and its slides count as board", "T>OO ", "MF 1, " + FOUR_RL + TAIL, 1 + 4, 3, 5),
        ("belt turn counts as board", "T>v/   ", "MF 1, " + FOUR_RL + TAIL, 1 + 4, 3, 5),
        ("rotator counts as board", "TR", "MF 1, " + FOUR_RL + TAIL, 1 + 4, 5, 5),
        ("pusher counts as board", "TF/  ", "MF 1, " + FOUR_RL + TAIL, 1 + 4, 1, 5),
        ("X is not a move", "TN", "MF 1, " + FOUR_RL + TAIL, 1, 0, 1),
        ("Z is not a move", "TZ", "MF 1, " + FOUR_RL + TAIL, 1, 0, 1),
        ("blocked steps write nothing", "Tb", "MF 1, MF 2, MF 3, MB, RL" + TAIL, 1, 0, 5),
    ],
)
def test_move_counts(name: str, rows: str, deck: str, card_moves: int, board_moves: int, cards: int) -> None:
    game = game_of(rows, "normal", deck)
    stats = Stats.of(game)
    assert (stats.card_moves, stats.board_moves, stats.cards) == (card_moves, board_moves, cards), name
    lines = [line for r in game.rounds for line in r.sequence_lines if line not in {"----", "X", "Z"}]
    assert len(lines) == card_moves + board_moves


def test_stats_file_has_exactly_seven_lines() -> None:
    text = Stats(78, 16, 75, 7, 1, 0, 0).format()
    assert text == (
        "Cards: 78\nRounds: 16\nCard Moves: 75\nBoard Moves: 7\nDestroyed (X): 1\nCards Out (Y): 0\nFinished (Z): 0\n"
    )
