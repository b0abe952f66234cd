"""The no-foresight values equal a brute force written straight on ``play_card`` on tiny boards."""

from __future__ import annotations

import math
import statistics
from itertools import combinations_with_replacement, permutations

import numpy as np
import pytest

from engine.ai import plan_choice, plan_kernel
from engine.ai.plan_table import build_table
from engine.ai.plan_value import EPS, solve
from engine.ai.planner import Planner
from engine.cards import DECK_COMPOSITION, DECK_SIZE, Card
from engine.deck import generate_deck
from engine.events import RobotStatus
from engine.game import Outcome, play_game
from engine.model import Board, Direction, Level, Pose
from engine.rules import play_card
from tests.planner.boards import CORRIDOR, UNREACHABLE, random_board

KINDS = list(Card)
PLACE = 7 ** np.arange(4, -1, -1)
#: Every ordered choice of 5 of the 8 positions of a hand.
POSITIONS = np.array(list(permutations(range(8), 5)))


def brute_force(board: Board, level: Level, sweeps: int = 20000) -> dict[Pose, tuple[float, float]]:
    """Jacobi value iteration from zero over every hand and every distinct ordered choice.

    Independent of the planner's machinery: outcomes come from ``play_card``, hands from
    ``itertools``, orders from ``permutations``; no table, lattice, Gauss-Seidel or waiting trick.
    Goal probabilities are compared in tiers of ``EPS`` (rounded), then won rounds, as documented.
    Returns per live pose (goal probability, won rounds).
    """
    poses = [Pose(x, y, d) for y in range(board.height) for x in range(board.width) for d in Direction]
    index = {pose: i for i, pose in enumerate(poses)}
    dead, goal = len(poses), len(poses) + 1

    def step(state: int, card: Card) -> int:
        if state >= dead:
            return state
        result = play_card(board, level, poses[state], card)
        if result.status is RobotStatus.DESTROYED:
            return dead
        if result.status is RobotStatus.FINISHED:
            return goal
        return index[result.pose]

    one = np.array([[step(s, card) for card in KINDS] for s in range(goal + 1)])
    digits = (np.arange(7**5)[:, None] // PLACE[None, :]) % 7  # code -> its five cards, first card first
    end = np.zeros((len(poses), 7**5), dtype=np.int64)
    for s in range(len(poses)):
        t = np.full(7**5, s)
        for j in range(5):
            t = one[t, digits[:, j]]
        end[s] = t
    hands, weights, codes = [], [], []
    p = [DECK_COMPOSITION[c] / DECK_SIZE for c in KINDS]
    for hand in combinations_with_replacement(range(7), 8):
        counts = [hand.count(k) for k in range(7)]
        weight = (
            math.factorial(8)
            / math.prod(math.factorial(n) for n in counts)
            * math.prod(p[k] ** n for k, n in enumerate(counts))
        )
        hands.append(hand)
        weights.append(weight)
        codes.append(np.unique(np.array(hand)[POSITIONS] @ PLACE))
    w = np.array(weights)
    # reach[s][h, t]: some order of hand h takes pose s to state t.
    reach = []
    for s in range(len(poses)):
        matrix = np.zeros((len(hands), goal + 1), dtype=bool)
        for h, hand_codes in enumerate(codes):
            matrix[h, end[s, hand_codes]] = True
        reach.append(matrix)
    g = np.zeros(goal + 1)
    r = np.zeros(goal + 1)
    g[goal] = 1.0
    for _ in range(sweeps):
        new_g, new_r = g.copy(), r.copy()
        tier = np.floor(g / EPS + 0.5)
        for s in range(len(poses)):
            best_tier = np.where(reach[s], tier[None, :], -1.0).max(axis=1)
            tied = reach[s] & (tier[None, :] == best_tier[:, None])
            best_r = np.where(tied, r[None, :], np.inf).min(axis=1)
            chosen = tied & (r[None, :] == best_r[:, None])
            best_g = np.where(chosen, g[None, :], -1.0).max(axis=1)
            new_g[s] = w @ best_g
            new_r[s] = new_g[s] + w @ best_r
        change = max(np.abs(new_g - g).max(), np.abs(new_r - r).max())
        g, r = new_g, new_r
        if change < 1e-13:
            break
    return {pose: (float(g[i]), float(r[i])) for i, pose in enumerate(poses)}


TINY = [
    Board.from_strings(["T Z"]),
    Board.from_strings(["THZ"]),
    Board.from_strings(["T", "O", "Z"]),
    Board.from_strings(["TO ", "  Z"]),
    Board.from_strings(["T ", "Z "]),
]


@pytest.mark.parametrize("case", range(len(TINY) + 3))
def test_values_equal_brute_force_on_tiny_boards(case: int) -> None:
    board = TINY[case] if case < len(TINY) else random_board(case, 3, 1)
    for level in (Level.NORMAL, Level.HARD):
        table = build_table(board, level)
        result = solve(table)
        assert result.converged
        expected = brute_force(board, level)
        for pose, (goal, won) in expected.items():
            state = table.state_of(pose)
            if not table.occupiable[state]:
                continue
            assert result.goal[state] == pytest.approx(goal, abs=1e-8), (case, level, pose)
            assert result.won[state] == pytest.approx(won, rel=1e-6, abs=1e-8), (case, level, pose)


def test_eps_is_shared_with_the_numpy_free_ranker() -> None:
    assert plan_choice.EPS == EPS


def test_lattice_is_the_multinomial() -> None:
    lat = plan_kernel.lattice()
    assert [len(level) for level in lat.levels] == [math.comb(k + 6, 6) for k in range(5, 9)]
    assert lat.weights.sum() == pytest.approx(1.0)
    eight_mf1 = lat.levels[-1].index((0, 0, 8, 0, 0, 0, 0))
    assert lat.weights[eight_mf1] == pytest.approx((1200 / 5600) ** 8)


def test_values_are_what_the_planner_achieves_on_a_safe_board() -> None:
    board = Board.from_strings(["T    ", "     ", "    Z"])  # normal: the edge is a wall, nothing kills
    table = build_table(board, Level.NORMAL)
    result = solve(table)
    start = table.state_of(board.start)
    assert result.converged and result.goal[start] == pytest.approx(1.0)
    planner = Planner()
    rounds = [len(play_game(board, Level.NORMAL, generate_deck(seed)[:120], planner).rounds) for seed in range(300)]
    mean = statistics.mean(rounds)
    error = statistics.stdev(rounds) / len(rounds) ** 0.5
    assert abs(mean - result.expected_rounds(start)) < 4 * error + 0.01, (mean, error)


def test_forced_death_risk_lowers_the_goal_probability() -> None:
    # Facing a hole two tiles ahead: a hand of forward moves only (p ~ 0.1%) forces destruction.
    table = build_table(CORRIDOR, Level.NORMAL)
    start = table.state_of(CORRIDOR.start)
    goal = solve(table).goal[start]
    assert 1 - 1e-2 < goal < 1 - 1e-5


def test_unreachable_goal_has_probability_zero() -> None:
    table = build_table(UNREACHABLE, Level.HARD)
    result = solve(table)
    assert result.goal[table.state_of(UNREACHABLE.start)] == 0.0
    assert not math.isfinite(result.expected_rounds(table.state_of(UNREACHABLE.start)))


def test_stopped_early_values_are_lower_bounds_and_reported() -> None:
    board = random_board(3, 8, 8)
    table = build_table(board, Level.HARD)
    full = solve(table)
    for sweeps in (0, 1, 2):
        early = solve(table, max_sweeps=sweeps)
        assert early.stopped_early and early.sweeps == sweeps
        assert np.all(early.goal <= full.goal + 1e-12)
    assert full.converged and not full.stopped_early
    resumed = solve(table, previous=solve(table, max_sweeps=1))
    assert np.allclose(resumed.goal, full.goal, atol=1e-9)


def test_planner_wins_as_often_as_the_bound_says() -> None:
    # On the corridor the optimum dies only when all 8 cards force it: check no avoidable deaths.
    planner = Planner()
    games = [play_game(CORRIDOR, Level.NORMAL, generate_deck(seed)[:200], planner) for seed in range(60)]
    assert all(game.outcome is Outcome.FINISHED for game in games)
