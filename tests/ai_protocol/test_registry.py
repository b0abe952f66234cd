"""Resolving ``--ai`` names: built-ins, program paths, and clean errors for everything else."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.ai.base import AI, BaseAI, ai_name
from engine.ai.external import ExternalAI
from engine.ai.reference import ReferenceAI, reference_chooser
from engine.ai.registry import ai_help, list_ais, resolve_ai
from engine.boardfile import load_board
from engine.cards import Card
from engine.conformance import reference_chooser as old_import
from engine.errors import InputError
from engine.model import Level

from .conftest import CHOP, ROOT, ScriptMaker

HAND = (Card.RU, Card.MF1, Card.MB, Card.MF1, Card.RL, Card.MF3, Card.MF2, Card.RR)


def test_reference_plays_first_five_in_dealt_order() -> None:
    board = load_board(CHOP)
    assert reference_chooser(board, Level.HARD, board.start, HAND) == HAND[:5]
    assert ReferenceAI()(board, Level.EASY, board.start, HAND) == list(HAND[:5])
    assert old_import is reference_chooser


def test_builtin_reference_resolves() -> None:
    ai = resolve_ai("reference")
    assert isinstance(ai, ReferenceAI) and isinstance(ai, AI)
    assert ai_name(ai) == "reference"


def test_list_ais_names_builtins() -> None:
    names = [name for name, _ in list_ais()]
    assert names[:2] == ["reference", "planner"]
    assert all(description for _, description in list_ais())
    assert "reference" in ai_help() and "planner" in ai_help()


def test_planner_resolves_to_the_built_in_planner() -> None:
    from engine.ai.planner import Planner

    ai = resolve_ai("planner")
    assert isinstance(ai, Planner) and ai.name == "planner"


def test_program_path_resolves_to_external_ai(make_script: ScriptMaker, tmp_path: Path) -> None:
    program = make_script("bot", "head -n 5 cards.txt > ccards.txt\n")
    ai = resolve_ai(str(program), timeout=3.0, log_path=tmp_path / "log")
    assert isinstance(ai, ExternalAI)
    assert ai.timeout == 3.0 and ai.log_path == tmp_path / "log"
    assert ai_name(ai) == str(program)


def test_example_path_relative_to_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    ai = resolve_ai("examples/python/bot.py")
    assert isinstance(ai, ExternalAI)
    assert Path(ai.argv[0]) == ROOT / "examples" / "python" / "bot.py"


@pytest.mark.parametrize(
    ("spec", "pattern"),
    [
        ("planer", r"unknown AI 'planer': not a built-in AI \(reference, planner\)"),
        ("", "no AI given"),
        ("./no/such/bot", "no such AI program"),
    ],
)
def test_bad_specs(spec: str, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern) as info:
        resolve_ai(spec)
    assert "\n" not in str(info.value)


def test_directory_and_non_executable(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a directory"):
        resolve_ai(str(tmp_path))
    plain = tmp_path / "bot.py"
    plain.write_text("#!/usr/bin/env python3\nprint()\n")
    with pytest.raises(InputError, match=r"not executable \(try: chmod \+x"):
        resolve_ai(str(plain))


def test_a_fifo_or_a_device_is_no_ai_program(tmp_path: Path) -> None:
    """A FIFO given as the AI was told 'AI program is not executable (try: chmod +x ...)'."""
    import os

    fifo = tmp_path / "bot"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "FIFO (named pipe)"), (Path("/dev/null"), "device")):
        with pytest.raises(InputError) as info:
            resolve_ai(str(path))
        assert str(info.value) == f"{path}: cannot run this AI program: {path.name} is a {kind}, not a program"


def test_bad_timeout(make_script: ScriptMaker) -> None:
    with pytest.raises(InputError, match="timeout must be positive"):
        resolve_ai(str(make_script("bot", "true\n")), timeout=0)


def test_base_ai_subclass_is_a_chooser() -> None:
    class Backwards(BaseAI):
        name = "backwards"

        def choose(self, board: object, level: object, pose: object, hand: tuple[Card, ...]) -> list[Card]:
            return list(reversed(hand))[:5]

    board = load_board(CHOP)
    ai = Backwards()
    assert ai(board, Level.HARD, board.start, HAND) == list(reversed(HAND))[:5]
    assert ai_name(ai) == "backwards" and isinstance(ai, AI)
