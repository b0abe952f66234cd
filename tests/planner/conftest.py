"""Shared, module-cached planner precomputations so the planner tests stay fast."""

from __future__ import annotations

import pytest

from engine.ai.planner import Planner


@pytest.fixture(scope="session")
def planner() -> Planner:
    """One planner for the whole test session: each board and level is precomputed once."""
    return Planner(seed=0)
