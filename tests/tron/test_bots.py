"""The built-in bots: the simple one's fixed habits, the strong one's space and territory reasoning."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

from engine.tron.arena import Arena, Heading, Start
from engine.tron.bots import make_chooser
from engine.tron.bots.client import View, run, view_of
from engine.tron.bots.simple import choose_simple
from engine.tron.bots.strong import StrongBot, _ring_connected, race, voronoi
from engine.tron.rules import State, Turn, game_points, initial_state, rounds_survived, step

Chooser = Callable[[View], str]


def _view(state: State, me: int) -> View:
    rows = [
        "".join("#" if state.blocked[y * state.arena.width + x] else "." for x in range(state.arena.width))
        for y in range(state.arena.height)
    ]
    heads = {p: (c.x, c.y, c.heading.name) for p, c in enumerate(state.cycles, 1) if c.alive}
    return view_of(rows, heads, me, state.round + 1)


def play_local(arena: Arena, choosers: list[Chooser]) -> State:
    """A whole game in this process (the server's rules, the bots' views rebuilt each round)."""
    state = initial_state(arena, arena.starts_for(len(choosers)))
    while not state.over:
        answers: dict[int, Turn | str] = {p: Turn(choosers[p - 1](_view(state, p))) for p in state.alive}
        state, _ = step(state, answers)
    return state


def test_simple_drives_ahead_then_left_then_right() -> None:
    assert choose_simple(view_of(["...", "...", "..."], {1: (2, 2, "EAST")}, 1)) == "AHEAD"
    assert choose_simple(view_of(["...", "..#", "..."], {1: (2, 2, "EAST")}, 1)) == "LEFT"
    assert choose_simple(view_of([".#.", "..#", "..."], {1: (2, 2, "EAST")}, 1)) == "RIGHT"
    assert choose_simple(view_of([".#.", "..#", ".#."], {1: (2, 2, "EAST")}, 1)) == "AHEAD"


def test_client_speaks_the_protocol() -> None:
    talk = "GAMEBOARDSTART 3,1\n...\nGAMEBOARDEND\nSET 1\nPOS 1 1,1 EAST\nROUND 1\nPOS 1 2,1 EAST\nROUND 2\nEND\n"
    out = io.StringIO()
    assert run(lambda: make_chooser("simple"), io.StringIO(talk), out) == 0
    assert out.getvalue() == "AHEAD\nAHEAD\n"


def test_ring_test_finds_articulation_points() -> None:
    view = view_of([".#.", "...", ".#."], {}, 1)
    assert not _ring_connected(view.free, view.stride, view.cell(2, 2))  # blocking the centre splits left/right
    view = view_of(["...", "...", "..."], {}, 1)
    assert _ring_connected(view.free, view.stride, view.cell(2, 2))


def test_race_measures_pieces_and_stops_at_the_biggest() -> None:
    view = view_of(["..#.....", "..#.....", "..#....."], {}, 1)
    left, right = view.cell(1, 1), view.cell(4, 1)
    (root_l, size_l, exact_l), (root_r, size_r, _) = race(view.free, view.offsets, [left, right])
    assert (size_l, exact_l) == (6, True)
    assert root_l != root_r and size_r > 6
    joined = race(view.free, view.offsets, [view.cell(1, 1), view.cell(2, 3)])
    assert joined[0][0] == joined[1][0]


def test_voronoi_counts_territory() -> None:
    view = view_of(["....."], {1: (1, 1, "EAST"), 2: (5, 1, "WEST")}, 1)
    a, b = view.heads[1][0], view.heads[2][0]
    assert voronoi(view.free, view.offsets, a, b) == 0  # 2,1 mine, 4,1 theirs, 3,1 a tie
    view = view_of(["......"], {1: (1, 1, "EAST"), 2: (6, 1, "WEST")}, 1)
    assert voronoi(view.free, view.offsets, view.cell(2, 1), view.heads[2][0]) == 0


@pytest.mark.parametrize("rows", [["......"] * 6, ["#....#", "......", "..##..", "......", "#....."], ["." * 12] * 3])
def test_strong_fills_a_region_alone(rows: list[str]) -> None:
    arena = Arena.from_rows(rows, (Start(2, 2, Heading.EAST),))
    state = play_local(arena, [StrongBot(budget=5.0)])
    free = sum(1 for row in rows for c in row if c == ".")
    assert rounds_survived(state.cycles[0], state.round) >= free - 3


def test_strong_does_not_drive_into_a_sealed_pocket() -> None:
    # bot 1 at the mouth of a dead end (up) with the open board to the right; bot 2 far away
    rows = ["#.#......", "#.#......", "#.#......", "#........", "#########"]
    view = view_of(rows, {1: (2, 4, "NORTH"), 2: (9, 1, "WEST")}, 1)
    assert StrongBot(budget=5.0, max_depth=2)(view) == "RIGHT"


def test_strong_takes_the_win_when_the_opponent_is_trapped() -> None:
    rows = ["........", "........", "........"]
    view = view_of(rows, {1: (3, 2, "EAST"), 2: (5, 2, "WEST")}, 1)
    assert StrongBot(budget=5.0, max_depth=3)(view) in ("AHEAD", "LEFT", "RIGHT")


@pytest.mark.parametrize("size", [(8, 8), (12, 9), (15, 15)])
def test_strong_beats_simple_from_both_starts(size: tuple[int, int]) -> None:
    width, height = size
    arena = Arena.from_rows(["." * width] * height)
    for strong_first in (True, False):
        strong = StrongBot(budget=5.0, max_depth=2)
        bots: list[Chooser] = [strong, choose_simple] if strong_first else [choose_simple, strong]
        points = game_points(play_local(arena, bots))
        assert points[0 if strong_first else 1] == 3
