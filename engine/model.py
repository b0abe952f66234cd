"""Immutable value types of the game: directions, rotations, tiles, boards, poses, levels.

Everything here is a small frozen value so that rules can be pure functions and
results can be cached, compared and hashed freely (the AI builds tables keyed by
poses; the editor keeps boards in undo history).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property


class Direction(Enum):
    """A compass direction on screen; the value is the letter used in ``bot.txt``.

    Its derived values are ``cached_property``: the rules read them millions of times when the
    planner builds a transition table, and a member's own attribute is much cheaper than an enum
    dictionary lookup (``Enum.__hash__`` is Python code).
    """

    LEFT = "L"
    RIGHT = "R"
    UP = "U"
    DOWN = "D"

    @cached_property
    def dx(self) -> int:
        return _DX[self]

    @cached_property
    def dy(self) -> int:
        return _DY[self]

    @cached_property
    def wall_bit(self) -> int:
        """The bit of the wall on this side of a tile (left 1, right 2, up 4, down 8)."""
        return _WALL_BIT[self]

    @cached_property
    def opposite(self) -> Direction:
        return self.turned(2)

    def turned(self, quarter_turns_clockwise: int) -> Direction:
        """This direction turned clockwise by ``quarter_turns_clockwise`` (negative: anticlockwise)."""
        return _CLOCKWISE[(_CLOCKWISE.index(self) + quarter_turns_clockwise) % 4]

    def rotate(self, rotation: Rotation) -> Direction:
        return self.turned(rotation.quarter_turns)


_CLOCKWISE = (Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT)
_DX = {Direction.LEFT: -1, Direction.RIGHT: 1, Direction.UP: 0, Direction.DOWN: 0}
_DY = {Direction.LEFT: 0, Direction.RIGHT: 0, Direction.UP: -1, Direction.DOWN: 1}
_WALL_BIT = {Direction.LEFT: 1, Direction.RIGHT: 2, Direction.UP: 4, Direction.DOWN: 8}


class Rotation(Enum):
    """A turn of the robot; the value is the line written in sequence files."""

    LEFT = "RL"
    RIGHT = "RR"
    UTURN = "RU"

    @cached_property
    def quarter_turns(self) -> int:
        """Clockwise quarter turns: left -1, right +1, u-turn +2."""
        return _QUARTER_TURNS[self]


_QUARTER_TURNS = {Rotation.LEFT: -1, Rotation.RIGHT: 1, Rotation.UTURN: 2}


class Level(Enum):
    """Difficulty level; the value is the word used on the contest's command line."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"

    @property
    def deadly(self) -> bool:
        """Whether holes, oil and crushers act (they are plain floor on easy)."""
        return self is not Level.EASY

    @property
    def edge_is_wall(self) -> bool:
        """Whether the board's edge blocks like a wall (easy, normal) or kills (hard)."""
        return self is not Level.HARD


class TileKind(Enum):
    """What a tile is, independent of its orientation."""

    FLOOR = "floor"  # space, a-p (walls), and start tiles are floor for the rules
    START = "start"
    HOLE = "hole"
    OIL = "oil"
    GOAL = "goal"
    ROTATOR_LEFT = "rotator_left"
    ROTATOR_RIGHT = "rotator_right"
    CONVEYOR = "conveyor"
    PUSHER = "pusher"
    CRUSHER = "crusher"


WALL_CHARS = "abcdefghijklmnop"
START_CHARS = {"S": Direction.LEFT, "T": Direction.RIGHT, "U": Direction.UP, "V": Direction.DOWN}
CONVEYOR_CHARS = {"<": Direction.LEFT, ">": Direction.RIGHT, "^": Direction.UP, "v": Direction.DOWN}
PUSHER_CHARS = {"C": Direction.LEFT, "D": Direction.RIGHT, "E": Direction.UP, "F": Direction.DOWN}
# Crushers: M presses from left and right (walls there), N from top and bottom.
CRUSHER_CHARS = {"M": Direction.RIGHT, "N": Direction.DOWN}
SIMPLE_CHARS = {
    " ": TileKind.FLOOR,
    "H": TileKind.HOLE,
    "O": TileKind.OIL,
    "Z": TileKind.GOAL,
    "L": TileKind.ROTATOR_LEFT,
    "R": TileKind.ROTATOR_RIGHT,
}
#: Every character a board may contain, in a stable order (36 of them).
BOARD_CHARS = (
    " "
    + WALL_CHARS
    + "HOZ"
    + "".join(START_CHARS)
    + "LR"
    + "".join(CONVEYOR_CHARS)
    + "".join(PUSHER_CHARS)
    + "".join(CRUSHER_CHARS)
)


@dataclass(frozen=True, slots=True)
class Tile:
    """One square of the board, identified by its board-file character.

    ``direction`` is the facing of a start tile, the running direction of a
    conveyor, the push direction of a pusher, and for a crusher one of its two
    press directions (RIGHT for ``M``, DOWN for ``N``); ``walls`` is the wall
    bit set written in the file (only ``a``-``p`` carry one).
    """

    char: str
    kind: TileKind = field(compare=False)
    direction: Direction | None = field(compare=False, default=None)
    walls: int = field(compare=False, default=0)

    @staticmethod
    def from_char(char: str) -> Tile:
        """The tile for a board-file character; raises ValueError for an unknown one."""
        tile = _TILES.get(char)
        if tile is None:
            raise ValueError(f"unknown board character {char!r}")
        return tile

    @staticmethod
    def floor(walls: int = 0) -> Tile:
        """A floor tile with the given wall bits (0 gives the plain space)."""
        if not 0 <= walls <= 15:
            raise ValueError(f"wall bits must be 0..15, not {walls}")
        return _TILES[" "] if walls == 0 else _TILES[WALL_CHARS[walls]]

    def builtin_walls(self) -> int:
        """Walls that belong to the element itself: a pusher's back, a crusher's two jaws."""
        if self.kind is TileKind.PUSHER:
            assert self.direction is not None
            return self.direction.opposite.wall_bit
        if self.kind is TileKind.CRUSHER:
            assert self.direction is not None
            return self.direction.wall_bit | self.direction.opposite.wall_bit
        return 0

    def all_walls(self) -> int:
        """Every wall drawn on this tile: written bits plus built-in ones."""
        return self.walls | self.builtin_walls()

    def rule_kind(self, level: Level) -> TileKind:
        """The kind the rules see at a level: start is floor; easy turns deadly tiles into floor."""
        kind = self.kind
        if kind is TileKind.START:
            return TileKind.FLOOR
        if not level.deadly and kind in (TileKind.HOLE, TileKind.OIL, TileKind.CRUSHER):
            return TileKind.FLOOR
        return kind

    def rule_walls(self, level: Level) -> int:
        """The wall bits the rules see at a level (an easy-level crusher is floor, unwalled)."""
        if not level.deadly and self.kind is TileKind.CRUSHER:
            return 0
        return self.all_walls()

    def __repr__(self) -> str:
        return f"Tile({self.char!r})"


def _build_tiles() -> dict[str, Tile]:
    tiles: dict[str, Tile] = {}
    for char, kind in SIMPLE_CHARS.items():
        tiles[char] = Tile(char, kind)
    for bits, char in enumerate(WALL_CHARS):
        tiles[char] = Tile(char, TileKind.FLOOR, walls=bits)
    for char, d in START_CHARS.items():
        tiles[char] = Tile(char, TileKind.START, d)
    for char, d in CONVEYOR_CHARS.items():
        tiles[char] = Tile(char, TileKind.CONVEYOR, d)
    for char, d in PUSHER_CHARS.items():
        tiles[char] = Tile(char, TileKind.PUSHER, d)
    for char, d in CRUSHER_CHARS.items():
        tiles[char] = Tile(char, TileKind.CRUSHER, d)
    assert set(tiles) == set(BOARD_CHARS) and len(BOARD_CHARS) == 36
    return tiles


_TILES = _build_tiles()


@dataclass(frozen=True, slots=True)
class Pose:
    """Where the robot is and where it looks. ``x``/``y`` may lie just off the board (hard level)."""

    x: int
    y: int
    facing: Direction

    def moved(self, direction: Direction) -> Pose:
        return Pose(self.x + direction.dx, self.y + direction.dy, self.facing)

    def turned(self, rotation: Rotation) -> Pose:
        return Pose(self.x, self.y, self.facing.rotate(rotation))

    def to_bot_line(self) -> str:
        """The pose as the single line of ``bot.txt``: ``x y F``."""
        return f"{self.x} {self.y} {self.facing.value}"


@dataclass(frozen=True)
class Board:
    """A rectangular board of tiles; ``rows[y][x]`` is the tile at ``(x, y)``."""

    rows: tuple[tuple[Tile, ...], ...]

    def __post_init__(self) -> None:
        if not self.rows or not self.rows[0]:
            raise ValueError("a board needs at least one row and one column")
        width = len(self.rows[0])
        if any(len(row) != width for row in self.rows):
            raise ValueError("all rows of a board must have the same width")

    @classmethod
    def from_strings(cls, lines: list[str] | tuple[str, ...]) -> Board:
        """A board from its rows written as board-file characters (no header line)."""
        return cls(tuple(tuple(Tile.from_char(c) for c in line) for line in lines))

    @cached_property
    def derived_cache(self) -> dict[object, object]:
        """Per-board memo for data derived from the tiles (e.g. the rules' per-level view).

        A board is immutable, so anything computed from it stays valid for its lifetime;
        keeping it on the instance avoids hashing the whole board on every lookup.
        """
        return {}

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def tile(self, x: int, y: int) -> Tile:
        """The tile at ``(x, y)``; IndexError off the board (a robot's pose may lie there on the hard
        level, and ``rows[y][x]`` would wrap ``x = -1`` round to the last column)."""
        if not self.in_bounds(x, y):
            raise IndexError(f"tile {x} {y} is off the {self.width}x{self.height} board")
        return self.rows[y][x]

    def positions(self) -> list[tuple[int, int]]:
        """Every ``(x, y)`` on the board, row by row."""
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def find(self, *kinds: TileKind) -> list[tuple[int, int]]:
        """Positions of the tiles of the given kinds, row by row."""
        return [(x, y) for (x, y) in self.positions() if self.rows[y][x].kind in kinds]

    @cached_property
    def starts(self) -> tuple[Pose, ...]:
        """Every start tile as the pose the robot starts in."""
        poses = []
        for x, y in self.find(TileKind.START):
            direction = self.rows[y][x].direction
            assert direction is not None
            poses.append(Pose(x, y, direction))
        return tuple(poses)

    @property
    def start(self) -> Pose:
        """The start pose of a playable board (exactly one start tile), else
        ``engine.errors.BoardError`` worded by ``engine.status`` like everywhere else."""
        if len(self.starts) == 1:
            return self.starts[0]
        from engine.status import require_start  # the status module builds on this one

        return require_start(self)

    @cached_property
    def goals(self) -> tuple[tuple[int, int], ...]:
        return tuple(self.find(TileKind.GOAL))

    def with_tile(self, x: int, y: int, tile: Tile) -> Board:
        """A copy with one tile replaced."""
        row = (*self.rows[y][:x], tile, *self.rows[y][x + 1 :])
        return Board((*self.rows[:y], row, *self.rows[y + 1 :]))

    def to_strings(self) -> list[str]:
        return ["".join(t.char for t in row) for row in self.rows]
