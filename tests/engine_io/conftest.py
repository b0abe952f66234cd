"""Helpers for the command-line tests: run ``robots-engine`` in-process in a temporary directory."""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
CHOP = ROOT / "gameboards" / "chop.dat"
#: The contest's reference AI as a ``bot-ki`` script: the first five of the eight cards.
REFERENCE_BOT = "#!/bin/sh\nhead -5 cards.txt > ccards.txt\n"


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """Call as ``engine("load", str(CHOP))``; runs in ``tmp_path`` and returns code, stdout, stderr."""
    monkeypatch.chdir(tmp_path)

    def run(*argv: str) -> Result:
        capsys.readouterr()
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse usage errors and --help
            code = int(exc.code or 0)
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


@pytest.fixture
def write_bot():
    """Call as ``write_bot(folder, script=REFERENCE_BOT)``: an executable ``bot-ki`` in ``folder``."""

    def write(folder: Path, script: str = REFERENCE_BOT) -> Path:
        path = folder / "bot-ki"
        path.write_text(script)
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return path

    return write


@pytest.fixture
def one_line_error():
    """Call as ``one_line_error(result, *fragments)``."""
    return _assert_one_line_error


def _assert_one_line_error(result: Result, *fragments: str) -> None:
    """A bad input: exit 2, nothing on stdout, exactly one line on stderr naming the problem."""
    assert result.code == 2, result
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("robots-engine: "), lines[0]
    assert "Traceback" not in result.err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
