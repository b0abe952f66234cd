"""Commands and the undo stack: undo restores exact bytes, a stroke is one step."""

from __future__ import annotations

from pathlib import Path

import pytest

from editor.commands import (
    ANCHORS,
    Command,
    NewBoard,
    Resize,
    SetTiles,
    SetWalls,
    TransformBoard,
    resized_board,
)
from editor.document import Document
from editor.events import BoardChanged, ModifiedChanged
from editor.transform import Transform
from engine.boardfile import load_board, write_board
from engine.model import Board, Tile

CHOP = Path("gameboards/chop.dat")


def _doc() -> Document:
    return Document.open(CHOP)


COMMANDS: list[Command] = [
    SetTiles({(0, 0): Tile.from_char("Z"), (3, 4): Tile.from_char("H")}),
    SetWalls({(1, 1): 5}),
    Resize(20, 10, "center"),
    Resize(5, 5, "se"),
    TransformBoard(Transform.ROTATE_CW),
    TransformBoard(Transform.ROTATE_CCW),
    TransformBoard(Transform.MIRROR_H),
    TransformBoard(Transform.MIRROR_V),
    NewBoard(30, 7),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.label)
def test_undo_restores_exact_bytes_and_redo_reapplies(command: Command) -> None:
    doc = _doc()
    original = CHOP.read_bytes()
    stack = doc
    stack.push(command)
    after = doc.text
    assert after.encode() != original and doc.dirty
    assert stack.undo() == command.label
    assert doc.text.encode() == original and not doc.dirty
    assert stack.redo() == command.label
    assert doc.text == after


def test_stroke_is_one_undo_step() -> None:
    doc = _doc()
    stack = doc
    stack.begin_stroke()
    for x in range(6):
        stack.push(SetTiles({(x, 5): Tile.from_char("O")}))
    stack.end_stroke()
    assert len(stack.history) == 1
    assert [doc.board.tile(x, 5).char for x in range(6)] == ["O"] * 6
    stack.undo()
    assert doc.text.encode() == CHOP.read_bytes()
    stack.redo()
    assert [doc.board.tile(x, 5).char for x in range(6)] == ["O"] * 6


def test_separate_clicks_are_separate_steps_and_push_clears_redo() -> None:
    doc = _doc()
    stack = doc
    stack.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    stack.push(SetTiles({(1, 0): Tile.from_char("Z")}))
    assert len(stack.history) == 2
    stack.undo()
    assert stack.history.can_redo
    stack.push(SetTiles({(2, 0): Tile.from_char("Z")}))
    assert not stack.history.can_redo


def test_no_op_is_not_an_undo_step() -> None:
    doc = _doc()
    stack = doc
    stack.push(SetTiles({(0, 0): doc.board.tile(0, 0)}))
    assert len(stack.history) == 0


def test_listeners_hear_typed_changes() -> None:
    doc = _doc()
    heard: list[object] = []
    doc.subscribe(heard.append)
    doc.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    doc.push(Resize(3, 3))
    doc.undo()
    doc.undo()
    assert heard == [
        BoardChanged(frozenset({(0, 0)}), resized=False),
        ModifiedChanged(True),
        BoardChanged(None, resized=True),
        BoardChanged(None, resized=True),
        BoardChanged(frozenset({(0, 0)}), resized=False),
        ModifiedChanged(False),
    ]


def test_modified_comes_from_the_clean_index() -> None:
    doc = _doc()
    doc.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    doc.push(SetTiles({(1, 0): Tile.from_char("Z")}))
    doc.undo()
    doc.history.mark_clean()  # as a save does
    assert not doc.modified
    doc.undo()
    assert doc.modified
    doc.redo()
    assert not doc.modified
    doc.redo()
    assert doc.modified
    doc.undo()
    doc.undo()
    doc.push(SetTiles({(5, 5): Tile.from_char("H")}))  # the saved state can never come back
    assert doc.modified
    while doc.undo() is not None:
        pass
    assert doc.modified


def test_document_never_serialises_to_know_it_is_modified(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _doc()
    doc.push(SetTiles({(0, 0): Tile.from_char("Z")}))

    def forbidden(board: Board) -> str:
        raise AssertionError("modified must not write the board out")

    monkeypatch.setattr("editor.document.write_board", forbidden)
    assert doc.modified and doc.title.startswith("*")


@pytest.mark.parametrize("anchor", sorted(ANCHORS))
def test_resize_anchor_keeps_the_anchor_corner(anchor: str) -> None:
    board = Board.from_strings(["ZH", "OT"])
    bigger = resized_board(board, 4, 4, anchor)
    fx, fy = ANCHORS[anchor]
    ox, oy = round(2 * fx), round(2 * fy)
    assert bigger.tile(ox, oy).char == "Z" and bigger.tile(ox + 1, oy + 1).char == "T"
    assert sum(t.char != " " for row in bigger.rows for t in row) == 4
    assert resized_board(bigger, 2, 2, anchor) == board


def test_resize_rejects_bad_anchor() -> None:
    with pytest.raises(ValueError):
        Resize(3, 3, "middle")


def test_document_save_open_round_trip(tmp_path: Path) -> None:
    doc = _doc()
    target = tmp_path / "copy.dat"
    doc.save(target)
    assert target.read_bytes() == CHOP.read_bytes()
    assert not doc.dirty and doc.title.startswith("copy.dat")
    doc.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    assert doc.title.startswith("*copy.dat")
    doc.save()
    assert load_board(target) == doc.board and not doc.dirty


def test_short_rows_are_padded_otherwise_bytes_kept(tmp_path: Path) -> None:
    source = tmp_path / "short.dat"
    source.write_bytes(b"4 2\nZ\nT  H\n")
    doc = Document.open(source)
    doc.save()
    assert source.read_bytes() == b"4 2\nZ   \nT  H\n"
    assert write_board(doc.board) == "4 2\nZ   \nT  H\n"


@pytest.mark.parametrize("board_file", sorted(Path("gameboards").glob("*.dat")), ids=lambda p: p.name)
def test_every_shipped_board_round_trips_byte_exact(board_file: Path, tmp_path: Path) -> None:
    target = tmp_path / board_file.name
    target.write_bytes(board_file.read_bytes())
    document = Document.open(target)
    assert not document.dirty
    document.save()
    assert target.read_bytes() == board_file.read_bytes()
