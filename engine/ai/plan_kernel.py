"""Compiled kernel of the no-foresight value iteration: one Gauss-Seidel sweep over poses.

For a pose ``p`` it plays all 7^5 card sequences through the transition table (a tree of 19,607
gathers), keeps per 5-card multiset the lexicographically best end (goal probability first, then
the won-rounds value ``R``), lifts that through the lattice of multisets of 6, 7 and 8 cards (the
best choice of a hand is the best of its 5-card sub-multisets), and averages over the 3,003 hands
with their multinomial weights. Memory is a few fixed buffers, whatever the board size: the work
is per pose, so nothing of size poses x hands is ever held.

Sequences that end on ``p`` itself ("wait here") are solved exactly instead of iterated: the new
value of ``p`` is the least fixed point of ``x = E_hand[max(x, best other choice)]`` (Newton's
method on a convex piecewise-linear function, from below), then the same for ``R``. Waiting for a
good hand therefore costs one sweep, not one sweep per round waited.

The kernel is compiled with numba (``cache=True``: compiled once per installation). Numba earns
its place here: the same work in numpy needs the whole (hands x poses) layer in memory (755 MB
on 100x100) and cannot update poses in place (Gauss-Seidel), and pure Python is ~100x slower.
"""

from __future__ import annotations

import math
from functools import cache
from itertools import combinations_with_replacement

import numba
import numpy as np
import numpy.typing as npt

from engine.cards import CHOSEN_PER_ROUND, DECK_COMPOSITION, DECK_SIZE, HAND_SIZE, Card

KINDS = len(Card)
SEQUENCES = KINDS**CHOSEN_PER_ROUND

Counts = tuple[int, ...]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def multisets(size: int, kinds: int = KINDS) -> list[Counts]:
    """All count vectors of ``size`` cards over ``kinds`` kinds, in a fixed order."""
    result = []
    for combo in combinations_with_replacement(range(kinds), size):
        counts = [0] * kinds
        for k in combo:
            counts[k] += 1
        result.append(tuple(counts))
    return result


def card_probabilities() -> FloatArray:
    return np.array([DECK_COMPOSITION[c] / DECK_SIZE for c in Card], dtype=np.float64)


def hand_probability(counts: Counts, probabilities: FloatArray) -> float:
    """Multinomial probability of an 8-card multiset under independent draws."""
    total = math.factorial(sum(counts))
    for n in counts:
        total //= math.factorial(n)
    return float(total * np.prod([probabilities[k] ** n for k, n in enumerate(counts)]))


class Lattice:
    """Index structures shared by every board: sequences -> 5-multisets -> ... -> 8-card hands."""

    def __init__(self) -> None:
        self.levels = [multisets(size) for size in range(CHOSEN_PER_ROUND, HAND_SIZE + 1)]
        index = {counts: i for i, counts in enumerate(self.levels[0])}
        sequence_multiset = np.empty(SEQUENCES, dtype=np.int64)
        for code in range(SEQUENCES):
            counts = [0] * KINDS
            rest = code
            for _ in range(CHOSEN_PER_ROUND):
                rest, digit = divmod(rest, KINDS)
                counts[digit] += 1
            sequence_multiset[code] = index[tuple(counts)]
        self.sequence_multiset = sequence_multiset
        #: children[j][row, card]: row in levels[j] of levels[j + 1][row] minus that card, or -1.
        self.children: list[IntArray] = []
        for j in range(1, len(self.levels)):
            below = {counts: i for i, counts in enumerate(self.levels[j - 1])}
            child = np.full((len(self.levels[j]), KINDS), -1, dtype=np.int64)
            for row, held in enumerate(self.levels[j]):
                for k, n in enumerate(held):
                    if n:
                        child[row, k] = below[(*held[:k], n - 1, *held[k + 1 :])]
            self.children.append(child)
        probabilities = card_probabilities()
        weights = np.array([hand_probability(h, probabilities) for h in self.levels[-1]])
        self.weights: FloatArray = weights / weights.sum()


@cache
def lattice() -> Lattice:
    return Lattice()


@numba.njit(cache=True, inline="always")
def _better(p1: float, r1: float, p2: float, r2: float, eps: float) -> bool:
    """Lexicographic: a higher goal probability (by more than ``eps``), else fewer won rounds."""
    if p1 > p2 + eps:
        return True
    return p1 >= p2 - eps and r1 < r2


@numba.njit(cache=True)
def _lift(child, below_p, below_r, below_s, up_p, up_r, up_s, eps):  # type: ignore[no-untyped-def]
    for row in range(child.shape[0]):
        bp = -1.0
        br = np.inf
        bs = False
        for c in range(child.shape[1]):
            k = child[row, c]
            if k < 0:
                continue
            bs = bs or below_s[k]
            if below_p[k] >= 0.0 and _better(below_p[k], below_r[k], bp, br, eps):
                bp = below_p[k]
                br = below_r[k]
        up_p[row] = bp
        up_r[row] = br
        up_s[row] = bs


@numba.njit(cache=True)
def pose_update(  # type: ignore[no-untyped-def]
    p, nxt, goal_p, won_r, sequence_multiset, child6, child7, child8, weights, eps, work
):
    """New (goal probability, won rounds) of pose ``p`` from the current values of all others."""
    (s1, s2, s3, s4, s5, p5, r5, f5, p6, r6, f6, p7, r7, f7, p8, r8, f8) = work
    for c in range(7):
        s1[c] = nxt[c, p]
    for i in range(7):
        for c in range(7):
            s2[i * 7 + c] = nxt[c, s1[i]]
    for i in range(49):
        for c in range(7):
            s3[i * 7 + c] = nxt[c, s2[i]]
    for i in range(343):
        for c in range(7):
            s4[i * 7 + c] = nxt[c, s3[i]]
    for i in range(2401):
        for c in range(7):
            s5[i * 7 + c] = nxt[c, s4[i]]
    for m in range(p5.shape[0]):
        p5[m] = -1.0
        r5[m] = np.inf
        f5[m] = False
    for i in range(s5.shape[0]):
        # Sequence digits are most significant first in the tree but least significant first in
        # the multiset map; the multiset of a sequence does not depend on the order, so any
        # consistent reading works: the map was built from the same base-7 code.
        e = s5[i]
        m = sequence_multiset[i]
        if e == p:
            f5[m] = True
        elif _better(goal_p[e], won_r[e], p5[m], r5[m], eps):
            p5[m] = goal_p[e]
            r5[m] = won_r[e]
    _lift(child6, p5, r5, f5, p6, r6, f6, eps)
    _lift(child7, p6, r6, f6, p7, r7, f7, eps)
    _lift(child8, p7, r7, f7, p8, r8, f8, eps)
    # Goal probability: least fixed point of g(x) = E[max(x, other) if the hand can wait, else other] - x.
    x = min(max(goal_p[p], 0.0), 1.0)
    for _ in range(60):
        g = -x
        slope = -1.0
        for h in range(p8.shape[0]):
            if f8[h]:
                if p8[h] > x:
                    g += weights[h] * p8[h]
                else:
                    g += weights[h] * x
                    slope += weights[h]
            else:
                g += weights[h] * p8[h]
        if g <= 1e-15:
            break
        if slope >= -1e-15:
            break
        step = x - g / slope
        if step <= x:
            break
        x = min(step, 1.0)
    # Won rounds R = x + E[R after the round], waiting where it keeps the goal probability best.
    y = won_r[p]
    if not np.isfinite(y):
        y = 0.0
    for _ in range(60):
        stay = 0.0
        total = x
        for h in range(p8.shape[0]):
            w = weights[h]
            if (f8[h] and p8[h] < x - eps) or (f8[h] and p8[h] <= x + eps and r8[h] >= y):
                stay += w
            else:
                total += w * r8[h]
        fresh = (0.0 if x <= eps else y) if stay >= 1.0 - 1e-12 else total / (1.0 - stay)
        if abs(fresh - y) <= 1e-12 * max(1.0, abs(y)):
            y = fresh
            break
        y = fresh
    return x, y


@numba.njit(cache=True)
def sweep(order, nxt, goal_p, won_r, sequence_multiset, child6, child7, child8, weights, eps, work):  # type: ignore[no-untyped-def]
    """One Gauss-Seidel sweep over ``order`` (updated in place); the largest changes of P and R."""
    change_p = 0.0
    change_r = 0.0
    for i in range(order.shape[0]):
        p = order[i]
        x, y = pose_update(p, nxt, goal_p, won_r, sequence_multiset, child6, child7, child8, weights, eps, work)
        change_p = max(change_p, abs(x - goal_p[p]))
        change_r = max(change_r, abs(y - won_r[p]))
        goal_p[p] = x
        won_r[p] = y
    return change_p, change_r


def work_buffers(lat: Lattice) -> tuple[npt.NDArray[np.generic], ...]:
    """The kernel's scratch arrays (a tuple so numba sees fixed types)."""
    sizes = [len(level) for level in lat.levels]
    states = tuple(np.empty(KINDS**d, dtype=np.int32) for d in range(1, CHOSEN_PER_ROUND + 1))
    per_level: list[npt.NDArray[np.generic]] = []
    for n in sizes:
        per_level += [np.empty(n, dtype=np.float64), np.empty(n, dtype=np.float64), np.empty(n, dtype=np.bool_)]
    return (*states, *per_level)
