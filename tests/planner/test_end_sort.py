"""The kernel's sort of a pose's ends against Python's stable sort of (tier, won rounds, place).

``plan_kernel._sort_places`` radix-sorts a packed key that only approximates the exact order
(clamped tiers, the top bits of the rounds) and repairs the ties with an insertion pass; the
values of value iteration stay bit-identical only if the result is exactly the stable sort.
Hypothesis draws keys that tie exactly, differ in the last bit, are -0.0, inf, negative, NaN
(merge sort fallback) or far outside the tier range.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import plan_kernel

_TIERS = st.sampled_from([0.0, -1.0, -2.0, -999_999.0, -1_000_000.0, -5_000_000.0, 3.0])
_ROUNDS = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, math.nextafter(1.0, 2.0), 7.25, 7.25 + 1e-12, math.inf, 700.0]),
    st.floats(min_value=-5.0, max_value=800.0, allow_nan=False),
)


def _kernel_order(tiers: list[float], rounds: list[float]) -> list[int]:
    n = len(tiers)
    size = max(n, 1)
    key_t = np.array([*tiers, 0.0], dtype=np.float64)[:size]
    key_r = np.array([*rounds, 0.0], dtype=np.float64)[:size]
    buffers = (
        np.empty(size, np.int64),
        np.empty(size, np.int64),
        np.empty(size, np.uint64),
        np.empty(size, np.uint64),
        np.empty((1 << plan_kernel._DIGIT_BITS) + 1, np.int64),
    )
    return [int(i) for i in plan_kernel._sort_places(n, key_t, key_r, *buffers)[:n]]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_TIERS, _ROUNDS), max_size=60))
def test_the_radix_sort_is_exactly_the_stable_sort(keys: list[tuple[float, float]]) -> None:
    tiers = [t for t, _ in keys]
    rounds = [r for _, r in keys]
    expected = sorted(range(len(keys)), key=lambda i: keys[i])
    assert _kernel_order(tiers, rounds) == expected


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, -3.0]), st.integers(0, 5).map(float)), min_size=400, max_size=420))
def test_many_exact_ties_keep_their_places(keys: list[tuple[float, float]]) -> None:
    expected = sorted(range(len(keys)), key=lambda i: keys[i])
    assert _kernel_order([t for t, _ in keys], [r for _, r in keys]) == expected


def test_keys_with_nan_fall_back_to_the_merge_sort() -> None:
    tiers = [0.0, -1.0, 0.0, -1.0]
    rounds = [2.0, math.nan, 1.0, 0.5]
    key_t = np.array(tiers)
    key_r = np.array(rounds)
    merge = plan_kernel._merge_places(4, key_t, key_r, np.arange(4, dtype=np.int64), np.empty(4, np.int64))
    assert _kernel_order(tiers, rounds) == [int(i) for i in merge]
