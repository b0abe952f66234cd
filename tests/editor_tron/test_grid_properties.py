"""Whatever is painted, an arena grid keeps the file format's rules: one start per bot, bots numbered
1..n, and the grid's remembered starts are what a fresh scan finds; every grid converts to an engine
arena and back unchanged."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from editor.games.tron.grid import CHARS, TronGrid, arena_of, blank_grid, cell_of, grid_of, put_cells
from engine.tron.arena import parse_arena, write_arena

W, H = 6, 4
positions = st.tuples(st.integers(-1, W), st.integers(-1, H))
cells = st.sampled_from(CHARS[:34]).map(cell_of)  # free, blocked and bots 1-8 in every facing
edits = st.lists(st.dictionaries(positions, cells, min_size=1, max_size=5), min_size=1, max_size=25)


def _scan(grid: TronGrid) -> dict[int, tuple[tuple[int, int], str]]:
    return {c.bot: ((x, y), c.char) for y, row in enumerate(grid.rows) for x, c in enumerate(row) if c.bot}


@settings(max_examples=200, deadline=None)
@given(edits)
def test_painting_keeps_one_start_per_bot_numbered_from_one(steps: list[dict[tuple[int, int], object]]) -> None:
    grid = blank_grid(W, H)
    for changes in steps:
        before = grid
        grid, others = put_cells(grid, changes)  # type: ignore[arg-type]
        scanned = _scan(grid)
        bots = [c.bot for row in grid.rows for c in row if c.bot]
        assert sorted(bots) == list(range(1, len(bots) + 1))  # one each, no gaps
        assert {b: (p, c.char) for b, (p, c) in grid.starts().items()} == scanned
        changed = {(x, y) for y in range(H) for x in range(W) if grid.tile(x, y) != before.tile(x, y)}
        assert changed <= set(changes) | others
        assert grid_of(arena_of(grid)) == grid
        assert grid_of(parse_arena(write_arena(arena_of(grid)))) == grid
