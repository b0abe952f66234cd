"""The messages an AI author meets first name the cause and the fix, and the documented facts hold."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from engine.ai.external import ExternalAI
from engine.ai.registry import resolve_ai
from engine.boardfile import load_board
from engine.cards import Card
from engine.errors import InputError
from engine.game import AIError
from engine.model import Level

from .conftest import CHOP, ROOT, Runner, python_bot, write_program

GOOD = 'open("ccards.txt", "w").write("".join(open("cards.txt").readlines()[:5]))\n'
HAND = (Card.MF1, Card.MF2, Card.RL, Card.RR, Card.MB, Card.MF3, Card.RU, Card.MF1)


def one_round(program: Path | list[str], timeout: float = 10.0) -> list[Card]:
    board = load_board(CHOP)
    with ExternalAI(program, timeout=timeout) as ai:
        return ai(board, Level.HARD, board.start, HAND)


def test_script_without_shebang(engine: Runner, tmp_path: Path) -> None:
    write_program(tmp_path / "bot.py", GOOD)
    result = engine("play", str(CHOP), "--ai", "bot.py")
    assert result.code == 2
    assert "it has no '#!' line" in result.err and "--ai 'python3 " in result.err
    assert result.err.count("\n") == 1
    # The same program started without the up-front check (as ./bot-ki by 'start') says it too.
    with pytest.raises(AIError, match=r"Exec format error \(it has no '#!' line"):
        one_round(tmp_path / "bot.py")


def test_script_with_windows_line_ends(engine: Runner, tmp_path: Path) -> None:
    path = tmp_path / "bot.py"
    path.write_bytes(f"#!/usr/bin/env python3\r\n{GOOD}".replace("\n", "\r\n").replace("\r\r", "\r").encode())
    path.chmod(0o755)
    result = engine("play", str(CHOP), "--ai", "./bot.py")
    assert result.code == 2
    assert "Windows line ends" in result.err and "sed -i" in result.err
    with pytest.raises(AIError, match=r"exited with status 127.*Windows line ends"):
        one_round(path)


def test_interpreter_and_script_given_as_one_string(engine: Runner, tmp_path: Path) -> None:
    write_program(tmp_path / "bot.py", GOOD, executable=False)
    result = engine(
        "play",
        str(CHOP),
        "--seed",
        "25",
        "--level",
        "hard",
        "--ai",
        f"{Path(sys.executable).name} bot.py",
        "--out",
        "g",
    )
    assert result.code == 0, result.err
    assert "X (robot destroyed)" in result.out  # it plays the reference AI's cards
    missing = engine("play", str(CHOP), "--ai", "python3 nothere.py")
    assert missing.code == 2 and "nothere.py: no such file" in missing.err


def test_c_source_is_not_a_program(engine: Runner, tmp_path: Path) -> None:
    write_program(tmp_path / "bot.c", "int main(void) { return 0; }\n", executable=False)
    result = engine("play", str(CHOP), "--ai", "bot.c")
    assert result.code == 2
    assert "source code, not a program: compile it first (cc -O2 -o bot bot.c)" in result.err
    assert "chmod" not in result.err


def test_missing_interpreter(engine: Runner, tmp_path: Path) -> None:
    write_program(tmp_path / "bot", "#!/usr/bin/env no-such-interpreter-xyz\n")
    result = engine("play", str(CHOP), "--ai", "./bot")
    assert result.code == 2 and "'no-such-interpreter-xyz', which is not installed" in result.err


def test_program_that_writes_its_cards_but_does_not_exit(tmp_path: Path) -> None:
    """A shell script, not Python: the message depends on the cards being written before the limit,
    and a Python bot starting slowly on a loaded machine had not written them within 1 s."""
    bot = tmp_path / "slow.sh"
    bot.write_text("#!/bin/sh\nhead -n 5 cards.txt > ccards.txt\nexec sleep 2400\n")
    bot.chmod(0o755)
    with pytest.raises(AIError, match=r"timed out after 3 s \(killed\).*must exit within the time limit"):
        one_round(bot, timeout=3.0)


def test_the_ais_folder_persists_across_rounds(engine: Runner, tmp_path: Path) -> None:
    python_bot(
        tmp_path / "counter.py",
        'import os\nn = int(open("n").read()) + 1 if os.path.exists("n") else 1\nopen("n", "w").write(str(n))\nprint("round", n)\n'
        + GOOD,
    )
    assert engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--ai", "./counter.py", "--out", "g").code == 0
    log = (tmp_path / "g" / "ai.log").read_text()
    assert "round 1\n" in log and "round 5\n" in log


def test_ccards_accepts_crlf_spaces_and_blank_lines_but_names_are_case_sensitive(tmp_path: Path) -> None:
    tolerant = python_bot(
        tmp_path / "crlf.py",
        'open("ccards.txt", "wb").write(b"\\r\\n  MF 1 \\r\\n\\tMF 2\\r\\n\\r\\nRL\\r\\nRR\\r\\nMB\\r\\n")\n',
    )
    assert one_round(tolerant) == [Card.MF1, Card.MF2, Card.RL, Card.RR, Card.MB]
    lower = python_bot(tmp_path / "lower.py", 'open("ccards.txt", "w").write("mf 1\\nMF 2\\nRL\\nRR\\nMB\\n")\n')
    with pytest.raises(AIError, match=r"card names are case-sensitive, one space inside: 'MF 1' \(line 1\)"):
        one_round(lower)


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("MF1\\nMF 2\\nRL\\nRR\\nMB\\n", r"case-sensitive, one space inside: 'MF 1' \(line 1\)"),
        ("MF 1 MF 2 RL RR MB\\n", r"5 cards on one line, 'MF 1 MF 2 RL RR MB': write one card a line \(line 1\)"),
        ("MF 1,MF 2,RL,RR,MB\\n", r"5 cards on one line, .*: write one card a line \(line 1\)"),
        ("\\ufeffMF 1\\nMF 2\\nRL\\nRR\\nMB\\n", r"UTF-8 byte-order mark \(BOM\) before 'MF 1': write plain ASCII"),
        ("MF 1MF 2RLRRMB", r"5 cards run together, 'MF 1MF 2RLRRMB': write a line end after each card \(line 1\)"),
        ("RR\\nMBRLRU\\nMF 3", r"3 cards run together, 'MBRLRU': write a line end after each card \(line 2\)"),
    ],
    ids=["no-space", "one-line", "commas", "bom", "no-line-ends", "some-line-ends"],
)
def test_a_malformed_ccards_says_what_to_write_instead(tmp_path: Path, written: str, said: str) -> None:
    # Habits from other languages: 'MF1', all five on one line, a BOM (Notepad, Python's 'utf-8-sig'),
    # no line end written after a card (C's fprintf(f, "%s", card), Python's f.write(card)).
    bot = python_bot(tmp_path / "bot.py", f'open("ccards.txt", "w", encoding="utf-8").write("{written}")\n')
    with pytest.raises(AIError, match=said):
        one_round(bot)


def test_a_card_chosen_more_often_than_dealt_says_how_often(tmp_path: Path) -> None:
    # HAND holds 'MF 1' twice and 'RU' once: four 'MF 1' are two too many, not a card "not in the hand".
    bot = python_bot(tmp_path / "bot.py", 'open("ccards.txt", "w").write("MF 1\\n" * 4 + "MB\\n")\n')
    with pytest.raises(AIError, match=r"not in the hand: 'MF 1' 4 times \(dealt twice\) \(hand: "):
        one_round(bot)
    bot = python_bot(tmp_path / "bot.py", 'open("ccards.txt", "w").write("RU\\nRU\\nRR\\nRR\\nMB\\n")\n')
    with pytest.raises(AIError, match=r"not in the hand: 'RU' twice \(dealt once\), 'RR' twice \(dealt once\) \("):
        one_round(bot)


def test_a_script_without_its_execute_bit_is_told_the_interpreter_its_first_line_names(
    engine: Runner, tmp_path: Path
) -> None:
    # A shell script that lost 'chmod +x' (a zip, a copy from Windows) was told to try python3.
    write_program(tmp_path / "bot.sh", "#!/bin/sh\nhead -n 5 cards.txt > ccards.txt\n", executable=False)
    write_program(tmp_path / "bot.py", "#!/usr/bin/env -S python3 -u\n" + GOOD, executable=False)
    result = engine("play", str(CHOP), "--ai", "bot.sh")
    assert result.code == 2 and "chmod +x bot.sh, or --ai 'sh bot.sh'" in result.err
    assert "--ai 'python3 bot.py'" in engine("play", str(CHOP), "--ai", "bot.py").err
    # Started without the up-front check (as ./bot-ki by 'start'), the hint is the same.
    with pytest.raises(AIError, match=r"name the interpreter: --ai 'sh .*bot\.sh'"):
        one_round(tmp_path / "bot.sh")


def test_docs_say_what_an_ai_author_needs() -> None:
    guide = (ROOT / "docs" / "ai-authors.md").read_text()
    for fact in (
        "persists from round to round",
        "CRLF",
        "case-sensitive",
        "must exit",
        "ranked",
        "robots.ai",
        "debug.txt",
        "rounds.jsonl",
        "robots-engine round",
        "play_card",
        "setvbuf(stdout, NULL, _IOLBF, 0)",
        "The working folder is not the program's folder",
    ):
        assert fact in guide, fact
    readme = (ROOT / "README.md").read_text()
    assert "exit within `--timeout`" in readme
    examples = (ROOT / "examples" / "README.md").read_text()
    assert "~/robots" not in examples


def test_unknown_name_lists_builtins() -> None:
    with pytest.raises(InputError, match=r"unknown AI 'nosuchai': not a built-in AI \(reference, planner"):
        resolve_ai("nosuchai")


def test_the_program_is_started_as_the_guide_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/ai-authors.md: a fresh working folder that is not the program's, the program's absolute
    path as argv[0] (also given relative), the level as the only argument, and an empty stdin."""
    folder = tmp_path / "my bot"
    folder.mkdir()
    report = tmp_path / "report.txt"
    body = f"import os, sys\nopen({str(report)!r}, 'w').write(repr((sys.argv, os.getcwd(), sys.stdin.read())))\n" + GOOD
    bot = python_bot(folder / "bot.py", body)
    monkeypatch.chdir(folder)
    one_round(Path("bot.py"))
    argv, cwd, given = ast.literal_eval(report.read_text())
    assert argv == [str(bot), "hard"]
    assert Path(cwd) != folder and not Path(cwd).is_relative_to(folder)
    assert given == ""
    guide = (ROOT / "docs" / "ai-authors.md").read_text()
    assert "The working folder is not the program's folder" in guide and "`/dev/null`" in guide
