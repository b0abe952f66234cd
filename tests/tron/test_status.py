"""The arena checks every front end shows (``engine.tron.status``), table-driven."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tron.arena import Arena, parse_arena
from engine.tron.status import ERROR, INFO, WARNING, Field, Regions, arena_problems

CASES = [
    # (rows, start lines, expected (severity, message, fields))
    (["......."] * 3, "", [
        (INFO, "no start lines: two bots start on the contest's default fields", ((2, 2), (6, 2))),
        (INFO, "bot 1 at 2,2 EAST: 19 fields reachable", ()),
        (INFO, "bot 2 at 6,2 WEST: 19 fields reachable", ()),
    ]),
    (["...#...", "...#...", "...#..."], "", [
        (WARNING, "bots 1 and 2 can never meet (separate regions)", ((2, 2), (6, 2))),
        (INFO, "no start lines: two bots start on the contest's default fields", ((2, 2), (6, 2))),
        (INFO, "bot 1 at 2,2 EAST: 8 fields reachable", ()),
        (INFO, "bot 2 at 6,2 WEST: 8 fields reachable", ()),
    ]),
    ([".#.", "#.#", ".#."], "POS 1 2,2 N\nPOS 2 1,1 S\n", [
        (WARNING, "bot 1 is walled in: it is out in round 1", ((2, 2),)),
        (WARNING, "bot 2 is walled in: it is out in round 1", ((1, 1),)),
        (INFO, "bot 1 at 2,2 NORTH: 0 fields reachable", ()),
        (INFO, "bot 2 at 1,1 SOUTH: 0 fields reachable", ()),
    ]),
    (["....."], "POS 1 1,1 E\n", [
        (WARNING, "one start line: only a one-bot (space-filling) game can be played", ((1, 1),)),
        (INFO, "bot 1 at 1,1 EAST: 4 fields reachable", ()),
    ]),
    (["."], "", [(ERROR, "cannot start a game of two: both default starts fall on 1,1 (the arena is too narrow)", ())]),
]  # fmt: skip


@pytest.mark.parametrize(("rows", "starts", "expected"), CASES)
def test_arena_problems(
    rows: list[str], starts: str, expected: list[tuple[str, str, tuple[tuple[int, int], ...]]]
) -> None:
    text = f"GAMEBOARDSTART {len(rows[0])},{len(rows)}\n" + "".join(r + "\n" for r in rows) + "GAMEBOARDEND\n" + starts
    found = [(p.severity, p.message, p.fields) for p in arena_problems(parse_arena(text))]
    assert found == expected


def test_a_start_on_a_blocked_field_is_an_error_located_there() -> None:
    arena = Arena.from_rows(["..#", "..."]).with_starts(
        parse_arena("GAMEBOARDSTART 3,2\n...\n...\nGAMEBOARDEND\nPOS 1 3,1 W\nPOS 2 1,2 E\n").starts
    )
    problems = arena_problems(arena)
    assert [(p.severity, p.message, p.fields) for p in problems] == [
        (ERROR, "bot 1 starts on the blocked field 3,1", ((3, 1),))
    ]


def _flood(arena: Arena, x: int, y: int, heads: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The definition of what a cycle on x,y can reach: a flood fill field by field."""
    seen: set[tuple[int, int]] = set()
    stack = [(x, y)]
    while stack:
        cx, cy = stack.pop()
        for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
            if (nx, ny) not in seen and (nx, ny) not in heads and arena.inside(nx, ny) and not arena.is_blocked(nx, ny):
                seen.add((nx, ny))
                stack.append((nx, ny))
    return seen


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 9).flatmap(
        lambda w: st.tuples(
            st.just(w),
            st.lists(st.lists(st.booleans(), min_size=w, max_size=w), min_size=1, max_size=9),
            st.lists(st.tuples(st.integers(1, w), st.integers(1, 9)), min_size=1, max_size=4, unique=True),
        )
    )
)
def test_reachable_fields_and_meeting_are_the_flood_fills(case: tuple[int, list[list[bool]], list[Field]]) -> None:
    """The pieces labelled once for all bots give each bot the fields a flood fill from its start
    reaches, and two bots meet exactly when their floods share a field."""
    width, rows, heads = case
    heads = [(x, y) for x, y in heads if y <= len(rows)]
    arena = Arena(width, len(rows), bytes(int(b) for row in rows for b in row))
    regions = Regions(arena, set(heads))
    floods = [_flood(arena, x, y, set(heads)) for x, y in heads]
    pieces = [regions.pieces(x, y) for x, y in heads]
    assert [regions.size(p) for p in pieces] == [len(f) for f in floods]
    for i in range(len(heads)):
        for j in range(len(heads)):
            assert bool(pieces[i] & pieces[j]) == bool(floods[i] & floods[j])


def test_a_big_arena_is_checked_without_a_flood_per_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight starts on an open 512x512 arena: no field is looked at one by one (eight floods of
    262,144 fields in Python took 4-6 s, on the editor's window thread when it opened)."""
    looked: list[tuple[int, int]] = []
    original = Arena.is_blocked
    monkeypatch.setattr(Arena, "is_blocked", lambda self, x, y: (looked.append((x, y)), original(self, x, y))[1])
    starts = "".join(f"POS {bot} {bot * 50},{bot * 60} E\n" for bot in range(1, 9))
    arena = parse_arena("GAMEBOARDSTART 512,512\n" + ("." * 512 + "\n") * 512 + "GAMEBOARDEND\n" + starts)
    infos = [p.message for p in arena_problems(arena) if p.severity == INFO]
    assert infos[0] == "bot 1 at 50,60 EAST: 262136 fields reachable" and len(infos) == 8
    assert len(looked) <= 8  # one look per start (is it blocked?), none per field
