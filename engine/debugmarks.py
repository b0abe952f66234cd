"""Debug marks: what an AI may draw on the board for one round, read from its ``debug.txt``.

An AI may write ``debug.txt`` next to ``ccards.txt`` each round (it is optional: the original
contest engine never reads it, so an AI writing it stays a valid contest entry).  One mark a
line; ``#`` starts a comment, blank lines are skipped::

    mark X Y COLOUR [LABEL]          tint tile (X, Y), with an optional short label
    arrow X1 Y1 X2 Y2 [COLOUR]       an arrow from tile (X1, Y1) to tile (X2, Y2)
    text MESSAGE                     a line of text shown with the round

COLOUR is one of :data:`COLOURS` or ``#rgb`` / ``#rrggbb``.  Coordinates are those of
``bot.txt`` (x to the right, y down, from 0).  Debug output must never end a game: a line that
cannot be read is reported with its line number and ignored, and what is kept is bounded
(:data:`MAX_MARKS` marks, :data:`MAX_BYTES` of file, labels and texts shortened).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DEBUG_FILE = "debug.txt"
#: Bytes of ``debug.txt`` read per round; the rest is ignored (and reported).
MAX_BYTES = 64 * 1024
#: Marks kept per round.
MAX_MARKS = 500
#: Problems reported per round (the first ones; a count says how many more).
MAX_PROBLEMS = 20
MAX_LABEL = 24
MAX_TEXT = 200

COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (230, 40, 40),
    "green": (40, 190, 60),
    "blue": (50, 100, 240),
    "yellow": (245, 215, 40),
    "orange": (250, 140, 20),
    "purple": (160, 60, 200),
    "cyan": (30, 200, 220),
    "magenta": (230, 50, 200),
    "white": (245, 245, 245),
    "black": (20, 20, 20),
    "grey": (128, 128, 128),
    "gray": (128, 128, 128),
}
DEFAULT_ARROW_COLOUR = (250, 140, 20)


@dataclass(frozen=True)
class TileMark:
    x: int
    y: int
    colour: tuple[int, int, int]
    label: str = ""


@dataclass(frozen=True)
class Arrow:
    x1: int
    y1: int
    x2: int
    y2: int
    colour: tuple[int, int, int] = DEFAULT_ARROW_COLOUR


@dataclass(frozen=True)
class TextLine:
    text: str


Mark = TileMark | Arrow | TextLine


@dataclass(frozen=True)
class DebugMarks:
    """One round's marks and the problems found reading them (``debug.txt:3: ...``)."""

    marks: tuple[Mark, ...] = ()
    problems: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.marks or self.problems)


def parse_colour(word: str) -> tuple[int, int, int]:
    """A colour name of :data:`COLOURS` or ``#rgb`` / ``#rrggbb``; ValueError otherwise."""
    named = COLOURS.get(word.lower())
    if named is not None:
        return named
    digits = word[1:] if word.startswith("#") else ""
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    if len(digits) == 6:
        try:
            value = int(digits, 16)
        except ValueError:
            pass
        else:
            return (value >> 16, (value >> 8) & 255, value & 255)
    names = ", ".join(c for c in COLOURS if c != "gray")
    raise ValueError(f"unknown colour {word[:20]!r} (use {names} or #rrggbb)")


def _printable(text: str, limit: int) -> str:
    clean = "".join(c if c.isprintable() else "?" for c in text).strip()
    return clean if len(clean) <= limit else clean[: limit - 3] + "..."


class _Reader:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height

    def tile(self, words: list[str], what: str) -> tuple[int, int]:
        try:
            x, y = int(words[0]), int(words[1])
        except ValueError:
            raise ValueError(f"{what} must be two whole numbers, not {' '.join(words)[:20]!r}") from None
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"tile {x} {y} lies outside the {self.width}x{self.height} board")
        return x, y

    def line(self, text: str) -> Mark:
        command, _, rest = text.strip().partition(" ")
        words = rest.split()
        if command == "mark":
            if len(words) < 3:
                raise ValueError("expected 'mark X Y COLOUR [LABEL]'")
            x, y = self.tile(words[:2], "X Y")
            label = rest.strip().split(None, 3)[3] if len(words) > 3 else ""
            return TileMark(x, y, parse_colour(words[2]), _printable(label, MAX_LABEL))
        if command == "arrow":
            if len(words) not in (4, 5):
                raise ValueError("expected 'arrow X1 Y1 X2 Y2 [COLOUR]'")
            x1, y1 = self.tile(words[:2], "X1 Y1")
            x2, y2 = self.tile(words[2:4], "X2 Y2")
            colour = parse_colour(words[4]) if len(words) == 5 else DEFAULT_ARROW_COLOUR
            return Arrow(x1, y1, x2, y2, colour)
        if command == "text":
            return TextLine(_printable(rest, MAX_TEXT))
        raise ValueError(f"unknown mark {_printable(command, 20)!r} (expected mark, arrow or text)")


def parse_debug(text: str, width: int, height: int, name: str = DEBUG_FILE, *, cut: bool = False) -> DebugMarks:
    """Read ``debug.txt`` for a ``width`` x ``height`` board; bad lines become problems, never errors.

    ``cut`` says the file was longer than :data:`MAX_BYTES` and only its start is in ``text``.
    """
    reader = _Reader(width, height)
    marks: list[Mark] = []
    problems: list[str] = []
    dropped = 0
    lines = text.splitlines()
    if cut and lines:
        lines.pop()  # the last line read is incomplete
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if len(marks) >= MAX_MARKS:
            dropped += 1
            continue
        try:
            marks.append(reader.line(line))
        except ValueError as exc:
            problems.append(f"{name}:{number}: {exc}: {_printable(line, 80)!r}")
    if dropped:
        problems.append(f"{name}: {dropped} marks after the first {MAX_MARKS} ignored")
    if len(problems) > MAX_PROBLEMS:
        problems = [*problems[:MAX_PROBLEMS], f"{name}: {len(problems) - MAX_PROBLEMS} more problems"]
    if cut:
        problems.insert(0, f"{name}: larger than {MAX_BYTES} bytes, only the start was read")
    return DebugMarks(tuple(marks), tuple(problems))


def _hex(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def marks_to_json(marks: DebugMarks) -> dict[str, Any]:
    """The form kept in ``rounds.jsonl``."""
    items: list[dict[str, Any]] = []
    for mark in marks.marks:
        if isinstance(mark, TileMark):
            items.append({"kind": "mark", "x": mark.x, "y": mark.y, "colour": _hex(mark.colour), "label": mark.label})
        elif isinstance(mark, Arrow):
            items.append(
                {"kind": "arrow", "from": [mark.x1, mark.y1], "to": [mark.x2, mark.y2], "colour": _hex(mark.colour)}
            )
        else:
            items.append({"kind": "text", "text": mark.text})
    return {"marks": items, "problems": list(marks.problems)}


def marks_from_json(data: Any, width: int, height: int) -> DebugMarks:
    """Read back :func:`marks_to_json`; anything unexpected is dropped (the file is ours, but may be edited)."""
    if not isinstance(data, dict):
        return DebugMarks()
    lines: list[str] = []
    for item in data.get("marks") or []:
        if not isinstance(item, dict):
            continue
        kind = item.get("kind")
        if kind == "mark":
            lines.append(f"mark {item.get('x')} {item.get('y')} {item.get('colour')} {item.get('label') or ''}")
        elif kind == "arrow":
            start, end = item.get("from") or [None, None], item.get("to") or [None, None]
            lines.append(f"arrow {start[0]} {start[1]} {end[0]} {end[1]} {item.get('colour')}")
        elif kind == "text":
            lines.append(f"text {item.get('text')}")
    parsed = parse_debug("\n".join(lines), width, height)
    problems = [str(p) for p in data.get("problems") or [] if isinstance(p, str)]
    return DebugMarks(parsed.marks, tuple(problems))
