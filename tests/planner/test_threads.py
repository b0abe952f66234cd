"""How many threads the value iteration uses: one per lane up to the cores, or what
``ROBOTS_PLANNER_THREADS`` says; a contest with several games side by side sets it to 1."""

from __future__ import annotations

import os

import pytest

from engine.ai.threads import THREADS_VARIABLE, default_threads
from engine.contest.runner import one_planner_thread_per_game

CORES = len(os.sched_getaffinity(0))


@pytest.mark.parametrize(
    ("value", "lanes", "expected"),
    [
        (None, 2, min(2, CORES)),
        ("1", 2, 1),
        ("2", 2, 2),
        ("64", 2, 2),  # never more threads than lanes
        (" 1 ", 4, 1),
        ("0", 2, min(2, CORES)),  # not a count: the default
        ("-3", 2, min(2, CORES)),
        ("two", 2, min(2, CORES)),
        ("\u0663", 4, min(4, CORES)),  # Arabic-Indic three: ASCII digits only
        ("", 1, 1),
    ],
)
def test_default_threads(value: str | None, lanes: int, expected: int, monkeypatch: pytest.MonkeyPatch) -> None:
    if value is None:
        monkeypatch.delenv(THREADS_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(THREADS_VARIABLE, value)
    assert default_threads(lanes) == expected


def test_a_contest_with_several_workers_gives_each_game_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(THREADS_VARIABLE, raising=False)
    with one_planner_thread_per_game(1):
        assert THREADS_VARIABLE not in os.environ
    with one_planner_thread_per_game(3):
        assert os.environ[THREADS_VARIABLE] == "1"
        assert default_threads(2) == 1
    assert THREADS_VARIABLE not in os.environ  # restored afterwards
    monkeypatch.setenv(THREADS_VARIABLE, "2")
    with one_planner_thread_per_game(3):
        assert os.environ[THREADS_VARIABLE] == "2"  # the user's own choice stays
    assert os.environ[THREADS_VARIABLE] == "2"
