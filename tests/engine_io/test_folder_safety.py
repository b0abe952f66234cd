"""The contest-style game folder: ``load`` is all or nothing, and two ``start`` at once lose no round."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.deck import generate_deck, save_deck
from engine.session import STATE_FILE
from tests.fifo_guard import never_stuck_on

from .conftest import CHOP

ROOT = Path(__file__).resolve().parents[2]


def test_failed_load_changes_nothing(engine, tmp_path: Path) -> None:
    small = tmp_path / "small.dat"
    small.write_text("3 1\nT Z\n")
    assert engine("load", str(CHOP)).code == 0
    before = {name: (tmp_path / name).read_text() for name in ("board.txt", "bot.txt", STATE_FILE)}
    (tmp_path / "ascii-board.txt").unlink()
    (tmp_path / "ascii-board.txt").mkdir()  # in the way of one of the files load writes
    result = engine("load", str(small))
    assert result.code == 2 and result.err.count("\n") == 1
    assert "ascii-board.txt" in result.err and "Traceback" not in result.err
    after = {name: (tmp_path / name).read_text() for name in before}
    assert after == before, "a failed load must not half-apply"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def _engine_process(folder: Path, *argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "engine.cli", *argv],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_starts_at_once_play_two_rounds(engine, tmp_path: Path) -> None:
    save_deck(generate_deck(4), tmp_path / "deck.dat")
    assert engine("load", str(CHOP), "deck.dat", "easy").code == 0
    # The first AI run announces itself through a FIFO, then waits until the test lets it go.
    os.mkfifo(tmp_path / "inside")
    os.mkfifo(tmp_path / "go")
    bot = tmp_path / "bot-ki"
    bot.write_text(
        "#!/bin/sh\n"
        "if [ ! -e first-done ]; then echo in > inside; read line < go; touch first-done; fi\n"
        "echo ran >> runs.log\nhead -5 cards.txt > ccards.txt\n"
    )
    bot.chmod(0o755)
    first = _engine_process(tmp_path, "start", "--timeout", "600")
    with open(tmp_path / "inside") as fifo:
        assert fifo.read().strip() == "in"  # the first start's AI is running now
    second = _engine_process(tmp_path, "start", "--timeout", "600")
    assert second.stderr is not None
    assert "waiting for it to finish" in second.stderr.readline()
    with open(tmp_path / "go", "w") as fifo:
        fifo.write("go\n")
    assert first.wait(timeout=120) == 0 and second.wait(timeout=120) == 0
    state = json.loads((tmp_path / STATE_FILE).read_text())
    assert len(state["chosen"]) == 2 and state["round"] == 3
    assert (tmp_path / "runs.log").read_text() == "ran\nran\n"
    assert first.stdout is not None and second.stdout is not None
    assert "round 1:" in first.stdout.read() and "round 2:" in second.stdout.read()


def test_start_never_writes_through_what_bot_ki_planted(engine, tmp_path: Path) -> None:
    """bot-ki runs in the game folder: it linked bot-ki.log and rounds.jsonl to a file of the
    user's (start emptied it and wrote its log into it) and made bot-ki.log a FIFO (start waited
    for a reader for ever). Both are replaced by the engine's own files now."""
    victim = tmp_path.parent / f"{tmp_path.name}-precious.txt"
    victim.write_text("keep me\n")
    bot = tmp_path / "bot-ki"
    bot.write_text(
        "#!/bin/sh\n"
        f"rm -f bot-ki.log rounds.jsonl; ln -s '{victim}' rounds.jsonl\n"
        f"if [ -e second ]; then mkfifo bot-ki.log; else ln -s '{victim}' bot-ki.log; touch second; fi\n"
        "head -5 cards.txt > ccards.txt\n"
    )
    bot.chmod(0o755)
    save_deck(generate_deck(4), tmp_path / "deck.dat")
    assert engine("load", str(CHOP), "deck.dat", "easy").code == 0
    with never_stuck_on(tmp_path / "bot-ki.log", writers=True):
        results = [engine("start", "--timeout", "30") for _ in range(2)]
    for result in results:
        assert result.code in (0, 1), result.err
    assert not (tmp_path / "bot-ki.log").is_symlink() and not (tmp_path / "rounds.jsonl").is_symlink()
    assert (tmp_path / "bot-ki.log").read_text().startswith("--- round")
    assert [json.loads(line)["round"] for line in (tmp_path / "rounds.jsonl").read_text().splitlines()] == [2]
    assert victim.read_text() == "keep me\n"
    victim.unlink()
