"""A Tron tournament's ``results.csv``: ``format_results`` writes what ``parse_results`` reads back."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InputError
from engine.tron.tournament import RESULT_COLUMNS, GameResult, format_results, parse_results

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)  # CR, LF, quotes and commas too
COUNT = st.integers(0, 10**6)
RESULTS = st.builds(GameResult, TEXT, TEXT, TEXT, TEXT, COUNT, COUNT, COUNT, COUNT, COUNT, TEXT, TEXT)


@given(st.lists(RESULTS, max_size=5))
def test_any_results_round_trip_exactly(results: list[GameResult]) -> None:
    text = format_results(results)
    assert parse_results(text) == sorted(results, key=lambda r: r.key)
    assert format_results(parse_results(text)) == text


HEADER = ",".join(RESULT_COLUMNS) + "\r\n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("key,arena\r\n", "r.csv:1:1: expected the header key,arena,bot1,"),
        (HEADER + "0-1@0#0,a,b,c,1,2\r\n", "r.csv:2:1: expected 11 fields, found 6"),
        (HEADER + "0-1@0#0,a,b,c,1,-2,0,3,9,,\r\n", "r.csv:2:1: survived2 must be a whole number, not '-2'"),
        (HEADER + '0-1@0#0,"a\r\n', "r.csv:2:1: expected 11 fields, found 2"),
    ],
)
def test_a_damaged_results_file_is_one_located_line(text: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_results(text, "r.csv")
    assert str(caught.value).startswith(words) and "\n" not in str(caught.value)


def test_a_bot_or_arena_named_by_bytes_that_are_not_utf8_is_written_escaped() -> None:
    """A bot from a Latin-1 folder (``Bot \\xe4.sh``) made the tournament's ``results.csv``
    unwritable: a traceback after the last game. Its bytes are written as ``\\xNN``."""
    bot = os.fsdecode(b"Bot \xe4.sh")
    row = GameResult("0-1@0#0", os.fsdecode(b"Arena \xf6.txt"), bot, 'Bot, "eins"', 3, 2, 3, 0, 3, "", "crashed")
    text = format_results([row])
    text.encode("utf-8")  # the file's encoding: raised UnicodeEncodeError
    assert text.splitlines()[1] == '0-1@0#0,Arena \\xf6.txt,Bot \\xe4.sh,"Bot, ""eins""",3,2,3,0,3,,crashed'
