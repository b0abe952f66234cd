"""The property tests' settings leave time out of every result (see tests/conftest.py)."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def test_no_example_has_a_time_limit() -> None:
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    assert settings(max_examples=5).deadline is None  # a test's own settings keep it


@settings(max_examples=2)
@given(st.integers())
def test_an_example_slower_than_hypothesis_default_deadline_passes(number: int) -> None:
    """As one does on a loaded CI machine: 200 ms was hypothesis's limit for one example."""
    time.sleep(0.25)
