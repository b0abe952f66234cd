"""bench/precompute.py end to end on tiny boards: one table row per board and level, as measured."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine.boardfile import save_board
from tests.planner.boards import ROOT, Board


def test_precompute_bench_reports_each_board_and_level(tmp_path: Path) -> None:
    lane = tmp_path / "lane.dat"
    save_board(Board.from_strings(["T  H ", "    Z"]), lane)
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "precompute.py"),
            str(lane),
            "--levels",
            "normal,hard",
            "--random",
            "12",
            "8",
            "8",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    rows = [line.split("|")[1:-1] for line in done.stdout.splitlines() if line.startswith("| ") and "---" not in line]
    header, body = rows[0], rows[1:]
    assert [cell.strip() for cell in header][:3] == ["board", "level", "poses solved"]
    assert [(r[0].strip(), r[1].strip()) for r in body] == [
        ("lane", "normal"),
        ("lane", "hard"),
        ("random:12:8:8", "normal"),
        ("random:12:8:8", "hard"),
    ]
    for row in body:
        cells = dict(zip((c.strip() for c in header), (c.strip() for c in row), strict=True))
        assert int(cells["poses solved"].replace(",", "")) > 0
        assert cells["converged"] == "yes"
        assert int(cells["full updates"].replace(",", "")) <= int(cells["updates"].replace(",", ""))
        assert float(cells["peak MB"]) > 0
    assert "load average before" in done.stdout and "load average after" in done.stdout


def test_precompute_bench_times_a_whole_game(tmp_path: Path) -> None:
    lane = tmp_path / "lane.dat"
    save_board(Board.from_strings(["T  H ", "    Z"]), lane)
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "precompute.py"), str(lane), "--levels", "normal", "--game", "3"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    rows = [line.split("|")[1:-1] for line in done.stdout.splitlines() if line.startswith("| ") and "---" not in line]
    assert [c.strip() for c in rows[0]][2] == "whole game (deck seed 3)"
    (row,) = rows[1:]
    cells = [c.strip() for c in row]
    assert cells[:3] == ["lane", "normal", "finished"]
    assert int(cells[3]) >= 1 and float(cells[4]) >= 0 and float(cells[6]) > 0


def _tiled_board(source: Board, width: int, height: int) -> Board:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from precompute import tiled_board
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return tiled_board(source, width, height)


def test_tiled_board_repeats_the_inside_with_one_start() -> None:
    source = Board.from_strings(["vvvvvvv", "vvvvvvv", "vvS Zvv", "vvT Hvv", "vvvvvvv", "vvvvvvv"])
    tiled = _tiled_board(source, 5, 3)
    assert tiled.to_strings() == ["S Z  ", "  H  ", "  Z  "]
    assert len(tiled.starts) == 1


def test_tiled_option_measures_the_tiled_board_and_refuses_a_bad_size(tmp_path: Path) -> None:
    source = tmp_path / "ring.dat"
    save_board(Board.from_strings(["vvvvvvv", "vvvvvvv", "vvT Zvv", "vv   vv", "vvvvvvv", "vvvvvvv"]), source)
    bench = str(ROOT / "bench" / "precompute.py")
    done = subprocess.run(
        [sys.executable, bench, "--tiled", str(source), "9", "6"], capture_output=True, text=True, check=True
    )
    (row,) = [line for line in done.stdout.splitlines() if line.startswith("| ring tiled 9x6 ")]
    assert row.split("|")[11].strip() == "yes"
    refused = subprocess.run(
        [sys.executable, bench, "--tiled", str(source), "9", "-6"], capture_output=True, text=True, check=False
    )
    assert refused.returncode == 2 and "positive width and height" in refused.stderr
