"""The arena checks every front end shows (``engine.tron.status``), table-driven."""

from __future__ import annotations

import pytest

from engine.tron.arena import Arena, parse_arena
from engine.tron.status import ERROR, INFO, WARNING, arena_problems

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
