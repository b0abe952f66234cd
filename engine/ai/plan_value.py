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

    goal[p] = E_H[ max_s goal[e] ]
    won[p]  = goal[p] + E_H[ min { won[e] : s with goal[e] >= max_s goal - EPS } ]

``EPS = 1e-9`` is the one explicit trade-off: choices whose goal probabilities differ by less
than one game in a billion count as equally safe, and rounds decide between them. Nothing trades
a measurable goal probability for rounds.

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

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Goal probabilities closer than this are a tie, broken by rounds (see the module docstring).
EPS = 1e-9
#: Convergence: largest change in a sweep of the goal probability and of the won rounds.
TOLERANCE_GOAL = 1e-10
TOLERANCE_ROUNDS = 1e-7


@dataclass
class ValueResult:
    """Values per state (terminals included) and how the iteration ended."""

    goal: FloatArray  # best goal probability per state
    won: FloatArray  # least E[rounds x 1(goal)] per state among goal-optimal policies
    solved: npt.NDArray[np.bool_]  # states whose values were iterated (the rest are 0, 0)
    sweeps: int
    residual_goal: float
    residual_rounds: float
    converged: bool
    seconds: float

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
    lat = plan_kernel.lattice()
    work = plan_kernel.work_buffers(lat)
    nxt = np.ascontiguousarray(table.next, dtype=np.int32)
    sweeps = 0
    change_goal = change_rounds = float("inf")
    converged = len(order) == 0
    if converged:
        change_goal = change_rounds = 0.0
    while not converged and sweeps < max_sweeps and time.perf_counter() - begin < time_limit:
        change_goal, change_rounds = plan_kernel.sweep(
            order,
            nxt,
            goal,
            won,
            lat.sequence_multiset,
            lat.children[0],
            lat.children[1],
            lat.children[2],
            lat.weights,
            EPS,
            work,
        )
        sweeps += 1
        converged = change_goal < TOLERANCE_GOAL and change_rounds < TOLERANCE_ROUNDS
    return ValueResult(
        goal, won, live, sweeps, float(change_goal), float(change_rounds), converged, time.perf_counter() - begin
    )
