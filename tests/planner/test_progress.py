"""The planner tells its precomputation's progress to a listener of the same thread, and to nobody else."""

from __future__ import annotations

import threading

from engine.ai.plan_table import build_table
from engine.ai.plan_value import solve
from engine.ai.progress import listening, report
from engine.boardfile import load_board
from engine.model import Level
from gameboards import board_path


def test_building_and_solving_a_plan_report_rising_progress() -> None:
    board = load_board(board_path("chop.dat"))
    heard: list[tuple[str, float]] = []
    with listening(lambda stage, fraction: heard.append((stage, fraction))):
        table = build_table(board, Level.HARD)
        solve(table, [table.state_of(board.start)])
    building = [f for s, f in heard if s == "building moves"]
    solving = [f for s, f in heard if s == "solving values"]
    assert len(building) == board.height and building == sorted(building) and building[0] == 0.0
    assert solving and solving[-1] == 1.0 and all(0.0 <= f <= 1.0 for f in solving)
    assert [s for s, _ in heard] == ["building moves"] * len(building) + ["solving values"] * len(solving)


def test_reports_reach_only_the_listening_thread() -> None:
    heard: list[str] = []
    report("nobody listens", 0.5)  # no listener: nothing happens
    with listening(lambda stage, fraction: heard.append(stage)):
        other = threading.Thread(target=report, args=("another thread", 0.5))
        other.start()
        other.join()
        report("here", 2.0)
    report("after", 0.1)
    assert heard == ["here"]
