"""Fast contests: a reusable built-in AI (the planner) builds each board's tables once, not once per game."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine.ai import registry
from engine.ai.registry import is_reusable
from engine.contest.runner import BoardSource, ContestSetup, DeckSource, board_affine_tasks, run_contest
from engine.model import Level

from .conftest import ROOT

BOARDS = ["tiny-2x1.dat", "crossing-5x3.dat", "oil-runs-12x8.dat"]


def setup_for(ai: str, seeds: int = 4) -> ContestSetup:
    boards = tuple(BoardSource(str(ROOT / "gameboards" / n), (ROOT / "gameboards" / n).read_text()) for n in BOARDS)
    decks = tuple(DeckSource(seed=s) for s in range(1, seeds + 1))
    return ContestSetup(boards, decks, Level.HARD, ai, 10.0, None)


def test_builtins_are_reusable_programs_are_not(tmp_path: Path) -> None:
    assert is_reusable("planner") and is_reusable("reference")
    assert not is_reusable(str(tmp_path / "bot.py"))


def test_board_affine_order_puts_each_boards_games_together_biggest_first() -> None:
    tasks = board_affine_tasks(setup_for("planner"))
    assert [b for b, _ in tasks[::4]] == [2, 1, 0]  # 12x8, 5x3, 2x1
    assert tasks[:4] == [(2, 0), (2, 1), (2, 2), (2, 3)]


def test_one_planner_per_worker_plays_every_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    made = tmp_path / "made"  # the games are played in a worker process: it counts into a file
    real = registry.BUILTINS["planner"]

    def counting() -> object:
        with made.open("a") as handle:
            handle.write("made\n")
        return real.factory()

    monkeypatch.setitem(registry.BUILTINS, "planner", dataclasses.replace(real, factory=counting))
    results = run_contest(setup_for("planner"), jobs=1)
    assert len(results) == 12 and all(r.outcome == "Z" for r in results)
    assert made.read_text() == "made\n"  # so the planner's tables per board are built once, not once per game


def test_two_workers_give_the_same_results_in_board_major_order() -> None:
    one = run_contest(setup_for("planner"), jobs=1)
    two = run_contest(setup_for("planner"), jobs=2)
    assert one == two
    assert [r.board.rsplit("/", 1)[1] for r in two[::4]] == BOARDS
    assert [r.deck for r in two[:4]] == ["seed:1", "seed:2", "seed:3", "seed:4"]
