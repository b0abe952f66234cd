"""The game-file reader under fuzzing: whatever a damaged or hand-edited file holds, reading it
either gives a game or one ``InputError`` line (never another exception, never a traceback)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InputError
from engine.tron.arena import parse_arena
from engine.tron.record import BotInfo, GameRecord, RoundRecord, parse_game, write_game

ARENA = parse_arena("GAMEBOARDSTART 4,2\n....\n....\nGAMEBOARDEND\nPOS 1 1,1 E\nPOS 2 4,2 W\n")
GOOD = json.loads(
    write_game(
        GameRecord(
            ARENA,
            (BotInfo("one", ("./one",)), BotInfo("two", ("./two",))),
            (RoundRecord({1: "AHEAD", 2: "LEFT"}, {}, [], {1: 0.01, 2: 0.02}),),
            1.0,
        )
    )
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**12) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def _replace_at(data: Any, path: list[int], value: Any) -> Any:
    """``data`` with one nested value (chosen by ``path`` indexes) replaced by ``value``."""
    if not path or not isinstance(data, (dict, list)) or not data:
        return value
    keys = list(data) if isinstance(data, dict) else list(range(len(data)))
    key = keys[path[0] % len(keys)]
    copy: Any = dict(data) if isinstance(data, dict) else list(data)
    copy[key] = _replace_at(copy[key], path[1:], value)
    return copy


def _reads_cleanly(text: str) -> None:
    try:
        parse_game(text, "game.json")
    except InputError as exc:
        line = str(exc)
        assert "\n" not in line and line.startswith("game.json")
        assert len(line) < 400


@settings(max_examples=300, deadline=None)
@given(path=st.lists(st.integers(0, 50), max_size=5), value=json_values)
def test_one_changed_value_reads_cleanly(path: list[int], value: Any) -> None:
    _reads_cleanly(json.dumps(_replace_at(GOOD, path, value)))


@settings(max_examples=300, deadline=None)
@given(cut=st.integers(0, 10_000), junk=st.text(max_size=20))
def test_cut_or_spliced_text_reads_cleanly(cut: int, junk: str) -> None:
    text = json.dumps(GOOD)
    cut %= len(text) + 1
    _reads_cleanly(text[:cut] + junk + text[cut:])
    _reads_cleanly(text[:cut])


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ([1], {"x" * 300: [None] * 50}),  # "version": a long value is quoted cut to 80 characters
        ([5, 0, 0], {"²": "AHEAD"}),  # "rounds"[0]["answers"]: a digit int() refuses
        ([5, 0, 0], {"9" * 5000: "AHEAD"}),  # a bot number of 5,000 digits
        ([5, 0, 0], {"1": "x" * 500}),  # an answer that is a whole page
        ([3], 10**400),  # "time_limit" too big for a float
        ([5, 0, 2], {"1": 10**400}),  # "ms" too big for a float
    ],
)
def test_found_by_fuzzing(path: list[int], value: Any) -> None:
    _reads_cleanly(json.dumps(_replace_at(GOOD, path, value)))
