"""Where a value sits in a JSON text: line and column for errors about what a file holds.

``json.loads`` says where the text stops being JSON, but once it is parsed the places are gone,
so an error about a value ("'level' must be one of easy, normal, hard") could name only the file.
``json_place`` walks the text again to the value at a path of keys and indexes; it is called only
when there is an error to report, so nothing is recorded for files that are fine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import InputError, parse_json_object

#: The text is skipped with regular expressions, which run in C: walked a character at a time in
#: Python, a 63 MiB game file of one long string took 37 s to name the place of an error in it.
_SPACES = re.compile(r"[ \t\n\r]*")
_STRING_REST = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # after the opening quote
_PRIMITIVE = re.compile(r"[^,\]} \t\n\r]*")  # a number, true, false or null
_NESTING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)  # a whole string, or a bracket


def json_place(text: str, path: Sequence[str | int], *, key: bool = False) -> tuple[int, int] | None:
    """Line and column (from 1) where the value at ``path`` starts in ``text`` (valid JSON), or
    where the deepest part of the path that exists starts; None when ``text`` is not JSON that far.

    With ``key``, the place of the last key of ``path`` itself (an unknown field is named where
    it is written). A key given twice in an object counts as its last (as ``json.loads`` keeps
    the last)."""
    try:
        offset = _skip_space(text, 0)
        for number, step in enumerate(path, 1):
            found = _child(text, offset, step)
            if found is None:
                break
            offset = found[0] if key and number == len(path) else found[1]
    except (IndexError, ValueError):
        return None
    return line_and_column(text, offset)


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text`` (lines end at ``\\n``)."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def _skip_space(text: str, at: int) -> int:
    return _SPACES.match(text, at).end()  # type: ignore[union-attr]  # matches the empty string too


def _child(text: str, at: int, step: str | int) -> tuple[int, int] | None:
    """Offsets of the key (an index: the value) and of the value of ``step`` in the object or array
    starting at ``at``."""
    opening = text[at]
    if opening == "{" and isinstance(step, str):
        found = None
        at = _skip_space(text, at + 1)
        while text[at] != "}":
            end = _after_string(text, at)
            name, start, at = json.loads(text[at:end]), at, end
            at = _skip_space(text, _skip_space(text, at) + 1)  # past the colon
            if name == step:
                found = (start, at)
            at = _after_value(text, at)
            at = _skip_space(text, at)
            if text[at] == ",":
                at = _skip_space(text, at + 1)
        return found
    if opening == "[" and isinstance(step, int) and not isinstance(step, bool):
        index = 0
        at = _skip_space(text, at + 1)
        while text[at] != "]":
            if index == step:
                return at, at
            at = _skip_space(text, _after_value(text, at))
            if text[at] == ",":
                at = _skip_space(text, at + 1)
            index += 1
    return None


def _after_value(text: str, at: int) -> int:
    """The offset just after the value starting at ``at``."""
    if text[at] == '"':
        return _after_string(text, at)
    if text[at] not in "[{":
        return _PRIMITIVE.match(text, at).end()  # type: ignore[union-attr]  # matches the empty string too
    depth = 0
    for found in _NESTING.finditer(text, at):
        first = text[found.start()]
        if first in "[{":
            depth += 1
        elif first in "]}":
            depth -= 1
            if depth == 0:
                return found.end()
    raise ValueError("a bracket is not closed")


def _after_string(text: str, at: int) -> int:
    """The offset just after the string whose opening quote is at ``at`` (escapes skipped)."""
    found = _STRING_REST.match(text, at + 1)
    if found is None:
        raise ValueError("a string is not closed")
    return found.end()


@dataclass(frozen=True)
class JsonSource:
    """A JSON file's text and name, for errors about the values in it: ``error`` names the file and
    the line and column of the value (or key) at a path."""

    text: str
    path: str | Path | None = None

    def error(
        self, message: str, keys: Sequence[str | int] = (), *, key: bool = False, kind: type[InputError] = InputError
    ) -> InputError:
        """``kind`` (an InputError) with ``message``, this file and the place of the value at ``keys``."""
        place = json_place(self.text, keys, key=key)
        line, column = place if place is not None else (None, None)
        return kind(message, self.path, line, column)

    def object_of_format(self, expected: int) -> dict[str, Any]:
        """The text as a JSON object whose ``"format"`` is ``expected`` (a file of a later or
        unknown format is refused at that field, not misread)."""
        from engine.bounds import cut  # engine.bounds builds on engine.errors, as this module does

        data = parse_json_object(self.text, self.path)
        version = data.get("format")
        if version != expected or isinstance(version, bool):
            raise self.error(
                f"unsupported format {cut(repr(version), 30)}, this program reads format {expected}", ("format",)
            )
        return data


def dotted(keys: Sequence[str | int]) -> str:
    """A path of keys as the messages write it: ``rounds[3].best.cards``."""
    text = ""
    for step in keys:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text
