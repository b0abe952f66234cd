"""Helpers shared by the AI protocol tests: throwaway AI programs written into tmp_path."""

from __future__ import annotations

import os
import stat
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHOP = ROOT / "gameboards" / "chop.dat"

ScriptMaker = Callable[[str, str], Path]

#: Every process this test run starts inherits this variable, so a check for left-over processes
#: sees only this run's, never those of another test run on the same machine.
TAG_VARIABLE = "ROBOTS_TEST_RUN"
os.environ[TAG_VARIABLE] = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"


def started_by_this_run(pid: int | str) -> bool:
    """Whether the process inherited this test run's tag (false for processes we may not read)."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False
    return f"{TAG_VARIABLE}={os.environ[TAG_VARIABLE]}".encode() in environ.split(b"\0")


def write_script(folder: Path, name: str, body: str) -> Path:
    """An executable script; ``body`` starts with ``python:`` for Python, otherwise it is POSIX sh."""
    path = folder / name
    if body.startswith("python:"):
        text = f"#!{sys.executable}\n" + body.removeprefix("python:").lstrip("\n")
    else:
        text = "#!/bin/sh\n" + body
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


@pytest.fixture
def make_script(tmp_path: Path) -> ScriptMaker:
    folder = tmp_path / "programs"
    folder.mkdir(exist_ok=True)

    def make(name: str, body: str) -> Path:
        return write_script(folder, name, body)

    return make


def is_alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting for a reaper counts as dead)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def wait_gone(pid: int, timeout: float = 30) -> bool:
    """Whether ``pid`` is dead before ``timeout``: checked every 10 ms, returns as soon as it is."""
    import time

    deadline = time.monotonic() + timeout
    while is_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
