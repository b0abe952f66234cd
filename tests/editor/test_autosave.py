"""Autosave: written when dirty and due, offered back after a crash, removed after a clean save."""

from __future__ import annotations

import shutil
from pathlib import Path

from editor.autosave import Autosaver, autosave_path, pending_autosave
from editor.commands import SetTiles, UndoStack
from editor.document import Document
from engine.model import Tile


def test_crash_leaves_an_autosave_that_is_offered(tmp_path: Path) -> None:
    board_file = tmp_path / "b.dat"
    shutil.copy("gameboards/chop.dat", board_file)
    doc = Document.open(board_file)
    saver = Autosaver(doc, interval_s=10)
    assert saver.tick(now=1e9) is None  # not dirty: nothing written
    UndoStack(doc).push(SetTiles({(0, 0): Tile.from_char("Z")}))
    assert saver.tick(now=1e9 + 5) is None  # not due yet
    written = saver.tick(now=1e9 + 20)
    assert written == autosave_path(board_file) == tmp_path / "b.dat.autosave"
    # "crash": the process ends without a save; the next start finds the autosave.
    del saver, doc
    offer = pending_autosave(board_file)
    assert offer is not None and offer[1].tile(0, 0).char == "Z"
    restored = Document.open(board_file)
    restored.replace(offer[1], board_file, clean=False)
    assert restored.dirty
    saver = Autosaver(restored)
    saver.adopt(offer[0])
    restored.save()
    assert not written.exists()
    assert pending_autosave(board_file) is None


def test_untitled_autosaves_to_the_state_folder(tmp_path: Path) -> None:
    doc = Document()
    saver = Autosaver(doc, interval_s=0, folder=tmp_path)
    UndoStack(doc).push(SetTiles({(1, 1): Tile.from_char("H")}))
    path = saver.tick()
    assert path == tmp_path / "untitled.dat.autosave" and path.exists()
    assert pending_autosave(None, tmp_path) is not None
    saver.discard()  # clean exit
    assert pending_autosave(None, tmp_path) is None


def test_undo_back_to_saved_removes_autosave(tmp_path: Path) -> None:
    board_file = tmp_path / "b.dat"
    shutil.copy("gameboards/chop.dat", board_file)
    doc = Document.open(board_file)
    saver = Autosaver(doc, interval_s=0)
    stack = UndoStack(doc)
    stack.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    path = saver.tick()
    assert path is not None and path.exists()
    stack.undo()
    assert not path.exists()


def test_autosave_equal_to_file_or_broken_is_not_offered(tmp_path: Path) -> None:
    board_file = tmp_path / "b.dat"
    shutil.copy("gameboards/chop.dat", board_file)
    shutil.copy("gameboards/chop.dat", autosave_path(board_file))
    assert pending_autosave(board_file) is None
    autosave_path(board_file).write_text("garbage\n")
    assert pending_autosave(board_file) is None
