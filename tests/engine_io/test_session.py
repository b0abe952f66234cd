"""The working-directory state of load/start: exact round trip, and only InputErrors for bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.boardfile import load_board
from engine.cards import Card
from engine.conformance import reference_chooser
from engine.deck import generate_deck
from engine.errors import InputError
from engine.game import deal, play_game
from engine.model import Level
from engine.outputs import format_globalseq, format_stats
from engine.session import Session, session_from_json, session_to_json

CHOP = load_board(Path(__file__).resolve().parents[2] / "gameboards" / "chop.dat")


def test_recording_rounds_rebuilds_the_same_game_as_play_game() -> None:
    deck = generate_deck(9)
    expected = play_game(CHOP, Level.NORMAL, deck, reference_chooser)
    session = Session(CHOP, Level.NORMAL, deck)
    while not session.over:
        expected_hand = deal(deck, session.next_round)
        game = session.play_next_round(lambda board, level, pose, hand: hand[:5])
        assert game.rounds[-1].hand == expected_hand
        session = session_from_json(session_to_json(session))  # every round goes through the file
    assert format_globalseq(game) == format_globalseq(expected)
    assert format_stats(game) == format_stats(expected) and game.pose == expected.pose
    assert expected.outcome is not None and session.status == expected.outcome.value


def test_the_state_file_round_trips_exactly() -> None:
    session = Session(
        CHOP,
        Level.HARD,
        generate_deck(3),
        board_source="b.dat",
        deck_source="d.dat",
        chosen=[[Card.MF1] * 5],
        status="running",
    )
    text = session_to_json(session)
    back = session_from_json(text)
    assert back == session and session_to_json(back) == text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": 2}, "not a robots-engine state file"),
        ({"level": "extreme"}, "'level' is not easy, normal or hard"),
        ({"status": "Q"}, "'status' is unknown"),
        ({"board": "2 1\nT?\n"}, "(board):2:2: unknown board character"),
        ({"deck": ["MF 9"]}, "'deck': unknown card"),
        ({"chosen": [["RU"] * 5]}, "round 1: recorded choice is not from the hand"),
        ({"chosen": "RR"}, "'chosen' is missing or not a list"),
        ({"board": "2 1\n Z\n"}, "(board): no start tile (S, T, U or V): a board needs exactly one"),
        ({"status": "Z"}, "status 'Z' contradicts the recorded rounds"),
        ({"deck": [], "chosen": [["RR"] * 5]}, "round 1 was recorded but the deck has no cards for it"),
    ],
)
def test_a_tampered_state_file_is_a_clear_error(change: dict[str, object], message: str) -> None:
    data = json.loads(session_to_json(Session(CHOP, Level.NORMAL, generate_deck(1))))
    data.update(change)
    with pytest.raises(InputError) as info:
        session_from_json(json.dumps(data)).rebuild()
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("change", "marker"),
    [({"level": "extreme"}, '"extreme"'), ({"deck": ["MF 1", "MF 9"]}, '"MF 9"'), ({"status": 77777}, "77777")],
)
def test_a_tampered_state_field_is_named_at_its_line_and_column(change: dict[str, object], marker: str) -> None:
    """The state file's field errors named the file alone."""
    data = json.loads(session_to_json(Session(CHOP, Level.NORMAL, generate_deck(1))))
    data.update(change)
    text = json.dumps(data, indent=1)
    with pytest.raises(InputError) as info:
        session_from_json(text, "state.json")
    at = text.index(marker)
    place = (text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at))
    assert (info.value.line, info.value.column) == place


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_are_only_input_errors(data: bytes) -> None:
    with pytest.raises(InputError):
        session_from_json(data.decode("latin-1")).rebuild()


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["format", "level", "status", "board", "deck", "chosen", "error"]),
        st.one_of(
            st.none(),
            st.integers(),
            st.text(max_size=10),
            st.sampled_from(["1 1\n \n", "2 1\nTZ\n", "1 1\nT\n"]),
            st.sampled_from(["easy", "normal", "hard", "running", "X", "Y", "Z", "E"]),
            st.just(1),
            st.lists(st.text(max_size=5), max_size=3),
            st.lists(st.lists(st.sampled_from([c.value for c in Card]), max_size=6), max_size=3),
        ),
    )
)
def test_any_json_object_is_a_session_or_an_input_error(data: dict[str, object]) -> None:
    try:
        session_from_json(json.dumps(data)).rebuild()
    except InputError as exc:
        assert "\n" not in str(exc)
