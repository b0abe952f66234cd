"""Focused value iteration: on a big board, solve only the poses the best policy from the start can reach.

On an open board every pose is reachable, but a robot playing well from its start stays near
its way to the goal: on big-100x100 tiled to 128x128 the best policy from the start reaches 11,700
of the 59,000 poses with probability above 1e-12, and on the 256x256 tiling the certified region
below is 34,721 of 235,152 poses. Solving all of them costs several times what the game needs.
This module solves a region around the start
instead and proves afterwards that the region was big enough (the idea of LAO*):

* the poses outside the region keep *optimistic* values: goal probability 1 and the fewest
  rounds any hand could take (``cards_to_goal / 5``, times ``1 - EPS``), never worse than the
  truth in the contest's order. So the region's values are at least the true ones, and a
  policy that could gain by leaving the region would leave it;
* then the policy the values choose is followed forward from the start (``exit_flow``: the
  probability of every pose, round by round, as the hands are dealt). If it leaves the region
  with probability at most ``EXIT_MASS``, the values at the start are within ``EXIT_MASS`` of
  the truth from both sides (the same policy with the outside counted as lost is a real policy,
  a lower bound) and the policy is the optimum's up to that mass;
* otherwise the region grows by ``GROW_ROUNDS`` rounds around every pose where the policy left
  it, and the region is solved again.

Boards with at most ``FOCUS_FROM`` reachable poses are solved whole as before: their values are
then known for every pose (what tests, ``robots-oracle --start`` and the analysis use), and the
solve is fast anyway. A focused solve that runs out of time returns the value of the policy it
had, with the outside counted as lost: lower bounds, as an unfocused solve stopped early gives.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from engine.ai import plan_kernel
from engine.ai.jit_cache import numba
from engine.ai.plan_table import TransitionTable, cards_to_goal
from engine.ai.plan_value import EPS, ValueResult, reachable_states, solve
from engine.cards import CHOSEN_PER_ROUND

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Reachable poses above which the solve is focused on the start.
FOCUS_FROM = 50_000
#: Largest probability with which the policy may leave the solved region from a start.
EXIT_MASS = 1e-10
#: Rounds of any cards around the starts that the first region holds.
FIRST_ROUNDS = 8
#: Rounds of any cards by which the region grows around each pose where the policy left it.
GROW_ROUNDS = 2
#: Rounds the forward flow follows at most; mass still in play after them counts as leaving.
FLOW_ROUNDS = 5000
#: Sweeps of ``policy_values`` at most (each a few milliseconds).
EVALUATION_SWEEPS = 5000


def solve_planned(
    table: TransitionTable,
    starts: Sequence[int],
    *,
    time_limit: float,
    threads: int | None = None,
    focus_from: int | None = None,
) -> ValueResult:
    """The planner's solve: the whole reachable board, or focused on ``starts`` on a big one
    (more than ``focus_from`` reachable poses from which a goal can be reached; default ``FOCUS_FROM``)."""
    live = reachable_states(table, starts)
    distance = cards_to_goal(table)
    if int((live & (distance > 0)).sum()) <= (FOCUS_FROM if focus_from is None else focus_from):
        return solve(table, starts, time_limit=time_limit, threads=threads, distance=distance)
    return solve_focused(table, starts, time_limit=time_limit, threads=threads, live=live, distance=distance)


def solve_focused(
    table: TransitionTable,
    starts: Sequence[int],
    *,
    time_limit: float,
    threads: int | None = None,
    live: BoolArray | None = None,
    distance: IntArray | None = None,
) -> ValueResult:
    """Values certified at ``starts`` (see the module docstring), solving as few poses as it can."""
    begin = time.perf_counter()
    starts = [int(s) for s in starts if 0 <= int(s) < table.poses]
    if live is None:
        live = reachable_states(table, starts)
    if distance is None:
        distance = cards_to_goal(table)
    hopeful = distance > 0
    upper_goal = np.where(hopeful, 1.0, 0.0)
    upper_won = np.where(hopeful, (1.0 - EPS) * np.ceil(np.maximum(distance, 0) / CHOSEN_PER_ROUND), 0.0)
    upper_goal[table.goal] = 1.0
    upper_won[table.goal] = 0.0
    nxt = np.ascontiguousarray(table.next, dtype=np.int32)
    region = reachable_states(table, starts, FIRST_ROUNDS * CHOSEN_PER_ROUND) & live
    lat = plan_kernel.kernel_lattice(plan_kernel.lattice())
    work = plan_kernel.work_buffers(plan_kernel.lattice(), table.states)
    start_array = np.array(starts, dtype=np.int64)
    sweeps = updates = full_updates = 0
    while True:
        left = time_limit - (time.perf_counter() - begin)
        values = solve(
            table,
            starts,
            time_limit=max(left, 0.0),
            threads=threads,
            region=region,
            boundary=(upper_goal, upper_won),
            keep_policies=True,
            distance=distance,
        )
        assert values.policies is not None
        sweeps += values.sweeps
        updates += values.updates
        full_updates += values.full_updates
        memo, codes, weights = values.policies
        targets, probabilities, first = policy_moves(
            region, hopeful, memo, codes, weights, values.goal, values.won, nxt, lat, work, EPS
        )
        exits = exit_flow(start_array, region, hopeful, targets, probabilities, first, table.poses, EXIT_MASS * 1e-3)
        leaving = float(exits.sum())
        out_of_time = time.perf_counter() - begin >= time_limit
        if values.converged and leaving <= EXIT_MASS:
            break
        if out_of_time or not values.converged:
            # Not certified: count the outside as lost, so what is returned are lower bounds.
            lower_goal, lower_won = policy_values(
                values.goal, values.won, region, hopeful, targets, probabilities, first, table.goal
            )
            values.goal, values.won = lower_goal, lower_won
            values.converged = False
            break
        hits = np.nonzero(exits > leaving * 1e-6)[0]
        region |= reachable_states(table, hits, GROW_ROUNDS * CHOSEN_PER_ROUND) & live

    values.goal[~region & (np.arange(table.states) < table.poses)] = 0.0
    values.won[~region & (np.arange(table.states) < table.poses)] = 0.0
    values.solved = region
    values.sweeps, values.updates, values.full_updates = sweeps, updates, full_updates
    values.exit_mass = leaving
    values.policies = None
    values.seconds = time.perf_counter() - begin
    return values


@numba.njit(cache=True)
def policy_moves(region, hopeful, memo, codes, weights, goal, won, nxt, lat, work, eps):  # type: ignore[no-untyped-def]
    """Where the values' policy takes each solved pose in one round, as (target, probability) rows.

    ``first[p]``..``first[p + 1]`` index pose ``p``'s rows (no rows: not solved). A hand group
    that can wait goes to ``p`` itself where ``plan_kernel._solve_groups`` waits. Poses whose policy
    was not remembered (no room) get it from a full update.
    """
    states = goal.shape[0]
    first = np.zeros(states + 1, dtype=np.int64)
    g_code, g_w = work[20], work[21]
    stamp = np.zeros(states, dtype=np.int64)
    no_ends = np.zeros(1, dtype=np.int32)
    no_waits = np.zeros((1, 1), dtype=np.uint64)
    tag = 0
    total = 0
    for p in range(states):
        first[p] = total
        if region[p] and hopeful[p] and p < states - 2:
            if memo[p, 3] >= 0:
                total += memo[p, 4]
            else:  # not remembered (no room): a full update just to count its groups
                tag += 1
                n = plan_kernel._best_per_hand(
                    p, nxt, goal, won, lat, eps, work, stamp, tag, (-1, 0, -1), no_ends, no_waits
                )
                total += plan_kernel._group_hands(n, lat[4], work, work[37], g_code, g_w)
    first[states] = total
    targets = np.empty(total, dtype=np.int64)
    probabilities = np.empty(total, dtype=np.float64)
    for p in range(states):
        if first[p + 1] == first[p]:
            continue
        if memo[p, 3] >= 0:
            count = memo[p, 4]
            for k in range(count):
                g_code[k] = codes[memo[p, 3] + k]
                g_w[k] = weights[memo[p, 3] + k]
        else:
            tag += 1
            n = plan_kernel._best_per_hand(
                p, nxt, goal, won, lat, eps, work, stamp, tag, (-1, 0, -1), no_ends, no_waits
            )
            count = plan_kernel._group_hands(n, lat[4], work, work[37], g_code, g_w)
        x = goal[p]
        y = won[p]
        tier_x = plan_kernel.tier(x, eps)
        row = first[p]
        for k in range(count):
            e = g_code[k] >> 1
            target = p
            if e >= 0:
                target = e
                if g_code[k] & 1:
                    tier_e = plan_kernel.tier(goal[e], eps)
                    if tier_e < tier_x or (tier_e == tier_x and won[e] >= y):
                        target = p
            targets[row + k] = target
            probabilities[row + k] = g_w[k]
    return targets, probabilities, first


@numba.njit(cache=True)
def exit_flow(starts, region, hopeful, targets, probabilities, first, poses, tolerance):  # type: ignore[no-untyped-def]
    """Per state, the probability that the policy (``policy_moves``) first leaves ``region`` there,
    starting with probability 1 at each start, followed round by round until less than
    ``tolerance`` is still in play (what is left after ``FLOW_ROUNDS`` counts as leaving where it is)."""
    states = region.shape[0]
    mass = np.zeros(states)
    fresh = np.zeros(states)
    exits = np.zeros(states)
    active = np.empty(states, dtype=np.int64)
    next_active = np.empty(states, dtype=np.int64)
    listed = np.zeros(states, dtype=np.bool_)
    count = 0
    for s in starts:
        mass[s] += 1.0
        if not listed[s]:
            listed[s] = True
            active[count] = s
            count += 1
    for _ in range(FLOW_ROUNDS):
        playing = 0.0
        next_count = 0
        for i in range(count):
            q = active[i]
            listed[q] = False
            m = mass[q]
            mass[q] = 0.0
            for r in range(first[q], first[q + 1]):
                t = targets[r]
                w = m * probabilities[r]
                if w == 0.0:
                    continue
                if t >= poses or not hopeful[t]:
                    continue  # a goal, destroyed, or no goal reachable at all: the same outside
                if not region[t]:
                    exits[t] += w
                    continue
                if first[t + 1] == first[t]:
                    continue
                fresh[t] += w
                if not listed[t]:
                    listed[t] = True
                    next_active[next_count] = t
                    next_count += 1
        for i in range(next_count):
            q = next_active[i]
            mass[q] = fresh[q]
            fresh[q] = 0.0
            playing += mass[q]
        active, next_active = next_active, active
        count = next_count
        if playing < tolerance:
            return exits
    for i in range(count):
        exits[active[i]] += mass[active[i]]
    return exits


@numba.njit(cache=True)
def policy_values(goal, won, region, hopeful, targets, probabilities, first, goal_state):  # type: ignore[no-untyped-def]
    """Goal probability and won rounds of the policy of ``policy_moves`` with every pose outside
    ``region`` counted as lost: Gauss-Seidel from 0, so every iterate is a lower bound."""
    g = np.zeros(goal.shape[0])
    w = np.zeros(goal.shape[0])
    g[goal_state] = 1.0
    for _ in range(EVALUATION_SWEEPS):
        change = 0.0
        for p in range(goal.shape[0]):
            if first[p + 1] == first[p]:
                continue
            stay = 0.0
            total_g = 0.0
            total_w = 0.0
            for r in range(first[p], first[p + 1]):
                t = targets[r]
                if t == p:
                    stay += probabilities[r]
                else:
                    total_g += probabilities[r] * g[t]
                    total_w += probabilities[r] * w[t]
            new_g = 0.0 if stay >= 1.0 - 1e-12 else total_g / (1.0 - stay)
            new_w = 0.0 if stay >= 1.0 - 1e-12 else (new_g + total_w) / (1.0 - stay)
            change = max(change, abs(new_g - g[p]), abs(new_w - w[p]) * 1e-5)
            g[p] = new_g
            w[p] = new_w
        if change < 1e-13:
            break
    return g, w
