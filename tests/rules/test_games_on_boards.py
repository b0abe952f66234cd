"""Whole games with the reference AI on every board at every level: the files written agree with
each other (replaying globalseq.txt from the start reaches the final pose; stats count its lines)."""

from __future__ import annotations

import pytest

from engine.deck import generate_deck
from engine.game import Outcome, play_game
from engine.model import Direction, Level, Pose, Rotation
from engine.outputs import Stats, format_globalseq

from .game_helpers import first_five
from .test_gameboards import BOARDS

MOVES = {"M" + d.value: d for d in Direction}
TURNS = {r.value: r for r in Rotation}


def replay(start: Pose, lines: list[str]) -> Pose:
    """Apply the absolute moves and turns of a sequence file to a pose."""
    pose = start
    for line in lines:
        if line in MOVES:
            pose = pose.moved(MOVES[line])
        elif line in TURNS:
            pose = pose.turned(TURNS[line])
    return pose


@pytest.mark.parametrize("level", list(Level), ids=lambda lv: lv.value)
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_reference_games_write_consistent_files(name: str, level: Level) -> None:
    board = BOARDS[name]
    for seed in (1, 2):
        game = play_game(board, level, generate_deck(seed), first_five)
        assert game.outcome in (Outcome.DESTROYED, Outcome.CARDS_OUT, Outcome.FINISHED)
        lines = format_globalseq(game).splitlines()
        assert lines[-1] == game.outcome.value
        assert game.final_pose is not None
        assert replay(game.start, lines) == game.final_pose
        stats = Stats.of(game)
        assert stats.card_moves + stats.board_moves == sum(1 for line in lines if line in MOVES or line in TURNS)
        rounds: list[list[str]] = [[]]
        for line in lines:
            if line == "--------":
                rounds.append([])
            else:
                rounds[-1].append(line)
        dealt = rounds[:-1] if game.outcome is Outcome.CARDS_OUT else rounds
        assert len(dealt) == stats.rounds == len(game.rounds)
        # a round of k cards has k - 1 card separators (a card may write no line at all)
        assert sum(r.count("----") + 1 for r in dealt) == stats.cards
        if level is Level.EASY:
            assert game.outcome is not Outcome.DESTROYED
        if name == "no-way-to-goal.dat":
            assert game.outcome is not Outcome.FINISHED
