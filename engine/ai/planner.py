"""The ``planner`` AI and its API: no-foresight values of poses and the ranked choices of a hand.

Per board and level a ``BoardPlan`` holds the transition table (``plan_table``) and the
no-foresight optimum (``plan_value``): per pose the best goal probability and, among the policies
reaching it, the least expected rounds. Each round the planner plays every distinct ordered
5-card choice of the hand through the table and takes the lexicographic best (goal probability,
then rounds; see ``plan_choice`` for the exact order). It is deterministic.

API for other tools (the analyser, the benchmark, the contest entry)::

    plan = plan_for(board, level)            # built once per process, cached on disk
    plan.value(pose)                          # PoseValue(goal_probability, expected_rounds)
    plan.rank(pose, hand)                     # [Choice(cards, goal_probability, expected_rounds, ...)]
    plan.best(pose, hand)                     # the planner's five cards

``plan_for`` keeps plans in memory per process and on disk in the per-user cache folder
(``plan_file.default_cache_dir()``), so parallel workers and later processes build each board and
level once.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from engine.ai import plan_file
from engine.ai.plan_focus import solve_planned
from engine.ai.plan_table import (
    CARD_INDEX,
    CARDS,
    TransitionTable,
    build_table,
    extend_table,
    occupiable_states,
    state_index,
)
from engine.ai.plan_value import EPS, ValueResult, solve
from engine.boardfile import write_board
from engine.cards import CHOSEN_PER_ROUND, HAND_SIZE, Card
from engine.model import Board, Level, Pose

#: ``cache_dir`` meaning "the per-user default" (None means no disk cache at all).
DEFAULT: Final = Path("<default>")
#: Seconds of value iteration allowed for one board and level before the plan is used as it is.
PRECOMPUTE_LIMIT = 60.0


@dataclass(frozen=True)
class PoseValue:
    """What the no-foresight optimum expects from a pose."""

    goal_probability: float
    expected_rounds: float  # mean rounds of the won games, from this pose (inf if it cannot win)


@dataclass(frozen=True)
class Choice:
    """One ordered 5-card choice of a hand and what the optimum expects after it."""

    cards: tuple[Card, ...]
    goal_probability: float  # 1 if the goal is reached this round, 0 if the robot is destroyed
    expected_rounds: float  # mean rounds of the won games, this round included (inf: cannot win)
    destroyed: bool
    reaches_goal: bool


class BoardPlan:
    """Table and values of one board and level; values are extended to new poses on demand."""

    def __init__(
        self, board: Board, level: Level, table: TransitionTable, values: ValueResult, from_cache: bool
    ) -> None:
        self.board = board
        self.level = level
        self.table = table
        self.values = values
        self.from_cache = from_cache
        #: Where ``plan_for`` keeps this plan on disk (rewritten when values are extended), or None.
        self.cache_dir: Path | None = None

    @property
    def alive(self) -> npt.NDArray[np.float64]:
        """Survival values (``ValueResult.alive``); all 1 if the values carry none."""
        if self.values.alive is None:
            self.values.alive = np.ones(self.table.states, dtype=np.float64)
            self.values.alive[self.table.dead] = 0.0
        return self.values.alive

    @property
    def seconds(self) -> float:
        return self.values.seconds

    def state(self, pose: Pose) -> int:
        """The table state of ``pose``, solving values for it first if it was not reachable before."""
        if not self.board.in_bounds(pose.x, pose.y):
            raise ValueError(f"pose {pose.x} {pose.y} is off the {self.board.width}x{self.board.height} board")
        state = self.table.state_of(pose)
        if not self.values.solved[state]:
            self.table = extend_table(self.board, self.level, self.table, [state])
            if self.values.exit_mass is None:
                self.values = solve(self.table, [state], time_limit=PRECOMPUTE_LIMIT, previous=self.values)
            else:  # focused values are certified only for their starts: solve again for this one too
                self.values = solve_planned(self.table, [*self._starts(), state], time_limit=PRECOMPUTE_LIMIT)
            if self.cache_dir is not None:
                plan_file.store(self.cache_dir, self.board, self.level, self.to_data())
        return state

    def finish(self, time_limit: float = PRECOMPUTE_LIMIT) -> bool:
        """Resume a value iteration that was stopped early (rewriting the cache); True once converged."""
        if not self.values.converged:
            begin = time.perf_counter()
            spent = self.values.seconds
            if self.values.exit_mass is None:
                self.values = solve(self.table, [], time_limit=time_limit, previous=self.values)
            else:  # a focused solve stopped early: its region may be too small, so it starts again
                self.values = solve_planned(self.table, self._starts(), time_limit=time_limit)
            self.values.seconds = spent + time.perf_counter() - begin
            if self.cache_dir is not None:
                plan_file.store(self.cache_dir, self.board, self.level, self.to_data())
        return self.values.converged

    def _starts(self) -> list[int]:
        return [self.table.state_of(start) for start in self.board.starts]

    def value(self, pose: Pose) -> PoseValue:
        state = self.state(pose)
        return PoseValue(float(self.values.goal[state]), self.values.expected_rounds(state))

    def _outcomes(
        self, pose: Pose, hand: Sequence[Card]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Distinct orders, their end states, cards to the goal (6: not reached) and the ranking."""
        start = self.state(pose)  # first: it may extend the table
        table = self.table
        orders = distinct_orders([CARD_INDEX[c] for c in hand])
        state = np.full(len(orders), start, dtype=np.int64)
        after = np.full(len(orders), CHOSEN_PER_ROUND + 1, dtype=np.int64)
        for j in range(CHOSEN_PER_ROUND):
            state = table.next[orders[:, j], state].astype(np.int64)
            after = np.where((state == table.goal) & (after > CHOSEN_PER_ROUND), j + 1, after)
        goal = self.values.goal[state]
        won = self.values.won[state]
        tier = np.floor(goal / EPS + 0.5)  # plan_kernel.tier
        # np.lexsort sorts by the last key first: goal-probability tier (higher first), won rounds,
        # survival where no goal can be reached, destroyed, cards to the goal, then the sequence.
        alive = self.alive[state]
        ranking = np.lexsort((np.arange(len(orders)), after, state == table.dead, -alive, won, -tier))
        return orders, state, after, ranking.astype(np.int64)

    def rank(self, pose: Pose, hand: Sequence[Card]) -> list[Choice]:
        """Every distinct ordered 5-card choice of ``hand``, best first."""
        orders, state, after, ranking = self._outcomes(pose, hand)
        result = []
        for i in ranking:
            s = int(state[i])
            goal = float(self.values.goal[s])
            rounds = 1.0 if s == self.table.goal else (1.0 + float(self.values.won[s]) / goal if goal > 0 else math.inf)
            cards = tuple(CARDS[int(c)] for c in orders[i])
            result.append(Choice(cards, goal, rounds, s == self.table.dead, bool(after[i] <= CHOSEN_PER_ROUND)))
        return result

    def best(self, pose: Pose, hand: Sequence[Card]) -> list[Card]:
        """The planner's ordered 5 cards of ``hand`` for a robot at ``pose``."""
        orders, _, _, ranking = self._outcomes(pose, hand)
        return [CARDS[int(i)] for i in orders[ranking[0]]]

    def to_data(self) -> plan_file.PlanData:
        """The plan as the numpy-free arrays of the cache file."""
        from array import array

        values = self.values
        report: dict[str, object] = {
            "sweeps": values.sweeps,
            "updates": values.updates,
            "converged": values.converged,
            "residual_goal": values.residual_goal,
            "residual_rounds": values.residual_rounds,
            "seconds": round(values.seconds, 3),
        }
        if values.exit_mass is not None:
            report["exit_mass"] = values.exit_mass
        return plan_file.PlanData(
            self.table.width,
            self.table.height,
            array("i", np.ascontiguousarray(self.table.next, dtype=np.int32).tobytes()),
            array("d", np.ascontiguousarray(values.goal, dtype=np.float64).tobytes()),
            array("d", np.ascontiguousarray(values.won, dtype=np.float64).tobytes()),
            array("d", np.ascontiguousarray(self.alive, dtype=np.float64).tobytes()),
            array("B", values.solved.astype(np.uint8).tobytes()),
            report,
        )


def _from_data(board: Board, level: Level, data: plan_file.PlanData) -> BoardPlan:
    states = data.states
    nxt = np.frombuffer(data.next, dtype=np.int32).reshape(len(CARDS), states).copy()
    nxt.setflags(write=False)
    # Rows are played for exactly the poses reachable from the solved ones (``build_table``).
    built = np.frombuffer(data.solved, dtype=np.uint8).astype(np.bool_)
    built[-2:] = True
    built.setflags(write=False)
    table = TransitionTable(board.width, board.height, nxt, occupiable_states(board, level, nxt, built), built)
    report = data.report
    values = ValueResult(
        np.frombuffer(data.goal, dtype=np.float64).copy(),
        np.frombuffer(data.won, dtype=np.float64).copy(),
        np.frombuffer(data.solved, dtype=np.uint8).astype(np.bool_),
        int(report.get("sweeps", 0)),  # type: ignore[call-overload]
        int(report.get("updates", 0)),  # type: ignore[call-overload]
        float(report.get("residual_goal", math.inf)),  # type: ignore[arg-type]
        float(report.get("residual_rounds", math.inf)),  # type: ignore[arg-type]
        bool(report.get("converged", False)),
        float(report.get("seconds", 0.0)),  # type: ignore[arg-type]
        np.frombuffer(data.alive, dtype=np.float64).copy(),
        exit_mass=_exit_mass(report.get("exit_mass")),
    )
    return BoardPlan(board, level, table, values, from_cache=True)


def _exit_mass(stored: object) -> float | None:
    """The focused solve's exit mass from a cache file's report (None: not focused, or unreadable:
    then a pose outside the solved ones is solved the old way, which is sound either way)."""
    return float(stored) if isinstance(stored, (int, float)) and not isinstance(stored, bool) else None


_PLANS: dict[tuple[str, Level], BoardPlan] = {}


def plan_for(
    board: Board,
    level: Level,
    *,
    cache_dir: Path | None = DEFAULT,
    time_limit: float = PRECOMPUTE_LIMIT,
) -> BoardPlan:
    """The plan of ``board`` and ``level``: from this process's memory, the disk cache, or built.

    ``cache_dir`` DEFAULT is the per-user cache folder, None disables the disk cache. A plan built
    here is written to the cache at once (atomically), so other processes can reuse it.
    """
    key = (write_board(board), level)
    folder = plan_file.default_cache_dir() if cache_dir is DEFAULT else cache_dir
    plan = _PLANS.get(key)
    if plan is not None:
        if folder is not None and plan.cache_dir != folder:
            plan_file.store(folder, board, level, plan.to_data())
            plan.cache_dir = folder
        return plan
    data = plan_file.load(folder, board, level) if folder is not None else None
    if data is not None:
        plan = _from_data(board, level, data)
    else:
        begin = time.perf_counter()
        starts = [state_index(board, start) for start in board.starts]
        table = build_table(board, level, starts)
        values = solve_planned(table, starts, time_limit=time_limit)
        values.seconds = time.perf_counter() - begin
        plan = BoardPlan(board, level, table, values, from_cache=False)
        if folder is not None:
            plan_file.store(folder, board, level, plan.to_data())
    plan.cache_dir = folder
    _PLANS[key] = plan
    return plan


#: Tiny boards whose plans run the planner's kernels: survival sweeps (no goal can be reached on
#: the first), value iteration with waiting (the second), and focused solves on both.
_KERNEL_BOARDS = (["T   p", "   pZ", "    p"], ["T  H", " D Z", "    "])


def compile_kernels() -> int:
    """Compile (or load from numba's cache) every kernel of the planner; how many were compiled.

    numba compiles a kernel at its first call and keeps it in the per-user cache. On a machine's
    first run that took ~15-20 s inside the first board's precomputation; ``./run setup`` and
    ``robots-ai --warm`` call this first, so that precomputation times are the board's own.
    """
    from engine.ai import plan_focus, plan_kernel
    from engine.ai.jit_cache import kernels_compiled

    before = kernels_compiled(plan_kernel) + kernels_compiled(plan_focus)
    for rows in _KERNEL_BOARDS:
        board = Board.from_strings(rows)
        starts = [state_index(board, start) for start in board.starts]
        table = build_table(board, Level.HARD, starts)
        solve(table, starts)
        plan_focus.solve_focused(table, starts, time_limit=PRECOMPUTE_LIMIT)
        plan_focus.solve_focused(table, starts, time_limit=0.0)  # stopped early: lower bounds
    empty = np.zeros(0, dtype=np.int64)  # what full pools of remembered policies call
    plan_kernel.compact_groups(np.zeros((0, 6), dtype=np.int64), empty, np.zeros(0, np.int32), np.zeros(0))
    return kernels_compiled(plan_kernel) + kernels_compiled(plan_focus) - before


def forget_plans() -> None:
    """Drop this process's in-memory plans (the disk cache stays)."""
    _PLANS.clear()


_SEQUENCES: dict[tuple[int, ...], npt.NDArray[np.int64]] = {}
#: Every ordered choice of 5 of the 8 hand positions (6,720 rows).
_POSITIONS = np.array(list(permutations(range(HAND_SIZE), CHOSEN_PER_ROUND)), dtype=np.int64)
_PLACE = len(CARDS) ** np.arange(CHOSEN_PER_ROUND - 1, -1, -1, dtype=np.int64)


def distinct_orders(hand: Sequence[int]) -> npt.NDArray[np.int64]:
    """The distinct ordered 5-card choices of a hand of 8 card indices, as sorted rows (memoised).

    Repeated cards make many of the 6,720 position choices the same card sequence; they are
    merged by encoding each sequence as a base-7 number.
    """
    key = tuple(sorted(hand))
    found = _SEQUENCES.get(key)
    if found is None:
        if len(key) != HAND_SIZE:
            raise ValueError(f"a hand has {HAND_SIZE} cards, not {len(key)}")
        codes = np.unique(np.array(key, dtype=np.int64)[_POSITIONS] @ _PLACE)
        found = (codes[:, None] // _PLACE[None, :]) % len(CARDS)
        found.setflags(write=False)
        if len(_SEQUENCES) > 4096:
            _SEQUENCES.clear()
        _SEQUENCES[key] = found
    return found


class Planner:
    """A ``Chooser`` that plays the no-foresight optimum (goal probability, then rounds)."""

    name = "planner"

    def __init__(
        self,
        budget_seconds: float = 1.0,
        seed: int = 0,
        cache_dir: Path | None = None,
        time_limit: float = PRECOMPUTE_LIMIT,
    ) -> None:
        #: Kept for the Chooser interface; decisions take about a millisecond whatever the budget.
        self.budget_seconds = budget_seconds
        #: Unused by the exact model (no sampling); kept so seeded callers keep working.
        self.seed = seed
        self.cache_dir = cache_dir
        self.time_limit = time_limit
        self._plans: dict[tuple[str, Level], BoardPlan] = {}
        self.decision_seconds: list[float] = []

    def plan_for(self, board: Board, level: Level) -> BoardPlan:
        """The plan of a board and level (this planner's memory, the process's, the disk, or built)."""
        key = (write_board(board), level)
        plan = self._plans.get(key)
        if plan is None:
            plan = plan_for(board, level, cache_dir=self.cache_dir, time_limit=self.time_limit)
            self._plans[key] = plan
        return plan

    def __call__(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> list[Card]:
        plan = self.plan_for(board, level)
        begin = time.perf_counter()
        choice = plan.best(pose, hand)
        self.decision_seconds.append(time.perf_counter() - begin)
        return choice
