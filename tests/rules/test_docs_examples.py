"""Every worked example in docs/rules.md is true: each ```example block is played through the engine.

Block format (defined in docs/rules.md): ``board |row|`` then further ``|row|`` lines, and the keys
``level``, ``start`` (``x y F``), ``cards`` (comma separated), ``final`` (``x y F state``) and
``lines`` (sequence lines, cards separated by ``----``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.boardfile import load_board
from engine.deck import load_deck
from engine.game import play_game
from engine.model import Board, Level
from engine.outputs import format_globalseq, format_stats, last_sequence

from .cases import Case, check
from .game_helpers import deck_of, first_five

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
STATES = {"alive": "A", "destroyed": "X", "finished": "Z"}


def _parse_block(block: str, number: int) -> Case:
    rows: list[str] = []
    fields: dict[str, str] = {}
    for line in block.splitlines():
        row = re.fullmatch(r"(?:board )?\|(.*)\|", line)
        if row:
            rows.append(row.group(1))
            continue
        key, _, value = line.partition(" ")
        fields[key] = value.strip()
    assert rows, f"example {number} has no board"
    assert set(fields) == {"level", "start", "cards", "final", "lines"}, f"example {number}: {sorted(fields)}"
    *pose, state = fields["final"].split()
    return Case(
        f"example {number}",
        "/".join(rows),
        fields["level"],
        fields["start"],
        fields["cards"],
        " ".join(pose),
        STATES[state],
        fields["lines"],
    )


def examples() -> list[Case]:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"^```example\n(.*?)^```$", text, flags=re.S | re.M)
    return [_parse_block(block, i + 1) for i, block in enumerate(blocks)]


EXAMPLES = examples()


def test_there_are_many_examples() -> None:
    assert len(EXAMPLES) >= 30


def test_every_element_has_an_example() -> None:
    used = {char for case in EXAMPLES for char in case.rows}
    for char in "HOZLR<>^vCDEFMNpbci":
        assert char in used, f"no worked example uses {char!r}"
    assert used & set("STUV")
    assert {case.level for case in EXAMPLES} == {"easy", "normal", "hard"}


@pytest.mark.parametrize("case", EXAMPLES, ids=str)
def test_example_is_true(case: Case) -> None:
    check(case)


def _block(kind: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(rf"^```{kind}\n(.*?)^```$", text, flags=re.S | re.M)
    assert len(found) == 1, kind
    return str(found[0])


def test_whole_game_example_and_its_files() -> None:
    setup = _block("game")
    rows = [m.group(1) for m in re.finditer(r"\|(.*)\|", setup)]
    level = re.search(r"^level (\w+)$", setup, flags=re.M)
    deck = re.search(r"^deck +(.*)$", setup, flags=re.M)
    assert level and deck
    game = play_game(Board.from_strings(rows), Level(level.group(1)), deck_of(deck.group(1)), first_five)
    assert format_globalseq(game) == _block("game-globalseq")
    assert last_sequence(game) == _block("game-sequence")
    assert format_stats(game) == _block("game-stats")


def test_stats_example_is_chop_normal_deck_2() -> None:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"\n\n((?:    \w[^\n]*\n){7})", text[text.index("**stats.txt**") :])
    assert match
    expected = "".join(line[4:] + "\n" for line in match.group(1).splitlines())
    root = DOC.parents[1]
    game = play_game(
        load_board(root / "gameboards" / "chop.dat"),
        Level.NORMAL,
        load_deck(root / "tests" / "data" / "conformance" / "decks" / "deck-2.txt"),
        first_five,
    )
    assert format_stats(game) == expected
