"""Every worked example in docs/rules.md is true: each ```example block is played through the engine.

Block format (defined in docs/rules.md): ``board |row|`` then further ``|row|`` lines, and the keys
``level``, ``start`` (``x y F``), ``cards`` (comma separated), ``final`` (``x y F state``) and
``lines`` (sequence lines, cards separated by ``----``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .cases import Case, check

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
    return Case(f"example {number}", "/".join(rows), fields["level"], fields["start"], fields["cards"],
                " ".join(pose), STATES[state], fields["lines"])


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
