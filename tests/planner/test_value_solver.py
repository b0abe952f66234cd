"""The fast solver (remembered policies, policy evaluation sweeps) against the plain value iteration.

``solve(..., reference=True)`` is the value iteration the fast one replaced: every pose update
plays the card tree and the multiset lattice again, and there are no policy evaluation sweeps.
The criterion of correctness is the Bellman equation itself: one more sweep of full updates
must not move the fast solver's values by more than the tolerances. Goal probabilities that
round to the same tier of ``EPS`` count as equal, so the equations can have several solutions
that differ by less than ``EPS`` in goal probability (and then in rounds, where that tie is
broken): the plain iteration run to much tighter tolerances can land on another one, and the
fast solver must agree with it within one tier.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from engine.ai import plan_kernel, plan_value
from engine.ai.plan_table import TransitionTable, build_table, cards_to_goal
from engine.ai.plan_value import EPS, TOLERANCE_GOAL, TOLERANCE_ROUNDS, ValueResult, solve
from engine.ai.progress import listening
from engine.boardfile import load_board
from engine.model import Board, Level
from tests.planner.boards import ROOT, random_board

BOARDS = {
    "random-8x8-12": lambda: random_board(12, 8, 8),
    "random-8x8-17": lambda: random_board(17, 8, 8),
    "random-7x6-9": lambda: random_board(9, 7, 6),
    "crusher-row-9x5": lambda: load_board(ROOT / "gameboards" / "crusher-row-9x5.dat"),
    "gorge-12x12": lambda: load_board(ROOT / "bench" / "boards" / "gorge-12x12.dat"),
}


def _tight_reference(table: TransitionTable, starts: list[int]) -> ValueResult:
    saved = plan_value.TOLERANCE_GOAL, plan_value.TOLERANCE_ROUNDS
    plan_value.TOLERANCE_GOAL, plan_value.TOLERANCE_ROUNDS = 1e-14, 1e-10
    try:
        result = solve(table, starts, reference=True, max_sweeps=400, time_limit=600)
    finally:
        plan_value.TOLERANCE_GOAL, plan_value.TOLERANCE_ROUNDS = saved
    assert result.converged and result.full_updates == result.updates
    return result


def _setup(name: str, level: Level) -> tuple[Board, TransitionTable, list[int]]:
    board = BOARDS[name]()
    table = build_table(board, level)
    return board, table, [table.state_of(start) for start in board.starts]


@pytest.mark.parametrize("level", [Level.HARD, Level.NORMAL])
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_fast_solver_equals_the_plain_value_iteration(name: str, level: Level) -> None:
    _board, table, starts = _setup(name, level)
    truth = _tight_reference(table, starts)
    fast = solve(table, starts)
    assert fast.converged
    assert np.array_equal(fast.solved, truth.solved)
    live = truth.solved
    # A fixed point of the full updates, to the stated tolerances.
    again = solve(table, starts, previous=fast, reference=True, max_sweeps=1)
    assert np.abs(again.goal[live] - fast.goal[live]).max() <= TOLERANCE_GOAL, name
    assert np.abs(again.won[live] - fast.won[live]).max() <= 10 * TOLERANCE_ROUNDS, name
    # The same solution as the plain iteration's, within one tier of goal probability.
    assert np.abs(fast.goal[live] - truth.goal[live]).max() <= EPS, name
    assert fast.goal[starts[0]] >= truth.goal[starts[0]] - TOLERANCE_GOAL, name
    rounds_error = np.abs(fast.won[live] - truth.won[live]) / np.maximum(1.0, truth.won[live])
    assert rounds_error.max() <= 1e-3, name
    assert fast.alive is not None and truth.alive is not None
    assert np.array_equal(fast.alive, truth.alive)
    # It earns its place: most updates reuse a remembered policy, and it needs fewer sweeps.
    assert fast.full_updates < fast.updates
    assert fast.sweeps <= truth.sweeps


def test_plain_value_iteration_matches_with_default_tolerances() -> None:
    # The reference switch is the old solver: same sweeps, same updates, every one of them full.
    _board, table, starts = _setup("gorge-12x12", Level.HARD)
    plain = solve(table, starts, reference=True)
    assert plain.converged and plain.full_updates == plain.updates
    truth = _tight_reference(table, starts)
    assert np.abs(plain.goal - truth.goal).max() <= EPS


@pytest.mark.parametrize("sweeps", [0, 1, 2, 3])
def test_fast_solver_stopped_early_is_a_lower_bound_and_says_so(sweeps: int) -> None:
    _board, table, starts = _setup("random-8x8-12", Level.HARD)
    truth = _tight_reference(table, starts)
    full = solve(table, starts)
    early = solve(table, starts, max_sweeps=sweeps)
    assert early.stopped_early and not early.converged and early.sweeps == sweeps
    # Iterates rise to the solver's own solution, and stay below the plain iteration's but for
    # the goal probabilities one tier allows it to trade for rounds.
    assert np.all(early.goal <= full.goal + 1e-12)
    assert np.all(early.goal <= truth.goal + EPS)
    resumed = solve(table, starts, previous=early)
    assert resumed.converged
    assert np.abs(resumed.goal - truth.goal).max() <= EPS


def test_fast_solver_stopped_by_the_clock_is_reported() -> None:
    _board, table, starts = _setup("gorge-12x12", Level.NORMAL)
    early = solve(table, starts, time_limit=0.0)
    assert early.stopped_early and early.sweeps == 0 and early.residual_goal == float("inf")
    assert np.all(early.goal[: table.poses] == 0.0)


def test_policy_memory_limit_falls_back_to_full_updates(monkeypatch: pytest.MonkeyPatch) -> None:
    _board, table, starts = _setup("random-8x8-17", Level.HARD)
    unlimited = solve(table, starts)
    monkeypatch.setattr(plan_value, "MEMO_BYTES", 0)  # no room for any remembered policy
    limited = solve(table, starts)
    assert limited.converged and limited.full_updates == limited.updates
    assert np.abs(limited.goal - unlimited.goal).max() <= EPS


def test_time_limit_stops_within_a_sweep_but_never_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # A clock that stands still until the listener hears the second sweep's second chunk (a report
    # follows every chunk of 16 poses but a sweep's last, and every sweep), then jumps past the limit.
    _board, table, starts = _setup("random-8x8-12", Level.HARD)
    full = solve(table, starts)
    assert full.sweeps >= 3
    hopeful = int(np.count_nonzero(full.solved & (cards_to_goal(table) > 0)))
    chunks = -(-hopeful // 16)
    assert chunks >= 3
    now = [0.0]
    monkeypatch.setattr(plan_value, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    monkeypatch.setattr(plan_value, "SWEEP_CHUNK", 16)
    heard: list[float] = []

    def listener(stage: str, fraction: float) -> None:
        heard.append(fraction)
        if len(heard) == chunks + 2:
            now[0] = 1e9

    with listening(listener):
        early = solve(table, starts, time_limit=100.0)
    assert early.sweeps == 1 and not early.converged  # the cut second sweep does not count
    assert np.all(early.goal <= full.goal + 1e-12)
    assert early.goal[starts[0]] > 0.9  # the first sweep gave every pose its value

    def racing() -> float:  # every look at the clock costs a minute
        now[0] += 60.0
        return now[0]

    now[0] = 0.0
    monkeypatch.setattr(plan_value, "time", SimpleNamespace(perf_counter=racing))
    first_only = solve(table, starts, time_limit=90.0)
    assert first_only.sweeps == 1 and not first_only.converged  # a spent limit still sweeps once
    assert first_only.goal[starts[0]] > 0.9


def test_remembered_wait_bits_give_the_same_best_choices_as_a_fresh_update() -> None:
    """A fresh update works out which hands can wait (its bits in ``work[37]``): the hands holding
    a 5-card multiset that can (``f5``), checked directly here. A later update reads them from the
    pose's remembered row and gives every hand the same best end, and the same policy groups."""
    _board, table, starts = _setup("random-8x8-17", Level.NORMAL)
    values = solve(table, starts)
    lat = plan_kernel.kernel_lattice(plan_kernel.lattice())
    hands = np.array(plan_kernel.lattice().levels[-1])
    fives = np.array(plan_kernel.lattice().levels[0])
    holds = (hands[:, None, :] >= fives[None, :, :]).all(axis=2)  # hand x 5-card multiset
    work = plan_kernel.work_buffers(plan_kernel.lattice(), table.states)
    nxt = np.ascontiguousarray(table.next, dtype=np.int32)
    stamp = np.zeros(table.states, dtype=np.int64)
    no_ends = np.zeros(0, dtype=np.int32)
    waits = np.zeros((1, plan_value.WAIT_WORDS), dtype=np.uint64)
    f5, b8, g_code, g_w = work[6], work[11], work[20], work[21]
    checked = waiting = 0
    for tag, p in enumerate(np.nonzero(values.solved[: table.poses])[0], start=1):
        args = (int(p), nxt, values.goal, values.won, lat, EPS, work, stamp)
        n = plan_kernel._best_per_hand(*args, 2 * tag, (-1, 0, -1), no_ends, waits[:0])
        best, bits = b8.copy(), work[37].copy()
        can_wait = np.array([(int(bits[h >> 6]) >> (h & 63)) & 1 for h in range(len(hands))], dtype=bool)
        assert np.array_equal(can_wait, (holds & f5[None, :]).any(axis=1))
        count = plan_kernel._group_hands(n, lat[4], work, bits, g_code, g_w)
        groups = (g_code[:count].copy(), g_w[:count].copy())
        waits[0] = bits
        work[37][:] = ~bits  # a remembered update must not read the fresh bits
        assert plan_kernel._best_per_hand(*args, 2 * tag + 1, (-1, 0, 0), no_ends, waits) == n
        assert np.array_equal(b8, best)
        assert plan_kernel._group_hands(n, lat[4], work, waits[0], g_code, g_w) == count
        assert np.array_equal(g_code[:count], groups[0]) and np.array_equal(g_w[:count], groups[1])
        checked += 1
        waiting += int(can_wait.any())
    assert checked > 50 and waiting > 10


def test_groups_sum_the_hand_weights_per_best_end_and_wait_flag() -> None:
    """``_group_hands`` against a plain sum over the hands, on random ranks and flags."""
    lat = plan_kernel.kernel_lattice(plan_kernel.lattice())
    work = plan_kernel.work_buffers(plan_kernel.lattice(), 64)
    rng = np.random.default_rng(5)
    n = 9
    b8, sorted_e, g_code, g_w = work[11], work[17], work[20], work[21]
    b8[:] = rng.integers(0, n + 1, len(b8))
    sorted_e[:n] = rng.permutation(40)[:n]
    flags = rng.random(len(b8)) < 0.3
    bits = np.zeros(plan_value.WAIT_WORDS, dtype=np.uint64)
    for h in np.nonzero(flags)[0]:
        bits[h >> 6] |= np.uint64(1) << np.uint64(h & 63)
    count = plan_kernel._group_hands(n, lat[4], work, bits, g_code, g_w)
    expected = []
    for r in range(n + 1):
        end = int(sorted_e[r]) if r < n else -1
        for wait in (False, True):
            weight = float(lat[4][(b8 == r) & (flags == wait)].sum())
            if weight > 0:
                expected.append((2 * end + int(wait), weight))
    assert [int(c) for c in g_code[:count]] == [code for code, _ in expected]
    assert np.allclose(g_w[:count], [weight for _, weight in expected], rtol=1e-12, atol=0)


def test_policies_survive_pools_that_must_grow(monkeypatch: pytest.MonkeyPatch) -> None:
    _board, table, starts = _setup("gorge-12x12", Level.NORMAL)
    roomy = solve(table, starts)
    original = plan_value._Pools.__init__

    def cramped(self: plan_value._Pools, poses: int) -> None:
        original(self, poses)
        if poses:  # start with room for one full update only
            self.ends = self.ends[: plan_kernel.SEQUENCES].copy()
            self.group_code = self.group_code[: 3 * plan_kernel.SEQUENCES].copy()
            self.group_weight = self.group_weight[: 3 * plan_kernel.SEQUENCES].copy()

    monkeypatch.setattr(plan_value._Pools, "__init__", cramped)
    cramped_result = solve(table, starts)
    assert cramped_result.converged and cramped_result.full_updates == roomy.full_updates
    assert np.array_equal(cramped_result.goal, roomy.goal) and np.array_equal(cramped_result.won, roomy.won)


def test_full_group_pool_with_abandoned_segments_is_compacted_not_grown() -> None:
    pools = plan_value._Pools(4)
    size = len(pools.group_code)
    memo = np.full((10, 6), -1, dtype=np.int64)
    for pose, offset, codes in ((7, 20, [8, 9]), (2, 5, [1, 2, 3])):  # out of offset order
        pools.group_code[offset : offset + len(codes)] = codes
        pools.group_weight[offset : offset + len(codes)] = [c / 10 for c in codes]
        memo[pose, 3:6] = offset, len(codes), len(codes) + 3
    pools.tops[1] = size - 1  # no room for another full update
    pools.grow(memo)
    assert len(pools.group_code) == size and pools.tops[1] == 5
    assert list(memo[2, 3:6]) == [0, 3, 3] and list(memo[7, 3:6]) == [3, 2, 2]
    assert list(pools.group_code[:5]) == [1, 2, 3, 8, 9]
    assert list(pools.group_weight[:5]) == pytest.approx([0.1, 0.2, 0.3, 0.8, 0.9])


@pytest.mark.parametrize("name", ["gorge-12x12", "random-8x8-17"])
def test_values_do_not_depend_on_the_number_of_threads(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Small steps so that both lanes get many poses on a small board; the lanes are fixed, so
    # one thread running them in turn and two side by side give bit-identical values.
    monkeypatch.setattr(plan_value, "SWEEP_CHUNK", 8)
    _board, table, starts = _setup(name, Level.HARD)
    alone = solve(table, starts, threads=1)
    crew = solve(table, starts, threads=2)
    assert alone.converged and crew.converged
    assert (alone.sweeps, alone.updates, alone.full_updates) == (crew.sweeps, crew.updates, crew.full_updates)
    assert np.array_equal(alone.goal, crew.goal) and np.array_equal(alone.won, crew.won)


def test_lanes_split_every_step_and_own_each_pose_once() -> None:
    order = np.arange(100, 403, dtype=np.int64)
    lat = plan_kernel.lattice()
    values = np.zeros(410)
    lanes = plan_value._lanes(order, values, values, lat, 410, reference=False)
    assert len(lanes) == plan_value.LANES
    owned = np.concatenate([lane.order for lane in lanes])
    assert sorted(owned.tolist()) == order.tolist()
    steps = -(-len(order) // plan_value.SWEEP_CHUNK)
    for step in range(steps):
        chunk = order[step * plan_value.SWEEP_CHUNK : (step + 1) * plan_value.SWEEP_CHUNK]
        together = np.concatenate([lane.order[slice(*lane.span(range(step, step + 1)))] for lane in lanes])
        assert sorted(together.tolist()) == chunk.tolist()
    assert len(plan_value._lanes(order, values, values, lat, 410, reference=True)) == 1
