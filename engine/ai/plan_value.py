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
(``plan_kernel``). Iterates of ``goal`` are lower bounds that rise to the optimum (the
probability of reaching the goal within the rounds swept so far), so a planner stopped early
still acts on sound, if pessimistic, safety values; ``ValueResult`` says whether it converged.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.ai import plan_kernel
from engine.ai.plan_table import TransitionTable, cards_to_goal
from engine.ai.progress import report

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Goal probabilities closer than this are a tie, broken by rounds (see the module docstring).
EPS = 1e-6
#: Convergence: largest change in a sweep of the goal probability and of the won rounds.
TOLERANCE_GOAL = 1e-9
TOLERANCE_ROUNDS = 1e-4
#: Horizon of the survival values of poses from which no goal can be reached.
SURVIVAL_ROUNDS = 4


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

    @property
    def stopped_early(self) -> bool:
        return not self.converged

    def expected_rounds(self, state: int) -> float:
        """Mean rounds of the won games from ``state`` (inf if the goal cannot be reached)."""
        g = float(self.goal[state])
        return float(self.won[state]) / g if g > 0 else float("inf")


def reachable_states(table: TransitionTable, starts: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Poses a live robot can reach from ``starts`` with any cards (terminals excluded)."""
    seen = np.zeros(table.states, dtype=np.bool_)
    frontier = np.unique(np.asarray(starts, dtype=np.int64))
    frontier = frontier[frontier < table.poses]
    seen[frontier] = True
    nxt = table.next
    while len(frontier):
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
) -> ValueResult:
    """Value iteration for the no-foresight optimum on the poses reachable from ``starts``.

    ``starts`` None means every pose a live robot can occupy. ``previous`` (a result on the same
    table) seeds the iteration: its values are lower bounds, so the result is the same, only faster.
    """
    begin = time.perf_counter()
    distance = cards_to_goal(table)
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
    goal[table.goal] = 1.0
    goal[table.dead] = 0.0
    won[table.goal] = won[table.dead] = 0.0
    pred_start, pred_list = predecessors(table)
    dirty = np.zeros(table.states, dtype=np.bool_)
    dirty[order] = True
    stamp = np.zeros(table.states, dtype=np.int64)
    tags = np.zeros(2, dtype=np.int64)
    lat = plan_kernel.lattice()
    work = plan_kernel.work_buffers(lat, table.states)
    kernel_lattice = plan_kernel.kernel_lattice(lat)
    end_stamp = np.zeros(table.states, dtype=np.int64)
    nxt = np.ascontiguousarray(table.next, dtype=np.int32)
    sweeps = updates = 0
    change_goal = change_rounds = float("inf")
    converged = len(order) == 0
    if converged:
        change_goal = change_rounds = 0.0
    while not converged and sweeps < max_sweeps and time.perf_counter() - begin < time_limit:
        change_goal, change_rounds, updated = plan_kernel.sweep(
            order,
            nxt,
            goal,
            won,
            kernel_lattice,
            EPS,
            work,
            dirty,
            pred_start,
            pred_list,
            stamp,
            end_stamp,
            tags,
            TOLERANCE_GOAL,
            TOLERANCE_ROUNDS,
        )
        sweeps += 1
        updates += int(updated)
        unsettled = int(np.count_nonzero(dirty[order]))
        converged = not unsettled
        report("solving values", 1.0 - unsettled / len(order))
    alive = np.ones(table.states, dtype=np.float64)
    alive[table.dead] = 0.0
    hopeless = np.nonzero(live & (distance < 0) & (np.arange(table.states) < table.poses))[0].astype(np.int64)
    if len(hopeless):
        for _ in range(SURVIVAL_ROUNDS):
            plan_kernel.survival_sweep(hopeless, nxt, alive, kernel_lattice, EPS, work, end_stamp, tags)
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
    )


def predecessors(table: TransitionTable) -> tuple[IntArray, IntArray]:
    """Reverse one-card edges between live poses, as CSR (``pred_list[pred_start[t]:pred_start[t+1]]``)."""
    poses = table.poses
    sources = np.tile(np.arange(poses, dtype=np.int64), len(table.next))
    targets = table.next[:, :poses].astype(np.int64).ravel()
    live = targets < poses
    sources, targets = sources[live], targets[live]
    pairs = np.unique(targets * poses + sources)
    targets, sources = pairs // poses, pairs % poses
    start = np.searchsorted(targets, np.arange(table.states + 1)).astype(np.int64)
    return start, sources
