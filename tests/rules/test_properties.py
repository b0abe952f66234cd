"""Property tests (hypothesis): board round-trips, parsers fed junk fail only with a clean one-line
InputError, and random card sequences on random boards give consistent events."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.boardfile import load_board, parse_board, write_board
from engine.cards import Card
from engine.deck import load_deck, parse_cards, parse_deck
from engine.errors import InputError
from engine.events import EventKind, RobotStatus
from engine.model import BOARD_CHARS, Board, Direction, Level, Pose
from engine.protocol import parse_pose
from engine.rules import play_card

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def boards(draw: st.DrawFn, max_side: int = 8, chars: str = BOARD_CHARS) -> Board:
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    rows = [draw(st.text(alphabet=chars, min_size=width, max_size=width)) for _ in range(height)]
    return Board.from_strings(rows)


@SETTINGS
@given(boards())
def test_board_write_then_parse_is_identity(board: Board) -> None:
    assert parse_board(write_board(board)) == board


@SETTINGS
@given(boards())
def test_canonical_text_round_trips_exactly(board: Board) -> None:
    text = write_board(board)
    assert write_board(parse_board(text)) == text


@SETTINGS
@given(boards(), st.sampled_from(["\n", "\r\n"]))
def test_short_rows_and_crlf_read_as_the_same_board(board: Board, newline: str) -> None:
    rows = [row.rstrip(" ") for row in board.to_strings()]
    text = f"{board.width} {board.height}{newline}" + "".join(row + newline for row in rows)
    assert parse_board(text) == board


def _clean(error: InputError) -> None:
    message = str(error)
    assert message and "\n" not in message and "\r" not in message


JUNK = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
    st.text(alphabet=BOARD_CHARS + "0123456789 \n\r\t-x", max_size=200),
    st.builds(
        lambda w, h, body: f"{w} {h}\n{body}",
        st.integers(-3, 12),
        st.integers(-3, 12),
        st.text(alphabet=BOARD_CHARS + "\n\r\u00a0?", max_size=150),
    ),
)


@SETTINGS
@given(JUNK)
def test_board_parser_raises_only_input_error(text: str) -> None:
    try:
        parse_board(text, "board.txt")
    except InputError as error:
        _clean(error)
        assert str(error).startswith("board.txt:")


CARD_JUNK = st.one_of(
    JUNK,
    st.lists(st.sampled_from(["MF 1", "MF 2", "MF 3", "MB", "RL", "RR", "RU", "MF 4", "mf 1", "", " ", "X"])).map(
        "\n".join
    ),
)


@SETTINGS
@given(CARD_JUNK)
def test_card_parser_raises_only_input_error(text: str) -> None:
    try:
        cards = parse_cards(text, "cards.txt")
    except InputError as error:
        _clean(error)
    else:
        assert all(isinstance(card, Card) for card in cards)


@SETTINGS
@given(CARD_JUNK)
def test_deck_parser_raises_only_input_error(text: str) -> None:
    try:
        parse_deck(text, "deck.txt")
    except InputError as error:
        _clean(error)


POSE_JUNK = st.one_of(
    JUNK,
    st.builds(
        lambda x, y, f, sep: f"{x}{sep}{y}{sep}{f}",
        st.text(max_size=6),
        st.text(max_size=6),
        st.text(max_size=3),
        st.sampled_from([" ", "\t", "  ", "\n"]),
    ),
    st.builds(lambda x, y, f: f"{x} {y} {f}\n", st.integers(), st.integers(), st.sampled_from("LRUDXlr")),
)


@SETTINGS
@given(POSE_JUNK)
def test_pose_parser_raises_only_input_error(text: str) -> None:
    try:
        pose = parse_pose(text, "bot.txt")
    except InputError as error:
        _clean(error)
    else:
        assert isinstance(pose, Pose)


@st.composite
def games(draw: st.DrawFn) -> tuple[Board, Level, Pose, list[Card]]:
    board = draw(boards(max_side=6))
    level = draw(st.sampled_from(list(Level)))
    x = draw(st.integers(0, board.width - 1))
    y = draw(st.integers(0, board.height - 1))
    facing = draw(st.sampled_from(list(Direction)))
    cards = draw(st.lists(st.sampled_from(list(Card)), min_size=1, max_size=15))
    return board, level, Pose(x, y, facing), cards


@SETTINGS
@given(games())
def test_random_cards_give_consistent_events(game: tuple[Board, Level, Pose, list[Card]]) -> None:
    board, level, pose, cards = game
    for card in cards:
        result = play_card(board, level, pose, card)
        previous = pose
        for event in result.events:
            if event.kind in (EventKind.MOVE, EventKind.SLIDE):
                assert event.direction is not None
                assert event.pose == Pose(
                    previous.x + event.direction.dx, previous.y + event.direction.dy, previous.facing
                )
            elif event.kind is EventKind.TURN:
                assert event.rotation is not None
                assert event.pose == previous.turned(event.rotation)
            else:
                assert event.pose == previous
            previous = event.pose
        assert result.pose == previous
        last = result.events[-1].kind if result.events else None
        assert (result.status is RobotStatus.FINISHED) == (last is EventKind.GOAL)
        assert (result.status is RobotStatus.DESTROYED) == (last is EventKind.DESTROYED)
        kinds = [e.kind for e in result.events]
        assert kinds.count(EventKind.GOAL) + kinds.count(EventKind.DESTROYED) <= 1
        if result.status is RobotStatus.ALIVE:
            assert board.in_bounds(result.pose.x, result.pose.y)
        if result.status is not RobotStatus.ALIVE:
            break
        pose = result.pose


@SETTINGS
@given(st.binary(max_size=300))
def test_board_and_deck_files_of_random_bytes_raise_only_input_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "junk.dat"
        path.write_bytes(data)
        for load in (load_board, load_deck):
            try:
                load(path)
            except InputError as error:
                _clean(error)
                assert str(error).startswith(str(path))
