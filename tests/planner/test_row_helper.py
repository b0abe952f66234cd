"""The table builder's helper process (engine.ai.row_helper): the same tables, and nothing left.

The helper plays rows on the other core while the search plays its own; whatever the helper does
or fails to do, the table must be the one the search plays alone, and no helper process may
outlive the build, its cancellation or its parent's kill -9.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from engine.ai import plan_table, row_helper
from engine.ai.plan_table import build_table, state_index
from engine.ai.progress import listening
from engine.boardfile import load_board
from engine.model import Board, Level
from gameboards import board_path
from tests.ai_protocol.conftest import is_alive, wait_gone
from tests.planner.boards import chop, random_board


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Helpers are forked even if an earlier test left a thread running in this process (the
    parent never waits for a helper, so one that a lock held by such a thread stopped only costs
    time; ``test_no_helper_where_other_threads_run`` checks the real rule)."""
    monkeypatch.setattr(row_helper, "can_fork", lambda: True)


def alone(
    board: Board, level: Level, starts: list[int] | None, monkeypatch: pytest.MonkeyPatch
) -> plan_table.TransitionTable:
    with monkeypatch.context() as patch:
        patch.setattr(row_helper, "can_fork", lambda: False)
        return build_table(board, level, starts)


def same(a: plan_table.TransitionTable, b: plan_table.TransitionTable) -> bool:
    built = (a.built is None and b.built is None) or (
        a.built is not None and b.built is not None and np.array_equal(a.built, b.built)
    )
    return built and np.array_equal(a.next, b.next) and np.array_equal(a.occupiable, b.occupiable)


@pytest.mark.parametrize(
    "board",
    [
        load_board(board_path("factory-32x32.dat")),
        load_board(board_path("belt-maze-20x8.dat")),
        random_board(14, 40, 40),
    ],
    ids=["factory-32x32", "belt-maze-20x8", "random-14-40x40"],
)
def test_tables_with_a_helper_are_the_ones_played_alone(
    board: Board, monkeypatch: pytest.MonkeyPatch, forking: None
) -> None:
    monkeypatch.setattr(plan_table, "HELP_AFTER", 16)  # a helper on boards this small too
    starts = [state_index(board, start) for start in board.starts]
    helped = build_table(board, Level.HARD, starts)
    assert same(helped, alone(board, Level.HARD, starts, monkeypatch))
    assert same(build_table(board, Level.NORMAL), alone(board, Level.NORMAL, None, monkeypatch))


def test_a_helper_killed_midway_costs_only_time(monkeypatch: pytest.MonkeyPatch, forking: None) -> None:
    """The helper is killed as soon as it starts: the search plays every row itself."""
    board = load_board(board_path("factory-32x32.dat"))
    monkeypatch.setattr(plan_table, "HELP_AFTER", 16)
    started = row_helper.RowHelper.__init__
    pids = []

    def killed(self: row_helper.RowHelper, *args: object) -> None:
        started(self, *args)  # type: ignore[arg-type]
        assert self.pid is not None
        os.kill(self.pid, 9)
        pids.append(self.pid)

    monkeypatch.setattr(row_helper.RowHelper, "__init__", killed)
    starts = [state_index(board, start) for start in board.starts]
    table = build_table(board, Level.HARD, starts)
    monkeypatch.undo()
    assert pids and not is_alive(pids[0])
    assert same(table, alone(board, Level.HARD, starts, monkeypatch))


def test_a_cancelled_build_leaves_no_helper(monkeypatch: pytest.MonkeyPatch, forking: None) -> None:
    board = load_board(board_path("big-100x100.dat"))
    monkeypatch.setattr(plan_table, "HELP_AFTER", 16)
    helpers: list[int] = []
    original = row_helper.RowHelper.__init__

    def noted(self: row_helper.RowHelper, *args: object) -> None:
        original(self, *args)  # type: ignore[arg-type]
        assert self.pid is not None
        helpers.append(self.pid)

    monkeypatch.setattr(row_helper.RowHelper, "__init__", noted)

    def cancel(stage: str, fraction: float) -> None:
        if helpers:
            raise KeyboardInterrupt

    starts = [state_index(board, start) for start in board.starts]
    with pytest.raises(KeyboardInterrupt), listening(cancel):
        build_table(board, Level.HARD, starts)
    assert helpers and not is_alive(helpers[0])


def test_no_helper_where_other_threads_run() -> None:
    """A fork copies only the calling thread: with another one running there is no helper."""
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        with row_helper.RowHelper(lambda: [0], lambda state: [state], 1, 4) as helper:
            assert helper.pid is None and helper.ready(0) is None
    finally:
        release.set()
        other.join()


def test_a_helpers_rows_are_what_play_returns(forking: None) -> None:
    """Waited for to the end (the search never does that), every row the helper played is
    ``ready`` and is exactly ``play``'s row; the others are not."""
    board = load_board(board_path("factory-32x32.dat"))
    poses = board.width * board.height * 4
    player = functools.partial(plan_table._row, board, Level.HARD, poses)
    wanted = list(range(0, poses, 3))
    with row_helper.RowHelper(lambda: wanted, player, 7, poses + 2) as helper:
        assert helper.pid is not None
        _, status = os.waitpid(helper.pid, 0)
        helper.pid = None
        assert os.waitstatus_to_exitcode(status) == 0
        for state in range(poses):
            assert helper.ready(state) == (player(state) if state % 3 == 0 else None)


def test_a_row_counts_only_once_all_its_numbers_are_written(forking: None) -> None:
    with row_helper.RowHelper(lambda: [], lambda state: [state] * 3, 3, 8) as helper:
        assert helper.pid is not None and helper._rows is not None
        helper._rows[5, :2] = [4, 7]  # two of three numbers written (as values + 1)
        assert helper.ready(5) is None
        helper._rows[5, 2] = 1
        assert helper.ready(5) == [3, 6, 0]
        pid = helper.pid
    assert not is_alive(pid)
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no zombie left either


def test_a_helper_dies_with_its_parent(tmp_path: Path) -> None:
    """kill -9 of the process building a table takes its helper with it (Linux)."""
    noted = tmp_path / "helper.pid"
    program = f"""
import time
from engine.ai import row_helper
def slow(state):
    time.sleep(0.05)
    return [state]
helper = row_helper.RowHelper(lambda: range(10**6), slow, 1, 10**6 + 2)
open({str(noted)!r}, "w").write(str(helper.pid))
time.sleep(600)
"""
    builder = subprocess.Popen([sys.executable, "-c", program], cwd=Path(__file__).resolve().parents[2])
    try:
        deadline = time.monotonic() + 60
        while not (noted.exists() and noted.read_text()):
            assert builder.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        pid = int(noted.read_text())
        assert is_alive(pid)
    finally:
        builder.kill()
        builder.wait()
    assert wait_gone(pid)


def test_chop_is_played_without_a_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small region is done before ``HELP_AFTER`` rows: no process is forked for it."""
    forks: list[int] = []
    monkeypatch.setattr(row_helper, "_fork_helper", lambda *args: forks.append(1))
    board = chop()
    build_table(board, Level.HARD, [state_index(board, start) for start in board.starts])
    assert not forks


def test_the_parents_signal_handlers_do_not_run_in_the_helper(tmp_path: Path) -> None:
    """A SIGTERM to the helper ends it: the handler the parent set (which might clean up the
    parent's AI programs) does not run in the copy."""
    ran = tmp_path / "handler-ran"
    program = f"""
import os, signal, sys, time
from engine.ai import row_helper
signal.signal(signal.SIGTERM, lambda *_: open({str(ran)!r}, "a").write(str(os.getpid()) + "\\n"))
def slow(state):
    time.sleep(0.05)
    return [state]
helper = row_helper.RowHelper(lambda: range(10**6), slow, 1, 10**6 + 2)
os.kill(helper.pid, signal.SIGTERM)
_, status = os.waitpid(helper.pid, 0)
print(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM)
helper.pid = None
helper.close()
"""
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.split() == ["True"], done.stderr
    assert not ran.exists()
