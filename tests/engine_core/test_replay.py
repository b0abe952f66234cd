"""globalseq.txt is read back and replayed with the rules; contradictions name round and card."""

import dataclasses
import json
from pathlib import Path

import pytest

from engine.boardfile import parse_board
from engine.conformance import reference_chooser
from engine.deck import load_deck
from engine.errors import InputError
from engine.game import Outcome, play_game
from engine.model import Level
from engine.outputs import format_globalseq
from engine.replay import HARDEST_FIRST, fit_levels, load_replay, parse_globalseq, write_globalseq

VECTORS = Path(__file__).resolve().parents[1] / "data" / "conformance"
GAMES = [json.loads(line) for line in (VECTORS / "games.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("case", GAMES, ids=[g["id"] for g in GAMES])
def test_every_vector_game_replays_to_its_final_pose(case: dict) -> None:
    board = parse_board(case["board"])
    replay = load_replay(board, Level(case["level"]), board.start, case["globalseq"])
    final = replay.final_pose
    assert [final.x, final.y, final.facing.value] == case["final"]
    assert replay.outcome is not None and replay.outcome.value == case["outcome"]
    assert replay.round_count == case["rounds"]
    assert len(replay.steps) == case["cards"]
    assert write_globalseq(parse_globalseq(case["globalseq"])) == case["globalseq"]


def test_replayed_cards_are_among_the_played_ones() -> None:
    case = GAMES[0]
    board = parse_board(case["board"])
    deck = load_deck(VECTORS / case["deck"])
    game = play_game(board, Level(case["level"]), deck, reference_chooser)
    replay = load_replay(board, Level(case["level"]), board.start, format_globalseq(game))
    played = [card for r in game.rounds for card in r.chosen[: len(r.results)]]
    assert all(played[i] in step.candidates for i, step in enumerate(replay.steps))
    # a value handed to the viewer and the command line: replaying the same text gives an equal one
    assert replay == load_replay(board, Level(case["level"]), board.start, format_globalseq(game))
    with pytest.raises(dataclasses.FrozenInstanceError):
        replay.outcome = None  # type: ignore[misc]


def test_a_move_through_a_wall_is_reported_with_round_and_card() -> None:
    board = parse_board("3 1\nTbZ\n")  # start facing right, a tile walled on its left, goal
    with pytest.raises(InputError) as info:
        load_replay(board, Level.NORMAL, board.start, "RR\n----\nRL\n----\nMR\n----\nRR\n----\nRL\n", "g.txt")
    assert "round 1, card 3" in str(info.value) and str(info.value).startswith("g.txt:5:")


@pytest.mark.parametrize("text, line", [("MR\nMX\n", 2), ("ML\nZ\nMR\n", 3), ("RR\n--------\nY\n----\nRR\n", 4)])
def test_malformed_sequences_name_the_line(text: str, line: int) -> None:
    with pytest.raises(InputError) as info:
        parse_globalseq(text, "s.txt")
    assert str(info.value).startswith(f"s.txt:{line}:")


def test_level_is_recognised_from_a_fall_off_the_edge() -> None:
    board = parse_board("2 1\nSZ\n")
    fits = fit_levels(board, board.start, parse_globalseq("ML\nX\n"))
    assert [fit.level for fit in fits] == [Level.HARD]
    assert Outcome.DESTROYED is fits[0].outcome is load_replay(board, Level.HARD, board.start, "ML\nX\n").outcome


def test_level_finder_lists_every_fitting_level_hardest_first() -> None:
    board = parse_board("3 1\nS Z\n")
    assert [fit.level for fit in fit_levels(board, board.start, parse_globalseq("MR\n----\nMR\nZ\n"))] == list(
        HARDEST_FIRST
    )
    assert [
        fit.level for fit in fit_levels(board, board.start, parse_globalseq("MR\n----\nMR\nZ\n"), levels=[Level.EASY])
    ] == [Level.EASY]


def test_level_finder_reports_where_the_sequence_got_furthest() -> None:
    board = parse_board("3 1\nTbZ\n")
    sequence = parse_globalseq("RR\n----\nRL\n----\nMR\n----\nRR\n----\nRL\n")
    with pytest.raises(
        InputError, match=r"^s\.txt:5:1: round 1, card 3: .* \(fits no level; this error is for hard\)$"
    ):
        fit_levels(board, board.start, sequence, "s.txt")
    with pytest.raises(InputError, match=r"^s\.txt:5:1: round 1, card 3: [^(]*$"):  # one level: its own error
        fit_levels(board, board.start, sequence, "s.txt", [Level.NORMAL])
