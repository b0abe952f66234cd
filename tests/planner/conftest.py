"""Shared, module-cached planner precomputations so the planner tests stay fast."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.ai.plan_file import CACHE_ENV
from engine.ai.planner import Planner


@pytest.fixture(scope="session")
def planner() -> Planner:
    """One planner for the whole test session: each board and level is precomputed once."""
    return Planner(seed=0)


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Tests never read or write the user's real plan cache."""
    folder = tmp_path_factory.mktemp("plan-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(folder))
        yield folder
