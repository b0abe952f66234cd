"""analysis.json: ``format_analysis`` writes what ``parse_analysis`` reads back, exactly, and the
viewer judges a round as ``robots-engine analyse`` did (one rule: ``RoundVerdict``)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.ai.planner import Choice
from engine.analyse import RoundVerdict, format_analysis, parse_analysis
from engine.cards import Card
from engine.errors import InputError
from engine.model import Board, Level
from viewer3d.roundview import load_analysis

choices = st.builds(
    Choice,
    st.tuples(*[st.sampled_from(list(Card))] * 5),
    st.floats(0, 1),
    st.just(math.inf) | st.floats(0, 1e6),
    st.booleans(),
    st.booleans(),
)
verdicts = st.builds(RoundVerdict, st.integers(1, 700), st.none() | choices, choices)


@given(st.lists(verdicts, max_size=5))
def test_any_analysis_round_trips_exactly(written: list[RoundVerdict]) -> None:
    text = format_analysis(written)
    assert parse_analysis(text) == written
    assert format_analysis(parse_analysis(text)) == text


def _choice(goal: float, rounds: float) -> Choice:
    return Choice((Card.MF1, Card.MB, Card.RL, Card.RR, Card.RU), goal, rounds, False, False)


@pytest.mark.parametrize(
    ("chosen", "best", "loss"),
    [
        (_choice(0.5, 3.0), _choice(0.5 + 1e-9, 2.0), "rounds +1.00"),  # goal alike within EPS: slower
        (_choice(0.25, 3.0), _choice(0.5, 2.0), "goal -25.00 pp"),
        (_choice(0.5, math.inf), _choice(0.5, 2.0), "rounds +inf"),
    ],
)
def test_the_viewer_says_the_loss_the_analysis_printed(chosen: Choice, best: Choice, loss: str, tmp_path: Path) -> None:
    """The viewer worked the loss out again from the file's figures: a round slower at a goal
    probability alike within the planner's tolerance was 'goal -0.00 pp' there, 'rounds +1.00' here."""
    verdict = RoundVerdict(4, chosen, best)
    assert verdict.loss_text() == loss
    (tmp_path / "analysis.json").write_text(format_analysis([verdict]))
    found = load_analysis(tmp_path, {}, Board.from_strings(["T Z"]), Level.HARD)
    assert found[4].lossy and found[4].loss == loss


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"format": 2, "rounds": []}', "a.json:1:12: unsupported format 2, this program reads format 1"),
        (
            '{"format": 1, "rounds": [{"round": 0}]}',
            "a.json:1:36: rounds[0] must be an object with a 'round' number from 1",
        ),
        ('{"format": 1, "rounds": [{"round": 1, "best": {"cards": ["MF 4"]}}]}', "a.json:1:58: rounds[0].best.cards: "),
    ],
)
def test_a_damaged_analysis_is_one_line_naming_it(text: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_analysis(text, "a.json")
    assert str(caught.value).startswith(words) and "\n" not in str(caught.value)
