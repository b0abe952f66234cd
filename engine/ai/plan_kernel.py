"""Compiled kernel of the no-foresight value iteration: Gauss-Seidel sweeps over poses.

For a pose ``p`` it plays all 7^5 card sequences through the transition table (a tree of 19,607
gathers), keeps per 5-card multiset the lexicographically best end (goal probability first, then
the won-rounds value ``R``), lifts that through the lattice of multisets of 6, 7 and 8 cards (the
best choice of a hand is the best of its 5-card sub-multisets), and averages over the 3,003 hands
with their multinomial weights. The work is per pose, so nothing of size poses x hands is ever
held: a few fixed buffers, plus what the caller lets ``sweep`` remember per pose (its ends, hand
groups and "can wait" bits, a few kB).

Sequences that end on ``p`` itself ("wait here") are solved exactly instead of iterated: the new
value of ``p`` is the least fixed point of ``x = E_hand[max(x, best other choice)]`` (Newton's
method on a convex piecewise-linear function, from below), then the same for ``R``. Waiting for a
good hand therefore costs one sweep, not one sweep per round waited. Hands that choose the same
end and agree on "can wait" enter both fixed points alike, so a full update sums them into a
few groups (``_group_hands``); ``sweep`` remembers those groups per pose and reuses them while
the pose's ranking of its ends would choose the same, and ``evaluate`` runs cheap policy
evaluation sweeps over them (modified policy iteration).

The kernel is compiled with numba (``cache=True``: compiled once, kept in the per-user cache
folder ``jit_cache`` chooses). Numba earns its place here: the same work in numpy needs the whole
(hands x poses) layer in memory (755 MB on 100x100) and cannot update poses in place
(Gauss-Seidel), and pure Python is ~100x slower.
"""

from __future__ import annotations

import math
from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from engine.ai.jit_cache import numba
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
def tier(goal: float, eps: float) -> float:
    """Goal probability in whole units of ``eps`` (rounded): equal tiers count as equally likely."""
    return math.floor(goal / eps + 0.5)


@numba.njit(cache=True)
def _merge_places(n, key_t, key_r, idx, tmp):  # type: ignore[no-untyped-def]
    """``_sort_places`` by a bottom-up merge sort (for keys with NaN, whose order it defines).

    A bottom-up merge sort on the caller's buffers (no allocation per pose update) that copies
    runs already in order without merging them, so a nearly sorted list costs little more than
    one pass.
    """
    src = idx
    dst = tmp
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            if mid < hi:
                a = src[mid - 1]
                b = src[mid]
                if key_t[b] < key_t[a] or (key_t[b] == key_t[a] and key_r[b] < key_r[a]):
                    pass
                else:  # already in order: copy the two runs as they are
                    for k in range(lo, hi):
                        dst[k] = src[k]
                    continue
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                a = src[i]
                b = src[j]
                if key_t[b] < key_t[a] or (key_t[b] == key_t[a] and key_r[b] < key_r[a]):
                    dst[k] = b
                    j += 1
                else:
                    dst[k] = a
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
        src, dst = dst, src
        width *= 2
    return src


@numba.njit(cache=True, inline="always")
def _before(key_t, key_r, b, a):  # type: ignore[no-untyped-def]
    """Place ``b`` strictly before place ``a`` in (``key_t``, ``key_r``) order."""
    return key_t[b] < key_t[a] or (key_t[b] == key_t[a] and key_r[b] < key_r[a])


#: Bits of the packed sort key given to the tier (``key_t``, clamped: ties are sorted exactly
#: afterwards) and to the won rounds (the top bits of their order-preserving float bits).
_TIER_BITS = 20
_ROUND_BITS = 36
_DIGIT_BITS = 8


@numba.njit(cache=True)
def _sort_places(n, key_t, key_r, idx, tmp, packed, spare, counts):  # type: ignore[no-untyped-def]
    """Places ``0..n-1`` sorted by (``key_t``, ``key_r``) ascending, ties in place order (stable).

    An order already sorted (common for remembered ends) costs one pass. Otherwise a stable
    radix sort on a 56-bit key that never orders two places against their exact order (a
    clamped tier and the top bits of the rounds), skipping the digits all keys share, then an
    insertion pass with the exact comparison that only meets places whose keys tied: the result
    is exactly the stable sort, at ~8 us for 420 ends instead of ~32 for a merge sort.
    ``packed``/``spare`` (uint64) and ``counts`` (int64, 2^digit + 1) are the caller's buffers.
    """
    for i in range(n):
        idx[i] = i
    sorted_already = True
    for i in range(1, n):
        if _before(key_t, key_r, i, i - 1):
            sorted_already = False
            break
    if sorted_already:
        return idx
    top = float((1 << _TIER_BITS) - 1)
    sign = np.uint64(1) << np.uint64(63)
    for i in range(n):
        t = key_t[i] + top
        r = key_r[i] + 0.0  # -0.0 -> 0.0, so equal rounds get equal bits
        if t != t or r != r:  # NaN: not an order a radix key can respect; merge sort keeps the old one
            return _merge_places(n, key_t, key_r, idx, tmp)
        t = min(max(t, 0.0), top)
        bits = np.float64(r).view(np.uint64)
        bits = ~bits if bits & sign else bits | sign
        packed[i] = (np.uint64(t) << np.uint64(_ROUND_BITS)) | (bits >> np.uint64(64 - _ROUND_BITS))
    src_k, dst_k, src_i, dst_i = packed, spare, idx, tmp
    radix = 1 << _DIGIT_BITS
    mask = np.uint64(radix - 1)
    for shift in range(0, _TIER_BITS + _ROUND_BITS, _DIGIT_BITS):
        counts[:] = 0
        step = np.uint64(shift)
        for i in range(n):
            counts[((src_k[i] >> step) & mask) + np.uint64(1)] += 1
        if counts[((src_k[0] >> step) & mask) + np.uint64(1)] == n:
            continue  # every key has this digit: the pass would not move anything
        for d in range(radix):
            counts[d + 1] += counts[d]
        for i in range(n):
            d = (src_k[i] >> step) & mask
            j = counts[d]
            counts[d] = j + 1
            dst_k[j] = src_k[i]
            dst_i[j] = src_i[i]
        src_k, dst_k = dst_k, src_k
        src_i, dst_i = dst_i, src_i
    for i in range(1, n):
        b = src_i[i]
        j = i
        while j > 0 and _before(key_t, key_r, b, src_i[j - 1]):
            src_i[j] = src_i[j - 1]
            j -= 1
        src_i[j] = b
    return src_i


@numba.njit(cache=True)
def _rank_ends(p, nxt, goal_p, won_r, eps, stamp, tag, work, skip_self):  # type: ignore[no-untyped-def]
    """Order the distinct end states of pose ``p`` best first; ``rank_of[state]`` = place in that order.

    Best first: higher goal-probability tier (``tier``), then fewer won rounds, then the order in
    which the tree first reaches them. ``skip_self`` leaves ``p`` itself out (waiting is solved
    exactly by the caller). Fills ``rank_of``, ``sorted_e`` and ``sorted_p``; returns how many.
    """
    ends, s4, seen = work[13], work[3], work[28]
    n = 0
    for j in range(s4.shape[0]):
        # A pose that four cards reach again adds no new end (its seven ends were met first from
        # where it was reached before), so most of the 16,807 ends are never looked at.
        q = s4[j]
        if seen[q] == tag:
            continue
        seen[q] = tag
        for k in range(KINDS):
            e = nxt[k, q]
            if (e != p or not skip_self) and stamp[e] != tag:
                stamp[e] = tag
                ends[n] = e
                n += 1
    _rank_listed(n, goal_p, won_r, eps, work)
    return n


@numba.njit(cache=True)
def _rank_known(off, n, pool_e, goal_p, won_r, eps, work):  # type: ignore[no-untyped-def]
    """``_rank_ends`` for a pose whose ends are remembered (``pool_e``, in their last order).

    Skips collecting the ends from the tree, and the sort is nearly free when the order barely
    changed; exact ties (equal tier and rounds) keep their last order instead of the tree's.
    """
    ends = work[13]
    for k in range(n):
        e = pool_e[off + k]
        ends[k] = -1 - e if e < 0 else e
    _rank_listed(n, goal_p, won_r, eps, work)


@numba.njit(cache=True)
def _rank_listed(n, goal_p, won_r, eps, work):  # type: ignore[no-untyped-def]
    """Sort ``ends[:n]`` best first (stably) into ``sorted_e``, ``sorted_p`` and ``rank_of``."""
    ends, rank_of, sorted_p, key_t, sorted_e = work[13], work[14], work[15], work[16], work[17]
    key_r, idx, tmp = work[25], work[26], work[27]
    packed, spare, counts = work[29], work[30], work[31]
    for i in range(n):
        key_t[i] = -tier(goal_p[ends[i]], eps)
        key_r[i] = won_r[ends[i]]
    order = _sort_places(n, key_t, key_r, idx, tmp, packed, spare, counts)
    for place in range(n):
        e = ends[order[place]]
        rank_of[e] = place
        sorted_e[place] = e
        sorted_p[place] = goal_p[e]


@numba.njit(cache=True)
def _tree(p, nxt, s1, s2, s3, s4, s5):  # type: ignore[no-untyped-def]
    """End states of all 7^5 card sequences from ``p`` (index = the sequence's base-7 code)."""
    _tree4(p, nxt, s1, s2, s3, s4)
    for i in range(2401):
        for c in range(7):
            s5[i * 7 + c] = nxt[c, s4[i]]


@numba.njit(cache=True)
def _tree4(p, nxt, s1, s2, s3, s4):  # type: ignore[no-untyped-def]
    """``_tree`` up to four cards (the fifth is played where it is used, ``_best_per_hand``)."""
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


@numba.njit(cache=True)
def survival_sweep(order, nxt, alive, lat, eps, work, stamp, tags):  # type: ignore[no-untyped-def]
    """One Jacobi round of ``alive[p] = E_H[max_s alive[e]]`` over ``order`` (in place).

    Started from 1 for live poses (0 destroyed), ``k`` rounds give the best probability of
    surviving ``k`` more rounds: where no goal can be reached, it is what the planner maximises.
    """
    sequence_multiset, weights = lat[0], lat[4]
    s1, s2, s3, s4, s5, b5, b8 = work[0], work[1], work[2], work[3], work[4], work[5], work[11]
    rank_of, sorted_p = work[14], work[15]
    zeros = np.zeros(alive.shape[0])
    fresh = alive.copy()
    for i in range(order.shape[0]):
        p = order[i]
        _tree(p, nxt, s1, s2, s3, s4, s5)
        tags[1] += 1
        n = _rank_ends(p, nxt, alive, zeros, eps, stamp, tags[1], work, False)
        for m in range(b5.shape[0]):
            b5[m] = n  # every multiset has an end (p itself counts here), so n never stays
        for k in range(s5.shape[0]):
            b5[sequence_multiset[k]] = min(b5[sequence_multiset[k]], rank_of[s5[k]])
        _lift_ranks(lat, work)  # no waiting here: only the best ranks
        total = 0.0
        for h in range(b8.shape[0]):
            total += weights[h] * sorted_p[b8[h]]
        fresh[p] = total
    for i in range(order.shape[0]):
        alive[order[i]] = fresh[order[i]]


@numba.njit(cache=True)
def _lift_best(child, below, up):  # type: ignore[no-untyped-def]
    """Best rank (lowest) over the sub-multisets one card smaller, for every row.

    ``child[row]`` lists the row's needed sub-multisets (``needed_children``), a short row
    repeating its first, so the loop has no branches. A min over six or five children is
    written out, which lets the compiler keep the gathers independent (about half the time of
    the loop)."""
    width = child.shape[1]
    if width == 6:
        for row in range(child.shape[0]):
            r = child[row]
            low = min(min(below[r[0]], below[r[1]]), min(below[r[2]], below[r[3]]))
            up[row] = min(low, min(below[r[4]], below[r[5]]))
    elif width == 5:
        for row in range(child.shape[0]):
            r = child[row]
            low = min(min(below[r[0]], below[r[1]]), min(below[r[2]], below[r[3]]))
            up[row] = min(low, below[r[4]])
    else:
        for row in range(child.shape[0]):
            best = below[child[row, 0]]
            for k in range(1, width):
                best = min(best, below[child[row, k]])
            up[row] = best


@numba.njit(cache=True)
def _best_per_hand(p, nxt, goal_p, won_r, lat, eps, work, stamp, tag, known, pool_e, waits):  # type: ignore[no-untyped-def]
    """Play the tree of ``p`` and rank its ends: ``b8[h]`` (best rank of hand h; ``n``: none but
    waiting); whether hand h can end on ``p`` ("wait") is bit h of the pose's row of ``waits``,
    or of ``work[37]`` where none is remembered (see below). Returns how many distinct ends
    ``n`` (``sorted_e[:n]``, best first). ``known``: (offset, count) of the pose's remembered ends
    in ``pool_e`` (offset -1: none), and its row of remembered "can wait" bits in ``waits`` (-1:
    none). Which hands can wait depends only on the table, so with that row the flags of the
    5-card multisets are not collected again; without it they are, and the hands' bits are left
    in ``work[37]`` for the caller to remember.
    """
    sequence_multiset = lat[0]
    s1, s2, s3, s4, b5, f5, rank_of = work[0], work[1], work[2], work[3], work[5], work[6], work[14]
    slot, owner, ranks7, waits7, met = work[32], work[33], work[34], work[35], work[36]
    _tree4(p, nxt, s1, s2, s3, s4)  # the fifth card is played below, once per distinct pose
    if known[0] >= 0:
        n = known[1]
        _rank_known(known[0], n, pool_e, goal_p, won_r, eps, work)
    else:
        n = _rank_ends(p, nxt, goal_p, won_r, eps, stamp, tag, work, True)
    rank_of[p] = n  # worse than every other end: a multiset that only waits keeps rank n
    for m in range(b5.shape[0]):
        b5[m] = n
    remembered = known[2] >= 0
    if not remembered:
        for m in range(f5.shape[0]):
            f5[m] = False
    # The 2,401 four-card poses are a few hundred distinct ones: their seven ends' ranks (and
    # whether the end is ``p``, "wait") are looked up once each, in a sparse set (``slot`` of a
    # pose is valid only if ``owner`` agrees, so it needs no clearing), and every sequence reads
    # those local arrays. A sequence's index is its base-7 code, and its multiset does not depend
    # on the order of the digits.
    distinct = 0
    for i in range(s4.shape[0]):
        q = s4[i]
        d = slot[q]
        if d < 0 or d >= distinct or owner[d] != q:
            d = distinct
            slot[q] = d
            owner[d] = q
            for k in range(KINDS):
                e = nxt[k, q]
                ranks7[d * KINDS + k] = rank_of[e]
                waits7[d * KINDS + k] = e == p
            for w in range(MQ_WORDS):
                met[d * MQ_WORDS + w] = 0
            distinct += 1
        # Orders of the same four cards that reach the same pose add the same seven minima:
        # the multiset plus card 0 (``sequence_multiset[i * KINDS]``) names the four cards.
        m0 = sequence_multiset[i * KINDS]
        word = d * MQ_WORDS + (m0 >> 6)
        bit = np.uint64(1) << np.uint64(m0 & 63)
        if met[word] & bit:
            continue
        met[word] |= bit
        base = d * KINDS
        if remembered:
            for k in range(KINDS):
                m = sequence_multiset[i * KINDS + k]
                b5[m] = min(b5[m], ranks7[base + k])
        else:
            for k in range(KINDS):
                m = sequence_multiset[i * KINDS + k]
                b5[m] = min(b5[m], ranks7[base + k])
                f5[m] = f5[m] | waits7[base + k]
    _lift_ranks(lat, work)
    if remembered:
        return n
    # A hand can wait if one of its 5-card sub-multisets can: the or of those multisets' rows of
    # hand bits (``superset_bits``), a few dozen rows of 47 words, instead of lifting the flags
    # through the lattice beside the ranks (~a fifth of a first update). ``work[37]``: the bits.
    supersets, row = lat[5], work[37]
    for w in range(row.shape[0]):
        row[w] = np.uint64(0)
    for m in range(f5.shape[0]):
        if f5[m]:
            for w in range(row.shape[0]):
                row[w] |= supersets[m, w]
    return n


@numba.njit(cache=True)
def _lift_ranks(lat, work):  # type: ignore[no-untyped-def]
    """Lift the best ranks of ``b5`` through the 6- and 7-card multisets to the hands (``b8``)."""
    dense6, dense7, dense8 = lat[1:4]
    b5, b6, b7, b8 = work[5], work[7], work[9], work[11]
    _lift_best(dense6, b5, b6)
    _lift_best(dense7, b6, b7)
    _lift_best(dense8, b7, b8)


@numba.njit(cache=True)
def _group_hands(n, weights, work, row, g_code, g_w):  # type: ignore[no-untyped-def]
    """Sum the hand weights per (best end, can wait): the policy of a pose update, as a few groups.

    Hands whose best end is the same and that agree on "can wait" enter both fixed points alike, so
    the fixed points only need these groups. ``row``: the hands' "can wait" bits. A group's code
    is ``2 * end + can wait`` (-1: no choice but waiting). Groups come in rank order of their
    ends. Returns how many; ``acc_go`` and ``acc_wait`` keep the sums per rank.

    The bits are read word by word and index the sums (``2 * rank + bit``) instead of choosing
    between two sums, which a mix of waiting and moving hands made a mispredicted branch (about
    half of this function's time).
    """
    b8, sorted_e, acc_go, acc_wait, acc = work[11], work[17], work[18], work[19], work[38]
    for r in range(2 * n + 2):
        acc[r] = 0.0
    hands = b8.shape[0]
    for k in range(row.shape[0]):
        bits = row[k]
        base = k * 64
        for j in range(min(64, hands - base)):
            h = base + j
            acc[2 * b8[h] + ((bits >> np.uint64(j)) & np.uint64(1))] += weights[h]
    count = 0
    for r in range(n + 1):
        e = sorted_e[r] if r < n else -1
        go = acc[2 * r]
        wait = acc[2 * r + 1]
        acc_go[r] = go
        acc_wait[r] = wait
        if go > 0.0:
            g_code[count] = 2 * e
            g_w[count] = go
            count += 1
        if wait > 0.0:
            g_code[count] = 2 * e + 1
            g_w[count] = wait
            count += 1
    return count


@numba.njit(cache=True)
def _policy_holds(off, n, pool_e, goal_p, won_r, eps):  # type: ignore[no-untyped-def]
    """Would ranking a pose's ends again give every hand the same best end?

    ``pool_e[off:off + n]`` are the pose's ends in the order of its last full update, those that
    were some hand's best stored as ``-1 - state``. A hand whose best was the end at place ``r``
    reaches only ends at places ``>= r``, so its best stays the same as long as that end still
    beats every end after it (tier, then won rounds; an exact tie counts only between ends of
    equal goal probability, which no fixed point can tell apart). Ends that are nobody's best may
    reorder freely among themselves.
    """
    best_t = -1.0
    best_r = np.inf
    best_g = -1.0
    for i in range(n - 1, -1, -1):
        e = pool_e[off + i]
        chosen = e < 0
        if chosen:
            e = -1 - e
        g = goal_p[e]
        t = tier(g, eps)
        r = won_r[e]
        beats = t > best_t or (t == best_t and (r < best_r or (r == best_r and g == best_g)))
        if chosen and i < n - 1 and not beats:
            return False
        if t > best_t or (t == best_t and r < best_r):
            best_t = t
            best_r = r
            best_g = g
    return True


@numba.njit(cache=True)
def _solve_groups(x, y, count, g_code, g_w, goal_p, won_r, eps, gp, gr, versus):  # type: ignore[no-untyped-def]
    """The pose's new (goal probability, won rounds) given its policy groups and the others' values.

    Choices that end on the pose itself are solved exactly: the goal probability is the least fixed
    point of ``x = E[max(x, best other choice) if the hand can wait, else best other choice]``
    (Newton from below), then the won rounds ``R = x + E[R after the round]``, waiting where it
    keeps the goal probability's tier best. ``x``, ``y``: the pose's current values (start points).
    """
    for i in range(count):
        e = g_code[i] >> 1
        if e < 0:
            gp[i] = -1.0
            gr[i] = np.inf
        else:
            gp[i] = goal_p[e]
            gr[i] = won_r[e]
    x = min(max(x, 0.0), 1.0)
    for _ in range(60):
        g = -x
        slope = -1.0
        for i in range(count):
            if g_code[i] & 1:
                if gp[i] > x:
                    g += g_w[i] * gp[i]
                else:
                    g += g_w[i] * x
                    slope += g_w[i]
            else:
                g += g_w[i] * gp[i]
        if g <= 1e-13:
            break
        if slope >= -1e-15:
            break
        step = x - g / slope
        if step <= x + 1e-15:
            break
        x = min(step, 1.0)
    tier_x = tier(x, eps)
    # Per group that can wait: -1 if its best other choice is in a lower tier than x (it waits
    # whatever y is), 0 if in x's tier (it waits when that choice's rounds >= y), 1 otherwise.
    for i in range(count):
        versus[i] = 1
        if g_code[i] & 1:
            t = tier(gp[i], eps)
            versus[i] = -1 if t < tier_x else (0 if t == tier_x else 1)
    if not np.isfinite(y):
        y = 0.0
    for _ in range(60):
        stay = 0.0
        total = x
        for i in range(count):
            w = g_w[i]
            if versus[i] < 0 or (versus[i] == 0 and gr[i] >= y):
                stay += w
            else:
                total += w * gr[i]
        fresh = (0.0 if tier_x == 0 else y) if stay >= 1.0 - 1e-12 else total / (1.0 - stay)
        if abs(fresh - y) <= 1e-11 * max(1.0, abs(y)):
            y = fresh
            break
        y = fresh
    return x, y


@numba.njit(cache=True)
def _solve_remembered(p, memo, pool_gc, pool_gw, goal_p, won_r, eps, work):  # type: ignore[no-untyped-def]
    """``_solve_groups`` over the hand groups pose ``p`` remembers (``memo``, the group pools)."""
    off = memo[p, 3]
    count = memo[p, 4]
    return _solve_groups(
        goal_p[p],
        won_r[p],
        count,
        pool_gc[off : off + count],
        pool_gw[off : off + count],
        goal_p,
        won_r,
        eps,
        work[22],
        work[23],
        work[24],
    )


@numba.njit(cache=True, nogil=True)
def sweep(  # type: ignore[no-untyped-def]
    order,
    first,
    last,
    nxt,
    goal_p,
    won_r,
    lat,
    eps,
    work,
    stamp,
    tags,
    memo,
    pool_e,
    pool_gc,
    pool_gw,
    waits,
    tops,
    stats,
):
    """A Gauss-Seidel sweep over the poses of ``order[first:last]`` (values updated in place).

    Each pose's policy is remembered (``memo``, pools): its ends best first and its hands grouped
    by best end. While ``_policy_holds``, every hand's best end is the one a full update would find,
    so the update solves the fixed points over the remembered groups (a few microseconds) instead
    of playing the tree and the lattice again (~100): the same policy, so the same values (up to
    the order of summation). ``memo[p]``: ends offset, ends count, row in ``waits``, groups
    offset, groups count, groups room (-1: none). ``tops``: used length of the ends and groups
    pools, 1 once the pools may not grow (then poses without room are updated in full every
    time), and the rows of ``waits`` used. ``stats``:
    largest change of P and R, updates and full updates (accumulated). Returns the index of
    ``order`` where the pools ran out of room (the caller grows them or sets ``tops[2]`` and calls
    again from there), or ``last`` when done.
    """
    g_code, g_w, gp, gr, versus = work[20:25]
    for i in range(first, last):
        p = order[i]
        if memo[p, 3] >= 0 and _policy_holds(memo[p, 0], memo[p, 1], pool_e, goal_p, won_r, eps):
            x, y = _solve_remembered(p, memo, pool_gc, pool_gw, goal_p, won_r, eps, work)
        else:
            growing = tops[2] == 0
            if growing and (tops[0] + SEQUENCES > pool_e.shape[0] or tops[1] + 3 * SEQUENCES > pool_gc.shape[0]):
                return i
            tags[1] += 1
            known = (memo[p, 0], memo[p, 1], memo[p, 2])
            n = _best_per_hand(p, nxt, goal_p, won_r, lat, eps, work, stamp, tags[1], known, pool_e, waits)
            row = waits[known[2]] if known[2] >= 0 else work[37]
            count = _group_hands(n, lat[4], work, row, g_code, g_w)
            x, y = _solve_groups(goal_p[p], won_r[p], count, g_code, g_w, goal_p, won_r, eps, gp, gr, versus)
            stats[3] += 1
            if memo[p, 0] < 0 and growing:
                memo[p, 0] = tops[0]
                memo[p, 1] = n
                tops[0] += n
            if memo[p, 2] < 0 and memo[p, 0] >= 0 and tops[3] < waits.shape[0]:
                waits[tops[3]] = work[37]  # the fresh update's "can wait" bits
                memo[p, 2] = tops[3]
                tops[3] += 1
            if count > memo[p, 5] and memo[p, 0] >= 0:
                memo[p, 3] = memo[p, 5] = -1
                if growing:
                    memo[p, 3] = tops[1]
                    memo[p, 5] = count + count // 4 + 4
                    tops[1] += memo[p, 5]
            if memo[p, 3] >= 0:
                off = memo[p, 0]
                sorted_e, chosen_go, chosen_wait = work[17], work[18], work[19]
                for k in range(n):  # the ends, those that are some hand's best as -1 - state
                    e = sorted_e[k]
                    pool_e[off + k] = -1 - e if chosen_go[k] > 0.0 or chosen_wait[k] > 0.0 else e
                off = memo[p, 3]
                memo[p, 4] = count
                for k in range(count):
                    pool_gc[off + k] = g_code[k]
                    pool_gw[off + k] = g_w[k]
        stats[2] += 1
        stats[0] = max(stats[0], abs(x - goal_p[p]))
        stats[1] = max(stats[1], abs(y - won_r[p]))
        goal_p[p] = x
        won_r[p] = y
    return last


@numba.njit(cache=True, nogil=True)
def evaluate(order, goal_p, won_r, eps, work, memo, pool_gc, pool_gw):  # type: ignore[no-untyped-def]
    """One Gauss-Seidel sweep of policy evaluation over the poses of ``order`` (values in place).

    Each pose keeps the policy of its last full update (its remembered hand groups, waiting still
    solved exactly), so this is a few microseconds a pose: it carries values along the current
    policies many times for each time ``sweep`` looks for better ones (modified policy iteration).
    Goal probabilities stay lower bounds: a fixed policy's values never exceed the optimum's.
    Returns the largest changes of P and R.
    """
    change_p = 0.0
    change_r = 0.0
    for i in range(order.shape[0]):
        p = order[i]
        if memo[p, 3] < 0:
            continue
        x, y = _solve_remembered(p, memo, pool_gc, pool_gw, goal_p, won_r, eps, work)
        change_p = max(change_p, abs(x - goal_p[p]))
        change_r = max(change_r, abs(y - won_r[p]))
        goal_p[p] = x
        won_r[p] = y
    return change_p, change_r


@numba.njit(cache=True)
def compact_groups(memo, by_offset, pool_gc, pool_gw):  # type: ignore[no-untyped-def]
    """Move the live group segments down over the abandoned ones (``by_offset``: poses in offset
    order); each keeps just its size as room. Returns the new used length."""
    top = 0
    for i in range(by_offset.shape[0]):
        p = by_offset[i]
        off = memo[p, 3]
        count = memo[p, 4]
        for k in range(count):
            pool_gc[top + k] = pool_gc[off + k]
            pool_gw[top + k] = pool_gw[off + k]
        memo[p, 3] = top
        memo[p, 5] = count
        top += count
    return top


@cache
def kernel_lattice(lat: Lattice) -> tuple[npt.NDArray[np.generic], ...]:
    """The lattice as the kernel takes it: sequence -> 5-multiset, the child tables of the 6-, 7- and
    8-card levels (rows x columns, ``needed_children``; a row with fewer repeats its first child,
    which leaves the min alike), hand weights, ``superset_bits``. Small integer types keep it in
    the cache. Made once per process (~0.1 s; every solve asks for it): the kernels only read it."""
    dense = []
    for level, child in zip(lat.levels[1:], lat.children, strict=True):
        rows = [needed_children(held, child[row]) for row, held in enumerate(level)]
        width = max(len(row) for row in rows)
        table = np.array([row + [row[0]] * (width - len(row)) for row in rows], dtype=np.int16)
        dense.append(np.ascontiguousarray(table))
    return (lat.sequence_multiset.astype(np.int16), *dense, lat.weights, superset_bits(lat))


def superset_bits(lat: Lattice) -> npt.NDArray[np.uint64]:
    """Per 5-card multiset, the 8-card hands that hold it, as bits (hand h at bit h % 64 of word
    h // 64, as the remembered "can wait" rows)."""
    hands = np.array(lat.levels[-1], dtype=np.int64)
    fives = np.array(lat.levels[0], dtype=np.int64)
    holds = (hands[None, :, :] >= fives[:, None, :]).all(axis=2)  # 5-card multiset x hand
    words = -(-len(hands) // 64)
    padded = np.zeros((len(fives), words * 64), dtype=np.bool_)
    padded[:, : len(hands)] = holds
    packed = np.packbits(padded, axis=1, bitorder="little")  # hand h: bit h % 8 of byte h // 8
    return np.ascontiguousarray(packed.view("<u8").astype(np.uint64))


def needed_children(held: Counts, children: npt.NDArray[np.int64]) -> list[int]:
    """The sub-multisets one card smaller that the best (or "can wait") of ``held`` needs.

    What is lifted is a min (or an or) over the 5-card sub-multisets ``S`` of ``held``, and ``S``
    lies in ``held`` minus one card of kind ``k`` for every ``k`` of the ``len(held) - 5`` cards
    left out of ``S``. So the children of the kinds held least may be dropped as long as they hold
    at most ``len(held) - 6`` cards together: every ``S`` still leaves out a card of a kept kind.
    For 8 cards that drops two singles (or a pair), for 7 one single: 5 and 6 columns instead of 7,
    a fifth less of the lift, with bit-identical results.
    """
    spare = sum(held) - CHOSEN_PER_ROUND - 1
    kinds = sorted((n, k) for k, n in enumerate(held) if n)
    kept = []
    for n, k in kinds:
        if n <= spare:
            spare -= n
        else:
            kept.append(int(children[k]))
    return sorted(kept)


#: 64-bit words of a bit per five-card multiset (``_best_per_hand``'s four-card multisets).
MQ_WORDS = -(-math.comb(KINDS + CHOSEN_PER_ROUND - 1, CHOSEN_PER_ROUND) // 64)


def work_buffers(lat: Lattice, states: int) -> tuple[npt.NDArray[np.generic], ...]:
    """The kernel's scratch arrays (a tuple so numba sees fixed types)."""
    trees = tuple(np.empty(KINDS**d, dtype=np.int32) for d in range(1, CHOSEN_PER_ROUND + 1))
    per_level: list[npt.NDArray[np.generic]] = []
    for size, level in enumerate(lat.levels, start=CHOSEN_PER_ROUND):
        # Best ranks per multiset, and "can wait" flags for the 5-card ones (the hands' are bits,
        # ``work[37]``; the 6- and 7-card levels need none): empty where unused, same places.
        flags = len(level) if size == CHOSEN_PER_ROUND else 0
        per_level += [np.empty(len(level), dtype=np.int32), np.empty(flags, dtype=np.bool_)]
    ends = np.empty(min(states, SEQUENCES), dtype=np.int64)
    rank_of = np.empty(states, dtype=np.int32)
    sorted_values = (np.empty(len(ends), dtype=np.float64), np.empty(len(ends), dtype=np.float64))
    sorted_ends = np.empty(len(ends), dtype=np.int32)
    accumulators = (np.empty(len(ends) + 1, dtype=np.float64), np.empty(len(ends) + 1, dtype=np.float64))
    groups = 2 * len(ends) + 2
    group_buffers = (
        np.empty(groups, dtype=np.int32),  # 2 * end state + the hands of the group can wait
        np.empty(groups, dtype=np.float64),  # their total probability
        np.empty(groups, dtype=np.float64),  # scratch: goal probability of the end
        np.empty(groups, dtype=np.float64),  # scratch: won rounds of the end
        np.empty(groups, dtype=np.int8),  # scratch: the end's tier against the pose's
    )
    sorting = (
        np.empty(len(ends), dtype=np.float64),
        np.empty(len(ends), dtype=np.int64),
        np.empty(len(ends), dtype=np.int64),
    )
    seen = np.full(states, -1, dtype=np.int64)  # tag per pose four cards reach (``_rank_ends``)
    return (
        *trees,
        *per_level,
        ends,
        rank_of,
        *sorted_values,
        sorted_ends,
        *accumulators,
        *group_buffers,
        *sorting,
        seen,
        np.empty(len(ends), dtype=np.uint64),  # packed sort keys (``_sort_places``)
        np.empty(len(ends), dtype=np.uint64),
        np.empty((1 << _DIGIT_BITS) + 1, dtype=np.int64),  # radix digit counts
        np.zeros(states, dtype=np.int32),  # slot of a distinct four-card pose (``_best_per_hand``)
        np.empty(KINDS**4, dtype=np.int32),  # the pose in each slot
        np.empty(KINDS**4 * KINDS, dtype=np.int32),  # its seven ends' ranks
        np.empty(KINDS**4 * KINDS, dtype=np.bool_),  # and whether they are the pose itself
        np.empty(KINDS**4 * MQ_WORDS, dtype=np.uint64),  # per slot, the four-card multisets met
        np.empty(-(-len(lat.levels[-1]) // 64), dtype=np.uint64),  # a fresh update's "can wait" bits
        np.empty(2 * len(ends) + 2, dtype=np.float64),  # hand weights per (rank, can wait), ``_group_hands``
    )
