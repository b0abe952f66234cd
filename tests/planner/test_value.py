"""The value iteration's dynamic programme equals brute force over ordered choices."""

from __future__ import annotations

import math
import statistics
from itertools import permutations

import numpy as np
import pytest

from engine.ai.plan_table import build_table
from engine.ai.plan_value import (
    DEATH,
    best_after_round,
    exact_hand_model,
    expected_rounds,
    multisets,
    sampled_hand_model,
)
from engine.ai.planner import Planner
from engine.deck import generate_deck
from engine.game import play_game
from engine.model import Board, Level
from tests.planner.boards import CORRIDOR, UNREACHABLE, random_board


def test_exact_hand_model_is_the_multinomial() -> None:
    model = exact_hand_model()
    assert len(model.levels[-1]) == math.comb(8 + 6, 6) == 3003
    assert [len(level) for level in model.levels] == [math.comb(k + 6, 6) for k in range(3, 9)]
    assert model.weights.sum() == pytest.approx(1.0)
    eight_mf1 = model.levels[-1].index((0, 0, 8, 0, 0, 0, 0))
    assert model.weights[eight_mf1] == pytest.approx((1200 / 5600) ** 8)
    assert len(multisets(2, 3)) == 6


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dynamic_programme_equals_brute_force(seed: int) -> None:
    board = random_board(seed, 4, 3)
    table = build_table(board, Level.HARD)
    rng = np.random.default_rng(seed)
    values = rng.uniform(1, 9, table.states)
    values[table.dead], values[table.goal] = DEATH, 0.0
    model = sampled_hand_model(6, seed)
    after = best_after_round(table, values, model)
    for row, counts in enumerate(model.levels[-1]):
        hand = [k for k, n in enumerate(counts) for _ in range(n)]
        orders = set(permutations(hand, 5))
        for state in range(0, table.poses, 3):
            best = math.inf
            for order in orders:
                s = state
                for c in order:
                    s = int(table.next[c, s])
                best = min(best, values[s])
            assert after[row, state] == pytest.approx(best, rel=1e-6)


def test_values_are_expected_rounds_on_a_safe_board() -> None:
    board = Board.from_strings(["T    ", "     ", "    Z"])  # normal: the edge is a wall, nothing kills
    table = build_table(board, Level.NORMAL)
    result = expected_rounds(table)
    assert result.converged and result.exact_hands
    assert result.values[table.goal] == 0 and result.values[table.dead] >= DEATH
    start = result.values[table.state_of(board.start)]
    # Played out by the planner, the mean rounds match the value (the model's draws are independent,
    # the deck's are not, but a 5,600-card deck makes the difference invisible at this sample size).
    planner = Planner()
    rounds = [len(play_game(board, Level.NORMAL, generate_deck(seed)[:120], planner).rounds) for seed in range(300)]
    mean = statistics.mean(rounds)
    error = statistics.stdev(rounds) / len(rounds) ** 0.5
    assert abs(mean - start) < 4 * error + 0.01, (mean, error, start)
    assert np.all(result.values[: table.poses] >= 1.0)


def test_forced_death_risk_is_priced_into_values() -> None:
    # Facing a hole two tiles ahead: a hand of forward moves only (p ~ 0.1%) forces destruction.
    table = build_table(CORRIDOR, Level.NORMAL)
    result = expected_rounds(table)
    start = result.values[table.state_of(CORRIDOR.start)]
    no_hole = Board.from_strings(["T    ", "     ", "    Z"])
    safe_table = build_table(no_hole, Level.NORMAL)
    safe_start = expected_rounds(safe_table).values[safe_table.state_of(no_hole.start)]
    death = result.values[table.dead]
    assert safe_start + death * 1e-4 < start < safe_start + death * 1e-2


def test_unreachable_goal_gives_hopeless_values_below_death() -> None:
    table = build_table(UNREACHABLE, Level.HARD)
    result = expected_rounds(table)
    live = result.values[table.state_of(UNREACHABLE.start)]
    death = result.values[table.dead]
    assert death / 2 <= live < death


def test_big_boards_use_a_sampled_hand_model_within_the_memory_budget() -> None:
    from engine.ai.plan_value import MEMORY_BUDGET_BYTES, _level_bytes, hand_model_for

    small = hand_model_for(12 * 12 * 4 + 2, seed=0)
    assert small.exact
    big = hand_model_for(100 * 100 * 4 + 2, seed=0)
    assert not big.exact and _level_bytes(big, 100 * 100 * 4 + 2) <= MEMORY_BUDGET_BYTES
    assert big.weights.sum() == pytest.approx(1.0)
    assert hand_model_for(100 * 100 * 4 + 2, seed=0).levels == big.levels  # deterministic for a seed


def test_time_limit_stops_value_iteration_with_usable_values() -> None:
    board = random_board(3, 24, 24)
    table = build_table(board, Level.HARD)
    result = expected_rounds(table, time_limit=0.0)
    assert result.sweeps == 0 and not result.converged
    live = result.values[: table.poses]
    assert np.all(np.isfinite(live)) and np.all(live >= 0)
    planner = Planner()
    planner.precompute_limit = 0.5
    chosen = planner(board, Level.HARD, board.start, tuple(generate_deck(9)[:8]))
    assert len(chosen) == 5
