"""Exporting from the editor runs in a thread of its own: the window keeps drawing and editing,
the status bar says how far it is, a second export is refused while one runs, and the file is
either the old one or the complete new one (the writer is held by events the test controls)."""

from __future__ import annotations

import errno
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from editor.controller import EditorController
from editor.document import Document
from editor.export import ExportOptions, Progress, export_board
from editor.games.base import Grid

CHOP = Path(__file__).resolve().parents[2] / "gameboards" / "chop.dat"
GUARD_S = 120  # only ends a test that would otherwise hang; nothing waits for time to pass


class HeldWriter:
    """``export_board``, held half-way until the test releases it; notes the thread it ran on."""

    def __init__(self, fail_at_half: bool = False) -> None:
        self.half_way = threading.Event()
        self.release = threading.Event()
        self.calls = 0
        self.threads: list[threading.Thread] = []
        self.fail_at_half = fail_at_half

    def __call__(
        self, board: Grid, target: Path, options: ExportOptions, title: str | None, progress: Progress
    ) -> Path:
        self.calls += 1
        self.threads.append(threading.current_thread())

        def held(fraction: float) -> None:
            progress(fraction)
            if fraction >= 0.5 and not self.half_way.is_set():
                self.half_way.set()
                assert self.release.wait(GUARD_S), "the test never released the export"
                if self.fail_at_half:
                    raise OSError(errno.ENOSPC, "No space left on device")

        return export_board(board, target, options, title=title, progress=held)


@pytest.fixture
def editor(tmp_path: Path) -> Iterator[EditorController]:
    board = tmp_path / "b.dat"
    shutil.copy(CHOP, board)
    ctl = EditorController(Document.open(board), autosave_folder=tmp_path / "state", background_validation=False)
    yield ctl
    ctl.close()


def _ask_export(ctl: EditorController, target: Path, options: str = "--tile 20") -> None:
    ctl.key_press("E", ctrl=True, shift=True)
    assert ctl.prompt is not None
    ctl.prompt.set_text(str(target))
    ctl.key_press("ENTER")
    assert ctl.prompt is not None
    ctl.prompt.set_text(options)
    ctl.key_press("ENTER")


def test_the_export_runs_beside_the_window_and_a_second_one_is_refused(
    editor: EditorController, tmp_path: Path
) -> None:
    ctl = editor
    writer = HeldWriter()
    ctl.export_writer = writer
    target = tmp_path / "b.png"
    _ask_export(ctl, target)  # returns while the export is held: it is not on this thread
    assert ctl.export_job is not None and ctl.export_job.running
    assert writer.half_way.wait(GUARD_S)
    assert writer.threads and writer.threads[0] is not threading.current_thread()
    ctl.work()  # the window's tick
    assert ctl.status.startswith("exporting b.png") and "%" in ctl.status
    assert not target.exists()  # nothing half-written where the file goes

    # The window is usable meanwhile: an edit goes through (the export keeps the board it was given).
    asked = ctl.document.board
    left, top, size, _ = ctl.mapping.tile_rect(4, 4)
    ctl.mouse_press(left + size / 2, top + size / 2, "left")
    ctl.mouse_release(left + size / 2, top + size / 2, "left")
    assert ctl.document.board is not asked and ctl.document.modified

    # A second export while this one runs: said, not started.
    ctl.key_press("E", ctrl=True, shift=True)
    assert ctl.prompt is None and ctl.status.startswith("an export is running (b.png")
    assert writer.calls == 1

    writer.release.set()
    ctl.finish_export()
    assert ctl.export_job is None and ctl.status == f"exported {target}"
    expected = tmp_path / "expected.png"
    export_board(asked, expected, ExportOptions(tile_px=20))
    with Image.open(target) as got, Image.open(expected) as want:
        assert got.size == (12 * 20, 12 * 20) and got.tobytes() == want.tobytes()  # whole, as asked
    assert sorted(p.name for p in tmp_path.iterdir() if "b.png" in p.name) == ["b.png"]  # no temporary left


def test_a_failed_export_leaves_the_old_file_as_it_was(editor: EditorController, tmp_path: Path) -> None:
    ctl = editor
    target = tmp_path / "b.png"
    target.write_bytes(b"the picture from last week")
    writer = HeldWriter(fail_at_half=True)
    ctl.export_writer = writer
    _ask_export(ctl, target)
    assert ctl.prompt is not None and "replace it?" in ctl.prompt.label
    ctl.text("y")
    assert ctl.export_job is not None and ctl.export_job.running
    assert writer.half_way.wait(GUARD_S)
    assert target.read_bytes() == b"the picture from last week"
    writer.release.set()
    ctl.finish_export()
    assert ctl.status == f"could not export {target}: No space left on device"
    assert target.read_bytes() == b"the picture from last week"
    assert sorted(p.name for p in tmp_path.iterdir() if "png" in p.name) == ["b.png"]  # no temporary left


def test_a_png_too_big_is_refused_at_once_without_a_thread(tmp_path: Path) -> None:
    from editor.games import TRON, game_named

    arena = tmp_path / "big.txt"
    arena.write_text(game_named(TRON).write(game_named(TRON).blank(512, 512)))
    ctl = EditorController(Document.open(arena), autosave_folder=tmp_path / "state", background_validation=False)
    writer = HeldWriter()
    ctl.export_writer = writer
    try:
        _ask_export(ctl, tmp_path / "big.png", "--tile 17")
        assert ctl.export_job is None and writer.calls == 0
        assert ctl.status.startswith(f"could not export {tmp_path / 'big.png'}: at 17 px a tile")
    finally:
        ctl.close()


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_esc_cancels_a_running_export_and_nothing_is_written(
    editor: EditorController, tmp_path: Path, suffix: str
) -> None:
    """Esc during an export stops the writer at its next progress step: the old file stays as it
    was, no temporary is left, and the status bar says it was cancelled."""
    ctl = editor
    target = tmp_path / f"b{suffix}"
    target.write_bytes(b"the picture from last week")
    writer = HeldWriter()
    ctl.export_writer = writer
    _ask_export(ctl, target, "--tile 20" + (" --paper a4" if suffix == ".pdf" else ""))
    ctl.text("y")  # replace it
    job = ctl.export_job
    assert job is not None and job.running
    assert writer.half_way.wait(GUARD_S)
    ctl.work()
    assert "Esc cancels" in ctl.status
    ctl.key_press("ESCAPE")
    assert ctl.status.startswith("cancelling the export of")
    writer.release.set()  # the writer goes on to its next progress step, and stops there
    ctl.finish_export(GUARD_S)
    assert job.cancelled and job.written is None and job.error is None
    assert ctl.export_job is None and ctl.status == f"export cancelled: nothing written to {target}"
    assert target.read_bytes() == b"the picture from last week"
    assert sorted(p.name for p in tmp_path.iterdir() if suffix in p.name) == [target.name]  # no temporary left
    ctl.work()
    assert ctl.status.startswith("export cancelled")  # the tick does not write over it


def test_esc_first_closes_the_help_then_cancels_the_export(editor: EditorController, tmp_path: Path) -> None:
    ctl = editor
    writer = HeldWriter()
    ctl.export_writer = writer
    _ask_export(ctl, tmp_path / "b.png")
    assert writer.half_way.wait(GUARD_S)
    ctl.help_visible = True
    ctl.key_press("ESCAPE")
    assert not ctl.help_visible and ctl.export_job is not None and not ctl.export_job.cancelled
    writer.release.set()
    ctl.finish_export(GUARD_S)
    assert ctl.status == f"exported {tmp_path / 'b.png'}"


def test_a_cancel_after_the_file_is_written_is_too_late_and_says_exported(tmp_path: Path) -> None:
    """The last progress step (1.0) comes after the file is written: cancelling then changes nothing."""
    from editor.exportjob import ExportJob

    board = Document.open(CHOP).board
    target = tmp_path / "b.svg"

    def write(board: Grid, path: Path, options: ExportOptions, title: str | None, progress: Progress) -> Path:
        def last(fraction: float) -> None:
            if fraction >= 1.0:
                job.cancel()
            progress(fraction)

        return export_board(board, path, options, title=title, progress=last)

    job = ExportJob(board, target, ExportOptions(tile_px=20), write=write)
    job.start()
    assert job.wait(GUARD_S)
    assert not job.cancelled and job.written == target and target.is_file()
