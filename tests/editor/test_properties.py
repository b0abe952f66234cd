"""Property tests over random boards: transforms invert, undo restores bytes, files never crash the editor."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from editor.commands import Command, NewBoard, Resize, SetTiles, TransformBoard
from editor.document import Document
from editor.transform import Transform, transform_board
from engine.boardfile import write_board
from engine.errors import InputError
from engine.model import BOARD_CHARS, Board, Tile

boards = (
    st.integers(1, 7)
    .flatmap(lambda w: st.lists(st.text(alphabet=BOARD_CHARS, min_size=w, max_size=w), min_size=1, max_size=7))
    .map(Board.from_strings)
)


@given(boards)
def test_rotations_and_mirrors_invert(board: Board) -> None:
    b = board
    for _ in range(4):
        b = transform_board(b, Transform.ROTATE_CW)
    assert write_board(b) == write_board(board)
    assert transform_board(transform_board(board, Transform.ROTATE_CW), Transform.ROTATE_CCW) == board
    for t in (Transform.MIRROR_H, Transform.MIRROR_V):
        assert transform_board(transform_board(board, t), t) == board
    # a half turn is both mirrors
    half = transform_board(transform_board(board, Transform.ROTATE_CW), Transform.ROTATE_CW)
    assert half == transform_board(transform_board(board, Transform.MIRROR_H), Transform.MIRROR_V)


commands = st.one_of(
    st.builds(
        lambda x, y, c: SetTiles({(x, y): Tile.from_char(c)}),
        st.integers(0, 8), st.integers(0, 8), st.sampled_from(BOARD_CHARS),
    ),
    st.builds(Resize, st.integers(1, 9), st.integers(1, 9), st.sampled_from(["nw", "center", "se", "s", "e"])),
    st.builds(TransformBoard, st.sampled_from(list(Transform))),
    st.builds(NewBoard, st.integers(1, 5), st.integers(1, 5)),
)  # fmt: skip


@settings(max_examples=60)
@given(boards, st.lists(commands, max_size=8))
def test_undo_all_restores_exact_bytes_and_redo_all_replays(board: Board, script: list[Command]) -> None:
    document = Document(board)
    stack = document
    texts = [document.text]
    for command in script:
        stack.push(command)
        texts.append(document.text)
    final = document.text
    while stack.undo() is not None:
        pass
    assert document.text == texts[0]
    while stack.redo() is not None:
        pass
    assert document.text == final


@settings(max_examples=80)
@given(st.binary(max_size=200))
def test_opening_random_bytes_gives_a_document_or_input_error(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "b.dat"
    path.write_bytes(data)
    try:
        document = Document.open(path)
    except InputError as exc:
        assert str(exc).startswith(str(path))
        return
    assert document.text == write_board(document.board)
