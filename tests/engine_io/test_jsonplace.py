"""``json_place`` finds where a value sits in a JSON text, for errors about what a file holds."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.jsonplace import json_place, line_and_column

TEXT = '{\n  "name": "x",\n  "3d": {"wall_colour": "#123",\n         "height": [1, {"a": null}, 3]},\n  "name": 5\n}\n'


@pytest.mark.parametrize(
    ("path", "place"),
    [
        ((), (1, 1)),
        (("3d",), (3, 9)),
        (("3d", "wall_colour"), (3, 25)),
        (("3d", "height"), (4, 20)),
        (("3d", "height", 1), (4, 24)),
        (("3d", "height", 1, "a"), (4, 30)),
        (("3d", "height", 2), (4, 37)),
        (("name",), (5, 11)),  # a key given twice counts as its last, as json.loads keeps it
        (("3d", "missing"), (3, 9)),  # the deepest part that exists
        (("3d", "height", 7), (4, 20)),
        (("3d", 0), (3, 9)),  # an index into an object: no such child
    ],
)
def test_places(path: tuple[str | int, ...], place: tuple[int, int]) -> None:
    assert json_place(TEXT, path) == place


def test_the_place_of_a_key() -> None:
    assert json_place(TEXT, ("3d", "wall_colour"), key=True) == (3, 10)
    assert json_place(TEXT, ("name",), key=True) == (5, 3)
    assert json_place(TEXT, ("3d", "height", 1), key=True) == (4, 24)  # an index: its value


def test_text_that_is_not_json_that_far_has_no_place() -> None:
    assert json_place('{"a": [1, 2', ("a", 5)) is None
    assert json_place("", ("a",)) is None


def _paths(value: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], Any]]:
    found: list[tuple[tuple[str | int, ...], Any]] = [(prefix, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@given(JSON_VALUES, st.sampled_from([None, 0, 2]), st.booleans())
def test_every_value_is_found_where_it_starts(value: Any, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    lines = text.split("\n")
    for path, item in _paths(value):
        place = json_place(text, path)
        assert place is not None
        line, column = place
        offset = sum(len(row) + 1 for row in lines[: line - 1]) + column - 1
        assert line_and_column(text, offset) == place
        assert json.JSONDecoder().raw_decode(text, offset)[0] == item


def test_long_values_are_skipped_not_walked_a_character_at_a_time() -> None:
    """A 63 MiB game file of one long string took 37 s to place an error after it: every
    character was looked at in Python. Strings, numbers and containers are skipped in C now."""

    class Counted(str):
        looks = 0

        def __getitem__(self, index):  # type: ignore[no-untyped-def]
            Counted.looks += 1
            return super().__getitem__(index)

    long = "a\\\\" * 50_000
    numbers, items = "1" * 50_000, "2," * 50_000
    text = Counted(f'{{"a": "{long}", "b": {numbers}, "c": [{items} {{"d": "{long}"}}], "e": 1}}')
    assert json_place(text, ["e"]) == (1, len(text) - 1)
    assert Counted.looks < 100, Counted.looks
