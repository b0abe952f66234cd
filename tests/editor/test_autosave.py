"""Autosave: due within a second or two of an edit, offered back after a crash, removed after a save,
in the state folder when the board's folder cannot be written, kept when declined."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from editor import autosave as autosave_module
from editor.autosave import Autosaver, autosave_path, pending_autosave
from editor.commands import SetTiles
from editor.controller import EditorController
from editor.document import Document
from editor.games import ROBOTS, TRON, game_named
from engine.model import Tile


def _board_file(tmp_path: Path) -> Path:
    board_file = tmp_path / "b.dat"
    shutil.copy("gameboards/chop.dat", board_file)
    return board_file


def _crashed_after(saver: Autosaver) -> Path:
    """Write the crash copy, then "kill -9" its window: the kernel lets go of the copy's lock."""
    copy = saver.save_now()
    saver.release()
    return copy


def test_crash_leaves_an_autosave_that_is_offered(tmp_path: Path) -> None:
    board_file = _board_file(tmp_path)
    doc = Document.open(board_file)
    saver = Autosaver(doc, delay_s=1.0, folder=tmp_path / "state")
    now = time.monotonic()
    assert saver.tick(now=now + 100) is None  # not modified: nothing due
    doc.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    assert saver.pending
    assert saver.tick(now=now) is None  # not due yet
    written = saver.tick(now=now + 2.0)  # every edit reaches the copy within 2 s
    assert written == autosave_path(board_file) == tmp_path / "b.dat.autosave"
    # "crash": the process ends without a save (the kernel lets go of the copy's lock); the next
    # start finds the autosave.
    saver.release()
    offer = pending_autosave(board_file, tmp_path / "state")
    assert offer is not None and offer[1].tile(0, 0).char == "Z"


def test_restore_is_one_undoable_step_and_save_removes_the_copy(tmp_path: Path) -> None:
    board_file = _board_file(tmp_path)
    crashed = Document.open(board_file)
    Autosaver(crashed, folder=tmp_path / "state")
    crashed.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    copy = _crashed_after(Autosaver(crashed, folder=tmp_path / "state"))
    ctl = EditorController(Document.open(board_file), autosave_folder=tmp_path / "state", background_validation=False)
    assert ctl.prompt is not None and "restore" in ctl.prompt.label
    ctl.text("y")
    assert ctl.document.board.tile(0, 0).char == "Z" and ctl.document.modified
    assert ctl.document.undo() == "restore autosave"
    assert ctl.document.text.encode() == board_file.read_bytes()
    ctl.document.redo()
    ctl.action_save()
    assert not copy.exists() and pending_autosave(board_file, tmp_path / "state") is None


def test_declining_keeps_the_copy_until_the_next_save(tmp_path: Path) -> None:
    board_file = _board_file(tmp_path)
    crashed = Document.open(board_file)
    crashed.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    copy = _crashed_after(Autosaver(crashed, folder=tmp_path / "state"))
    ctl = EditorController(Document.open(board_file), autosave_folder=tmp_path / "state", background_validation=False)
    ctl.text("n")
    kept = copy.with_name("b.dat.autosave~")
    assert kept.exists() and str(kept) in ctl.status
    assert Document.open(kept).board.tile(0, 0).char == "Z"
    ctl.document.push(SetTiles({(1, 1): Tile.from_char("H")}))
    ctl.tick(now=time.monotonic() + 5)
    assert kept.exists()
    ctl.action_save()
    assert not kept.exists() and not copy.exists()


def test_new_board_cancelled_keeps_the_autosave(tmp_path: Path) -> None:
    board_file = _board_file(tmp_path)
    ctl = EditorController(Document.open(board_file), autosave_folder=tmp_path / "state", background_validation=False)
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    copy = ctl.autosaver.save_now()
    ctl.action_new()
    ctl.text("n")  # discard changes ...
    ctl.key_press("ESCAPE")  # ... but then cancel the size prompt
    assert copy.exists()


def test_untitled_autosaves_to_the_state_folder(tmp_path: Path) -> None:
    doc = Document()
    saver = Autosaver(doc, delay_s=0, folder=tmp_path)
    doc.push(SetTiles({(1, 1): Tile.from_char("H")}))
    path = saver.tick()
    assert path == tmp_path / "untitled.dat.autosave" and path.exists()
    assert pending_autosave(None, tmp_path) is None  # this window's own, while it runs
    saver.release()  # the process dies
    assert pending_autosave(None, tmp_path) is not None
    saver.discard()  # clean exit
    assert pending_autosave(None, tmp_path) is None


def test_read_only_board_folder_autosaves_to_the_state_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board_file = _board_file(tmp_path)
    state = tmp_path / "state"
    # Tests may run as root, for whom no folder is read-only: ask the writability probe instead.
    monkeypatch.setattr(autosave_module, "folder_writable", lambda folder: folder != tmp_path)
    doc = Document.open(board_file)
    saver = Autosaver(doc, delay_s=0, folder=state)
    doc.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    written = saver.tick()
    assert written is not None and written.parent == state and written.name.startswith("b.dat-")
    assert not (tmp_path / "b.dat.autosave").exists()
    saver.release()  # the process dies
    offer = pending_autosave(board_file, state)
    assert offer is not None and offer[0] == written


def test_undo_back_to_saved_removes_autosave(tmp_path: Path) -> None:
    board_file = _board_file(tmp_path)
    doc = Document.open(board_file)
    saver = Autosaver(doc, delay_s=0)
    doc.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    path = saver.tick()
    assert path is not None and path.exists()
    doc.undo()
    assert not path.exists()


def test_autosave_equal_to_file_or_broken_is_not_offered(tmp_path: Path) -> None:
    board_file = _board_file(tmp_path)
    shutil.copy("gameboards/chop.dat", autosave_path(board_file))
    assert pending_autosave(board_file, tmp_path) is None
    autosave_path(board_file).write_text("garbage\n")
    assert pending_autosave(board_file, tmp_path) is None


@pytest.mark.parametrize("tron", [False, True], ids=["board", "tron-arena"])
def test_a_damaged_crash_copy_is_kept_aside_and_the_user_told(tmp_path: Path, tron: bool) -> None:
    """A crash copy the game cannot read is not skipped in silence and then written over by the
    next autosave: it is renamed ``*.autosave.damaged`` and the status bar says so."""
    game = game_named(TRON if tron else ROBOTS)
    board_file = tmp_path / f"b{game.suffix}"
    board_file.write_text(game.write(game.blank(8, 6)))
    damaged = tmp_path / f"b{game.suffix}.autosave"
    damaged.write_bytes(b"half a board \x00\x00 from a crash\n")
    ctl = EditorController(Document.open(board_file), autosave_folder=tmp_path / "state", background_validation=False)
    kept = tmp_path / f"b{game.suffix}.autosave.damaged"
    assert kept.read_bytes() == b"half a board \x00\x00 from a crash\n"
    assert "cannot be read" in ctl.status and str(kept) in ctl.status and "\n" not in ctl.status
    ctl.document.push(SetTiles({(1, 1): game.cell(game.palette[1])}))
    written = ctl.autosaver.save_now()
    assert written == damaged and kept.read_bytes() == b"half a board \x00\x00 from a crash\n"
    # A second damaged copy later is kept beside the first, never over it.
    ctl.close()
    damaged.write_bytes(b"another broken copy\n")
    ctl = EditorController(Document.open(board_file), autosave_folder=tmp_path / "state", background_validation=False)
    assert kept.read_bytes() == b"half a board \x00\x00 from a crash\n"
    assert (tmp_path / f"{kept.name}-2").read_bytes() == b"another broken copy\n"
    ctl.close()


def test_a_damaged_copy_that_cannot_be_renamed_is_not_written_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board_file = _board_file(tmp_path)
    damaged = tmp_path / "b.dat.autosave"
    damaged.write_text("garbage\n")

    def refuse(*args: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(autosave_module.os, "rename", refuse)
    ctl = EditorController(Document.open(board_file), autosave_folder=tmp_path / "state", background_validation=False)
    assert "cannot be read" in ctl.status and "not written over" in ctl.status
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("H")}))
    written = ctl.autosaver.save_now()
    assert written == tmp_path / "b.dat.autosave-2"  # the next name: never over the damaged one
    assert damaged.read_text() == "garbage\n"
    ctl.close()


def test_declining_twice_keeps_both_declined_copies(tmp_path: Path) -> None:
    board_file = _board_file(tmp_path)
    earlier = tmp_path / "b.dat.autosave~"
    earlier.write_text("1 1\nH\n")  # declined in an earlier session, not saved since
    doc = Document.open(board_file)
    doc.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    _crashed_after(Autosaver(doc, folder=tmp_path / "state"))
    ctl = EditorController(Document.open(board_file), autosave_folder=tmp_path / "state", background_validation=False)
    ctl.text("n")
    assert earlier.read_text() == "1 1\nH\n"
    assert (tmp_path / "b.dat.autosave~-2").exists() and "b.dat.autosave~-2" in ctl.status
    ctl.close()


def test_a_crash_copy_removed_by_hand_is_written_again(tmp_path: Path) -> None:
    """Window one has unsaved edits and their copy; the copy is removed behind its back (by hand,
    or by an older editor on the same board that declined it and saved): it is written again."""
    board_file = _board_file(tmp_path)
    one = EditorController(Document.open(board_file), autosave_folder=tmp_path / "s1", background_validation=False)
    one.document.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    one.tick(time.monotonic() + 5)  # the copy is written a second after the edit
    copy = autosave_path(board_file)
    assert copy.exists()
    copy.unlink()
    one.tick(time.monotonic() + 10)  # the next quarter-second tick
    one.autosaver.release()  # kill -9
    offer = pending_autosave(board_file, tmp_path / "s1")
    assert offer is not None and offer[0] == copy and offer[1].tile(0, 0).char == "Z"
    one.close()


@pytest.mark.parametrize("answer", ["ESCAPE", None], ids=["esc", "unanswered"])
@pytest.mark.parametrize("tron", [False, True], ids=["board", "tron-arena"])
def test_a_crash_copy_not_answered_is_never_written_over(tmp_path: Path, tron: bool, answer: str | None) -> None:
    """Esc at "restore it? y/n", or edits while the question still shows: the next autosave wrote
    over the crash copy, so the work it held was gone. Now it goes to the state folder instead."""
    game = game_named(TRON if tron else ROBOTS)
    board_file = tmp_path / f"b{game.suffix}"
    board_file.write_text(game.write(game.blank(8, 6)))
    crashed = Document.open(board_file)
    crashed.push(SetTiles({(1, 1): game.cell(game.palette[1])}))
    copy = _crashed_after(Autosaver(crashed, folder=tmp_path / "state"))
    held = copy.read_bytes()
    ctl = EditorController(Document.open(board_file), autosave_folder=tmp_path / "state", background_validation=False)
    assert ctl.prompt is not None and "restore" in ctl.prompt.label
    if answer is not None:
        ctl.key_press(answer)
        assert ctl.prompt is None
    ctl.document.push(SetTiles({(3, 3): game.cell(game.palette[1])}))
    ctl.tick(time.monotonic() + 5)
    assert copy.read_bytes() == held
    assert ctl.autosaver.path == copy.with_name(copy.name + "-2")  # the next name, never over it
    ctl.close()
    # The copy is offered again at the next start.
    again = EditorController(Document.open(board_file), autosave_folder=tmp_path / "state", background_validation=False)
    assert again.prompt is not None and copy.name in again.prompt.label
    again.close()


def _window(board_file: Path | None, state: Path) -> EditorController:
    return EditorController(
        Document.open(board_file) if board_file is not None else Document(),
        autosave_folder=state,
        autosave_delay_s=0,
        background_validation=False,
    )


def _edit(ctl: EditorController, xy: tuple[int, int], char: str) -> Path | None:
    ctl.document.push(SetTiles({xy: Tile.from_char(char)}))
    ctl.tick(time.monotonic() + 5)
    return ctl.autosaver._written


def test_two_windows_on_one_board_each_have_their_own_crash_copy(tmp_path: Path) -> None:
    """Both windows wrote ``b.dat.autosave``: after a kill -9 of one, the copy could hold the
    other's edits and the crashed window's work was gone. Each window owns its copy now."""
    board_file = _board_file(tmp_path)
    one, two = _window(board_file, tmp_path / "s1"), _window(board_file, tmp_path / "s2")
    assert one.prompt is None and two.prompt is None
    assert _edit(one, (0, 0), "Z") == tmp_path / "b.dat.autosave"
    assert _edit(two, (5, 5), "H") == tmp_path / "b.dat.autosave-2"
    assert _edit(one, (1, 0), "Z") == tmp_path / "b.dat.autosave"  # each keeps writing its own
    # A third window started while both run is offered neither: they are not crash copies.
    three = _window(board_file, tmp_path / "s3")
    assert three.prompt is None and pending_autosave(board_file, tmp_path / "s3") is None
    three.close()
    # kill -9 of window one: its copy (and only its) is offered to the next start.
    one.autosaver.release()
    again = _window(board_file, tmp_path / "s1")
    assert again.prompt is not None and "b.dat.autosave)" in again.prompt.label
    again.text("y")
    board = again.document.board
    assert board.tile(0, 0).char == "Z" and board.tile(1, 0).char == "Z"
    assert board.tile(5, 5).char != "H"  # window two's edit is not in window one's copy
    # Saving in window two removes only its own copy; the restored one stays until `again` saves.
    two.key_press("S", ctrl=True)
    assert two.prompt is None and not two.document.modified
    assert not (tmp_path / "b.dat.autosave-2").exists() and (tmp_path / "b.dat.autosave").exists()
    again.close()
    two.close()


def _after_two_windows_crashed(tmp_path: Path) -> tuple[Path, EditorController]:
    """Two windows on one board, each with an edit in its crash copy, both killed; then a third
    window opens the board (and is offered the copies)."""
    board_file = _board_file(tmp_path)
    one, two = _window(board_file, tmp_path / "s"), _window(board_file, tmp_path / "s")
    _edit(one, (0, 0), "Z")
    _edit(two, (5, 5), "H")
    one.autosaver.release()  # both killed
    two.autosaver.release()
    return board_file, _window(board_file, tmp_path / "s")


def test_every_crash_copy_is_offered_one_after_another(tmp_path: Path) -> None:
    board_file, ctl = _after_two_windows_crashed(tmp_path)
    assert ctl.prompt is not None and "(1 of 2) (b.dat.autosave)" in ctl.prompt.label
    # A window started while the questions show is not offered the same copies.
    other = _window(board_file, tmp_path / "s")
    assert other.prompt is None
    other.close()
    ctl.text("n")
    assert (tmp_path / "b.dat.autosave~").exists()
    assert ctl.prompt is not None and "(2 of 2) (b.dat.autosave-2)" in ctl.prompt.label
    ctl.text("y")
    assert ctl.prompt is None and ctl.document.board.tile(5, 5).char == "H"
    # Its own edits go to the restored copy, which it now owns.
    assert _edit(ctl, (2, 2), "Z") == tmp_path / "b.dat.autosave-2"
    ctl.key_press("S", ctrl=True)
    assert sorted(p.name for p in tmp_path.iterdir() if "autosave" in p.name) == []
    ctl.close()


def test_restoring_a_second_copy_keeps_the_first_aside(tmp_path: Path) -> None:
    _, ctl = _after_two_windows_crashed(tmp_path)
    ctl.text("y")
    ctl.text("y")  # the second replaces the first on screen (Ctrl+Z brings it back) ...
    assert ctl.document.board.tile(5, 5).char == "H" and ctl.document.board.tile(0, 0).char != "Z"
    kept = tmp_path / "b.dat.autosave~"  # ... and the first copy is kept aside until a save
    assert Document.open(kept).board.tile(0, 0).char == "Z"
    ctl.close()


def test_a_crash_copy_appearing_after_start_is_never_written_over(tmp_path: Path) -> None:
    """A window with no copy yet does not take a name that holds a crash copy no one owns."""
    board_file = _board_file(tmp_path)
    ctl = _window(board_file, tmp_path / "s")
    crashed = tmp_path / "b.dat.autosave"
    crashed.write_text("1 1\nH\n")  # a window that crashed meanwhile
    assert _edit(ctl, (0, 0), "Z") == tmp_path / "b.dat.autosave-2"
    assert crashed.read_text() == "1 1\nH\n"
    ctl.close()


@pytest.mark.parametrize("where", ["untitled", "state-folder"])
def test_two_windows_own_copies_in_the_state_folder_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    board_file: Path | None = None
    if where == "state-folder":
        board_file = _board_file(tmp_path)
        monkeypatch.setattr(autosave_module, "folder_writable", lambda folder: folder != tmp_path)
    state = tmp_path / "state"
    one, two = _window(board_file, state), _window(board_file, state)
    first, second = _edit(one, (0, 0), "Z"), _edit(two, (1, 1), "H")
    assert first is not None and second is not None
    assert first.parent == second.parent == state and second.name == first.name + "-2"
    two.autosaver.release()  # killed
    offers = autosave_module.pending_autosaves(board_file, state)
    assert [path for path, _ in offers] == [second]
    one.close()


def test_a_killed_process_lets_go_of_its_copy(tmp_path: Path) -> None:
    """The lock is the kernel's: a process killed with SIGKILL holds it no more."""
    import signal
    import subprocess
    import sys

    board_file = _board_file(tmp_path)
    script = (
        "import sys; from pathlib import Path; from editor.autosave import Autosaver; "
        "from editor.commands import SetTiles; from editor.document import Document; from engine.model import Tile\n"
        "doc = Document.open(Path(sys.argv[1])); saver = Autosaver(doc, folder=Path(sys.argv[2]))\n"
        "doc.push(SetTiles({(0, 0): Tile.from_char('Z')})); print(saver.save_now(), flush=True)\n"
        "sys.stdin.read()\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(board_file), str(tmp_path / "s")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        copy = Path(child.stdout.readline().strip())  # waits until the copy is written
        assert copy == tmp_path / "b.dat.autosave"
        assert pending_autosave(board_file, tmp_path / "s") is None  # the running window's
        ctl = _window(board_file, tmp_path / "s")
        assert ctl.prompt is None
        assert _edit(ctl, (5, 5), "H") == tmp_path / "b.dat.autosave-2"
        ctl.close()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    offer = pending_autosave(board_file, tmp_path / "s")
    assert offer is not None and offer[0] == copy and offer[1].tile(0, 0).char == "Z"


def test_a_crash_copy_equal_to_the_file_is_removed_not_kept_for_ever(tmp_path: Path) -> None:
    board_file = _board_file(tmp_path)
    shutil.copy(board_file, tmp_path / "b.dat.autosave")  # edited back by hand, then crashed
    ctl = _window(board_file, tmp_path / "s")
    assert ctl.prompt is None and not (tmp_path / "b.dat.autosave").exists()
    assert _edit(ctl, (0, 0), "Z") == tmp_path / "b.dat.autosave"
    ctl.close()


def test_a_fifo_as_a_lock_file_is_never_waited_on(tmp_path: Path) -> None:
    """A FIFO named like a crash copy's lock file held the editor at start for ever (asking
    whether a window owns the copy opened it for reading, which waits for a writer)."""
    from editor.autosave import held_elsewhere, lock_file
    from tests.fifo_guard import never_stuck_on

    copy = tmp_path / "chop.dat.autosave"
    copy.write_text("1 1\nZ\n")
    os.mkfifo(lock_file(copy))
    with never_stuck_on(lock_file(copy)) as knocked:
        owned = held_elsewhere(copy)
    assert not knocked, "the FIFO was opened for reading, waiting for a writer"
    assert owned is False
