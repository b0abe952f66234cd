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
    """The best ordered 5 cards (card indices) of ``hand`` for a robot in ``state``: ``rank``'s first.

    The warm round's decision, so it does no more than it must (~1.5 ms instead of ~8 for
    ``rank``): five plain loops instead of a recursion, each end state's key computed once, and
    one pass that keeps the least key instead of a sort. Choices are met in card-kind order, so
    keeping the first of equal keys is ``rank``'s last tie-break (tests check both agree).
    """
    counts = [0] * KINDS
    for card in hand:
        counts[card] += 1
    kinds = [card for card in range(KINDS) if counts[card]]
    goal_state = states - 1
    dead = states - 2
    keys: dict[int, tuple[int, float, float, bool]] = {}
    least: tuple[tuple[int, float, float, bool], int] | None = None
    chosen: tuple[int, ...] = ()
    for c1 in kinds:
        counts[c1] -= 1
        s1 = nxt[c1 * states + state]
        a1 = 1 if s1 == goal_state else 6
        for c2 in kinds:
            if not counts[c2]:
                continue
            counts[c2] -= 1
            s2 = nxt[c2 * states + s1]
            a2 = 2 if a1 == 6 and s2 == goal_state else a1
            for c3 in kinds:
                if not counts[c3]:
                    continue
                counts[c3] -= 1
                s3 = nxt[c3 * states + s2]
                a3 = 3 if a2 == 6 and s3 == goal_state else a2
                for c4 in kinds:
                    if not counts[c4]:
                        continue
                    counts[c4] -= 1
                    s4 = nxt[c4 * states + s3]
                    a4 = 4 if a3 == 6 and s4 == goal_state else a3
                    for c5 in kinds:
                        if not counts[c5]:
                            continue
                        s5 = nxt[c5 * states + s4]
                        a5 = 5 if a4 == 6 and s5 == goal_state else a4
                        key = keys.get(s5)
                        if key is None:
                            key = (-goal_tier(goal[s5]), won[s5], -alive[s5], s5 == dead)
                            keys[s5] = key
                        if least is None or (key, a5) < least:
                            least = (key, a5)
                            chosen = (c1, c2, c3, c4, c5)
                    counts[c4] += 1
                counts[c3] += 1
            counts[c2] += 1
        counts[c1] += 1
    if least is None:
        raise ValueError(f"a hand of {len(hand)} cards has no choice of {CHOSEN_PER_ROUND}")
    return chosen
