"""stats.txt: written by ``format_stats`` and read back by ``parse_stats``, exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.ai.reference import reference_chooser
from engine.boardfile import load_board
from engine.deck import generate_deck
from engine.errors import InputError
from engine.game import play_game
from engine.model import Level
from engine.outputs import MAX_STAT, Stats, format_stats, parse_stats

BOARDS = Path(__file__).resolve().parents[2] / "gameboards"

counts = st.integers(0, MAX_STAT)
flags = st.integers(0, 1)
stats = st.builds(Stats, counts, counts, counts, counts, flags, flags, flags)


@given(stats)
def test_any_stats_round_trip_exactly(value: Stats) -> None:
    text = value.format()
    assert parse_stats(text) == value
    assert parse_stats(text).format() == text


def test_a_played_game_s_stats_read_back() -> None:
    board = load_board(BOARDS / "chop.dat")
    game = play_game(board, Level.NORMAL, generate_deck(3), reference_chooser)
    text = format_stats(game)
    assert parse_stats(text) == Stats.of(game)
    assert parse_stats(text).format() == text


GOOD = "Cards: 12\nRounds: 3\nCard Moves: 9\nBoard Moves: 4\nDestroyed (X): 1\nCards Out (Y): 0\nFinished (Z): 0\n"


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        (GOOD.replace("Rounds: 3", "Round: 3"), "s.txt:2:1:", "expected 'Rounds: N', not 'Round: 3'"),
        (GOOD.replace("Rounds: 3", "Rounds: x"), "s.txt:2:9:", "Rounds must be a whole number, not 'x'"),
        (GOOD.replace("(X): 1", "(X): 2"), "s.txt:5:16:", "Destroyed (X) 2 is out of range 0..1"),
        (GOOD.rsplit("Finished", 1)[0], "s.txt:7:1:", "missing line 'Finished (Z)'"),
        (GOOD + "more\n", "s.txt:8:1:", "text after the 7 lines: 'more'"),
        ("", "s.txt:1:1:", "missing line 'Cards'"),
    ],
)
def test_a_bad_stats_file_is_one_located_line(text: str, where: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_stats(text, "s.txt")
    message = str(caught.value)
    assert message.startswith(where) and words in message and "\n" not in message
