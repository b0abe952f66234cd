"""The names of a theme's images, per hosted game, and how robot board tiles map onto them.

A theme holds one image per *drawn* tile kind, not per board character: ``a`` is a
floor without walls and start tiles are floor (their facing is an optional overlay),
so 36 board characters need 31 tile images. Those are the robot game's pictures, at the top of
the theme's folder; another game's pictures live in a subfolder named after it (``GAME_FOLDERS``):
Tron's in ``tron/`` (``TRON_KEYS``: an arena field's floor and a blocked field).
"""

from __future__ import annotations

from engine.model import WALL_CHARS, Direction, Tile, TileKind

_DIRECTION_WORDS = {Direction.LEFT: "left", Direction.RIGHT: "right", Direction.UP: "up", Direction.DOWN: "down"}

#: The 31 tile image names, in the fixed order of the texture-array layers.
TILE_KEYS: tuple[str, ...] = (
    "floor",
    *(f"wall-{c}" for c in WALL_CHARS[1:]),
    "hole",
    "oil",
    "goal",
    "rotator-left",
    "rotator-right",
    "conveyor-left",
    "conveyor-right",
    "conveyor-up",
    "conveyor-down",
    "pusher-left",
    "pusher-right",
    "pusher-up",
    "pusher-down",
    "crusher-lr",
    "crusher-ud",
)

#: Optional transparent wall overlays, one per edge: a wall tile a theme does not draw whole is its
#: floor with the overlays of its edges on top (``wall-f`` = floor + wall-left + wall-up).
OVERLAY_KEYS: tuple[str, ...] = tuple(f"wall-{_DIRECTION_WORDS[d]}" for d in Direction)

#: The transparent overlay images every theme has besides the tiles.
SPRITE_KEYS: tuple[str, ...] = ("robot", "cursor")

#: The optional start-marker image (drawn pointing up) and the layers made from it.
START_MARKER_KEY = "start"
START_MARKER_LAYERS: tuple[str, ...] = tuple(f"start-{_DIRECTION_WORDS[d]}" for d in Direction)

#: Tron's pictures (in the theme's ``tron/`` folder), each 64x64 and opaque: ``floor`` is one free
#: arena field seen from above, ``blocked`` the top and sides of a blocked field.
TRON_KEYS: tuple[str, ...] = ("floor", "blocked")
#: Tron's optional pictures: ``trail`` is the light walls' pattern along one field (white keeps the
#: bot's colour, darker parts dim it; its top row at the wall's top). A theme without it, and
#: without a base that has it, draws plain glowing walls; its absence is never a problem.
TRON_OPTIONAL_KEYS: tuple[str, ...] = ("trail",)

#: Every picture name of the robot game (the top of a theme folder, without ``.png``).
ROBOT_PICTURE_KEYS: tuple[str, ...] = (*TILE_KEYS, *OVERLAY_KEYS, *SPRITE_KEYS, START_MARKER_KEY)

#: Each hosted game's pictures, by game name (``engine.games``): where they live in a theme folder
#: ("" is the folder itself) and their names.
GAME_FOLDERS: dict[str, str] = {"robots": "", "tron": "tron"}
GAME_KEYS: dict[str, tuple[str, ...]] = {"robots": ROBOT_PICTURE_KEYS, "tron": (*TRON_KEYS, *TRON_OPTIONAL_KEYS)}
#: The pictures of ``GAME_KEYS`` a theme may leave out without a word.
OPTIONAL_KEYS: dict[str, tuple[str, ...]] = {"robots": (), "tron": TRON_OPTIONAL_KEYS}

_SIMPLE_KEYS = {
    TileKind.FLOOR: "floor",
    TileKind.START: "floor",
    TileKind.HOLE: "hole",
    TileKind.OIL: "oil",
    TileKind.GOAL: "goal",
    TileKind.ROTATOR_LEFT: "rotator-left",
    TileKind.ROTATOR_RIGHT: "rotator-right",
}


def direction_word(direction: Direction) -> str:
    """``left``/``right``/``up``/``down``: the spelling used in image names."""
    return _DIRECTION_WORDS[direction]


def tile_key(tile: Tile) -> str:
    """The image name that draws ``tile`` (``' '``/``a``/starts -> floor, ``b``..``p`` -> wall-b..)."""
    kind = tile.kind
    if kind is TileKind.FLOOR and tile.walls:
        return f"wall-{WALL_CHARS[tile.walls]}"
    simple = _SIMPLE_KEYS.get(kind)
    if simple is not None:
        return simple
    assert tile.direction is not None
    if kind is TileKind.CONVEYOR:
        return f"conveyor-{direction_word(tile.direction)}"
    if kind is TileKind.PUSHER:
        return f"pusher-{direction_word(tile.direction)}"
    if kind is TileKind.CRUSHER:
        return "crusher-lr" if tile.direction in (Direction.LEFT, Direction.RIGHT) else "crusher-ud"
    raise ValueError(f"no theme image for {tile!r}")  # pragma: no cover - every kind is handled above


def board_chars_for(key: str) -> str:
    """Every board character drawn with image ``key`` (for labels on contact sheets)."""
    from engine.model import BOARD_CHARS

    return "".join(c for c in BOARD_CHARS if tile_key(Tile.from_char(c)) == key)
