"""Arena files: the contest's format, exact round-trip, located one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InputError
from engine.tron.arena import Arena, Heading, Start, load_arena, parse_arena, write_arena

ROOT = Path(__file__).resolve().parents[2]
ARENAS = sorted((ROOT / "gameboards" / "tron").glob("*.txt"))

SMALL = "GAMEBOARDSTART 4,3\n....\n.#..\n....\nGAMEBOARDEND\n"


def test_parse_small_board_without_starts() -> None:
    arena = parse_arena(SMALL)
    assert (arena.width, arena.height) == (4, 3)
    assert arena.rows() == ["....", ".#..", "...."]
    assert arena.is_blocked(2, 2) and not arena.is_blocked(1, 1)
    assert arena.starts == ()
    assert write_arena(arena) == SMALL


def test_start_lines_keep_their_spelling() -> None:
    text = SMALL + "POS 1 1,1 E\nPOS 2 4,3 WEST\n"
    arena = parse_arena(text)
    assert arena.starts == (Start(1, 1, Heading.EAST, True), Start(4, 3, Heading.WEST, False))
    assert write_arena(arena) == text


def test_crlf_trailing_space_and_blank_lines_are_accepted() -> None:
    text = "GAMEBOARDSTART 2,2\r\n..  \r\n.#\r\nGAMEBOARDEND\r\n\r\nPOS 2 1,2 S\r\nPOS 1 1,1 N\r\n\r\n"
    arena = parse_arena(text)
    assert arena.rows() == ["..", ".#"]
    assert [(s.x, s.y, s.heading) for s in arena.starts] == [(1, 1, Heading.NORTH), (1, 2, Heading.SOUTH)]


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("", 1, 1, "empty file"),
        ("GAMEBOARD 2,2\n", 1, 1, "GAMEBOARDSTART n,m"),
        ("GAMEBOARDSTART 0,2\n", 1, 16, "outside"),
        ("GAMEBOARDSTART 2,1\r..\rGAMEBOARDEND\r", 1, 19, "lone carriage return (CR, as on old Macs)"),
        # Each side is in range, the whole is not: a game there ran for minutes (refused unread).
        ("GAMEBOARDSTART 2000,2000\n", 1, 16, "4000000 fields, more than the limit of 262144"),
        ("GAMEBOARDSTART 513,512\n", 1, 16, "more than the limit of 262144"),
        ("GAMEBOARDSTART 2,2\n..\n", 3, 1, "row 2 of 2 is missing"),
        ("GAMEBOARDSTART 2,2\n..\nGAMEBOARDEND\n", 3, 1, "row 2 of 2 is missing"),
        ("GAMEBOARDSTART 3,2\n...\n..\nGAMEBOARDEND\n", 3, 3, "2 fields long"),
        ("GAMEBOARDSTART 3,2\n...\n....\nGAMEBOARDEND\n", 3, 4, "4 fields long"),
        ("GAMEBOARDSTART 3,2\n...\n.x.\nGAMEBOARDEND\n", 3, 2, "unknown field 'x'"),
        ("GAMEBOARDSTART 2,1\n..\n", 3, 1, "expected 'GAMEBOARDEND'"),
        ("GAMEBOARDSTART 2,1\n..\n..\n", 3, 1, "expected 'GAMEBOARDEND'"),
        ("GAMEBOARDSTART 2,1\n..\nGAMEBOARDEND\nPOS 1 1;1 E\n", 4, 1, "POS p x,y DIR"),
        ("GAMEBOARDSTART 2,1\n..\nGAMEBOARDEND\nPOS 1 3,1 E\n", 4, 7, "outside"),
        ("GAMEBOARDSTART 2,1\n.#\nGAMEBOARDEND\nPOS 1 2,1 E\n", 4, 7, "blocked field 2,1"),
        ("GAMEBOARDSTART 2,1\n..\nGAMEBOARDEND\nPOS 1 1,1 UP\n", 4, 11, "unknown direction 'UP'"),
        ("GAMEBOARDSTART 2,1\n..\nGAMEBOARDEND\nPOS 1 1,1 E\nPOS 1 2,1 W\n", 5, 5, "second start for bot 1"),
        ("GAMEBOARDSTART 2,1\n..\nGAMEBOARDEND\nPOS 1 1,1 E\nPOS 2 1,1 W\n", 5, 5, "like bot 1"),
        ("GAMEBOARDSTART 2,1\n..\nGAMEBOARDEND\nPOS 2 1,1 E\n", 4, 5, "bot 1 has none"),
        ("GAMEBOARDSTART 2,1\n..\nGAMEBOARDEND\nPOS 0 1,1 E\n", 4, 5, "start at 1"),
    ],
)
def test_errors_name_line_and_column(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_arena(text, "board.txt")
    error = caught.value
    assert (error.path, error.line, error.column) == ("board.txt", line, column)
    assert words in error.message
    assert "\n" not in str(error)


def test_long_garbage_is_quoted_short() -> None:
    with pytest.raises(InputError) as caught:
        parse_arena("x" * 5000)
    assert len(str(caught.value)) < 160


@pytest.mark.parametrize(
    ("width", "height", "expected"),
    [
        (10, 12, ((3, 6), (8, 6))),  # the text's example: POS 1 2,5 EAST is a custom start; defaults by the rule
        (5, 5, ((2, 3), (4, 3))),  # width 4n+1: not at the edge any more (bugfix 04.10.2014)
        (4, 1, ((2, 1), (3, 1))),
        (3, 3, ((1, 2), (3, 2))),
    ],
)
def test_default_starts(width: int, height: int, expected: tuple[tuple[int, int], ...]) -> None:
    arena = Arena.from_rows(["." * width] * height)
    first, second = arena.starts_for(2)
    assert ((first.x, first.y), (second.x, second.y)) == expected
    assert (first.heading, second.heading) == (Heading.EAST, Heading.WEST)


def test_default_starts_that_clash_or_are_blocked_refuse_to_start() -> None:
    with pytest.raises(ValueError, match="both default starts"):
        Arena.from_rows(["."]).starts_for(2)
    with pytest.raises(ValueError, match="blocked"):
        Arena.from_rows(["..#."]).starts_for(2)
    with pytest.raises(ValueError, match="need start lines"):
        Arena.from_rows(["...."]).starts_for(3)


def test_start_lines_limit_the_number_of_bots() -> None:
    arena = parse_arena(SMALL + "POS 1 1,1 E\n")
    assert len(arena.starts_for(1)) == 1
    with pytest.raises(ValueError, match="only 1 start line"):
        arena.starts_for(2)


@pytest.mark.parametrize("path", ARENAS, ids=lambda p: p.name)
def test_shipped_arenas_round_trip_byte_exactly(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    arena = load_arena(path)
    assert write_arena(arena) == text
    assert len(arena.starts_for(2)) == 2


def test_shipped_arenas_cover_sizes_and_kinds() -> None:
    names = [p.stem for p in ARENAS]
    assert len(names) >= 12
    sizes = [load_arena(p) for p in ARENAS]
    assert min(a.width * a.height for a in sizes) == 100
    assert max(max(a.width, a.height) for a in sizes) == 200
    for kind in ("open", "maze", "rings", "corridors"):
        assert any(name.startswith(kind) for name in names)


rows_strategy = st.integers(1, 12).flatmap(
    lambda w: st.lists(st.text(alphabet=".#", min_size=w, max_size=w), min_size=1, max_size=12)
)


@given(rows_strategy, st.booleans())
def test_any_arena_round_trips(rows: list[str], short: bool) -> None:
    arena = Arena.from_rows(rows)
    free = [(x, y) for y in range(1, arena.height + 1) for x in range(1, arena.width + 1) if not arena.is_blocked(x, y)]
    starts = tuple(Start(x, y, Heading.SOUTH, short) for x, y in free[:3])
    arena = arena.with_starts(starts)
    text = write_arena(arena)
    assert parse_arena(text) == arena
    assert write_arena(parse_arena(text)) == text


def test_arenas_are_package_data() -> None:
    from gameboards import tron_arena_names, tron_arena_path

    names = tron_arena_names()
    assert names == [p.name for p in ARENAS]
    assert load_arena(tron_arena_path(names[0])).width >= 10
