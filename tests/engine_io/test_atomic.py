"""Atomic writes: errors name the user's file, never the hidden temporary file next to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.atomic import write_bytes_atomic, write_text_atomic


def test_missing_folder_error_names_the_target(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "deck.dat"
    with pytest.raises(FileNotFoundError) as info:
        write_text_atomic(target, "MF 1\n")
    assert info.value.filename == str(target)
    assert not (tmp_path / "no").exists()


def test_folder_that_is_a_file_error_names_the_target(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("in the way")
    target = tmp_path / "afile" / "out.png"
    with pytest.raises(OSError) as info:
        write_bytes_atomic(target, b"x")
    assert info.value.filename == str(target)
    assert (tmp_path / "afile").read_text() == "in the way"
