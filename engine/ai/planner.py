"""The ``planner`` AI: the ordered 5-of-8 choice that minimises the expected rounds to the goal.

Per board and level it builds (once) a transition table from the engine's rules and a value
table ``V(pose)`` of expected rounds (``engine.ai.plan_value``). Each round it enumerates the
distinct ordered 5-card choices of the hand (at most 6,720, fewer with repeated cards), plays
them all at once through the table, and ranks them: survive first (never destroyed when a safe
choice exists), then the value of the end pose (0 once a goal is reached), then fewer cards to
the goal, then the enumeration order (fixed, so choices are deterministic).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.ai import plan_cache
from engine.ai.plan_table import CARD_INDEX, CARDS, TransitionTable, build_table
from engine.ai.plan_value import expected_rounds
from engine.boardfile import write_board
from engine.cards import CHOSEN_PER_ROUND, HAND_SIZE, Card
from engine.model import Board, Level, Pose


@dataclass(frozen=True)
class BoardPlan:
    """Everything precomputed for one board and level."""

    table: TransitionTable
    values: npt.NDArray[np.float64]
    seconds: float
    from_cache: bool


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
    """A ``Chooser`` that plans with exact rule tables and expected-rounds values."""

    name = "planner"

    def __init__(self, budget_seconds: float = 1.0, seed: int = 0, cache_dir: Path | None = None) -> None:
        self.budget_seconds = budget_seconds
        self.seed = seed
        self.cache_dir = cache_dir
        #: Time allowed for one board's value iteration (tables themselves are always built).
        self.precompute_limit = max(60.0, 60.0 * budget_seconds)
        self._plans: dict[tuple[str, Level], BoardPlan] = {}
        self.decision_seconds: list[float] = []

    def plan_for(self, board: Board, level: Level) -> BoardPlan:
        """The precomputed tables for a board and level (from memory, disk cache, or computed)."""
        key = (write_board(board), level)
        plan = self._plans.get(key)
        if plan is not None:
            return plan
        begin = time.perf_counter()
        cached = plan_cache.load_cached(self.cache_dir, board, level) if self.cache_dir is not None else None
        if cached is not None:
            table, values = cached
            plan = BoardPlan(table, values, time.perf_counter() - begin, True)
        else:
            table = build_table(board, level)
            result = expected_rounds(table, seed=self.seed, time_limit=self.precompute_limit)
            plan = BoardPlan(table, result.values, time.perf_counter() - begin, False)
            if self.cache_dir is not None:
                plan_cache.store(self.cache_dir, board, level, table, result.values)
        self._plans[key] = plan
        return plan

    def __call__(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> list[Card]:
        plan = self.plan_for(board, level)
        begin = time.perf_counter()
        choice = choose(plan, pose, hand)
        self.decision_seconds.append(time.perf_counter() - begin)
        return choice


def rank_choices(
    plan: BoardPlan, pose: Pose, hand: Sequence[Card]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """All distinct ordered choices (rows of card indices) and their order from best to worst."""
    table = plan.table
    orders = distinct_orders([CARD_INDEX[c] for c in hand])
    state = np.full(len(orders), table.state_of(pose), dtype=np.int64)
    goal_after = np.full(len(orders), CHOSEN_PER_ROUND + 1, dtype=np.int64)
    for j in range(CHOSEN_PER_ROUND):
        state = table.next[orders[:, j], state].astype(np.int64)
        goal_after = np.where((state == table.goal) & (goal_after > CHOSEN_PER_ROUND), j + 1, goal_after)
    dead = state == table.dead
    value = plan.values[state]
    # np.lexsort sorts by the last key first: dead, then value, then cards to goal, then index.
    ranking = np.lexsort((np.arange(len(orders)), goal_after, value, dead))
    return orders, ranking.astype(np.int64)


def choose(plan: BoardPlan, pose: Pose, hand: Sequence[Card]) -> list[Card]:
    """The best ordered 5 cards of ``hand`` for a robot at ``pose``."""
    orders, ranking = rank_choices(plan, pose, hand)
    best = orders[ranking[0]]
    return [CARDS[int(i)] for i in best]
