"""Tron arenas in the contest's format, read with located errors and written back exactly.

    GAMEBOARDSTART n,m      (n = width, m = height)
    m rows of n characters  ('.' free, '#' blocked)
    GAMEBOARDEND
    POS p x,y DIR           (optional start lines, one per bot; DIR long or one-letter)

Boards of the time spell directions both ways (``NORTH`` and ``N``), so a start line keeps its
spelling and ``write_arena(parse_arena(text)) == text`` holds for every canonical file (line ends
``\\n``, no trailing white space).  The server itself always sends the long form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from engine.bounds import shown
from engine.errors import InputError, read_text, refuse_lone_carriage_return

#: Larger sides are refused before anything is allocated: a corrupt header must not cost gigabytes.
MAX_SIDE = 2000
#: Most fields an arena may have, as a robot board's tiles (``engine.bounds.MAX_BOARD_TILES``,
#: 512 x 512, the viewer's measured maximum): a 2000x2000 game of two simple bots ran for minutes.
MAX_FIELDS = 512 * 512
_QUOTE = 60


class Heading(Enum):
    """Where a cycle looks; the value is the step (dx, dy) with y growing downwards."""

    NORTH = (0, -1)
    EAST = (1, 0)
    SOUTH = (0, 1)
    WEST = (-1, 0)

    @property
    def dx(self) -> int:
        return self.value[0]

    @property
    def dy(self) -> int:
        return self.value[1]

    @property
    def letter(self) -> str:
        return self.name[0]

    def left(self) -> Heading:
        return _ORDER[(_ORDER.index(self) - 1) % 4]

    def right(self) -> Heading:
        return _ORDER[(_ORDER.index(self) + 1) % 4]

    @classmethod
    def parse(cls, word: str, short_ok: bool) -> tuple[Heading, bool]:
        """The heading a word names and whether it was the one-letter form; ValueError otherwise."""
        if word in cls.__members__:
            return cls[word], False
        if short_ok:
            for heading in cls:
                if word == heading.letter:
                    return heading, True
        raise ValueError(word)


_ORDER = (Heading.NORTH, Heading.EAST, Heading.SOUTH, Heading.WEST)


@dataclass(frozen=True)
class Start:
    """A bot's start: field (1-based, x to the right, y downwards) and heading.

    ``short`` remembers a one-letter spelling in the file, so writing the arena back keeps it.
    """

    x: int
    y: int
    heading: Heading
    short: bool = False


@dataclass(frozen=True)
class Arena:
    """A board: ``blocked`` holds one byte per field, row by row (1 = blocked), and the start lines."""

    width: int
    height: int
    blocked: bytes
    starts: tuple[Start, ...] = ()

    def __post_init__(self) -> None:
        if not (1 <= self.width <= MAX_SIDE and 1 <= self.height <= MAX_SIDE):
            raise ValueError(f"arena size {self.width}x{self.height} is outside 1..{MAX_SIDE}")
        if self.width * self.height > MAX_FIELDS:
            raise ValueError(_too_many_fields(self.width, self.height))
        if len(self.blocked) != self.width * self.height:
            raise ValueError("blocked must hold width*height fields")

    @classmethod
    def from_rows(cls, rows: list[str], starts: tuple[Start, ...] = ()) -> Arena:
        """An arena from rows of '.' and '#' (for tests and generators)."""
        width = len(rows[0]) if rows else 0
        if any(len(row) != width for row in rows) or any(c not in ".#" for row in rows for c in row):
            raise ValueError("rows must be equally long and hold only '.' and '#'")
        return cls(width, len(rows), bytes(1 if c == "#" else 0 for row in rows for c in row), starts)

    def index(self, x: int, y: int) -> int:
        """The flat index of field (x, y), both 1-based."""
        return (y - 1) * self.width + (x - 1)

    def inside(self, x: int, y: int) -> bool:
        return 1 <= x <= self.width and 1 <= y <= self.height

    def is_blocked(self, x: int, y: int) -> bool:
        return bool(self.blocked[self.index(x, y)])

    def rows(self) -> list[str]:
        w = self.width
        return ["".join("#" if b else "." for b in self.blocked[y * w : (y + 1) * w]) for y in range(self.height)]

    def with_starts(self, starts: tuple[Start, ...]) -> Arena:
        return Arena(self.width, self.height, self.blocked, starts)

    @property
    def default_bots(self) -> int:
        """How many bots a game here takes unless told otherwise: one per start line, else two."""
        return len(self.starts) or 2

    def starts_for(self, bots: int) -> tuple[Start, ...]:
        """Where ``bots`` bots start: the start lines, or the contest's default for one or two bots.

        Raises ValueError (a one-line reason) when the arena cannot host that many bots.
        """
        if bots < 1:
            raise ValueError("a game needs at least one bot")
        if self.starts:
            if bots > len(self.starts):
                raise ValueError(f"{bots} bots but the arena has only {len(self.starts)} start line(s)")
            return self.starts[:bots]
        if bots > 2:
            raise ValueError(f"{bots} bots need start lines in the arena (without them only 1 or 2 can play)")
        row = (self.height + 1) // 2
        first = Start(self.width // 4 + 1, row, Heading.EAST)
        second = Start(self.width - self.width // 4, row, Heading.WEST)
        chosen = (first, second)[:bots]
        for number, start in enumerate(chosen, 1):
            if self.is_blocked(start.x, start.y):
                raise ValueError(f"default start of bot {number} at {start.x},{start.y} is blocked")
        if bots == 2 and (first.x, first.y) == (second.x, second.y):
            raise ValueError(f"both default starts fall on {first.x},{first.y} (the arena is too narrow)")
        return chosen


def _too_many_fields(width: int, height: int) -> str:
    return f"arena size {width}x{height} has {width * height} fields, more than the limit of {MAX_FIELDS}"


def _quote(text: str) -> str:
    return shown(text, _QUOTE)


_HEADER = re.compile(r"GAMEBOARDSTART (\d{1,9}),(\d{1,9})")
_POS = re.compile(r"POS (\d{1,9}) (\d{1,9}),(\d{1,9}) (\S+)")


def parse_arena(text: str, path: str | Path | None = None) -> Arena:
    """Parse arena-file text; InputError naming line and column on every problem."""
    lines = [line.rstrip() for line in text.split("\n")]
    if lines and not lines[-1]:
        lines.pop()  # the line end of the last line
    number = 0
    while number < len(lines) and not lines[number]:
        number += 1
    if number == len(lines):
        raise InputError("empty file: expected 'GAMEBOARDSTART n,m'", path, 1, 1)
    header = _HEADER.fullmatch(lines[number])
    if header is None:
        refuse_lone_carriage_return(lines[number], path, number + 1)
        raise InputError(
            f"expected 'GAMEBOARDSTART n,m' (width,height), found {_quote(lines[number])}", path, number + 1, 1
        )
    width, height = int(header[1]), int(header[2])
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise InputError(f"arena size {width}x{height} is outside 1..{MAX_SIDE}", path, number + 1, 16)
    if width * height > MAX_FIELDS:
        raise InputError(_too_many_fields(width, height), path, number + 1, 16)
    blocked = bytearray()
    for row in range(height):
        number += 1
        if number >= len(lines) or lines[number] == "GAMEBOARDEND":
            raise InputError(f"row {row + 1} of {height} is missing", path, number + 1, 1)
        line = lines[number]
        for column, char in enumerate(line[:width]):
            if char not in ".#":
                raise InputError(
                    f"unknown field {char!r}: only '.' (free) and '#' (blocked)", path, number + 1, column + 1
                )
        if len(line) != width:
            col = min(len(line), width) + 1
            raise InputError(f"row is {len(line)} fields long, the arena is {width} wide", path, number + 1, col)
        blocked += bytes(1 if char == "#" else 0 for char in line)
    number += 1
    if number >= len(lines) or lines[number] != "GAMEBOARDEND":
        found = _quote(lines[number]) if number < len(lines) else "the end of the file"
        raise InputError(f"expected 'GAMEBOARDEND' after {height} rows, found {found}", path, number + 1, 1)
    starts: dict[int, tuple[Start, int]] = {}
    for index in range(number + 1, len(lines)):
        line = lines[index]
        if not line:
            continue
        starts_line = _parse_start(line, path, index + 1, width, height, blocked)
        bot, start = starts_line
        if bot in starts:
            raise InputError(f"a second start for bot {bot} (first on line {starts[bot][1]})", path, index + 1, 5)
        for other, (seen, seen_line) in starts.items():
            if (seen.x, seen.y) == (start.x, start.y):
                raise InputError(
                    f"bot {bot} starts on {start.x},{start.y} like bot {other} (line {seen_line})", path, index + 1, 5
                )
        starts[bot] = (start, index + 1)
    expected = set(range(1, len(starts) + 1))
    if set(starts) != expected:
        missing = min(expected - set(starts))
        last = max(line for _, line in starts.values())
        raise InputError(f"start lines must number bots 1..{len(starts)}: bot {missing} has none", path, last, 5)
    return Arena(width, height, bytes(blocked), tuple(starts[p][0] for p in sorted(starts)))


def _parse_start(
    line: str, path: str | Path | None, line_no: int, width: int, height: int, blocked: bytearray
) -> tuple[int, Start]:
    match = _POS.fullmatch(line)
    if match is None:
        raise InputError(f"expected a start line 'POS p x,y DIR', found {_quote(line)}", path, line_no, 1)
    bot, x, y = int(match[1]), int(match[2]), int(match[3])
    if bot < 1:
        raise InputError("bot numbers start at 1", path, line_no, match.start(1) + 1)
    if not (1 <= x <= width and 1 <= y <= height):
        raise InputError(f"start {x},{y} is outside the {width}x{height} arena", path, line_no, match.start(2) + 1)
    if blocked[(y - 1) * width + (x - 1)]:
        raise InputError(f"bot {bot} starts on the blocked field {x},{y}", path, line_no, match.start(2) + 1)
    try:
        heading, short = Heading.parse(match[4], short_ok=True)
    except ValueError:
        raise InputError(
            f"unknown direction {_quote(match[4])}: NORTH, EAST, SOUTH, WEST (or N, E, S, W)",
            path,
            line_no,
            match.start(4) + 1,
        ) from None
    return bot, Start(x, y, heading, short)


def write_board_lines(arena: Arena) -> list[str]:
    """The lines the server sends: header, rows, ``GAMEBOARDEND`` (never the start lines)."""
    return [f"GAMEBOARDSTART {arena.width},{arena.height}", *arena.rows(), "GAMEBOARDEND"]


def write_arena(arena: Arena) -> str:
    """The canonical arena-file text, start lines included, every line ending in ``\\n``."""
    lines = write_board_lines(arena)
    for bot, start in enumerate(arena.starts, 1):
        word = start.heading.letter if start.short else start.heading.name
        lines.append(f"POS {bot} {start.x},{start.y} {word}")
    return "".join(line + "\n" for line in lines)


def load_arena(path: str | Path) -> Arena:
    """Read and parse an arena file; every problem is an InputError naming the file."""
    return parse_arena(read_text(path), path)


def save_arena(arena: Arena, path: str | Path) -> None:
    """Write an arena file atomically (temporary file, then rename): a crash never loses the old one."""
    from engine.atomic import write_text_atomic

    write_text_atomic(path, write_arena(arena))
