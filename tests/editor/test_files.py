"""Files like a desktop program: prompt editing keys, Tab completion, the file browser (keys and
mouse), recent files, drops, overwrite confirmation, symlinks, read-only targets, missing folders."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from editor.cli import load_document
from editor.commands import SetTiles
from editor.controller import EditorController
from editor.document import Document
from editor.games import ROBOTS, TRON, game_named
from editor.safe_write import write_board_file
from engine.model import Tile
from pathui.prompt import Prompt, complete_path

CHOP = Path("gameboards/chop.dat")


def _ctl(tmp_path: Path) -> EditorController:
    path = tmp_path / "b.dat"
    shutil.copy(CHOP, path)
    return EditorController(Document.open(path), autosave_folder=tmp_path / "state", background_validation=False)


def test_prompt_editing_keys() -> None:
    prompt = Prompt("x:", lambda text: None, text="board.dat")
    prompt.key("HOME")
    prompt.insert("my-")
    assert prompt.text == "my-board.dat" and prompt.cursor == 3
    prompt.key("END")
    prompt.key("LEFT")
    prompt.key("LEFT")
    prompt.key("LEFT")
    prompt.key("LEFT")
    prompt.key("BACKSPACE")
    assert prompt.text == "my-boar.dat"
    prompt.key("DELETE")
    assert prompt.text == "my-boardat"  # Delete takes the character after the cursor
    prompt.key("A", ctrl=True)  # select all: typing replaces everything
    prompt.insert("new.dat")
    assert prompt.text == "new.dat" and prompt.display == "new.dat▏"


def test_tab_completes_paths(tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    (tmp_path / "board-one.dat").write_text("1 1\nZ\n")
    (tmp_path / "other.dat").write_text("1 1\nZ\n")
    assert complete_path(f"{tmp_path}/oth") == (f"{tmp_path}/other.dat", ["other.dat"])
    text, names = complete_path(f"{tmp_path}/bo")
    assert text == f"{tmp_path}/board" and names == ["board-one.dat", "boards/"]
    prompt = Prompt("open:", lambda text: None, text=f"{tmp_path}/bo", paths=True)
    prompt.key("TAB")
    assert prompt.text == f"{tmp_path}/board" and prompt.candidates == ["board-one.dat", "boards/"]


def test_open_through_the_browser_with_keys(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    sub = tmp_path / "sub"
    sub.mkdir()
    shutil.copy(CHOP, sub / "inner.dat")
    ctl.key_press("O", ctrl=True)
    prompt = ctl.prompt
    assert prompt is not None and prompt.listing is not None
    assert prompt.listing.folder == tmp_path
    labels = [e.label for e in prompt.listing.entries]
    assert "sub/" in labels and "b.dat" in labels
    for _ in range(labels.index("sub/") + 1):
        ctl.key_press("DOWN")
    ctl.key_press("ENTER")  # a folder: the browser goes into it
    assert ctl.prompt is not None and ctl.prompt.text == f"{sub}/"
    assert [e.label for e in ctl.prompt.listing.entries if not e.is_dir] == ["inner.dat"]  # type: ignore[union-attr]
    ctl.text("inn")
    ctl.key_press("TAB")
    ctl.key_press("ENTER")
    assert ctl.document.path == sub / "inner.dat" and ctl.prompt is None


@pytest.mark.parametrize(("keys", "label"), [(("S", True, True), "save as:"), (("O", True, False), "open:")])
def test_a_folder_typed_in_full_is_entered_and_the_browser_stays_open(
    tmp_path: Path, keys: tuple[str, bool, bool], label: str
) -> None:
    """Enter on a typed folder path goes into it, as on a chosen one: closing the prompt instead
    sent the next typed keys to the board as shortcuts (r turned tiles, g the grid...)."""
    ctl = _ctl(tmp_path)
    sub = tmp_path / "sub"
    sub.mkdir()
    before = ctl.document.text
    key, ctrl, shift = keys
    ctl.key_press(key, ctrl=ctrl, shift=shift)
    ctl.key_press("A", ctrl=True)
    ctl.text(str(sub))
    ctl.key_press("ENTER")
    prompt = ctl.prompt
    assert prompt is not None and prompt.label == label and prompt.text == f"{sub}/"
    assert prompt.listing is not None and prompt.listing.folder == sub
    ctl.text("x.dat")  # typing goes on in the prompt, never to the board
    assert ctl.document.text == before
    if label == "save as:":
        ctl.key_press("ENTER")
        assert (sub / "x.dat").read_text() == before and ctl.document.path == sub / "x.dat"


def test_open_through_the_browser_with_the_mouse_and_recent_files(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    other = tmp_path / "other.dat"
    shutil.copy(CHOP, other)
    ctl.key_press("O", ctrl=True)
    assert ctl.prompt is not None and ctl.prompt.listing is not None
    index = next(i for i, e in enumerate(ctl.prompt.listing.entries) if e.path == other)
    left, top, _, height = ctl.layout.browser_row(index)
    ctl.mouse_press(left + 20, top + height / 2, "left")
    assert ctl.document.path == other
    ctl.key_press("O", ctrl=True)  # the file just opened comes first, as a recent file
    assert ctl.prompt is not None and ctl.prompt.listing is not None
    first = ctl.prompt.listing.entries[0]
    assert first.recent and first.path == other.absolute()


def test_a_hand_edited_recent_list_with_a_name_too_long_is_no_error(tmp_path: Path) -> None:
    """A line of recent.txt too long for the system raised OSError out of Ctrl+O's browser."""
    other = tmp_path / "other.dat"
    shutil.copy(CHOP, other)
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "recent.txt").write_text("x" * 5000 + "\n" + str(other) + "\n")
    ctl = _ctl(tmp_path)
    ctl.key_press("O", ctrl=True)
    assert ctl.prompt is not None and ctl.prompt.listing is not None
    assert [e.path for e in ctl.prompt.listing.entries if e.recent] == [other]


@pytest.mark.parametrize("name", ["settings.json", "recent.txt"])
def test_a_fifo_as_a_state_file_means_the_defaults_and_is_never_waited_on(tmp_path: Path, name: str) -> None:
    """A FIFO as ``settings.json`` held robots-edit at start for ever (read before the window
    opens); as ``recent.txt``, Ctrl+O's browser. Neither is opened for reading now."""
    from editor.files import RecentFiles, Settings
    from tests.fifo_guard import never_stuck_on

    (tmp_path / "state").mkdir()
    fifo = tmp_path / "state" / name
    os.mkfifo(fifo)
    with never_stuck_on(fifo) as knocked:
        loaded = (
            Settings(tmp_path / "state").load() if name == "settings.json" else RecentFiles(tmp_path / "state").load()
        )
    assert not knocked, f"{name}: the FIFO was opened for reading"
    assert not loaded


def test_drop_a_file_on_the_window_opens_it(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    other = tmp_path / "other.dat"
    shutil.copy(CHOP, other)
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("H")}))
    ctl.file_drop([str(other)])
    assert ctl.prompt is not None and ctl.prompt.choices == "yn"  # unsaved changes first
    ctl.text("n")
    assert ctl.document.path == other


def test_save_as_over_an_existing_file_asks_first(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    existing = tmp_path / "existing.dat"
    existing.write_text("1 1\nZ\n")
    ctl.key_press("S", ctrl=True, shift=True)
    assert ctl.prompt is not None
    ctl.prompt.set_text(str(existing))
    ctl.key_press("ENTER")
    assert ctl.prompt is not None and "replace it?" in ctl.prompt.label
    ctl.text("n")
    assert existing.read_text() == "1 1\nZ\n" and ctl.status == "not saved"
    ctl.key_press("S", ctrl=True, shift=True)
    ctl.prompt.set_text(str(existing))  # type: ignore[union-attr]
    ctl.key_press("ENTER")
    ctl.text("y")
    assert existing.read_bytes() == CHOP.read_bytes() and ctl.document.path == existing


def test_save_writes_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real.dat"
    shutil.copy(CHOP, real)
    link = tmp_path / "link.dat"
    link.symlink_to(real)
    doc = Document.open(link)
    doc.push(SetTiles({(1, 1): Tile.from_char("H")}))
    doc.save()
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().splitlines()[2][1] == "H"


def test_read_only_target_is_refused_clearly(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    target = tmp_path / "b.dat"
    before = target.read_bytes()
    target.chmod(stat.S_IRUSR | stat.S_IRGRP)
    try:
        ctl.document.push(SetTiles({(0, 0): Tile.from_char("H")}))
        ctl.key_press("S", ctrl=True)
        assert "read-only" in ctl.status and target.read_bytes() == before
        assert ctl.document.modified
    finally:
        target.chmod(0o644)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        write_board_file(tmp_path / "missing" / "x.dat", "1 1\nZ\n")


def test_opening_a_path_in_a_missing_folder_says_so(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    ctl.open_path(str(tmp_path / "nowhere" / "new.dat"))
    assert "does not exist" in ctl.status and ctl.document.path == tmp_path / "b.dat"
    ctl.open_path(str(tmp_path / "fresh.dat"))  # a new file in an existing folder is fine
    assert ctl.document.path == tmp_path / "fresh.dat" and "does not exist yet" in ctl.status


def test_a_new_board_is_saved_where_the_last_file_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+N after working on a board: save as and export offered the editor's start folder
    (wherever it was launched), not the folder of the board just left."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    ctl = _ctl(tmp_path)
    monkeypatch.chdir(elsewhere)
    ctl.key_press("N", ctrl=True)
    ctl.key_press("ENTER")  # the prefilled size
    assert ctl.document.path is None
    ctl.key_press("S", ctrl=True)
    assert ctl.prompt is not None and ctl.prompt.text == f"{tmp_path}/board.dat"
    ctl.key_press("ESCAPE")
    ctl.key_press("E", ctrl=True, shift=True)
    assert ctl.prompt is not None and ctl.prompt.text == f"{tmp_path}/board.png"


@pytest.mark.parametrize("tron", [False, True], ids=["board", "tron-arena"])
def test_two_editors_on_one_file_the_later_save_asks_first(tmp_path: Path, tron: bool) -> None:
    """Two windows on the same file: the second save no longer replaces the first one's saved
    work in silence; it asks, and "n" keeps the other work on disk and this work in the window."""
    game = game_named(TRON if tron else ROBOTS)
    path = tmp_path / f"b{game.suffix}"
    path.write_text(game.write(game.blank(8, 6)))
    one, two = (
        EditorController(Document.open(path), autosave_folder=tmp_path / name, background_validation=False)
        for name in ("state1", "state2")
    )
    one.document.push(SetTiles({(1, 1): game.cell(game.palette[1])}))
    two.document.push(SetTiles({(2, 2): game.cell(game.palette[1])}))
    two.key_press("S", ctrl=True)
    assert two.status == f"saved {path}"
    theirs = path.read_bytes()
    one.key_press("S", ctrl=True)
    assert one.prompt is not None and "changed on disk" in one.prompt.label
    one.text("n")
    assert path.read_bytes() == theirs and one.document.modified
    assert one.status.startswith("not saved") and "Ctrl+Shift+S" in one.status
    one.key_press("S", ctrl=True)
    one.text("y")  # the user chose to replace it
    assert path.read_text() == one.document.text and not one.document.modified
    one.document.push(SetTiles({(3, 3): game.cell(game.palette[1])}))
    one.key_press("S", ctrl=True)  # nobody changed it since this window saved it: no question
    assert one.prompt is None and one.status == f"saved {path}"
    one.close()
    two.close()


def test_a_file_changed_by_another_program_asks_before_quit_saves(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    path = tmp_path / "b.dat"
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("H")}))
    path.write_text("1 1\nZ\n")  # another program wrote the file
    ctl.action_quit()
    ctl.text("y")  # save first
    assert ctl.prompt is not None and "changed on disk" in ctl.prompt.label
    ctl.text("n")
    assert path.read_text() == "1 1\nZ\n" and not ctl.closed and ctl.document.modified
    ctl.close()


def test_a_new_file_made_by_another_program_meanwhile_asks(tmp_path: Path) -> None:
    path = tmp_path / "new.dat"
    ctl = EditorController(load_document(path), autosave_folder=tmp_path / "state", background_validation=False)
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("H")}))
    path.write_text("1 1\nZ\n")
    ctl.key_press("S", ctrl=True)
    assert ctl.prompt is not None and "changed on disk" in ctl.prompt.label
    ctl.text("n")
    assert path.read_text() == "1 1\nZ\n"
    path.unlink()  # a file deleted while open is simply written again, no question
    ctl.key_press("S", ctrl=True)
    assert ctl.prompt is None and ctl.status == f"saved {path}"
    ctl.close()


def _changed_by_another_program(path: Path, xy: tuple[int, int], char: str) -> None:
    other = Document.open(path)
    other.push(SetTiles({xy: Tile.from_char(char)}))
    write_board_file(path, other.text)


def test_activating_the_window_offers_to_reload_a_file_changed_on_disk(tmp_path: Path) -> None:
    """The editor told about a file changed by another program only when saving; now also when
    its window is activated again: no unsaved edits, so it offers to reload it."""
    ctl = _ctl(tmp_path)
    path = tmp_path / "b.dat"
    ctl.activated()
    assert ctl.prompt is None  # nothing changed
    _changed_by_another_program(path, (0, 0), "H")
    ctl.activated()
    assert ctl.prompt is not None and "changed on disk" in ctl.prompt.label and "reload" in ctl.prompt.label
    ctl.text("y")
    assert ctl.document.board.tile(0, 0).char == "H" and not ctl.document.modified
    assert "reloaded" in ctl.status
    # Saving now replaces the file without asking: the window has what is on disk.
    ctl.document.push(SetTiles({(1, 1): Tile.from_char("Z")}))
    ctl.key_press("S", ctrl=True)
    assert ctl.prompt is None and Document.open(path).board.tile(1, 1).char == "Z"
    # Ctrl+Z goes back through the reload to what the window showed before it.
    ctl.key_press("Z", ctrl=True)
    ctl.key_press("Z", ctrl=True)
    assert ctl.document.board.tile(0, 0).char != "H"
    ctl.close()


def test_declining_the_reload_is_not_asked_again_and_saving_still_asks(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    path = tmp_path / "b.dat"
    before = ctl.document.board
    _changed_by_another_program(path, (0, 0), "H")
    ctl.activated()
    ctl.text("n")
    assert ctl.document.board == before and "not reloaded" in ctl.status
    ctl.activated()
    assert ctl.prompt is None  # the same change is told once
    _changed_by_another_program(path, (2, 2), "H")  # a new change is told again
    ctl.activated()
    assert ctl.prompt is not None and "reload" in ctl.prompt.label
    ctl.key_press("ESCAPE")
    ctl.key_press("S", ctrl=True)
    assert ctl.prompt is not None and "replace it" in ctl.prompt.label
    ctl.close()


def test_activating_with_unsaved_edits_says_the_file_changed_and_never_reloads(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    path = tmp_path / "b.dat"
    ctl.document.push(SetTiles({(1, 1): Tile.from_char("Z")}))
    _changed_by_another_program(path, (0, 0), "H")
    ctl.activated()
    assert ctl.prompt is None and "changed on disk" in ctl.status and "saving will ask" in ctl.status
    assert ctl.document.board.tile(1, 1).char == "Z" and ctl.document.board.tile(0, 0).char != "H"
    ctl.key_press("S", ctrl=True)
    assert ctl.prompt is not None and "replace it" in ctl.prompt.label
    ctl.close()


def test_a_question_showing_is_not_replaced_by_the_reload_question(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    _changed_by_another_program(tmp_path / "b.dat", (0, 0), "H")
    ctl.action_resize()
    ctl.activated()
    assert ctl.prompt is not None and ctl.prompt.label.startswith("resize")
    ctl.key_press("ESCAPE")
    ctl.activated()  # asked once the question is gone
    assert ctl.prompt is not None and "reload" in ctl.prompt.label
    ctl.close()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200) | st.sampled_from([b"[" * 5000, b"9" * 5000, b"\xef\xbb\xbf{}", b"{}\x00"]))
def test_any_bytes_as_a_state_file_mean_the_defaults_never_an_error(tmp_path: Path, data: bytes) -> None:
    """settings.json and recent.txt are conveniences: whatever bytes they hold, loading them never
    raises (a NUL, bytes that are not UTF-8, JSON nested 5,000 deep)."""
    from editor.files import RecentFiles, Settings

    folder = tmp_path / "fuzz-state"
    folder.mkdir(exist_ok=True)
    (folder / "settings.json").write_bytes(data)
    (folder / "recent.txt").write_bytes(data)
    assert isinstance(Settings(folder).load(), dict)
    assert all(isinstance(p, Path) for p in RecentFiles(folder).load())
