"""Human names of tiles for the status bar, the palette tooltips and the wall-refusal reasons."""

from __future__ import annotations

from engine.model import Direction, Tile, TileKind

_DIR_WORD = {Direction.LEFT: "left", Direction.RIGHT: "right", Direction.UP: "up", Direction.DOWN: "down"}
_KIND_NOUN = {
    TileKind.FLOOR: "floor",
    TileKind.START: "start",
    TileKind.HOLE: "hole",
    TileKind.OIL: "oil slick",
    TileKind.GOAL: "goal",
    TileKind.ROTATOR_LEFT: "left rotator",
    TileKind.ROTATOR_RIGHT: "right rotator",
    TileKind.CONVEYOR: "conveyor",
    TileKind.PUSHER: "pusher",
    TileKind.CRUSHER: "crusher",
}


def kind_noun(tile: Tile) -> str:
    """``a conveyor`` style noun phrase for a tile's kind."""
    noun = _KIND_NOUN[tile.kind]
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"


def wall_sides(bits: int) -> str:
    return "+".join(
        _DIR_WORD[d] for d in (Direction.LEFT, Direction.RIGHT, Direction.UP, Direction.DOWN) if bits & d.wall_bit
    )


def tile_name(tile: Tile) -> str:
    """A short description such as ``conveyor running right`` or ``floor, walls left+up``."""
    kind = tile.kind
    if kind is TileKind.FLOOR:
        return f"floor, walls {wall_sides(tile.walls)}" if tile.walls else "floor"
    d = _DIR_WORD[tile.direction] if tile.direction is not None else ""
    if kind is TileKind.START:
        return f"start facing {d}"
    if kind is TileKind.CONVEYOR:
        return f"conveyor running {d}"
    if kind is TileKind.PUSHER:
        return f"pusher pushing {d}"
    if kind is TileKind.CRUSHER:
        return "crusher, jaws left+right" if tile.char == "M" else "crusher, jaws up+down"
    return _KIND_NOUN[kind]
