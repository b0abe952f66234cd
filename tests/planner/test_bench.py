"""bench/ai.py end to end on a tiny board: the table's figures follow from the games it played."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from PIL import Image

from engine.boardfile import save_board
from tests.planner.boards import ROOT, Board


def load_bench() -> object:
    spec = importlib.util.spec_from_file_location("bench_ai", ROOT / "bench" / "ai.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_ai"] = module  # dataclasses and worker processes look the module up by name
    spec.loader.exec_module(module)
    return module


def test_bench_writes_table_and_chart(tmp_path: Path) -> None:
    bench = load_bench()
    board = tmp_path / "lane.dat"
    save_board(Board.from_strings(["T  H ", "    Z"]), board)
    out, chart = tmp_path / "bench.md", tmp_path / "bench.png"
    code = bench.main(
        [
            "--boards",
            str(board),
            "--decks",
            "6",
            "--levels",
            "normal",
            "hard",
            "--jobs",
            "2",
            "--out",
            str(out),
            "--chart",
            str(chart),
        ]
    )  # type: ignore[attr-defined]
    assert code == 0
    text = out.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| lane ") and line.count("|") > 10]
    assert len(rows) == 6  # 2 levels x (reference, planner, optimum)
    bounds = [line.split("|") for line in text.splitlines() if line.startswith("| lane ") and line.count("|") < 10]
    assert len(bounds) == 2 and all(row[5].strip() == "yes" for row in bounds)  # one per level, converged
    nf_goal = float(planner_bound := next(r for r in rows if "hard | planner" in r).split("|")[12].strip(" %"))
    assert 0 < nf_goal <= 100, planner_bound
    planner_hard = next(r for r in rows if "hard | planner" in r).split("|")
    optimum_hard = next(r for r in rows if "hard | optimum" in r).split("|")
    assert planner_hard[3].strip() == "6"
    assert float(planner_hard[8]) >= float(optimum_hard[8]) - 1e-9 or planner_hard[8].strip() == "nan"
    assert optimum_hard[11].strip() == "1.000"  # rounds / optimum of the optimum itself
    with Image.open(chart) as image:
        assert image.size[0] > 300 and image.size[1] == 420


def test_bench_chart_goes_beside_out_unless_named(tmp_path: Path) -> None:
    """A run written elsewhere never rewrites the docs' chart."""
    bench = load_bench()
    board = tmp_path / "lane.dat"
    save_board(Board.from_strings(["T  H ", "    Z"]), board)
    docs_chart = ROOT / "docs" / "img" / "ai-bench.png"
    before = docs_chart.read_bytes()
    out = tmp_path / "runs" / "mine.md"
    args = ["--boards", str(board), "--decks", "2", "--levels", "hard", "--jobs", "1"]
    code = bench.main([*args, "--no-reference", "--no-optimum", "--no-bound", "--out", str(out)])  # type: ignore[attr-defined]
    assert code == 0
    with Image.open(tmp_path / "runs" / "mine.png") as image:
        assert image.size[1] == 420
    assert docs_chart.read_bytes() == before
