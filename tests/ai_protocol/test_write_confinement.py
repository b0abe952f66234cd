"""With --ai-limit sandbox=1 an AI program writes only in its own folder (Landlock), never the organiser's files."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.ai import landlock
from engine.ai.external import ExternalAI
from engine.ai.supervise import AILimits
from engine.boardfile import load_board
from engine.model import Level

from .conftest import CHOP, ScriptMaker
from .test_external_failures import HAND

needs_landlock = pytest.mark.skipif(not landlock.available(), reason="this kernel has no Landlock")

ESCAPE = """head -5 cards.txt > ccards.txt
echo escaped > ../escaped-up
echo escaped > "{outside}/escaped-abs"
rm -f "{outside}/keep.txt"
t=$(mktemp) && echo ok > "$t" && echo notes > notes.txt && mkdir -p sub && mv notes.txt sub/ && echo ok >/dev/null
echo "inside: $?"
"""


@needs_landlock
def test_writes_outside_the_folder_are_refused_inside_allowed(make_script: ScriptMaker, tmp_path: Path) -> None:
    outside = tmp_path / "organiser"
    outside.mkdir()
    (outside / "keep.txt").write_text("results\n")
    log = tmp_path / "ai.log"
    program = make_script("escaper", ESCAPE.format(outside=outside))
    board = load_board(CHOP)
    with ExternalAI(program, limits=AILimits.parse(["sandbox=1"]), log_path=log) as ai:
        assert ai(board, Level.HARD, board.start, HAND) == list(HAND[:5])
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]
    assert (outside / "keep.txt").read_text() == "results\n"
    text = log.read_text()
    assert "escaped-abs: Permission denied" in text
    assert "inside: 0" in text  # its own folder, mktemp's TMPDIR and /dev/null stay writable


def test_a_sandbox_asked_for_where_there_is_none_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """sandbox=1 on a kernel without Landlock did nothing, silently: the organiser believed the AIs kept in."""
    from engine.errors import InputError

    monkeypatch.setattr(landlock, "available", lambda: False)
    with pytest.raises(InputError, match=r"sandbox=1: this system has no Landlock"):
        AILimits.parse(["sandbox=1"])
    assert AILimits.parse(["sandbox=0"]).sandbox == 0


def test_an_ai_the_sandbox_cannot_hold_is_not_run(
    make_script: ScriptMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where Landlock refused, the program ran unconfined; now it is not run, and its log says why."""
    from engine.game import AIError

    monkeypatch.setattr(landlock, "available", lambda: True)
    monkeypatch.setattr(landlock, "abi_version", lambda: 1)
    monkeypatch.setattr(landlock, "confine_writes", lambda folder, abi: False)  # the forked child sees it too
    outside = tmp_path / "organiser"
    outside.mkdir()
    program = make_script("escaper", ESCAPE.format(outside=outside))
    board = load_board(CHOP)
    log = tmp_path / "ai.log"
    with (
        pytest.raises(AIError, match="cannot keep this AI program's writes in its folder"),
        ExternalAI(program, limits=AILimits.parse(["sandbox=1"]), log_path=log) as ai,
    ):
        ai(board, Level.HARD, board.start, HAND)
    assert not (outside / "escaped-abs").exists()


def test_sandbox_is_on_or_off() -> None:
    """sandbox=5 was taken as on; the docs say sandbox=1."""
    from engine.errors import InputError

    with pytest.raises(InputError, match="sandbox"):
        AILimits.parse(["sandbox=5"])
