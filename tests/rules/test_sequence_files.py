"""sequence.txt and globalseq.txt layout: ``----`` between cards, ``--------`` between rounds, never after
the last; a card may have no lines; X, Y, Z end the file (RULES.md: Output files)."""

from __future__ import annotations

import pytest

from engine.outputs import format_globalseq, last_sequence

from .game_helpers import game_of


@pytest.mark.parametrize(
    ("rows", "deck", "globalseq", "sequence"),
    [
        # Blocked cards write nothing, so separators can follow each other.
        ("T", "MF 1, RL, MF 2, RR, MB, RU, RU, RU", "----\nRL\n----\n----\nRR\n----\n--------\nY\n", "Y\n"),
        # Round 1 leaves the robot facing up; round 2 turns it, MF 1, then MF 2 ends on the goal
        # (the goal check comes before each step, the card's end after the last one). Two rounds, then the end; the last round's sequence.txt is its own lines only.
        (
            "T  Z",
            "RL, RR, RL, RR, RL, MF 3, MF 1, RR, RR, MF 1, MF 2, MF 1, RL, RL, RL, RL",
            "RL\n----\nRR\n----\nRL\n----\nRR\n----\nRL\n--------\nRR\n----\nMR\n----\nMR\nMR\nZ\n",
            "RR\n----\nMR\n----\nMR\nMR\nZ\n",
        ),
        # Destroyed on the first card of the second round.
        (
            "T H",
            "RL, RR, MB, RL, RR, RU, RU, RU, MF 2, RL, RL, RL, RL, RL, RL, RL",
            "RL\n----\nRR\n----\n----\nRL\n----\nRR\n--------\nMR\nMR\nX\n",
            "MR\nMR\nX\n",
        ),
        # A board move in the sequence: belt, then the rotator.
        (
            "T>R",
            "MF 1, RL, RL, RL, RL, RL, RL, RL",
            "MR\nMR\nRR\n----\nRL\nRR\n----\nRL\nRR\n----\nRL\nRR\n----\nRL\nRR\n--------\nY\n",
            "Y\n",
        ),
    ],
)
def test_sequence_files(rows: str, deck: str, globalseq: str, sequence: str) -> None:
    game = game_of(rows, "normal", deck)
    assert format_globalseq(game) == globalseq
    assert last_sequence(game) == sequence


def test_round_lines_never_end_with_a_separator() -> None:
    game = game_of("T", "normal", "RL, RL, RL, RL, MF 1, RL, RL, RL")
    lines = game.rounds[0].sequence_lines
    assert lines == ["RL", "----", "RL", "----", "RL", "----", "RL", "----"]
    # the fifth card (blocked MF 1) wrote nothing, so the round's text ends with the separator before it
    assert format_globalseq(game).splitlines()[-2:] == ["--------", "Y"]
