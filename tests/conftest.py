"""Settings of the whole test run.

Temporary files of the run, and of every program a test starts, go under pytest's own temporary
folder (``TMPDIR``): a test that kills a program on purpose (kill -9, a hostile AI, a stopped
contest) leaves that program's scratch folders there, where pytest removes old runs, instead of
in /tmp for ever (a thousand ``robots-ai-*`` folders had piled up there).

The fuzz tests (hypothesis) draw the same examples on every run, so a run's result depends on
the code alone and CI never turns red because it happened to draw a new example;
``ROBOTS_FUZZ=explore ./run test`` draws new ones, to look for new failures (add what it finds to
the test as an ``@example``).

Every test runs in the repository's root folder, wherever pytest was started (an IDE starts it in
``tests/`` or in a test's own folder): the tests name the shipped boards as a user in a checkout
does (``gameboards/chop.dat``), and started elsewhere 17 editor tests failed. No example has a time limit (hypothesis's default is 200 ms, and
its too-slow health check gives up on slow data generation): on a loaded 2-core CI machine either
one turned a passing property into a failure, so only the examples' results decide."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

for name, derandomize in (("repeatable", True), ("explore", False)):
    settings.register_profile(
        name, derandomize=derandomize, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
settings.load_profile("explore" if os.environ.get("ROBOTS_FUZZ") == "explore" else "repeatable")

ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    """Before collection (some tests list the shipped boards then); the paths given on the command
    line were already read from the folder pytest was started in."""
    os.chdir(ROOT)


@pytest.fixture(scope="session", autouse=True)
def temporary_files_under_pytest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    folder = tmp_path_factory.mktemp("tmp")
    saved = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved
        tempfile.tempdir = None
