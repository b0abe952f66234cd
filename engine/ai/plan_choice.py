"""Ranking the ordered 5-card choices of a hand by the no-foresight values, in pure Python.

This is the warm path of ``robots-ai``: a process that only reads a cached plan and decides
should not pay for importing numpy (more than the whole decision). ``planner.rank_choices`` is
the vectorised twin used inside long-running processes; tests check that both give the same order.

The order of choices (best first), with ``e`` the state after the five cards:

1. goal probability ``goal[e]`` in whole units of ``EPS`` (rounded: the same tiers as the value
   iteration), then the won-rounds value ``won[e]`` (a goal reached this round has ``goal 1, won 0``);
2. then the probability of surviving four more rounds (only where no goal can be reached: there
   every goal probability is 0), then not destroyed, then fewer cards to the goal, then the card
   sequence itself (card-kind order), so decisions are deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Same as ``plan_value.EPS`` (kept here so this module imports nothing heavy; a test checks it).
EPS = 1e-6
KINDS = 7
#: Same as ``engine.cards.CHOSEN_PER_ROUND`` (importing engine.cards loads the model; a test checks it).
CHOSEN_PER_ROUND = 5

Key = tuple[int, float, float, bool, int, tuple[int, ...]]


def goal_tier(goal: float) -> int:
    """A goal probability in whole units of ``EPS`` (rounded): choices of one tier count as equally
    likely to reach the goal (``plan_kernel.tier`` is the compiled twin, ``planner`` the vectorised)."""
    return math.floor(goal / EPS + 0.5)


def _play_all(
    nxt: Sequence[int] | None, states: int, state: int, hand: Sequence[int]
) -> list[tuple[tuple[int, ...], int, int]]:
    """(sequence, end state, cards to the goal or 6) of every distinct choice, prefixes shared."""
    counts = [0] * KINDS
    for card in hand:
        counts[card] += 1
    goal_state = states - 1
    result: list[tuple[tuple[int, ...], int, int]] = []
    prefix: list[int] = []

    def extend(s: int, after: int) -> None:
        if len(prefix) == CHOSEN_PER_ROUND:
            result.append((tuple(prefix), s, after))
            return
        for card in range(KINDS):
            if counts[card]:
                counts[card] -= 1
                prefix.append(card)
                t = nxt[card * states + s] if nxt is not None else s
                extend(t, len(prefix) if t == goal_state and after > CHOSEN_PER_ROUND else after)
                prefix.pop()
                counts[card] += 1

    extend(state, CHOSEN_PER_ROUND + 1)
    return result


def rank(
    nxt: Sequence[int],
    goal: Sequence[float],
    won: Sequence[float],
    alive: Sequence[float],
    states: int,
    state: int,
    hand: Sequence[int],
) -> list[tuple[tuple[int, ...], Key]]:
    """All distinct choices with their sort keys, best first. ``nxt[card * states + state]``."""
    dead = states - 2
    keyed: list[tuple[tuple[int, ...], Key]] = []
    for sequence, s, after in _play_all(nxt, states, state, hand):
        keyed.append((sequence, (-goal_tier(goal[s]), won[s], -alive[s], s == dead, after, sequence)))
    keyed.sort(key=lambda item: item[1])
    return keyed


def best(
    nxt: Sequence[int],
    goal: Sequence[float],
    won: Sequence[float],
    alive: Sequence[float],
    states: int,
    state: int,
    hand: Sequence[int],
) -> tuple[int, ...]:
    """The best ordered 5 cards (card indices) of ``hand`` for a robot in ``state``."""
    return rank(nxt, goal, won, alive, states, state, hand)[0][0]
