"""Every board in ``gameboards/``: parses, round-trips byte-exactly, is playable, and together the
boards use every element in every interaction the issue asks for."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.boardfile import load_board, parse_board, write_board
from engine.model import BOARD_CHARS, Board, Direction, Level, TileKind

from .reachability import goal_reachable

BOARD_DIR = Path(__file__).resolve().parents[2] / "gameboards"
BOARD_FILES = sorted(BOARD_DIR.glob("*.dat"))
UNREACHABLE = {"no-way-to-goal.dat"}


def _boards() -> dict[str, Board]:
    return {path.name: load_board(path) for path in BOARD_FILES}


BOARDS = _boards()


def test_there_are_at_least_ten_boards_besides_chop() -> None:
    assert "chop.dat" in BOARDS
    assert len(BOARDS) - 1 >= 10


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_board_round_trips_byte_exactly(path: Path) -> None:
    data = path.read_bytes()
    text = data.decode("utf-8")
    board = parse_board(text, path)
    assert write_board(board).encode("utf-8") == data
    assert parse_board(write_board(board)) == board


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_board_is_canonical(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == "", "file ends with a newline"
    width, height = (int(v) for v in lines[0].split())
    assert lines[0] == f"{width} {height}"
    rows = lines[1:-1]
    assert len(rows) == height
    assert all(len(row) == width for row in rows)


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_has_one_start_and_a_goal(name: str) -> None:
    board = BOARDS[name]
    assert len(board.starts) == 1
    assert len(board.goals) >= 1


def test_every_character_is_used_somewhere() -> None:
    used = {char for board in BOARDS.values() for row in board.to_strings() for char in row}
    assert set(BOARD_CHARS) - used == set()
    assert len(BOARD_CHARS) == 36


def test_every_start_facing_is_used() -> None:
    starts = {BOARDS[name].tile(pose.x, pose.y).char for name in BOARDS for pose in BOARDS[name].starts}
    assert starts == {"S", "T", "U", "V"}


def test_sizes_span_tiny_to_huge_and_non_square() -> None:
    sizes = {(b.width, b.height) for b in BOARDS.values()}
    assert (2, 1) in sizes
    assert (100, 100) in sizes
    assert sum(1 for w, h in sizes if w != h) >= 4
    assert any(b.width == b.height == 12 for name, b in BOARDS.items() if name != "chop.dat")


def test_some_board_has_several_goals() -> None:
    assert max(len(b.goals) for b in BOARDS.values()) >= 3


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_goal_reachability_at_normal(name: str) -> None:
    assert goal_reachable(BOARDS[name], Level.NORMAL) is (name not in UNREACHABLE)


def test_readme_lists_every_board() -> None:
    readme = (BOARD_DIR / "README.md").read_text(encoding="utf-8")
    for name in BOARDS:
        assert f"`{name}`" in readme, name


# --- interactions: found by looking at neighbouring tiles (no rule is played here) ----------------


def _tiles(kind: TileKind) -> Iterator[tuple[Board, int, int, Direction]]:
    for board in BOARDS.values():
        for x, y in board.find(kind):
            direction = board.tile(x, y).direction
            assert direction is not None
            yield board, x, y, direction


def _wall_between(board: Board, x: int, y: int, d: Direction) -> bool:
    """A wall on the way out of (x, y) towards d, or on the entry side of the next tile."""
    if board.tile(x, y).all_walls() & d.wall_bit:
        return True
    nx, ny = x + d.dx, y + d.dy
    return board.in_bounds(nx, ny) and bool(board.tile(nx, ny).all_walls() & d.opposite.wall_bit)


def _next(board: Board, x: int, y: int, d: Direction) -> TileKind | None:
    nx, ny = x + d.dx, y + d.dy
    return board.tile(nx, ny).kind if board.in_bounds(nx, ny) else None


def _belt_onto(test: Callable[[Direction, Direction], bool]) -> bool:
    for board, x, y, d in _tiles(TileKind.CONVEYOR):
        nx, ny = x + d.dx, y + d.dy
        if board.in_bounds(nx, ny) and not _wall_between(board, x, y, d):
            other = board.tile(nx, ny)
            if other.kind is TileKind.CONVEYOR and other.direction is not None and test(d, other.direction):
                return True
    return False


@pytest.mark.parametrize(
    ("what", "test"),
    [
        ("chain", lambda a, b: a is b),
        ("left turn", lambda a, b: b is a.turned(-1)),
        ("right turn", lambda a, b: b is a.turned(1)),
        ("head-on", lambda a, b: b is a.opposite),
    ],
)
def test_belts_meet_belts(what: str, test: Callable[[Direction, Direction], bool]) -> None:
    assert _belt_onto(test), what


def _oil_run_ends() -> set[str]:
    """How oil runs end, over every oil tile and direction: wall, hole, edge, belt, goal, floor."""
    ends: set[str] = set()
    for board in BOARDS.values():
        for x, y in board.find(TileKind.OIL):
            for d in Direction:
                cx, cy = x, y
                while True:
                    if _wall_between(board, cx, cy, d):
                        ends.add("wall")
                        break
                    kind = _next(board, cx, cy, d)
                    cx, cy = cx + d.dx, cy + d.dy
                    if kind is TileKind.OIL:
                        continue
                    ends.add(
                        {None: "edge", TileKind.HOLE: "hole", TileKind.CONVEYOR: "belt", TileKind.GOAL: "goal"}.get(
                            kind, "other"
                        )
                    )
                    break
    return ends


@pytest.mark.parametrize("end", ["wall", "hole", "edge", "belt", "goal"])
def test_oil_runs_end_everywhere(end: str) -> None:
    assert end in _oil_run_ends()


def _pusher_targets() -> set[str]:
    found: set[str] = set()
    for board, x, y, d in _tiles(TileKind.PUSHER):
        if _wall_between(board, x, y, d):
            found.add("wall")
        elif _next(board, x, y, d) is None:
            found.add("edge")
        else:
            found.add(str(_next(board, x, y, d)))
        if any(_next(board, x, y, n) is TileKind.HOLE for n in Direction):
            found.add("next to hole")
    return found


@pytest.mark.parametrize(
    "target",
    [
        "wall",
        "edge",
        "next to hole",
        str(TileKind.OIL),
        str(TileKind.ROTATOR_LEFT),
        str(TileKind.ROTATOR_RIGHT),
        str(TileKind.HOLE),
        str(TileKind.CONVEYOR),
    ],
)
def test_pushers_push_into_everything(target: str) -> None:
    assert target in _pusher_targets()


@pytest.mark.parametrize("crusher", ["M", "N"])
def test_belts_carry_onto_both_crushers(crusher: str) -> None:
    hits = 0
    for board, x, y, d in _tiles(TileKind.CONVEYOR):
        nx, ny = x + d.dx, y + d.dy
        if board.in_bounds(nx, ny) and board.tile(nx, ny).char == crusher and not _wall_between(board, x, y, d):
            hits += 1
    assert hits >= 1


@pytest.mark.parametrize("crusher", ["M", "N"])
def test_belts_run_into_both_crushers_jaws(crusher: str) -> None:
    assert any(
        board.in_bounds(x + d.dx, y + d.dy)
        and board.tile(x + d.dx, y + d.dy).char == crusher
        and _wall_between(board, x, y, d)
        for board, x, y, d in _tiles(TileKind.CONVEYOR)
    )


def test_generator_reproduces_the_committed_boards() -> None:
    """``tools/make_boards.py`` and ``gameboards/`` stay in step (chop.dat is not generated)."""
    spec = importlib.util.spec_from_file_location("make_boards", BOARD_DIR.parent / "tools" / "make_boards.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    generated = module.all_boards()
    assert set(generated) == set(BOARDS) - {"chop.dat"}
    for name, rows in generated.items():
        assert BOARDS[name].to_strings() == rows, name


@pytest.mark.parametrize("turn", range(8))
def test_module_symmetries_keep_goals_reachable(turn: int) -> None:
    """Turning or mirroring a module must turn its elements with it: the tiny board from
    ``crossing-5x3`` (made square) stays winnable in every symmetry."""
    spec = importlib.util.spec_from_file_location("make_boards", BOARD_DIR.parent / "tools" / "make_boards.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows = ["V>>vH", " OLv ", "DR<>Z", "     ", "     "]
    board = Board.from_strings(module.transformed(rows, turn))
    start = board.start
    plain = Board.from_strings(rows)
    assert goal_reachable(board, Level.HARD, start) is goal_reachable(plain, Level.HARD)

    # A belt keeps pointing at the same neighbour after the transform: the number of belt-onto-belt
    # links is unchanged.
    def links(b: Board) -> int:
        count = 0
        for x, y in b.find(TileKind.CONVEYOR):
            d = b.tile(x, y).direction
            assert d is not None
            if b.in_bounds(x + d.dx, y + d.dy) and b.tile(x + d.dx, y + d.dy).kind is TileKind.CONVEYOR:
                count += 1
        return count

    assert links(board) == links(plain)


@pytest.mark.parametrize("level", list(Level))
def test_no_way_board_is_unwinnable_at_every_level(level: Level) -> None:
    assert goal_reachable(BOARDS["no-way-to-goal.dat"], level) is False


def test_readme_sizes_and_starts_match_the_files() -> None:
    readme = (BOARD_DIR / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]+\.dat)` \| (\d+)x(\d+) \| `([STUV])` \|", readme, flags=re.M)
    assert {name for name, *_ in rows} == set(BOARDS)
    for name, width, height, start in rows:
        board = BOARDS[name]
        assert (board.width, board.height) == (int(width), int(height)), name
        assert board.tile(board.start.x, board.start.y).char == start, name
