"""Shared fixtures: a fresh copy of a shipped theme to break in each test, and an empty cache."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from themes import clear_cache
from themes.loader import BUILTIN_DIR


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No cached themes between tests, and no real per-user themes leaking into discovery."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg")))
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def theme_copy(tmp_path: Path) -> Path:
    """A writable copy of the default theme, to damage."""
    target = tmp_path / "mytheme"
    shutil.copytree(BUILTIN_DIR / "default", target)
    return target
