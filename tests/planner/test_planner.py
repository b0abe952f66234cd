"""The planner: valid, safe, deterministic, and it wins games."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai.plan_table import CARD_INDEX, build_table
from engine.ai.planner import Planner, distinct_orders
from engine.cards import Card
from engine.deck import generate_deck
from engine.game import Outcome, play_game, play_round, round_outcome
from engine.model import Board, Direction, Level, Pose
from tests.planner.boards import CORRIDOR, UNREACHABLE, chop, random_board

CARD_LIST = list(Card)
hands = st.lists(st.sampled_from(CARD_LIST), min_size=8, max_size=8).map(tuple)


def survives(board: Board, level: Level, pose: Pose, hand: tuple[Card, ...], chosen: tuple[Card, ...]) -> bool:
    record = play_round(board, level, pose, 1, hand, chosen)
    return round_outcome(record) is not Outcome.DESTROYED


def any_safe_choice(board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> bool:
    table = build_table(board, level)
    for order in set(permutations([CARD_INDEX[c] for c in hand], 5)):
        s = table.state_of(pose)
        for c in order:
            s = int(table.next[c, s])
        if s != table.dead:
            return True
    return False


def test_distinct_orders_removes_duplicates() -> None:
    one_pair = [0, 1, 2, 3, 4, 5, 6, 0]
    orders = distinct_orders(one_pair)
    assert len(orders) == len(set(permutations(one_pair, 5))) < 6720
    assert len({tuple(row) for row in orders}) == len(orders)
    assert len(distinct_orders([2] * 8)) == 1


@settings(max_examples=60, deadline=None)
@given(
    hand=hands,
    seed=st.integers(0, 3),
    x=st.integers(0, 4),
    y=st.integers(0, 3),
    facing=st.sampled_from(list(Direction)),
)
def test_choice_is_five_cards_of_the_hand(
    planner: Planner, hand: tuple[Card, ...], seed: int, x: int, y: int, facing: Direction
) -> None:
    board = random_board(seed)
    chosen = planner(board, Level.HARD, Pose(x, y, facing), hand)
    assert len(chosen) == 5
    assert not Counter(chosen) - Counter(hand)


def test_never_destroyed_when_a_safe_choice_exists(planner: Planner) -> None:
    rng = random.Random(7)
    checked = dangerous = 0
    for case in range(150):
        board = random_board(case % 8)
        level = [Level.NORMAL, Level.HARD][case % 2]
        pose = Pose(rng.randrange(board.width), rng.randrange(board.height), rng.choice(list(Direction)))
        if (pose.x, pose.y) in board.goals:
            continue
        hand = tuple(rng.choice(CARD_LIST) for _ in range(8))
        if not any_safe_choice(board, level, pose, hand):
            continue
        chosen = tuple(planner(board, level, pose, hand))
        assert survives(board, level, pose, hand, chosen), (case, pose, hand, chosen)
        checked += 1
        first_five = hand[:5]
        dangerous += not survives(board, level, pose, hand, first_five)
    assert checked > 50 and dangerous > 5  # the cases do include hands where the first five would kill


def test_corridor_hand_where_only_turning_first_is_safe(planner: Planner) -> None:
    # Facing right towards a hole two tiles away, with only forward moves and one right turn.
    hand = (Card.MF3, Card.MF2, Card.MF2, Card.MF3, Card.MF1, Card.RR, Card.MF3, Card.MF2)
    chosen = tuple(planner(CORRIDOR, Level.NORMAL, CORRIDOR.start, hand))
    assert chosen[0] is Card.RR or (chosen[0] is Card.MF1 and chosen[1] is Card.RR)
    assert survives(CORRIDOR, Level.NORMAL, CORRIDOR.start, hand, chosen)


def test_deterministic_for_a_seed() -> None:
    board = chop()
    first = Planner(seed=3)
    second = Planner(seed=3)
    deck = generate_deck(11)
    a = play_game(board, Level.HARD, deck, first)
    b = play_game(board, Level.HARD, deck, second)
    assert [r.chosen for r in a.rounds] == [r.chosen for r in b.rounds]


def test_reaches_the_goal_on_chop_normal(planner: Planner) -> None:
    board = chop()
    outcomes = [play_game(board, Level.NORMAL, generate_deck(seed), planner) for seed in range(8)]
    assert all(game.outcome is Outcome.FINISHED for game in outcomes)
    assert max(len(game.rounds) for game in outcomes) <= 8


def test_unreachable_goal_still_survives(planner: Planner) -> None:
    game = play_game(UNREACHABLE, Level.HARD, generate_deck(5)[:400], planner)
    assert game.outcome is Outcome.CARDS_OUT


@pytest.mark.parametrize("level", list(Level))
def test_planner_name_and_every_level(planner: Planner, level: Level) -> None:
    assert Planner.name == "planner"
    chosen = planner(CORRIDOR, level, CORRIDOR.start, tuple(generate_deck(1)[:8]))
    assert len(chosen) == 5


def test_where_no_goal_can_be_reached_it_survives_the_whole_deck(planner: Planner) -> None:
    from engine.boardfile import load_board
    from tests.planner.boards import ROOT

    board = load_board(ROOT / "gameboards" / "no-way-to-goal.dat")  # every pose hopeless, deadly edges
    for seed in range(3):
        game = play_game(board, Level.HARD, generate_deck(seed), planner)
        assert game.outcome is Outcome.CARDS_OUT and len(game.rounds) == 700
