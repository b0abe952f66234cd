"""Scripted bot programs for the server tests: each is a small Python script started like a contest entry."""

from __future__ import annotations

import stat
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

HEADER = f"#!{sys.executable}\nimport os, sys, time, subprocess\n"

#: Logs every line it gets to LOG (first argument) and answers ROUND r with ANSWERS[r-1] (the rest).
SCRIPTED = """
log = open(sys.argv[1], "a")
answers = sys.argv[2:]
for line in sys.stdin:
    log.write(line); log.flush()
    if line.startswith("ROUND"):
        r = int(line.split()[1])
        word = answers[r - 1] if r - 1 < len(answers) else "AHEAD"
        if word == "HANG":
            time.sleep(3600)
        if word == "EXIT":
            sys.exit(3)
        if word == "FLOOD":
            sys.stdout.write("x" * 10_000_000); sys.stdout.flush()
        if word == "ORPHAN":  # a child in a session of its own, left behind when the bot ends
            child = subprocess.Popen(["sleep", "3600"], start_new_session=True)
            open(sys.argv[1] + ".child", "w").write(str(child.pid))
            word = "AHEAD"
        if word == "CHILD":
            child = subprocess.Popen(["sleep", "3600"])
            open(sys.argv[1] + ".child", "w").write(str(child.pid))
            time.sleep(3600)
        sys.stdout.write(word.replace("_", " ").replace("CR", "\\r") + "\\n"); sys.stdout.flush()
    if line.strip() == "END":
        break
"""


@pytest.fixture
def scripted(tmp_path: Path) -> Callable[..., tuple[str, Path]]:
    """``scripted("LEFT", "AHEAD", ...)`` -> (command line, log path) of a bot answering those words in order."""
    count = 0

    def make(*answers: str) -> tuple[str, Path]:
        nonlocal count
        count += 1
        script = tmp_path / f"bot{count}.py"
        script.write_text(HEADER + SCRIPTED)
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        log = tmp_path / f"bot{count}.log"
        return " ".join([str(script), str(log), *answers]), log

    return make
