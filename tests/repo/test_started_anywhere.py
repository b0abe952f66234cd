"""The tests pass wherever pytest is started, not only in the repository's root (see tests/conftest.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_pytest_started_in_another_folder_runs_the_tests_from_the_root() -> None:
    """Two modules that name the shipped boards relative to the root (``gameboards/chop.dat``)."""
    started = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_validate.py", "test_commands.py"],
        cwd=ROOT / "tests" / "editor",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert started.returncode == 0, started.stdout[-3000:]
    assert " passed" in started.stdout and "skipped" not in started.stdout, started.stdout[-3000:]
