"""Every game behind the editor's seam (``editor.games``) keeps the same promises, table-driven:
files round-trip exactly through the engine's parser and writer, every palette entry is a cell with
a name and a picture, edits that change nothing give the very same grid, transforms undo each other,
validation finishes with located problems, and the registry finds each game by name, file and grid."""

from __future__ import annotations

from pathlib import Path

import pytest

from editor.commands import ANCHORS
from editor.games import game_for_file, game_named, game_of, games
from editor.games.base import EditorGame, Transform
from editor.tools import TOOLS

ROOT = Path(__file__).resolve().parents[2]
#: (game, a shipped file of it, a file that is not canonical but parses)
SAMPLES = {
    "robots": ("gameboards/chop.dat", "gameboards/wall-garden-12x12.dat"),
    "tron": ("gameboards/tron/rooms-40x40.txt", "gameboards/tron/diamond-25x25.txt"),
}
GAME_NAMES = sorted(SAMPLES)


def _game(name: str) -> EditorGame:
    return game_named(name)


def test_every_registered_game_is_covered_here() -> None:
    assert sorted(g.name for g in games()) == GAME_NAMES


@pytest.mark.parametrize("name", GAME_NAMES)
def test_registry_finds_the_game_by_name_file_and_grid(name: str) -> None:
    game = _game(name)
    for sample in SAMPLES[name]:
        assert game_for_file(ROOT / sample) is game
        assert game_of(game.parse((ROOT / sample).read_text(), sample)) is game
    assert game.owns(game.blank(3, 2)) and game_of(game.blank(3, 2)) is game
    others = [g for g in games() if g is not game]
    assert all(not g.owns(game.blank(3, 2)) for g in others)
    with pytest.raises(ValueError, match="unknown game"):
        game_named("chess")
    with pytest.raises(TypeError):
        game_of("not a grid")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_files_round_trip_exactly(name: str) -> None:
    game = _game(name)
    for sample in SAMPLES[name]:
        text = (ROOT / sample).read_text()
        grid = game.parse(text, sample)
        assert game.write(grid) == text
        assert game.parse(game.write(grid)) == grid
    blank = game.blank(5, 4)
    assert (blank.width, blank.height) == (5, 4)
    assert game.parse(game.write(blank)) == blank


@pytest.mark.parametrize("name", GAME_NAMES)
def test_palette_cells_have_names_pictures_and_tools(name: str) -> None:
    game = _game(name)
    grid = game.parse((ROOT / SAMPLES[name][0]).read_text())
    pictures = game.cell_images("default")
    used = {cell.char for row in grid.rows for cell in row}
    assert set(game.palette) <= set(pictures) and used <= set(pictures)
    assert all(image.size == (64, 64) for image in pictures.values())
    for char in game.palette:
        cell = game.cell(char)
        assert cell.char == char and game.cell_name(cell)
    assert game.default_brush in game.palette and game.erase_cell().char in game.palette
    assert set(game.brush_keys.values()) <= set(game.palette)
    assert bool(game.brush_keys) == bool(game.brush_keys_help)  # F1 says what the keys do
    names = [tool.name for tool in (*TOOLS, *game.tool_classes())]
    assert game.tool_names and all(tool in names for tool in game.tool_names)
    keys = [tool.key for tool in (*TOOLS, *game.tool_classes()) if tool.name in game.tool_names]
    assert len(set(keys)) == len(keys)  # one key per tool
    assert not {a.key for a in game.actions} & ({*keys, *game.brush_keys})
    assert game.default_level in (*game.levels, None)
    with pytest.raises(ValueError):
        game.cell("\x00")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_put_cells_changes_only_what_it_is_told(name: str) -> None:
    game = _game(name)
    grid = game.blank(4, 3)
    same, others = game.put_cells(grid, {(1, 1): grid.tile(1, 1), (9, 9): game.cell(game.default_brush)})
    assert same is grid and not others
    painted, _ = game.put_cells(grid, {(2, 1): game.cell(game.default_brush)})
    assert painted.tile(2, 1).char == game.default_brush and painted != grid
    erased, _ = game.put_cells(painted, {(2, 1): game.erase_cell()})
    assert erased == grid


@pytest.mark.parametrize("name", GAME_NAMES)
def test_transforms_undo_each_other_and_turn_cells(name: str) -> None:
    game = _game(name)
    grid = game.parse((ROOT / SAMPLES[name][0]).read_text())
    for transform in Transform:
        turned = game.transformed(grid, transform)
        assert game.transformed(turned, transform.inverse) == grid
    quarter = game.transformed(grid, Transform.ROTATE_CW)
    assert (quarter.width, quarter.height) == (grid.height, grid.width)
    for char in game.palette:
        cell = game.cell(char)
        around = cell
        for _ in range(4):
            around = game.turned(around, True)
        assert around == cell and game.turned(game.turned(cell, True), False) == cell


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("anchor", sorted(ANCHORS))
def test_resizing_out_and_back_keeps_the_grid(name: str, anchor: str) -> None:
    game = _game(name)
    grid = game.parse((ROOT / SAMPLES[name][1]).read_text())
    bigger = game.resized(grid, grid.width + 4, grid.height + 2, anchor)
    assert (bigger.width, bigger.height) == (grid.width + 4, grid.height + 2)
    assert game.resized(bigger, grid.width, grid.height, anchor) == grid


@pytest.mark.parametrize("name", GAME_NAMES)
def test_validation_finishes_with_located_problems(name: str) -> None:
    game = _game(name)
    for sample in SAMPLES[name]:
        grid = game.parse((ROOT / sample).read_text())
        validation = game.validation(grid)
        assert validation.advance() and validation.done and not validation.pending
        assert validation.board is grid and not validation.problems, sample  # shipped files are playable
        assert validation.summary()
        assert game.play_blocker(grid) is None
    tiny = game.blank(1, 1)  # no room for a game: no start / both default starts on one field
    validation = game.validation(tiny)
    validation.advance()
    assert validation.problems and game.play_blocker(tiny) == validation.problems[0].message
    for problem in validation.problems:
        assert problem.message and all(tiny.in_bounds(*tile) for tile in problem.tiles)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_implied_cells_are_what_the_engine_reads_and_never_in_the_file(name: str) -> None:
    """Tron without start lines: the engine's two default starts (drawn faded); robots: nothing."""
    game = _game(name)
    for sample in SAMPLES[name]:
        grid = game.parse((ROOT / sample).read_text())
        assert game.implied_cells(grid) == {} or name == "tron"
    blank = game.blank(40, 30)
    implied = game.implied_cells(blank)
    if name == "robots":
        assert implied == {}
        return
    from engine.tron.arena import parse_arena

    starts = parse_arena(game.write(blank)).starts_for(2)
    assert {pos: cell.char for pos, cell in implied.items()} == {
        (s.x - 1, s.y - 1): f"{bot}{s.heading.letter}" for bot, s in enumerate(starts, 1)
    }
    assert game.write(blank) == game.write(game.parse(game.write(blank)))  # drawn, not written
    placed, _ = game.put_cells(blank, {(0, 0): game.cell("1E")})
    assert game.implied_cells(placed) == {}  # a start line replaces the defaults
    assert game.implied_cells(game.blank(1, 1)) == {}  # no room: the panel names the problem
