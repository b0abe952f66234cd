"""The no-foresight optimum: per pose, the best goal probability, then the fewest expected rounds.

The contest ranks entries by goals reached first and rounds second, so the value of a pose is a
pair, compared lexicographically:

* ``goal[p]``: the highest probability of ever reaching a goal from ``p`` that any policy without
  foresight can achieve (hands drawn independently with the deck's card probabilities), and
* ``won[p]``: among the policies achieving it, the least ``E[rounds x 1(goal reached)]``. Since
  the goal probability is fixed, that also minimises the expected rounds of the won games,
  ``won[p] / goal[p]``, which is what the contest compares.

Bellman equations (``H`` a hand, ``s`` an ordered 5-of-8 choice, ``e`` the end state of ``s``,
terminal states absorbing with ``goal = 1, won = 0`` at a goal and ``0, 0`` when destroyed)::

    goal[p] = E_H[ goal[e] of that same best s ]
    won[p]  = goal[p] + E_H[ won[e] of the best s: highest tier(goal[e]), then least won[e] ]

``EPS = 1e-6`` is the one explicit trade-off: goal probabilities are compared in whole units of
``EPS`` (rounded; ``plan_kernel.tier``), so choices whose goal probabilities round to the same
millionth count as equally safe and rounds decide between them. The exact lexicographic optimum
(EPS -> 0) is ill-conditioned: it waits ever longer for hands that are safer by ever smaller
amounts (wall-garden-12x12 hard: 65 expected rounds at 1e-12, 10.8 at 1e-6, for a goal
probability 1.3e-7 higher); docs/ai.md has the whole curve. The order is a total order (no chains
of "almost equal"), so values and choices agree exactly.

Value iteration starts from below (``goal = won = 0``) and sweeps the poses Gauss-Seidel in order
of distance to the goal, each pose solved exactly against its own "wait here" choices
(``plan_kernel``). Two things make it fast without changing what it converges to:

* each pose remembers the policy of its last full update (which end every hand chooses, as a
  few groups of hands); a later update first checks that ranking its ends again would choose the
  same (``plan_kernel._policy_holds``) and then solves the pose's fixed points over the groups,
  a few microseconds instead of ~100-200 for playing the card tree and the multiset lattice;
* between sweeps, cheap policy-evaluation sweeps carry values along the remembered policies
  (modified policy iteration), so values settle in a few sweeps where plain value iteration
  needed dozens (moat-12x12: 20 sweeps instead of 56).

Iterates of ``goal`` are lower bounds that rise to the optimum (the values of policies that can
be played), so a planner stopped early still acts on sound, if pessimistic, safety values;
``ValueResult`` says whether it converged. Because goal probabilities in one tier count as equal,
the equations can have several solutions within one tier (and different rounds where that tie
is broken); which one is reached depends on the path, so the plain iteration
(``solve(..., reference=True)``) and this one can differ by up to ``EPS`` in goal probability.
Both are fixed points of the full update to the stated tolerances (tested).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.ai import plan_kernel
from engine.ai.plan_table import TransitionTable, cards_to_goal
from engine.ai.progress import report
from engine.ai.threads import default_threads
from engine.cards import HAND_SIZE

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Goal probabilities closer than this are a tie, broken by rounds (see the module docstring).
EPS = 1e-6
#: Convergence: largest change in a sweep of the goal probability and of the won rounds.
TOLERANCE_GOAL = 1e-9
TOLERANCE_ROUNDS = 1e-4
#: Horizon of the survival values of poses from which no goal can be reached.
SURVIVAL_ROUNDS = 4
#: Policy-evaluation sweeps after each improvement sweep (modified policy iteration). The next
#: improvement sweep changes the policies anyway, so more than a few are wasted where they converge
#: fast: big-100x100 hard on two threads 8.25-9.1 s with 10, 7.2-7.8 s with 4 (1 % more full
#: updates); boards of long waits need a few more sweeps (moat-12x12 hard 20 against 12, 0.13 s).
EVALUATIONS = 4
#: Poses per call of the sweep kernel: the time limit and cancelling are checked between calls.
SWEEP_CHUNK = 128
#: Poses per step of the policy-evaluation sweeps (a few microseconds each, so longer steps).
EVALUATION_CHUNK = 4096
#: Most bytes the remembered policies may take (``_Pools``); beyond, updates are all full ones.
MEMO_BYTES = 384 * 2**20
#: Lanes of a sweep: each step of ``SWEEP_CHUNK`` poses is dealt alternately to this many runs, one per lane,
#: updated side by side (Gauss-Seidel within a run, the other runs' values from before the step).
#: Fixed, not the number of cores, so the values are the same on every machine.
LANES = 2


@dataclass
class ValueResult:
    """Values per state (terminals included) and how the iteration ended."""

    goal: FloatArray  # best goal probability per state
    won: FloatArray  # least E[rounds x 1(goal)] per state among goal-optimal policies
    solved: npt.NDArray[np.bool_]  # states whose values were iterated (the rest are 0, 0)
    sweeps: int
    updates: int  # pose updates over all sweeps (a sweep revisits only poses whose inputs changed)
    residual_goal: float
    residual_rounds: float
    converged: bool
    seconds: float
    #: Best probability of surviving ``SURVIVAL_ROUNDS`` more rounds, where no goal can be reached
    #: (1 elsewhere, 0 destroyed): the planner's last resort, so it keeps playing as long as it can.
    alive: FloatArray | None = None
    #: Updates that played the pose's card tree again (the rest reused its remembered policy).
    full_updates: int = 0
    #: With ``keep_policies``: each pose's remembered policy (``memo`` rows, hand-group codes and
    #: weights of all lanes in one pool) as ``plan_kernel.sweep`` left it; None otherwise.
    policies: tuple[IntArray, npt.NDArray[np.int32], FloatArray] | None = None
    #: A focused solve (``plan_focus``): the probability that its policy leaves the solved poses
    #: from the start; None where every reachable pose was solved.
    exit_mass: float | None = None

    @property
    def stopped_early(self) -> bool:
        return not self.converged

    def expected_rounds(self, state: int) -> float:
        """Mean rounds of the won games from ``state`` (inf if the goal cannot be reached)."""
        g = float(self.goal[state])
        return float(self.won[state]) / g if g > 0 else float("inf")


def reachable_states(table: TransitionTable, starts: npt.ArrayLike, cards: int | None = None) -> npt.NDArray[np.bool_]:
    """Poses a live robot can reach from ``starts`` with any cards (terminals excluded), with at
    most ``cards`` cards if given (``starts`` included)."""
    seen = np.zeros(table.states, dtype=np.bool_)
    frontier = np.unique(np.asarray(starts, dtype=np.int64))
    frontier = frontier[frontier < table.poses]
    seen[frontier] = True
    nxt = table.next
    for _ in itertools.count() if cards is None else range(cards):
        if not len(frontier):
            break
        targets = np.unique(nxt[:, frontier].ravel())
        targets = targets[(targets < table.poses) & ~seen[targets]]
        seen[targets] = True
        frontier = targets.astype(np.int64)
    return seen


def solve(
    table: TransitionTable,
    starts: npt.ArrayLike | None = None,
    *,
    time_limit: float = 60.0,
    max_sweeps: int = 1000,
    previous: ValueResult | None = None,
    reference: bool = False,
    threads: int | None = None,
    region: npt.NDArray[np.bool_] | None = None,
    boundary: tuple[FloatArray, FloatArray] | None = None,
    keep_policies: bool = False,
    distance: IntArray | None = None,
) -> ValueResult:
    """Value iteration for the no-foresight optimum on the poses reachable from ``starts``.

    ``starts`` None means every pose a live robot can occupy. ``previous`` (a result on the same
    table) seeds the iteration: its values are lower bounds, so the result is the same, only faster.
    ``reference``: the plain value iteration this replaced (every update in full, no policy
    evaluation sweeps), for tests and comparisons. ``threads``: how many threads run the lanes
    (default: ``default_threads``); the values do not depend on it. ``region``: iterate only these
    states (``plan_focus``); the others keep the values of ``boundary`` (goal, won; default 0).
    ``keep_policies``: return the remembered policies too (``ValueResult.policies``). ``distance``:
    ``cards_to_goal(table)`` if the caller has it.
    """
    begin = time.perf_counter()
    if distance is None:
        distance = cards_to_goal(table)
    if region is not None:
        live = region & table.occupiable
    else:
        live = table.occupiable.copy() if starts is None else reachable_states(table, starts)
    if previous is not None:
        live |= previous.solved
    hopeful = live & (distance > 0)
    order = np.nonzero(hopeful)[0]
    order = order[np.argsort(distance[order], kind="stable")].astype(np.int64)
    goal = np.zeros(table.states, dtype=np.float64)
    won = np.zeros(table.states, dtype=np.float64)
    if previous is not None:
        goal[:] = previous.goal
        won[:] = previous.won
    if boundary is not None:
        goal[~live] = boundary[0][~live]
        won[~live] = boundary[1][~live]
    goal[table.goal] = 1.0
    goal[table.dead] = 0.0
    won[table.goal] = won[table.dead] = 0.0
    lat = plan_kernel.lattice()
    kernel_lattice = plan_kernel.kernel_lattice(lat)
    nxt = np.ascontiguousarray(table.next, dtype=np.int32)
    memo = np.full((table.states, 6), -1, dtype=np.int64)
    lanes = _lanes(order, goal, won, lat, table.states, reference)
    steps = -(-len(order) // SWEEP_CHUNK)
    sweeps = 0
    change_goal = change_rounds = float("inf")
    converged = len(order) == 0
    if converged:
        change_goal = change_rounds = 0.0
    with _Crew(min(len(lanes), default_threads(len(lanes)) if threads is None else threads)) as crew:

        def improve(lane: _Lane, span: range) -> None:
            first, last = lane.span(span)
            while first < last:
                pools = lane.pools
                reached = plan_kernel.sweep(
                    lane.order,
                    first,
                    last,
                    nxt,
                    lane.goal,
                    lane.won,
                    kernel_lattice,
                    EPS,
                    lane.work,
                    lane.stamp,
                    lane.tags,
                    memo,
                    pools.ends,
                    pools.group_code,
                    pools.group_weight,
                    pools.waits,
                    pools.tops,
                    lane.stats,
                )
                if reached < last:
                    pools.grow(memo, lane.order)
                first = reached

        def evaluate(lane: _Lane, span: range) -> None:
            first, last = lane.span(span)
            moved = plan_kernel.evaluate(
                lane.order[first:last],
                lane.goal,
                lane.won,
                EPS,
                lane.work,
                memo,
                lane.pools.group_code,
                lane.pools.group_weight,
            )
            lane.moved[0] = max(lane.moved[0], moved[0])
            lane.moved[1] = max(lane.moved[1], moved[1])

        while not converged and sweeps < max_sweeps and time.perf_counter() - begin < time_limit:
            for lane in lanes:
                lane.stats[:2] = 0.0
            settled = _settled(change_goal, change_rounds)
            step = 0
            while step < steps:
                if step and sweeps and time.perf_counter() - begin >= time_limit:
                    # Mid-sweep (never the first: it gives every pose its value): the values are
                    # still lower bounds, and the sweep does not count.
                    break
                crew.run(improve, lanes, range(step, step + 1))
                step += 1
                if step < steps:
                    report("solving values", settled)  # lets a listener cancel a long sweep
            if step < steps:
                break
            change_goal = max(float(lane.stats[0]) for lane in lanes)
            change_rounds = max(float(lane.stats[1]) for lane in lanes)
            sweeps += 1
            converged = change_goal <= TOLERANCE_GOAL and change_rounds <= TOLERANCE_ROUNDS
            report("solving values", _settled(change_goal, change_rounds))
            for _ in range(0 if reference else EVALUATIONS):
                if converged or time.perf_counter() - begin >= time_limit:
                    break
                for lane in lanes:
                    lane.moved[:] = 0.0
                together = max(1, EVALUATION_CHUNK // SWEEP_CHUNK)
                for step in range(0, steps, together):
                    crew.run(evaluate, lanes, range(step, min(step + together, steps)))
                moved_goal = max(float(lane.moved[0]) for lane in lanes)
                moved_rounds = max(float(lane.moved[1]) for lane in lanes)
                if moved_goal <= 0.01 * TOLERANCE_GOAL and moved_rounds <= 0.01 * TOLERANCE_ROUNDS:
                    break
    goal, won = lanes[0].goal, lanes[0].won  # every lane holds every value after each step
    updates = sum(int(lane.stats[2]) for lane in lanes)
    full_updates = sum(int(lane.stats[3]) for lane in lanes)
    stamp, tags, work = lanes[0].stamp, lanes[0].tags, lanes[0].work
    alive = np.ones(table.states, dtype=np.float64)
    alive[table.dead] = 0.0
    hopeless = np.nonzero(live & (distance < 0) & (np.arange(table.states) < table.poses))[0].astype(np.int64)
    if len(hopeless):
        for _ in range(SURVIVAL_ROUNDS):
            plan_kernel.survival_sweep(hopeless, nxt, alive, kernel_lattice, EPS, work, stamp, tags)
    return ValueResult(
        goal,
        won,
        live,
        sweeps,
        updates,
        float(change_goal),
        float(change_rounds),
        converged,
        time.perf_counter() - begin,
        alive,
        full_updates,
        _policies(memo, lanes) if keep_policies else None,
    )


def _policies(memo: IntArray, lanes: list[_Lane]) -> tuple[IntArray, npt.NDArray[np.int32], FloatArray]:
    """The lanes' remembered hand groups in one pool, ``memo``'s group offsets moved to match."""
    memo = memo.copy()
    codes, weights = [], []
    offset = 0
    for lane in lanes:
        used = int(lane.pools.tops[1])
        rows = lane.order[memo[lane.order, 3] >= 0]
        memo[rows, 3] += offset
        codes.append(lane.pools.group_code[:used])
        weights.append(lane.pools.group_weight[:used])
        offset += used
    return memo, np.concatenate(codes), np.concatenate(weights)


@dataclass
class _Lane:
    """One lane of the sweeps: its poses, its own copy of the values, scratch and policy pools.

    Each pose belongs to one lane for the whole solve, so its remembered policy lives in that
    lane's pools and no two threads ever write the same memory; after each step the lanes copy
    each other's new values (``_Crew.run``), so every lane holds every value between steps.
    """

    order: IntArray  # the lane's poses in sweep order
    bounds: IntArray  # step k covers order[bounds[k]:bounds[k + 1]]
    goal: FloatArray
    won: FloatArray
    work: tuple[npt.NDArray[np.generic], ...]
    stamp: IntArray
    tags: IntArray
    pools: _Pools
    stats: FloatArray  # largest change of P and R this sweep, updates, full updates
    moved: FloatArray  # largest change of P and R in this policy-evaluation sweep

    def span(self, steps: range) -> tuple[int, int]:
        """Where ``steps`` (consecutive) start and end in ``order``."""
        return int(self.bounds[steps.start]), int(self.bounds[steps.stop])


def _lanes(
    order: IntArray, goal: FloatArray, won: FloatArray, lat: plan_kernel.Lattice, states: int, reference: bool
) -> list[_Lane]:
    """Split ``order`` into lanes: each step's ``SWEEP_CHUNK`` poses dealt alternately to ``LANES`` runs
    (neighbours in sweep order land in different lanes, which balanced the lanes' work better than
    contiguous halves).

    The reference iteration stays one plain Gauss-Seidel lane.
    """
    count = 1 if reference else LANES
    steps = -(-len(order) // SWEEP_CHUNK)
    parts: list[list[IntArray]] = [[] for _ in range(count)]
    for step in range(steps):
        chunk = order[step * SWEEP_CHUNK : (step + 1) * SWEEP_CHUNK]
        for k in range(count):
            parts[k].append(chunk[k::count])
    lanes = []
    for runs in parts:
        lane_order = np.concatenate(runs) if runs else np.zeros(0, dtype=np.int64)
        bounds = np.zeros(steps + 1, dtype=np.int64)
        bounds[1:] = np.cumsum([len(run) for run in runs])
        lanes.append(
            _Lane(
                lane_order.astype(np.int64),
                bounds,
                goal.copy(),
                won.copy(),
                plan_kernel.work_buffers(lat, states),
                np.zeros(states, dtype=np.int64),
                np.zeros(2, dtype=np.int64),
                _Pools(0 if reference else len(lane_order)),
                np.zeros(4, dtype=np.float64),
                np.zeros(2, dtype=np.float64),
            )
        )
    return lanes


class _Crew:
    """Runs one step of every lane side by side (numba releases the GIL in the kernels), then
    shares the values each lane computed with the others. With fewer threads than lanes some
    lanes run one after another, with the same results."""

    def __init__(self, threads: int) -> None:
        self.threads = max(1, threads)
        self.pool: ThreadPoolExecutor | None = None

    def __enter__(self) -> _Crew:
        if self.threads > 1:
            self.pool = ThreadPoolExecutor(self.threads - 1, thread_name_prefix="planner-lane")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown()

    def run(self, work: Callable[[_Lane, range], None], lanes: list[_Lane], step: range) -> None:
        if self.pool is None or len(lanes) == 1:
            for lane in lanes:
                work(lane, step)
        else:
            # Lanes are handed out as threads come free (the first ones may take longer), so a
            # slow lane does not leave a core idle; what a lane computes does not depend on who runs it.
            taken = itertools.count()
            futures = [self.pool.submit(_take, work, lanes, step, taken) for _ in range(self.threads - 1)]
            _take(work, lanes, step, taken)
            for future in futures:
                future.result()
        if len(lanes) > 1:
            for lane in lanes:
                first, last = lane.span(step)
                moved = lane.order[first:last]
                for other in lanes:
                    if other is not lane:
                        other.goal[moved] = lane.goal[moved]
                        other.won[moved] = lane.won[moved]


def _take(work: Callable[[_Lane, range], None], lanes: list[_Lane], step: range, taken: Iterator[int]) -> None:
    """Run lanes of ``step`` until none is left (``taken``: a shared counter; ``next`` is atomic)."""
    for index in taken:
        if index >= len(lanes):
            return
        work(lanes[index], step)


#: Ends and hand groups a pose's remembered policy usually takes (``_Pools`` sizes for them).
TYPICAL_ENDS = 448
TYPICAL_GROUPS = 224


class _Pools:
    """Growable storage of the policies ``plan_kernel.sweep`` remembers per pose (see there).

    They take about 2-5 kB a pose (its ~400 ends and ~200 hand groups); past ``MEMO_BYTES`` they
    stop growing and the poses left without room are updated in full every time.
    """

    def __init__(self, poses: int) -> None:
        ends = poses * 128 + plan_kernel.SEQUENCES
        groups = poses * 64 + 3 * plan_kernel.SEQUENCES
        self.tops = np.zeros(4, dtype=np.int64)
        budget = MEMO_BYTES // LANES - poses * WAIT_WORDS * 8
        if poses == 0 or ends * 4 + groups * 12 > budget:
            ends = groups = poses = 0
            self.tops[2] = 1  # remember nothing: every update is a full one
        else:
            # Room for the typical pose (~420 ends, ~210 groups) from the start, as far as the
            # budget allows: pages never written cost no memory, while growing copies the pools
            # (on big-100x100 21 times, 0.3 s).
            typical = poses * (TYPICAL_ENDS * 4 + TYPICAL_GROUPS * 12)
            share = min(1.0, budget / typical) if typical else 1.0
            ends = max(ends, int(poses * TYPICAL_ENDS * share) + plan_kernel.SEQUENCES)
            groups = max(groups, int(poses * TYPICAL_GROUPS * share) + 3 * plan_kernel.SEQUENCES)
            while ends * 4 + groups * 12 > budget:
                ends, groups = ends * 15 // 16, groups * 15 // 16
        self.ends = np.empty(ends, dtype=np.int32)
        self.group_code = np.empty(groups, dtype=np.int32)
        self.group_weight = np.empty(groups, dtype=np.float64)
        #: Per pose, which hands can wait (a bit per hand; it depends only on the table).
        self.waits = np.zeros((poses, WAIT_WORDS), dtype=np.uint64)

    @property
    def nbytes(self) -> int:
        return self.ends.nbytes + self.group_code.nbytes + self.group_weight.nbytes + self.waits.nbytes

    def grow(self, memo: npt.NDArray[np.int64], poses: IntArray | None = None) -> None:
        """Make room for one more full update (the kernel stopped for want of it), or stop growing.

        ``poses``: the poses whose policies these pools hold (None: every row of ``memo``).
        """
        need_groups = int(self.tops[1]) + 3 * plan_kernel.SEQUENCES
        if need_groups > len(self.group_code):
            owned = np.arange(len(memo)) if poses is None else poses
            live = owned[memo[owned, 3] >= 0]
            if int(memo[live, 4].sum()) < int(self.tops[1]) // 2:
                by_offset = live[np.argsort(memo[live, 3], kind="stable")].astype(np.int64)
                self.tops[1] = plan_kernel.compact_groups(memo, by_offset, self.group_code, self.group_weight)
                return
        need_ends = int(self.tops[0]) + plan_kernel.SEQUENCES
        ends = max(need_ends, len(self.ends) * 3 // 2) if need_ends > len(self.ends) else len(self.ends)
        groups = (
            max(need_groups, len(self.group_code) * 3 // 2)
            if need_groups > len(self.group_code)
            else len(self.group_code)
        )
        if ends * 4 + groups * 12 + self.waits.nbytes > MEMO_BYTES // LANES:
            self.tops[2] = 1
            return
        self.ends = _grown(self.ends, ends)
        self.group_code = _grown(self.group_code, groups)
        self.group_weight = _grown(self.group_weight, groups)


#: 64-bit words of one pose's "can wait" bits (one per 8-card hand).
WAIT_WORDS = -(-math.comb(plan_kernel.KINDS + HAND_SIZE - 1, HAND_SIZE) // 64)


def _settled(change_goal: float, change_rounds: float) -> float:
    """Progress of the iteration for ``report``: 0 at the first sweep, 1 once within the tolerances."""
    decades = [
        math.log10(max(change, tolerance) / tolerance)
        for change, tolerance in ((change_goal, TOLERANCE_GOAL), (change_rounds, TOLERANCE_ROUNDS))
    ]
    return max(0.0, 1.0 - max(decades) / 10.0)


def _grown(array: npt.NDArray[Any], size: int) -> npt.NDArray[Any]:
    if size == len(array):
        return array
    bigger = np.empty(size, dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger
