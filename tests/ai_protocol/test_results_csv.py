"""``results.csv`` round-trips exactly, and its reader fails cleanly on anything else."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.contest.report import CSV_COLUMNS, format_csv, parse_csv
from engine.contest.runner import GameResult
from engine.errors import InputError

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
RESULTS = st.builds(
    GameResult,
    board=TEXT,
    deck=TEXT,
    level=st.sampled_from(["easy", "normal", "hard"]),
    ai=TEXT,
    outcome=st.sampled_from(["X", "Y", "Z", "E"]),
    rounds=st.integers(0, 700),
    cards=st.integers(0, 5600),
    card_moves=st.integers(0, 20000),
    board_moves=st.integers(0, 20000),
    error=TEXT,
)


@settings(max_examples=100, deadline=None)
@given(st.lists(RESULTS, max_size=5))
def test_round_trip(results: list[GameResult]) -> None:
    text = format_csv(results)
    assert parse_csv(text) == results
    assert format_csv(parse_csv(text)) == text


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_only_clean_errors(data: bytes) -> None:
    text = data.decode("latin-1")
    try:
        parse_csv(",".join(CSV_COLUMNS) + "\n" + text, "r.csv")
    except InputError as exc:
        assert str(exc).startswith("r.csv:")


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("board,deck\n", r"r\.csv:1:1: expected the header"),
        (",".join(CSV_COLUMNS) + "\nb,d,hard,reference,X,1,2,3\n", r"r\.csv:2:1: expected 10 fields, found 8"),
        (",".join(CSV_COLUMNS) + "\nb,d,hard,reference,X,one,2,3,4,\n", r"r\.csv:2:1: rounds must be a whole number"),
        (",".join(CSV_COLUMNS) + "\nb,d,hard,reference,Q,1,2,3,4,\n", r"r\.csv:2:1: outcome must be one of"),
    ],
)
def test_bad_rows(text: str, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern):
        parse_csv(text, "r.csv")


def test_a_board_or_ai_named_by_bytes_that_are_not_utf8_is_written_escaped() -> None:
    """A board from a Latin-1 folder (``Brett \\xe4.dat``) made ``results.csv`` unwritable: a
    traceback after the last game, no report. Its bytes are written as ``\\xNN``; commas and
    quotes in names are quoted as CSV quotes them."""
    board = os.fsdecode(b"Brett \xe4.dat")
    row = GameResult(board, "seed:1", "normal", 'KI, "zwei".py', "Z", 3, 15, 9, 2, "")
    text = format_csv([row])
    text.encode("utf-8")  # the file's encoding: raised UnicodeEncodeError
    assert text.splitlines()[1] == '"Brett \\xe4.dat","seed:1","normal","KI, ""zwei"".py","Z",3,15,9,2,""'
