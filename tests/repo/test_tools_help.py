"""The generator scripts under tools/ answer --help without writing anything.

``python3 tools/make_tron_arenas.py --help`` rewrote all 14 shipped arenas (it read no arguments):
harmless only because the output happened to be the same bytes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GENERATORS = ("make_boards.py", "make_bench_boards.py", "make_tron_arenas.py", "theme_doc_pictures.py")


def _tree(folder: Path) -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("script", GENERATORS)
def test_help_writes_nothing(script: str, tmp_path: Path) -> None:
    watched = [ROOT / "gameboards", ROOT / "bench" / "boards", ROOT / "docs" / "img"]
    before = [_tree(folder) for folder in watched]
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / script), "--help"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage:") and "wrote" not in result.stdout
    assert [_tree(folder) for folder in watched] == before


@pytest.mark.parametrize("script", GENERATORS)
def test_an_unknown_option_is_refused(script: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / script), "--no-such-option"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and "unrecognized arguments" in result.stderr
