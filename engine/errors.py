"""One error type for every bad input, so command lines can print one clean line.

``InputError`` is the base; each kind of input has its subclass (board, deck, sequence, AI
protocol), so a caller can catch exactly what it means to handle while the command lines still
catch them all. Every one carries the file, line and column where known.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from engine.textout import escape_bytes, escape_quoted_bytes


class InputError(Exception):
    """Bad input from a file or the user, located as precisely as we can.

    ``str()`` gives the one-line message printed by the command-line tools:
    ``path:line:column: message`` (parts that are unknown are left out).
    """

    def __init__(
        self, message: str, path: str | Path | None = None, line: int | None = None, column: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        self.column = column

    def located(self, path: str | Path) -> InputError:
        """The same error, naming ``path`` if it did not name a file yet."""
        if self.path is not None:
            return self
        return type(self)(self.message, path, self.line, self.column)

    def __str__(self) -> str:
        path = printable(self.path) if self.path is not None else None
        if path == "":  # an empty argument ('load chop "" normal'): "no such file" named nothing
            path = "''"
        where = [p for p in (path, self.line, self.column) if p is not None]
        prefix = ":".join(str(p) for p in where)
        return f"{prefix}: {self.message}" if prefix else self.message


#: Characters that would break a one-line message: control characters (newline, CR, ESC...) and DEL.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


def printable(text: str) -> str:
    """``text`` (a path, a message) kept to one printable line: control characters as Python escapes
    (``a\\nb``), and bytes of a file name that are not UTF-8 as ``\\xff``. A board named
    ``new<newline>line.dat`` made every error about it two lines."""
    text = escape_quoted_bytes(escape_bytes(text))
    return CONTROL_CHARACTERS.sub(lambda char: repr(char.group())[1:-1], text)


#: Most characters of the user's input an error message quotes.
QUOTE_LIMIT = 80
#: Most characters of a file or program name an error message shows when the name was read from a
#: file (game.json names the AI that ``round`` runs again): any length can be written there.
MAX_NAME_SHOWN = 120


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters (ending in ``...`` when cut): a message quotes
    what the user wrote, but a damaged file must not turn it into a screenful."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class BoardError(InputError):
    """A board file that cannot be read, or a board that cannot be played (no start, several...)."""


class DeckError(InputError):
    """A deck file with an unknown card or the wrong number of cards."""


class SequenceError(InputError):
    """A sequence file (``globalseq.txt``) that is malformed or contradicts its board."""


class ProtocolError(InputError):
    """A file of the contest's AI protocol (``bot.txt``, ``cards.txt``, ``ccards.txt``) or a game's state."""


#: What some Windows editors put before UTF-8 text; no file of the contest has one.
BYTE_ORDER_MARK = b"\xef\xbb\xbf"


def refuse_lone_carriage_return(
    line: str, path: str | Path | None, number: int, error: type[InputError] = InputError
) -> None:
    """``error`` at the first CR of ``line`` (one line of a file split at LF, a CRLF's CR already
    gone): a file with old Mac line ends (CR alone) is one long line, and quoting it
    (``'12 12\\rV e ev^f...'``) left the reader to guess why."""
    if "\r" in line:
        raise error(
            "lines end in a lone carriage return (CR, as on old Macs): save the file with LF line ends",
            path,
            number,
            line.index("\r") + 1,
        )


def read_text(path: str | Path, error: type[InputError] = InputError) -> str:
    """A text file's content as str; UTF-8, or Latin-1 when it is not UTF-8 (old boards).

    Raises ``error`` (the reader's own kind, e.g. BoardError) naming the file when it cannot be
    read. Only a regular file is read: a FIFO, a device or a socket is refused at once (opening a
    FIFO without a writer would wait for ever, and ``/dev/zero`` would never end), and no more
    than ``engine.bounds.MAX_FILE_BYTES`` of it (a file that grows while it is read stops there).
    """
    data = _read_input(path, error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_utf8(path: str | Path, error: type[InputError] = InputError) -> str:
    """``read_text`` for the JSON files the project writes (``game.json``, ``rounds.jsonl``, ...):
    JSON is UTF-8 (RFC 8259), so other bytes are refused where they are. Read as Latin-1 they
    became odd characters in a key, and the message blamed what was then missing
    (``1:1: unsupported format None``) instead of the byte at ``2:4``."""
    data = _read_input(path, error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = line_column(data, exc.start)
        raise error(f"not UTF-8 text (byte 0x{data[exc.start]:02x}): save it as UTF-8", path, line, column) from None


def _read_input(path: str | Path, error: type[InputError]) -> bytes:
    """The bytes of an input file for ``read_text`` and ``read_utf8``, refused as they say."""
    import errno

    from engine.atomic import NotARegularFile, read_regular  # engine.atomic imports nothing of ours
    from engine.bounds import MAX_FILE_BYTES  # engine.bounds builds on this module

    try:
        data = read_regular(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise error("no such file", path) from None
    except IsADirectoryError:
        raise error("is a directory, not a file", path) from None
    except NotARegularFile as exc:
        if exc.errno == errno.EFBIG:
            raise error(f"{exc.strerror}: far too large for any file read here", path) from None
        raise error(str(exc.strerror), path) from None
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", path) from None
    if data.startswith(BYTE_ORDER_MARK):  # else "unknown card '\ufeffRR'": true, but no help
        raise error("starts with a byte-order mark (EF BB BF): save it as UTF-8 without one", path, 1, 1)
    return data


def parse_json(text: str, path: str | Path | None = None, line: int = 1) -> Any:
    """Parse JSON of any type; InputError with line and column otherwise.

    ``line`` is the file's line ``text`` starts on (one line of a JSON-lines file), so a message
    names the line of the file. Nesting is checked first (``json`` recurses once per level: a
    RecursionError), and a number of more than 4,300 digits is located, not quoted at length.
    """
    from engine.bounds import MAX_JSON_DEPTH, json_too_deep  # engine.bounds builds on this module

    deep = json_too_deep(text)
    if deep is not None:
        raise InputError(
            f"not valid JSON here: nested more than {MAX_JSON_DEPTH} levels deep", path, deep[0] + line - 1, deep[1]
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", path, exc.lineno + line - 1, exc.colno) from None
    except RecursionError:
        raise InputError("not valid JSON: nested too deeply", path, line) from None
    except ValueError:  # a number of more than 4,300 digits, which int() refuses to convert
        at = long_number_at(text, line) or (line, None)
        raise InputError("not valid JSON here: a number of more than 4,300 digits", path, *at) from None


#: A run of digits longer than Python converts (``sys.get_int_max_str_digits``, 4,300 by default).
_LONG_NUMBER = re.compile(r"[0-9]{4301,}")


def long_number_at(text: str, line: int = 1) -> tuple[int, int] | None:
    """(line, column) of the first number in ``text`` too long for ``json.loads`` (its ValueError
    names no place), counting lines from ``line``; None if there is none."""
    found = _LONG_NUMBER.search(text)
    return None if found is None else line_column(text, found.start(), line)


def line_column(text: str | bytes, index: int, line: int = 1) -> tuple[int, int]:
    """The (line, column) of ``text[index]``, counting lines from ``line`` (columns of bytes count
    bytes: where a file is not UTF-8, ``UnicodeDecodeError.start``)."""
    newline = "\n" if isinstance(text, str) else b"\n"
    start = text.rfind(newline, 0, index) + 1  # type: ignore[arg-type]
    return line + text.count(newline, 0, index), index - start + 1  # type: ignore[arg-type]


def parse_json_object(text: str, path: str | Path | None = None) -> dict[str, Any]:
    """Parse JSON that must be an object; InputError with line and column otherwise."""
    data = parse_json(text, path)
    if not isinstance(data, dict):
        raise InputError(f"expected a JSON object, found {type(data).__name__}", path, 1, 1)
    return data
