"""Limits on what the readers accept, and number parsing that checks them *before* converting.

Python refuses to convert decimal strings of more than 4,300 digits (a ``ValueError`` that no
reader expected), and a number that converts fine can still ask for gigabytes (a board header
``10000 10000``) or overflow a system call (``--timeout 1e300``).  Every number the project
reads from a file or a command line goes through :func:`parse_count` or :func:`check_seconds`,
so a bad one is a one-line :class:`InputError` instead.  docs/limits.md lists the limits.
"""

from __future__ import annotations

import math
from pathlib import Path

from engine.errors import InputError

#: A board side longer than this is refused (the contest's boards are 12 x 12 to 30 x 30).
MAX_BOARD_SIDE = 1000
#: A board with more tiles than this is refused before any tile is read: checking a board
#: takes about 120 bytes a tile, so this caps a board at about 32 MB. It is exactly 512 x 512,
#: the largest board the viewer is built and measured for (docs/benchmarks-viewer.md).
MAX_BOARD_TILES = 512 * 512
#: Longest AI time limit accepted, in seconds (a day); longer is surely a typo.
MAX_TIMEOUT = 86_400.0
#: Digits accepted in a whole number before it is converted (far above any real value).
MAX_DIGITS = 18
#: Most bytes read from any one input file (a 512 x 512 board takes about 0.3 MB, a deck 28 KB,
#: a long Tron game a few MB); beyond it the file is refused unread (``/dev/zero`` never ends).
MAX_FILE_BYTES = 64 * 1024 * 1024


def cut(text: str, limit: int = 60) -> str:
    """``text`` cut to about ``limit`` characters (with ``...``), for error messages quoting user input."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(text: str, limit: int = 60) -> str:
    """``repr(text)`` cut to at most ``limit`` characters (a shorter prefix's repr, then ``...``),
    for error messages quoting user input.

    The repr is what is measured: a control or unprintable character shows as 4 to 10 characters
    (``\\x01``, ``\\U000e0001``), so cutting the text to ``limit`` characters first let a binary
    line quote more than 500.
    """
    whole = repr(text)
    if len(whole) <= limit:
        return whole
    low, high = 0, min(len(text), limit)  # the longest prefix whose repr and "..." fit in limit
    while low < high:
        middle = (low + high + 1) // 2
        if len(repr(text[:middle])) + 3 <= limit:
            low = middle
        else:
            high = middle - 1
    return repr(text[:low]) + "..."


def parse_count(
    text: str,
    what: str,
    low: int,
    high: int,
    path: str | Path | None = None,
    line: int | None = None,
    column: int | None = None,
    *,
    signed: bool = False,
) -> int:
    """``text`` as a whole number in ``low..high``; InputError naming ``what`` otherwise.

    The digits are checked before ``int()`` is called, so a 5,000-digit number is a clean error.
    """
    digits = text[1:] if signed and text[:1] in "+-" and len(text) > 1 else text
    short = text if len(text) <= 20 else text[:17] + "..."
    if not (digits.isascii() and digits.isdigit()):
        raise InputError(f"{what} must be a whole number, not {shown(text, 20)}", path, line, column)
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise InputError(f"{what} {short} is out of range {low}..{high}", path, line, column)
    value = int(text)
    if not low <= value <= high:
        raise InputError(f"{what} {short} is out of range {low}..{high}", path, line, column)
    return value


def check_seconds(seconds: float, what: str = "timeout") -> float:
    """``seconds`` if it is a finite number in (0, MAX_TIMEOUT]; InputError otherwise (nan, inf, 0, 1e300)."""
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIMEOUT):
        raise InputError(f"{what} must be a positive number of seconds, at most {MAX_TIMEOUT:g}, not {seconds:g}")
    return seconds


def parse_seconds(text: str, what: str = "timeout") -> float:
    """A command-line number of seconds, checked by :func:`check_seconds`."""
    try:
        seconds = float(text)
    except ValueError:
        raise InputError(f"{what} must be a number of seconds, not {shown(text, 20)}") from None
    return check_seconds(seconds, what)


def check_board_size(width: int, height: int, path: str | Path | None = None) -> None:
    """Refuse a board header whose board would be too large, before a single row is read."""
    if not (1 <= width <= MAX_BOARD_SIDE and 1 <= height <= MAX_BOARD_SIDE):
        raise InputError(f"board size {width}x{height}: each side must be 1..{MAX_BOARD_SIDE}", path, 1, 1)
    if width * height > MAX_BOARD_TILES:
        raise InputError(
            f"board size {width}x{height} has {width * height} tiles, more than the limit of {MAX_BOARD_TILES}",
            path,
            1,
            1,
        )


#: JSON nested deeper than this is refused before parsing (our files nest two or three levels).
MAX_JSON_DEPTH = 32


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> tuple[int, int] | None:
    """(line, column) where ``text`` first nests JSON arrays/objects deeper than ``limit``; None if it does not.

    Brackets inside strings do not count.  Checked before ``json.loads``, which would otherwise
    recurse once per level and end in a RecursionError (or worse) on a hostile file.

    A text with no more than ``limit`` opening brackets in all cannot nest deeper: it is not walked
    a character at a time (``str.count`` runs in C; the walk took 24 s on a 63 MiB ``game.json``
    of one long string, or of digits).
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    in_string = escaped = False
    line, line_start = 1, 0
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return line, index - line_start + 1
        elif char in "]}":
            depth -= 1
        if char == "\n":
            line, line_start = line + 1, index + 1
    return None
