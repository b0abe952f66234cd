"""rounds.jsonl: what a game writes (``format_rounds``) reads back (``parse_rounds``) and is
written again (``write_rounds``) to the very same bytes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from engine.ai.reference import reference_chooser
from engine.boardfile import load_board
from engine.cards import HAND_SIZE, Card
from engine.debugmarks import parse_debug
from engine.deck import generate_deck
from engine.game import AIError, Chooser, new_game, play_rounds
from engine.model import Board, Direction, Level, Pose
from engine.roundlog import RoundEntry, format_rounds, parse_rounds, write_rounds
from engine.turns import TurnRecorder

CHOP = Path(__file__).resolve().parents[2] / "gameboards" / "chop.dat"


def _failing_in(round_number: int) -> Chooser:
    calls = []

    def choose(board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> Sequence[Card]:
        calls.append(1)
        if len(calls) == round_number:
            raise AIError("wrote 'MF 4' to ccards.txt: no such card")
        return reference_chooser(board, level, pose, hand)

    return choose


def _game_text(chooser: Chooser, seed: int) -> tuple[str, Board]:
    board = load_board(CHOP)
    game = new_game(board, Level.NORMAL)
    recorder = TurnRecorder(chooser)
    for _ in play_rounds(game, generate_deck(seed), recorder):
        pass
    first = recorder.turns[0]
    # U+2028 and U+0085 are kept raw in the JSON: they once split a line in two on reading
    first.output, first.output_bytes = "thinking…\u2028still\x85\nchose the first five\n", 37
    first.debug = parse_debug(
        "mark 1 1 red hi\narrow 0 0 2 1 blue\ntext why\nnonsense here\n", board.width, board.height
    )
    return format_rounds(game, recorder.turns), board


def test_a_recorded_game_reads_back_and_is_written_again_exactly() -> None:
    text, board = _game_text(reference_chooser, 8)
    entries = parse_rounds(text, "rounds.jsonl", board.width, board.height)
    assert entries[0].debug.marks and entries[0].debug.problems and entries[0].seconds is not None
    assert write_rounds(entries) == text


def test_a_game_the_ai_ended_reads_back_and_is_written_again_exactly() -> None:
    text, board = _game_text(_failing_in(3), 8)
    entries = parse_rounds(text, "rounds.jsonl", board.width, board.height)
    assert [e.end for e in entries][-1] == "E" and entries[-1].error and entries[-1].after is None
    assert write_rounds(entries) == text


def test_a_game_without_the_ai_s_side_is_written_again_exactly() -> None:
    board = load_board(CHOP)
    game = new_game(board, Level.EASY)
    for _ in play_rounds(game, generate_deck(2), reference_chooser):
        pass
    text = format_rounds(game)
    entries = parse_rounds(text, "rounds.jsonl", board.width, board.height)
    assert all(e.seconds is None for e in entries)
    assert write_rounds(entries) == text


poses = st.builds(Pose, st.integers(0, 11), st.integers(0, 11), st.sampled_from(list(Direction)))
cards = st.sampled_from(list(Card))
entries = st.builds(
    RoundEntry,
    number=st.integers(1, 700),
    before=poses,
    hand=st.tuples(*[cards] * HAND_SIZE),
    chosen=st.none() | st.lists(cards, max_size=5).map(tuple),
    played=st.integers(0, 5),
    after=st.none() | poses,
    end=st.sampled_from(["alive", "X", "Z", "E"]),
    seconds=st.none() | st.floats(0, 1e6, allow_nan=False),
    output=st.text(max_size=40),
    output_bytes=st.integers(0, 10**9),
    error=st.none() | st.text(max_size=40),
)


@given(st.lists(entries, max_size=4))
def test_any_entries_round_trip(written: list[RoundEntry]) -> None:
    """What the record keeps (the AI's output only with its time, as a game writes it) reads back."""
    kept = [e if e.seconds is not None else replace(e, output="", output_bytes=0) for e in written]
    text = write_rounds(kept)
    assert parse_rounds(text, "rounds.jsonl", 12, 12) == kept
    assert write_rounds(parse_rounds(text, "rounds.jsonl", 12, 12)) == text
