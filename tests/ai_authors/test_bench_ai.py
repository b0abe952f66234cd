"""bench/ai.py: the same seeds as robots-contest, labels that tell programs apart, no optimum column
filled in when the optimum was not played."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path

import pytest

from engine.boardfile import save_board
from engine.model import Board

from .conftest import ROOT, python_bot


def load_bench() -> object:
    spec = importlib.util.spec_from_file_location("bench_ai", ROOT / "bench" / "ai.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_ai"] = module  # worker processes look the module up by name
    spec.loader.exec_module(module)
    return module


def test_seeds_labels_and_no_optimum(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = tmp_path / "tmp"  # where the AIs' scratch folders go (the workers inherit TMPDIR)
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", None)
    board = tmp_path / "lane.dat"
    save_board(Board.from_strings(["T  H ", "    Z"]), board)
    for version in ("v1", "v2"):
        (tmp_path / version).mkdir()
        python_bot(
            tmp_path / version / "bot.py", 'open("ccards.txt", "w").write("".join(open("cards.txt").readlines()[:5]))\n'
        )
    out = tmp_path / "bench.md"
    bench = load_bench()
    code = bench.main(  # type: ignore[attr-defined]
        [
            "--boards", str(board), "--decks", "3", "--levels", "hard", "--jobs", "1", "--no-optimum", "--no-bound",
            "--no-reference", "--ai", str(tmp_path / "v1" / "bot.py"), str(tmp_path / "v2" / "bot.py"),
            "--out", str(out), "--chart", str(tmp_path / "bench.png"),
        ]
    )  # fmt: skip
    assert code == 0
    # Each program's runner was kept per worker process and never closed: every run left a
    # robots-ai-* folder per program in /tmp.
    assert list(scratch.iterdir()) == []
    text = out.read_text()
    assert "3 decks (seeds 1..3)" in text  # as robots-contest --seeds 3
    rows = [line.split("|") for line in text.splitlines() if line.startswith("| all |")]
    assert [row[2].strip() for row in rows] == ["planner", "v1/bot.py", "v2/bot.py"]
    assert all(row[7].strip() == "-" for row in rows)  # "goal when optimum can": no optimum was played
