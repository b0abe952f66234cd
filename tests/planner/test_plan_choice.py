"""``plan_choice.best`` (the warm round's decision) is always ``rank``'s first choice.

``best`` is a separate loop written for speed, so it is checked against the sorted ranking on
random tables whose values tie often (few distinct goal tiers, rounds and survival values), where
only the later keys and finally the card order decide.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import plan_choice

KINDS = plan_choice.KINDS


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[int], list[float], list[float], list[float], int, int, list[int]]:
    poses = draw(st.integers(1, 12))
    states = poses + 2  # then dead, then goal
    dead, goal_state = poses, poses + 1
    nxt = [0] * (KINDS * states)
    for card in range(KINDS):
        for state in range(states):
            target = state if state >= poses else draw(st.integers(0, states - 1))
            nxt[card * states + state] = target
    tiers = st.sampled_from([0.0, 0.25, 0.5, 0.5 + 4e-7, 1.0])
    goal = [draw(tiers) for _ in range(poses)] + [0.0, 1.0]
    won = [draw(st.sampled_from([0.0, 1.0, 2.5, 7.0])) for _ in range(poses)] + [0.0, 0.0]
    alive = [draw(st.sampled_from([0.0, 0.5, 1.0])) for _ in range(poses)] + [0.0, 1.0]
    assert dead == states - 2 and goal_state == states - 1
    state = draw(st.integers(0, poses - 1))
    hand = draw(st.lists(st.integers(0, KINDS - 1), min_size=8, max_size=8))
    return nxt, goal, won, alive, states, state, hand


@settings(max_examples=400, deadline=None)
@given(tables())
def test_best_is_the_first_of_the_ranking(
    case: tuple[list[int], list[float], list[float], list[float], int, int, list[int]],
) -> None:
    nxt, goal, won, alive, states, state, hand = case
    ranked = plan_choice.rank(nxt, goal, won, alive, states, state, hand)
    assert plan_choice.best(nxt, goal, won, alive, states, state, hand) == ranked[0][0]


def test_the_card_order_breaks_exact_ties() -> None:
    """A board where every choice ends alike: the first choice in card-kind order wins."""
    states = 3  # one pose, dead, goal; every card keeps the robot where it is
    nxt = [0, 1, 2] * KINDS
    hand = [6, 5, 4, 3, 2, 1, 0, 0]
    assert plan_choice.best(nxt, [0.5, 0.0, 1.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0], states, 0, hand) == (0, 0, 1, 2, 3)


def test_a_goal_reached_sooner_wins_among_equal_ends() -> None:
    """Cards 0 reach the goal at once, card 1 only after a step: among choices that all end on the
    goal, the one that gets there with its first card is best."""
    states = 4  # poses 0 and 1, dead 2, goal 3
    nxt = [3, 3, 2, 3] * KINDS
    for state, target in ((0, 1), (1, 3)):
        nxt[1 * states + state] = target
    hand = [1, 1, 1, 1, 1, 0, 6, 6]
    choice = plan_choice.best(nxt, [0.0, 0.0, 0.0, 1.0], [0.0] * 4, [1.0, 1.0, 0.0, 1.0], states, 0, hand)
    assert choice[0] == 0
    assert choice == plan_choice.rank(nxt, [0.0, 0.0, 0.0, 1.0], [0.0] * 4, [1.0, 1.0, 0.0, 1.0], states, 0, hand)[0][0]
