"""The AI's files round-trip exactly: ``cards.txt``/``ccards.txt`` (``write_cards``/``parse_cards``,
``write_chosen``/``read_chosen``), ``bot.txt`` (``write_pose``/``parse_pose``) and the three inputs
an AI reads together (``write_ai_inputs``/``read_ai_inputs``)."""

from __future__ import annotations

import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.boardfile import write_board
from engine.cards import Card
from engine.deck import parse_cards, write_cards
from engine.model import Board, Direction, Pose
from engine.protocol import parse_pose, read_ai_inputs, read_chosen, write_ai_inputs, write_chosen, write_pose
from tests.rules.test_properties import boards

cards = st.lists(st.sampled_from(list(Card)), max_size=12)
poses = st.builds(Pose, st.integers(-1000, 1000), st.integers(-1000, 1000), st.sampled_from(list(Direction)))


@given(cards)
def test_any_cards_round_trip_exactly(written: list[Card]) -> None:
    text = write_cards(written)
    assert parse_cards(text) == written and write_cards(parse_cards(text)) == text


@given(poses)
def test_any_bot_line_round_trips_exactly(pose: Pose) -> None:
    text = write_pose(pose)
    assert parse_pose(text) == pose and write_pose(parse_pose(text)) == text


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(boards(), cards, poses)
def test_an_ai_s_files_read_back_as_written(board: Board, hand: list[Card], pose: Pose) -> None:
    with tempfile.TemporaryDirectory() as folder:
        write_ai_inputs(folder, board, hand, pose)
        back_board, back_hand, back_pose = read_ai_inputs(folder)
        assert (write_board(back_board), back_hand, back_pose) == (write_board(board), hand, pose)
        write_chosen(folder, hand[:5])
        assert read_chosen(folder) == hand[:5]
