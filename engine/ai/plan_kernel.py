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
#: "No choice" in the rank arrays (ranks are places in a pose's ordered list of end states).
NONE = np.int64(1 << 62)

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


@numba.njit(cache=True)
def _lift(start, index, below_best, below_wait, up_best, up_wait):  # type: ignore[no-untyped-def]
    """Best rank (lowest) and "can wait" over the sub-multisets one card smaller, for every row."""
    for row in range(start.shape[0] - 1):
        best = NONE
        wait = False
        for k in range(start[row], start[row + 1]):
            child = index[k]
            if below_best[child] < best:
                best = below_best[child]
            wait = wait or below_wait[child]
        up_best[row] = best
        up_wait[row] = wait


@numba.njit(cache=True, inline="always")
def tier(goal: float, eps: float) -> float:
    """Goal probability in whole units of ``eps`` (rounded): equal tiers count as equally likely."""
    return math.floor(goal / eps + 0.5)


@numba.njit(cache=True)
def _rank_ends(p, s5, goal_p, won_r, eps, stamp, tag, ends, rank_of, sorted_p, sorted_r, skip_self):  # type: ignore[no-untyped-def]
    """Order the distinct end states of pose ``p`` best first; ``rank_of[state]`` = place in that order.

    Best first: higher goal-probability tier (``tier``), then fewer won rounds. ``skip_self``
    leaves ``p`` itself out (waiting is solved exactly by the caller). Returns how many.
    """
    n = 0
    for i in range(s5.shape[0]):
        e = s5[i]
        if (e != p or not skip_self) and stamp[e] != tag:
            stamp[e] = tag
            ends[n] = e
            n += 1
    keys = np.empty(n, dtype=np.float64)
    for i in range(n):
        keys[i] = won_r[ends[i]]
    by_rounds = np.argsort(keys, kind="mergesort")
    for i in range(n):
        keys[i] = -tier(goal_p[ends[by_rounds[i]]], eps)
    by_tier = np.argsort(keys, kind="mergesort")  # stable: rounds order kept inside a tier
    for place in range(n):
        e = ends[by_rounds[by_tier[place]]]
        rank_of[e] = place
        sorted_p[place] = goal_p[e]
        sorted_r[place] = won_r[e]
    return n


@numba.njit(cache=True)
def _tree(p, nxt, s1, s2, s3, s4, s5):  # type: ignore[no-untyped-def]
    """End states of all 7^5 card sequences from ``p`` (index = the sequence's base-7 code)."""
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


@numba.njit(cache=True)
def survival_sweep(order, nxt, alive, lat, eps, work, stamp, tags):  # type: ignore[no-untyped-def]
    """One Jacobi round of ``alive[p] = E_H[max_s alive[e]]`` over ``order`` (in place).

    Started from 1 for live poses (0 destroyed), ``k`` rounds give the best probability of
    surviving ``k`` more rounds: where no goal can be reached, it is what the planner maximises.
    """
    sequence_multiset, start6, index6, start7, index7, start8, index8, weights = lat
    (s1, s2, s3, s4, s5, b5, f5, b6, f6, b7, f7, b8, f8, ends, rank_of, sorted_p, sorted_r, _p8, _r8) = work
    zeros = np.zeros(alive.shape[0])
    fresh = alive.copy()
    for i in range(order.shape[0]):
        p = order[i]
        _tree(p, nxt, s1, s2, s3, s4, s5)
        tags[1] += 1
        _rank_ends(p, s5, alive, zeros, eps, stamp, tags[1], ends, rank_of, sorted_p, sorted_r, False)
        for m in range(b5.shape[0]):
            b5[m] = NONE
            f5[m] = False
        for k in range(s5.shape[0]):
            m = sequence_multiset[k]
            if rank_of[s5[k]] < b5[m]:
                b5[m] = rank_of[s5[k]]
        _lift(start6, index6, b5, f5, b6, f6)
        _lift(start7, index7, b6, f6, b7, f7)
        _lift(start8, index8, b7, f7, b8, f8)
        total = 0.0
        for h in range(b8.shape[0]):
            total += weights[h] * sorted_p[b8[h]]
        fresh[p] = total
    for i in range(order.shape[0]):
        alive[order[i]] = fresh[order[i]]


@numba.njit(cache=True)
def pose_update(p, nxt, goal_p, won_r, lat, eps, work, stamp, tag):  # type: ignore[no-untyped-def]
    """New (goal probability, won rounds) of pose ``p`` from the current values of all others."""
    sequence_multiset, start6, index6, start7, index7, start8, index8, weights = lat
    (s1, s2, s3, s4, s5, b5, f5, b6, f6, b7, f7, b8, f8, ends, rank_of, sorted_p, sorted_r, p8, r8) = work
    _tree(p, nxt, s1, s2, s3, s4, s5)
    _rank_ends(p, s5, goal_p, won_r, eps, stamp, tag, ends, rank_of, sorted_p, sorted_r, True)
    for m in range(b5.shape[0]):
        b5[m] = NONE
        f5[m] = False
    for i in range(s5.shape[0]):
        # The tree index is the sequence's base-7 code and the multiset of a code does not depend
        # on the order of its digits, so ``sequence_multiset`` serves either reading.
        e = s5[i]
        m = sequence_multiset[i]
        if e == p:
            f5[m] = True
        elif rank_of[e] < b5[m]:
            b5[m] = rank_of[e]
    _lift(start6, index6, b5, f5, b6, f6)
    _lift(start7, index7, b6, f6, b7, f7)
    _lift(start8, index8, b7, f7, b8, f8)
    for h in range(b8.shape[0]):
        if b8[h] == NONE:
            p8[h] = -1.0
            r8[h] = np.inf
        else:
            p8[h] = sorted_p[b8[h]]
            r8[h] = sorted_r[b8[h]]
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
        if g <= 1e-13:
            break
        if slope >= -1e-15:
            break
        step = x - g / slope
        if step <= x + 1e-15:
            break
        x = min(step, 1.0)
    # Won rounds R = x + E[R after the round], waiting where it keeps the goal probability best.
    tier_x = tier(x, eps)
    # Per hand that can wait: -1 if its best other choice is in a lower tier than x (it waits
    # whatever y is), 0 if in x's tier (it waits when that choice's rounds >= y), 1 otherwise.
    # Computed once, not per iteration: the tier is a division and a floor.
    versus = np.ones(p8.shape[0], dtype=np.int8)
    for h in range(p8.shape[0]):
        if f8[h]:
            t = tier(p8[h], eps)
            versus[h] = -1 if t < tier_x else (0 if t == tier_x else 1)
    y = won_r[p]
    if not np.isfinite(y):
        y = 0.0
    for _ in range(60):
        stay = 0.0
        total = x
        for h in range(p8.shape[0]):
            w = weights[h]
            if versus[h] < 0 or (versus[h] == 0 and r8[h] >= y):
                stay += w
            else:
                total += w * r8[h]
        fresh = (0.0 if tier_x == 0 else y) if stay >= 1.0 - 1e-12 else total / (1.0 - stay)
        if abs(fresh - y) <= 1e-11 * max(1.0, abs(y)):
            y = fresh
            break
        y = fresh
    return x, y


@numba.njit(cache=True)
def _mark_sources(q, pred_start, pred_list, dirty, stamp, tag, buf_a, buf_b):  # type: ignore[no-untyped-def]
    """Mark dirty every pose that reaches ``q`` in exactly five cards (its value depends on q's)."""
    buf_a[0] = q
    n = 1
    for layer in range(5):
        mark = tag * 5 + layer + 1
        m = 0
        for i in range(n):
            s = buf_a[i]
            for k in range(pred_start[s], pred_start[s + 1]):
                t = pred_list[k]
                if stamp[t] != mark:
                    stamp[t] = mark
                    buf_b[m] = t
                    m += 1
        buf_a, buf_b = buf_b, buf_a
        n = m
    for i in range(n):
        dirty[buf_a[i]] = True


@numba.njit(cache=True)
def sweep(  # type: ignore[no-untyped-def]
    order,
    nxt,
    goal_p,
    won_r,
    lat,
    eps,
    work,
    dirty,
    pred_start,
    pred_list,
    stamp,
    end_stamp,
    tags,
    tol_p,
    tol_r,
):
    """One Gauss-Seidel sweep over the dirty poses of ``order`` (values updated in place).

    A pose whose value moves by more than the tolerances marks the poses that reach it in five
    cards dirty, so later sweeps only revisit what can still change. Returns the largest changes
    of P and R and how many poses were updated.
    """
    change_p = 0.0
    change_r = 0.0
    updated = 0
    n = dirty.shape[0]
    buf_a = np.empty(n, dtype=np.int64)
    buf_b = np.empty(n, dtype=np.int64)
    for i in range(order.shape[0]):
        p = order[i]
        if not dirty[p]:
            continue
        dirty[p] = False
        updated += 1
        tags[1] += 1
        x, y = pose_update(p, nxt, goal_p, won_r, lat, eps, work, end_stamp, tags[1])
        dp = abs(x - goal_p[p])
        dr = abs(y - won_r[p])
        change_p = max(change_p, dp)
        change_r = max(change_r, dr)
        goal_p[p] = x
        won_r[p] = y
        if dp > tol_p or dr > tol_r:
            tags[0] += 1
            _mark_sources(p, pred_start, pred_list, dirty, stamp, tags[0], buf_a, buf_b)
    return change_p, change_r, updated


def kernel_lattice(lat: Lattice) -> tuple[npt.NDArray[np.generic], ...]:
    """The lattice as the kernel takes it: sequence -> multiset map, CSR child lists, hand weights."""
    parts: list[npt.NDArray[np.generic]] = [lat.sequence_multiset]
    for child in lat.children:
        valid = child >= 0
        start = np.concatenate([[0], np.cumsum(valid.sum(axis=1))]).astype(np.int64)
        parts += [start, child[valid].astype(np.int64)]
    return (*parts, lat.weights)


def work_buffers(lat: Lattice, states: int) -> tuple[npt.NDArray[np.generic], ...]:
    """The kernel's scratch arrays (a tuple so numba sees fixed types)."""
    trees = tuple(np.empty(KINDS**d, dtype=np.int32) for d in range(1, CHOSEN_PER_ROUND + 1))
    per_level: list[npt.NDArray[np.generic]] = []
    for level in lat.levels:
        per_level += [np.empty(len(level), dtype=np.int64), np.empty(len(level), dtype=np.bool_)]
    ends = np.empty(min(states, SEQUENCES), dtype=np.int64)
    rank_of = np.empty(states, dtype=np.int64)
    sorted_values = (np.empty(len(ends), dtype=np.float64), np.empty(len(ends), dtype=np.float64))
    hands = (np.empty(len(lat.levels[-1]), dtype=np.float64), np.empty(len(lat.levels[-1]), dtype=np.float64))
    return (*trees, *per_level, ends, rank_of, *sorted_values, *hands)
