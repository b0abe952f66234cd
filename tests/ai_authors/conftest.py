"""Helpers for the AI-author tests: small AI programs and ``robots-engine`` / ``robots-oracle`` calls."""

from __future__ import annotations

import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHOP = ROOT / "gameboards" / "chop.dat"


def write_program(path: Path, text: str, *, executable: bool = True) -> Path:
    path.write_text(text)
    if executable:
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def python_bot(path: Path, body: str) -> Path:
    """An executable Python AI running this interpreter; ``body`` is its code."""
    return write_program(path, f"#!{sys.executable}\n{body}")


@dataclass
class Result:
    code: int
    out: str
    err: str


Runner = Callable[..., Result]


def _runner(main: Callable[[list[str]], int], capsys: pytest.CaptureFixture[str]) -> Runner:
    def run(*args: str) -> Result:
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


@pytest.fixture
def engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Runner:
    """``engine("play", ...)``: robots-engine in-process, in ``tmp_path``."""
    from engine.cli import main

    monkeypatch.chdir(tmp_path)
    return _runner(main, capsys)


@pytest.fixture
def oracle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Runner:
    from engine.oracle import main

    monkeypatch.chdir(tmp_path)
    return _runner(main, capsys)
