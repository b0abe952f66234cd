"""The kernel's trimmed lattice lift and its "can wait" bits against the definition: a min (and
an or) over 5-card subsets.

``plan_kernel.kernel_lattice`` keeps, per multiset of 6, 7 and 8 cards, only the sub-multisets one
card smaller that ``needed_children`` says are enough (5 or 6 instead of up to 7), and per 5-card
multiset the bits of the hands that hold it (``superset_bits``). These tests lift random ranks
through those tables, or together the rows of random "can wait" flags, and compare every hand with
the best over all of its 5-card sub-multisets, enumerated directly.
"""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from engine.ai import plan_kernel, plan_value


def _sub_multisets(held: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    return [sub for sub in product(*(range(n + 1) for n in held)) if sum(sub) == size]


def test_trimmed_tables_are_narrower_than_the_kinds() -> None:
    tables = plan_kernel.kernel_lattice(plan_kernel.lattice())[1:4]
    assert [table.shape[1] for table in tables] == [6, 6, 5]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lift_is_the_min_and_or_over_all_five_card_subsets(seed: int) -> None:
    lat = plan_kernel.lattice()
    dense6, dense7, dense8 = plan_kernel.kernel_lattice(lat)[1:4]
    rng = np.random.default_rng(seed)
    size5 = len(lat.levels[0])
    # Few distinct ranks and sparse flags, so ties and lone flags both occur.
    b5 = rng.integers(0, 40 if seed != 3 else size5, size5).astype(np.int32)
    f5 = rng.random(size5) < 0.02
    b6, b7, b8 = (np.empty(len(level), np.int32) for level in lat.levels[1:])
    plan_kernel._lift_best(dense6, b5, b6)
    plan_kernel._lift_best(dense7, b6, b7)
    plan_kernel._lift_best(dense8, b7, b8)
    supersets = plan_kernel.kernel_lattice(lat)[5]
    row = np.bitwise_or.reduce(supersets[f5], axis=0) if f5.any() else np.zeros(supersets.shape[1], np.uint64)
    index5 = {counts: i for i, counts in enumerate(lat.levels[0])}
    for h, held in enumerate(lat.levels[-1]):
        subs = [index5[sub] for sub in _sub_multisets(held, 5)]
        assert b8[h] == b5[subs].min()
        assert bool((int(row[h >> 6]) >> (h & 63)) & 1) == f5[subs].any()


def test_superset_bits_name_exactly_the_hands_holding_each_multiset() -> None:
    lat = plan_kernel.lattice()
    bits = plan_kernel.kernel_lattice(lat)[5]
    hands = np.array(lat.levels[-1])
    for m, held in enumerate(lat.levels[0]):
        marked = {h for h in range(len(hands)) if (int(bits[m, h >> 6]) >> (h & 63)) & 1}
        assert marked == {h for h in range(len(hands)) if (hands[h] >= np.array(held)).all()}
    assert bits.shape == (len(lat.levels[0]), plan_value.WAIT_WORDS)


def test_needed_children_leave_out_at_most_the_spare_cards() -> None:
    lat = plan_kernel.lattice()
    for level, child in zip(lat.levels[1:], lat.children, strict=True):
        for row, held in enumerate(level):
            kept = plan_kernel.needed_children(held, child[row])
            kept_kinds = {k for k in range(len(held)) if held[k] and int(child[row, k]) in kept}
            left_out = sum(n for k, n in enumerate(held) if k not in kept_kinds)
            assert left_out <= sum(held) - 6
