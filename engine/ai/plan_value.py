"""Expected rounds to the goal per pose: value iteration over the round's best 5-of-8 choice.

``V(p) = 1 + E_hand[ min over ordered 5-card choices s from the hand of W(s, p) ]`` where ``W`` is
0 if the sequence reaches a goal, ``DEATH`` if it destroys the robot, else ``V(end pose)``.

The hand model: 8 cards drawn independently with the deck's probabilities (a 5,600-card deck
makes drawing without replacement indistinguishable at this scale), i.e. a multinomial over the
3,003 multisets of 8 cards from 7 kinds. The inner minimum is a dynamic programme over the
remaining multiset shared by all hands: ``G(p, R) = min_{c in R} G(next_c(p), R - c)`` for
multisets ``R`` of size 4..8 and ``G(p, R) = V(p)`` at size 3 (five cards played). One sweep is
about 7 numpy gathers per multiset level, for every pose at once.

Big boards would need ``multisets x states`` floats per level; past a memory budget the hand
distribution is replaced by a seeded sample of hands (only their sub-multisets are kept).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from engine.ai.plan_table import CARDS, TransitionTable, cards_to_goal
from engine.cards import CHOSEN_PER_ROUND, HAND_SIZE

FloatArray = npt.NDArray[np.float64]

#: Cost of being destroyed, in rounds, on top of a board-size term (see ``death_cost``). Chosen by
#: experiment on chop.dat hard (docs/ai.md): 1e6 made the robot so timid that it needed 1.28x the
#: optimum's rounds; 30 lost 0.4% of games; 1,000 lost none of 1,500 games at 1.12x.
DEATH = 1.0e3
#: Memory allowed for the two multiset levels held at once during a sweep.
MEMORY_BUDGET_BYTES = 160 * 1024 * 1024

Counts = tuple[int, ...]


def multisets(size: int, kinds: int = len(CARDS)) -> list[Counts]:
    """All count vectors of ``size`` cards over ``kinds`` kinds, in a fixed order."""
    result = []
    for combo in combinations_with_replacement(range(kinds), size):
        counts = [0] * kinds
        for k in combo:
            counts[k] += 1
        result.append(tuple(counts))
    return result


def card_probabilities() -> FloatArray:
    from engine.cards import DECK_COMPOSITION, DECK_SIZE

    return np.array([DECK_COMPOSITION[c] / DECK_SIZE for c in CARDS], dtype=np.float64)


def hand_probability(counts: Counts, probabilities: FloatArray) -> float:
    """Multinomial probability of an 8-card multiset under independent draws."""
    total = math.factorial(sum(counts))
    for n in counts:
        total //= math.factorial(n)
    return float(total * np.prod([probabilities[k] ** n for k, n in enumerate(counts)]))


@dataclass(frozen=True)
class HandModel:
    """The hands (size-8 multisets with weights) and their sub-multiset levels for the DP."""

    levels: list[list[Counts]]  # levels[j]: multisets of size HAND_SIZE - CHOSEN_PER_ROUND + j, j = 0..5
    children: list[npt.NDArray[np.int64]]  # children[j][row, card] -> row in levels[j-1] (or len: none)
    weights: FloatArray  # per multiset in levels[-1]
    exact: bool
    rows_with: list[list[npt.NDArray[np.int64]]]  # rows_with[j][c]: rows of level j holding card c


def build_hand_model(hands: list[Counts], weights: FloatArray, exact: bool) -> HandModel:
    base = HAND_SIZE - CHOSEN_PER_ROUND
    level_sets: list[set[Counts]] = [set() for _ in range(CHOSEN_PER_ROUND + 1)]
    level_sets[-1] = set(hands)
    for j in range(CHOSEN_PER_ROUND, 0, -1):
        for counts in level_sets[j]:
            for k, n in enumerate(counts):
                if n:
                    level_sets[j - 1].add((*counts[:k], n - 1, *counts[k + 1 :]))
    levels = [sorted(s) for s in level_sets]
    levels[-1] = list(hands)
    assert all(sum(c) == base + j for j, level in enumerate(levels) for c in level)
    children: list[npt.NDArray[np.int64]] = [np.zeros((0, len(CARDS)), dtype=np.int64)]
    for j in range(1, CHOSEN_PER_ROUND + 1):
        index = {c: i for i, c in enumerate(levels[j - 1])}
        none = len(levels[j - 1])
        child = np.full((len(levels[j]), len(CARDS)), none, dtype=np.int64)
        for row, counts in enumerate(levels[j]):
            for k, n in enumerate(counts):
                if n:
                    child[row, k] = index[(*counts[:k], n - 1, *counts[k + 1 :])]
        children.append(child)
    rows_with = [[np.zeros(0, dtype=np.int64) for _ in CARDS]]
    for j in range(1, CHOSEN_PER_ROUND + 1):
        none = len(levels[j - 1])
        rows_with.append([np.nonzero(children[j][:, c] != none)[0] for c in range(len(CARDS))])
    return HandModel(levels, children, weights, exact, rows_with)


def exact_hand_model() -> HandModel:
    probabilities = card_probabilities()
    hands = multisets(HAND_SIZE)
    weights = np.array([hand_probability(h, probabilities) for h in hands])
    return build_hand_model(hands, weights / weights.sum(), exact=True)


def sampled_hand_model(samples: int, seed: int) -> HandModel:
    """``samples`` hands drawn from the deck distribution (duplicates merged into weights)."""
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(HAND_SIZE, card_probabilities(), size=samples)
    tally: dict[Counts, int] = {}
    for row in draws:
        key = tuple(int(v) for v in row)
        tally[key] = tally.get(key, 0) + 1
    hands = sorted(tally)
    weights = np.array([tally[h] for h in hands], dtype=np.float64)
    return build_hand_model(hands, weights / weights.sum(), exact=False)


_EXACT: HandModel | None = None


def hand_model_for(states: int, seed: int) -> HandModel:
    """The exact model when it fits the memory budget, else the biggest sample that does."""
    global _EXACT
    if _EXACT is None:
        _EXACT = exact_hand_model()
    if _level_bytes(_EXACT, states) <= MEMORY_BUDGET_BYTES:
        return _EXACT
    samples = 256
    while samples > 8:
        model = sampled_hand_model(samples, seed)
        if _level_bytes(model, states) <= MEMORY_BUDGET_BYTES:
            return model
        samples //= 2
    return sampled_hand_model(8, seed)


def _level_bytes(model: HandModel, states: int) -> int:
    rows = max(len(a) + len(b) + 2 for a, b in zip(model.levels, model.levels[1:], strict=False))
    return rows * states * 4


def best_after_round(table: TransitionTable, values: FloatArray, model: HandModel) -> npt.NDArray[np.float32]:
    """``G(p, hand)`` for every hand of the model: the best value after a round, shape (hands, states)."""
    nxt = table.next
    previous = np.broadcast_to(values.astype(np.float32), (len(model.levels[0]) + 1, table.states)).copy()
    previous[-1] = np.inf
    for j in range(1, CHOSEN_PER_ROUND + 1):
        child = model.children[j]
        current = np.full((len(model.levels[j]) + 1, table.states), np.inf, dtype=np.float32)
        for c in range(len(CARDS)):
            rows = model.rows_with[j][c]
            if len(rows) == 0:
                continue
            # One fancy-index pass: G_{j-1}(next_c(p), R - c) for the multisets R holding card c.
            reached = previous[child[rows, c][:, None], nxt[c][None, :]]
            current[rows] = np.minimum(current[rows], reached)
        previous = current
    return previous[:-1]


@dataclass
class ValueResult:
    values: FloatArray  # per state, terminals included (dead DEATH, goal 0)
    sweeps: int
    residual: float
    converged: bool
    exact_hands: bool
    seconds: float


def expected_rounds(
    table: TransitionTable,
    *,
    seed: int = 0,
    tolerance: float = 1e-3,
    max_sweeps: int = 400,
    time_limit: float = 60.0,
) -> ValueResult:
    """Value iteration from a lower bound; stops on convergence, ``max_sweeps`` or ``time_limit``."""
    begin = time.perf_counter()
    model = hand_model_for(table.states, seed)
    distance = cards_to_goal(table)
    hopeful = distance >= 0
    hopeful[table.dead] = False
    lower = np.ceil(distance / CHOSEN_PER_ROUND)
    death = death_cost(lower[hopeful])
    values = np.where(hopeful, lower, death / 2).astype(np.float64)
    values[table.dead] = death
    values[table.goal] = 0.0
    live_hopeful = hopeful.copy()
    live_hopeful[table.goal] = False
    hopeless_live = ~hopeful & table.occupiable
    if hopeless_live.any():
        # Surviving without hope of the goal is worth half a death, more the likelier a forced death.
        values[hopeless_live] = (death / 2 * (1.0 + _death_risk(table, model, sweeps=4, deadline=begin + time_limit)))[
            hopeless_live
        ]
    weights = model.weights.astype(np.float32)
    sweeps = 0
    residual = math.inf
    while sweeps < max_sweeps and time.perf_counter() - begin < time_limit:
        after = best_after_round(table, values, model)
        fresh = 1.0 + (weights @ after).astype(np.float64)
        fresh = np.minimum(fresh, death)
        change = np.abs(fresh - values)[live_hopeful]
        residual = float(change.max()) if change.size else 0.0
        values = np.where(live_hopeful, fresh, values)
        sweeps += 1
        if residual < tolerance:
            break
    return ValueResult(values, sweeps, residual, residual < tolerance, model.exact, time.perf_counter() - begin)


def death_cost(lower_bounds: FloatArray) -> float:
    """What destruction costs: ``DEATH`` plus ten times the longest lower bound on rounds.

    The board term keeps the trade-off scale-free: on a board where the goal is 40 rounds away,
    dying must still cost far more than the rounds a detour takes.
    """
    longest = float(lower_bounds.max()) if lower_bounds.size else 0.0
    return DEATH + 10.0 * longest


def _death_risk(table: TransitionTable, model: HandModel, sweeps: int, deadline: float) -> FloatArray:
    """Chance of a forced destruction within ``sweeps`` rounds under the safest choices.

    Fewer sweeps (a shorter horizon) if the precomputation's ``deadline`` passes.
    """
    risk = np.zeros(table.states, dtype=np.float64)
    risk[table.dead] = 1.0
    weights = model.weights.astype(np.float32)
    for _ in range(sweeps):
        if time.perf_counter() >= deadline:
            break
        after = best_after_round(table, risk, model)
        risk = (weights @ after).astype(np.float64)
        risk[table.dead] = 1.0
        risk[table.goal] = 0.0
    return np.clip(risk, 0.0, 1.0)
