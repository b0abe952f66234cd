"""The engine scripted from Python, as docs/python.md shows: a wrong argument is the narrow,
documented error before any work is done, never an IndexError from numpy or a ValueError from
deep inside the rules after the chooser was already asked."""

from __future__ import annotations

import pytest

from engine.boardfile import parse_board
from engine.cards import Card
from engine.deck import generate_deck
from engine.errors import BoardError
from engine.game import play_game
from engine.model import Board, Direction, Level, Pose
from engine.oracle import no_foresight_optimum, optimum_rounds

BOARD = parse_board("3 2\nS Z\n   \n")
OFF = Pose(3, 0, Direction.RIGHT)
OFF_LINE = "start 3 0 R lies outside the 3x2 board"


def test_a_start_off_the_board_is_a_board_error_before_the_chooser_is_asked() -> None:
    asked: list[Pose] = []

    def chooser(board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> list[Card]:
        asked.append(pose)
        return list(hand[:5])

    with pytest.raises(BoardError) as caught:
        play_game(BOARD, Level.HARD, generate_deck(1), chooser, OFF)
    assert str(caught.value) == OFF_LINE and asked == []


@pytest.mark.parametrize(
    "search",
    [
        lambda start: optimum_rounds(BOARD, Level.HARD, generate_deck(1), start),
        lambda start: no_foresight_optimum(BOARD, Level.HARD, start, time_limit=5.0),
    ],
    ids=["optimum_rounds", "no_foresight_optimum"],
)
def test_the_oracles_refuse_a_start_off_the_board_as_a_board_error(search) -> None:
    with pytest.raises(BoardError) as caught:
        search(OFF)
    assert str(caught.value) == OFF_LINE


def test_a_start_on_the_board_is_searched_from() -> None:
    assert optimum_rounds(BOARD, Level.HARD, generate_deck(1), Pose(1, 1, Direction.UP)) is not None


@pytest.mark.parametrize(("x", "y"), [(-1, 0), (0, -1), (3, 0), (0, 2)])
def test_a_tile_off_the_board_is_an_index_error_not_the_far_side(x: int, y: int) -> None:
    """Pose allows x = -1 (hard level); rows[0][-1] was the goal at the far end of the row."""
    with pytest.raises(IndexError, match=f"tile {x} {y} is off the 3x2 board"):
        BOARD.tile(x, y)
    assert BOARD.tile(2, 0).char == "Z"


SCRIPTING = ["load_board", "parse_board", "write_board", "generate_deck", "load_deck", "play_game"]
SCRIPTING += ["GameRecord", "Outcome", "InputError"]


def test_a_script_imports_what_it_needs_from_the_package() -> None:
    """Loading boards and decks, playing games and catching bad files, from ``engine`` itself; each name
    is the object of its home module, and mypy sees it too (the TYPE_CHECKING imports list it)."""
    import ast
    import importlib
    from pathlib import Path

    import engine

    source = ast.parse(Path(engine.__file__).read_text(encoding="utf-8"))
    typed = {
        alias.name: node.module
        for node in ast.walk(source)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine.")
        for alias in node.names
    }
    assert [name for name in SCRIPTING if name not in engine.__all__] == []
    assert sorted(typed) == sorted(engine.__all__)
    for name in engine.__all__:
        assert getattr(engine, name) is getattr(importlib.import_module(typed[name]), name)
