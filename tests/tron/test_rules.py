"""The rules of a round, one table row per rule of the contest text and of the project's rules page."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tron.arena import Arena, Heading, Start
from engine.tron.rules import (
    Moved,
    Out,
    OutReason,
    State,
    Turn,
    game_points,
    initial_state,
    pair_points,
    rounds_survived,
    step,
)

E, W, N, S = Heading.EAST, Heading.WEST, Heading.NORTH, Heading.SOUTH
L, R, A = Turn.LEFT, Turn.RIGHT, Turn.AHEAD


@dataclass
class Case:
    """Arena rows, starts (x, y, heading), answers per round; expected outs per round and final heads."""

    rule: str
    rows: list[str]
    starts: list[tuple[int, int, Heading]]
    rounds: list[list[Turn | str]]
    outs: list[dict[int, OutReason]]
    heads: dict[int, tuple[int, int, Heading]] = field(default_factory=dict)


CASES = [
    Case("AHEAD keeps the heading and moves one field", ["....."], [(1, 1, E)], [[A]], [{}], {1: (2, 1, E)}),
    Case("turn first, then move: LEFT from EAST goes north", ["...", "..."], [(1, 2, E)], [[L]], [{}], {1: (1, 1, N)}),
    Case("RIGHT from EAST goes south", ["...", "..."], [(1, 1, E)], [[R]], [{}], {1: (1, 2, S)}),
    Case("LEFT from NORTH goes west", ["...", "..."], [(2, 2, N)], [[L]], [{}], {1: (1, 2, W)}),
    Case(
        "driving off the board's edge puts a bot out",
        ["..."],
        [(3, 1, E)],
        [[A]],
        [{1: OutReason.EDGE}],
        {1: (3, 1, E)},
    ),
    Case("off the top edge after a turn", ["..."], [(2, 1, E)], [[L]], [{1: OutReason.EDGE}], {1: (2, 1, N)}),
    Case("driving into a wall '#' puts a bot out", [".#."], [(1, 1, E)], [[A]], [{1: OutReason.WALL}]),
    Case(
        "the field a bot leaves stays blocked, for itself too (a 2x2 loop)",
        ["..", ".."],
        [(1, 1, E)],
        [[A], [R], [R], [R]],
        [{}, {}, {}, {1: OutReason.TRAIL}],
    ),
    Case(
        "the field a bot leaves stays blocked for others",
        ["...", "...", "..."],
        [(1, 1, E), (3, 3, N)],
        [[A, A], [R, A], [R, L]],
        [{}, {}, {2: OutReason.TRAIL}],
        {1: (1, 2, W)},
    ),
    Case(
        "two bots onto one field: both out in the same round",
        ["..."],
        [(1, 1, E), (3, 1, W)],
        [[A, A]],
        [{1: OutReason.COLLISION, 2: OutReason.COLLISION}],
    ),
    Case(
        "head-on swap: both out",
        [".."],
        [(1, 1, E), (2, 1, W)],
        [[A, A]],
        [{1: OutReason.TRAIL, 2: OutReason.TRAIL}],
    ),
    Case(
        "following into the field being left this round: out",
        ["...."],
        [(1, 1, E), (2, 1, E)],
        [[A, A]],
        [{1: OutReason.TRAIL}],
        {2: (3, 1, E)},
    ),
    Case(
        "a start field is occupied from the start",
        ["...", "..."],
        [(1, 1, E), (1, 2, N)],
        [[A, A]],
        [{2: OutReason.TRAIL}],
        {1: (2, 1, E)},
    ),
    Case(
        "after one bot is out the other plays on alone",
        ["....", "...."],
        [(1, 1, W), (2, 2, E)],
        [[A, A], ["—", A]],
        [{1: OutReason.EDGE}, {}],
        {2: (4, 2, E)},
    ),
    Case(
        "an invalid, late or missing answer: out without moving",
        ["...."],
        [(2, 1, E)],
        [["answered 'UP'"]],
        [{1: OutReason.ANSWER}],
        {1: (2, 1, E)},
    ),
    Case(
        "three bots: any number can play, collisions of two leave the third",
        [".....", ".....", "....."],
        [(2, 2, E), (3, 1, S), (5, 3, W)],
        [[A, A, R]],
        [{1: OutReason.COLLISION, 2: OutReason.COLLISION}],
        {3: (5, 2, N)},
    ),
    Case(
        "three bots onto one field: all out",
        ["...", "...", "..."],
        [(1, 2, E), (2, 1, S), (3, 2, W)],
        [[A, A, A]],
        [{1: OutReason.COLLISION, 2: OutReason.COLLISION, 3: OutReason.COLLISION}],
    ),
]


def _play(case: Case) -> tuple[State, list[list[Out]]]:
    arena = Arena.from_rows(case.rows)
    state = initial_state(arena, tuple(Start(x, y, h) for x, y, h in case.starts))
    outs = []
    for answers in case.rounds:
        given = {p: answers[p - 1] for p in state.alive}
        state, events = step(state, given)
        outs.append([e for e in events if isinstance(e, Out)])
    return state, outs


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.rule)
def test_rule(case: Case) -> None:
    state, outs = _play(case)
    assert [{o.bot: o.reason for o in round_outs} for round_outs in outs] == case.outs
    for bot, (x, y, heading) in case.heads.items():
        cycle = state.cycles[bot - 1]
        assert (cycle.x, cycle.y, cycle.heading) == (x, y, heading)


def test_collision_field_becomes_blocked_and_out_fields_stay_blocked() -> None:
    arena = Arena.from_rows([".....", "....."])
    state = initial_state(arena, (Start(1, 1, E), Start(3, 1, W), Start(5, 2, W)))
    state, _ = step(state, {1: A, 2: A, 3: A})
    assert state.is_blocked(2, 1)  # the collision field
    assert state.is_blocked(1, 1) and state.is_blocked(3, 1)  # the out bots' last fields
    assert state.alive == [3]


def test_a_failed_answer_leaves_the_field_to_be_driven_into() -> None:
    arena = Arena.from_rows(["...."])
    state = initial_state(arena, (Start(1, 1, E), Start(3, 1, W)))
    state, events = step(state, {1: A, 2: "no answer"})
    # bot 2 does not move: its field stays blocked, and bot 1 (now on 2,1) drives into it next round
    assert [type(e) for e in events] == [Moved, Out]
    state, events = step(state, {1: A})
    assert isinstance(events[0], Out) and events[0].reason is OutReason.TRAIL


def test_moved_events_name_start_end_and_heading() -> None:
    arena = Arena.from_rows(["...", "..."])
    state = initial_state(arena, (Start(1, 2, E),))
    _, events = step(state, {1: L})
    assert events == [Moved(1, (1, 2), (1, 1), N)]


def test_step_refuses_answers_for_the_wrong_bots_and_finished_games() -> None:
    arena = Arena.from_rows([".."])
    state = initial_state(arena, (Start(1, 1, W),))
    with pytest.raises(ValueError, match="answers for bots"):
        step(state, {2: A})
    state, _ = step(state, {1: A})
    with pytest.raises(ValueError, match="over"):
        step(state, {})


def test_starts_on_blocked_or_shared_fields_are_refused() -> None:
    arena = Arena.from_rows([".#"])
    with pytest.raises(ValueError):
        initial_state(arena, (Start(2, 1, E),))
    with pytest.raises(ValueError):
        initial_state(arena, (Start(1, 1, E), Start(1, 1, W)))


@pytest.mark.parametrize(("mine", "theirs", "points"), [(10, 3, 3), (3, 10, 0), (5, 5, 1), (0, 0, 1)])
def test_three_point_rule(mine: int, theirs: int, points: int) -> None:
    assert pair_points(mine, theirs) == points


def test_points_and_rounds_survived_of_a_game() -> None:
    arena = Arena.from_rows(["......"])
    state = initial_state(arena, (Start(2, 1, W), Start(5, 1, E), Start(3, 1, E)))
    state, _ = step(state, {1: A, 2: A, 3: L})  # bot 3 out in round 1 (edge); 1 and 2 move
    state, _ = step(state, {1: A, 2: A})  # both out in round 2 (edge)
    assert [rounds_survived(c, state.round) for c in state.cycles] == [1, 1, 0]
    assert game_points(state) == [3 + 1, 3 + 1, 0]


@st.composite
def games(draw: st.DrawFn) -> tuple[Arena, tuple[Start, ...], list[list[Turn]]]:
    width, height = draw(st.integers(2, 9)), draw(st.integers(2, 9))
    rows = ["".join(draw(st.sampled_from(".....#")) for _ in range(width)) for _ in range(height)]
    arena = Arena.from_rows(rows)
    free = [(x, y) for y in range(1, height + 1) for x in range(1, width + 1) if not arena.is_blocked(x, y)]
    count = draw(st.integers(1, min(4, len(free)))) if free else 0
    cells = draw(st.permutations(free))[:count] if free else []
    starts = tuple(Start(x, y, draw(st.sampled_from(list(Heading)))) for x, y in cells)
    turns = draw(st.lists(st.lists(st.sampled_from(list(Turn)), min_size=4, max_size=4), max_size=90))
    return arena, starts, turns


@settings(max_examples=150, deadline=None)
@given(games())
def test_invariants(game: tuple[Arena, tuple[Start, ...], list[list[Turn]]]) -> None:
    """Cells never unblock, a live bot never stands on a field that was blocked, games end within n*m rounds."""
    arena, starts, turns = game
    if not starts:
        return
    state = initial_state(arena, starts)
    for answers in turns:
        if state.over:
            break
        before = state
        state, events = step(state, {p: answers[p - 1] for p in state.alive})
        assert all(b >= a for a, b in zip(before.blocked, state.blocked, strict=True))
        for event in events:
            if isinstance(event, Moved):
                x, y = event.end
                assert not before.is_blocked(x, y)
                assert state.is_blocked(x, y)
        for cycle in state.cycles:
            assert state.is_blocked(cycle.x, cycle.y)
        assert state.round <= arena.width * arena.height
        assert sum(state.blocked) >= sum(before.blocked) + len([e for e in events if isinstance(e, Moved)])
