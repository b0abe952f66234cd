"""An installed package adds an AI through the ``robots.ai`` entry-point group, without editing robots."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from engine.ai import registry
from engine.ai.registry import list_ais, resolve_ai
from engine.errors import InputError

from .conftest import CHOP, ROOT, Runner

PLUGIN = ROOT / "examples" / "plugin"


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example plugin package 'installed' on sys.path: its module and a dist-info with the entry points."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "robots_cautious.py").write_text((PLUGIN / "robots_cautious.py").read_text())
    info = site / "robots_cautious-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: robots-cautious\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[robots.ai]\ncautious = robots_cautious:CautiousAI\nbroken = robots_cautious:missing_name\n"
        "reference = robots_cautious:CautiousAI\n"
    )
    monkeypatch.syspath_prepend(str(site))
    registry.plugin_ais.cache_clear()
    yield site
    registry.plugin_ais.cache_clear()
    sys.modules.pop("robots_cautious", None)


def test_the_example_plugin_declares_the_entry_point() -> None:
    text = (PLUGIN / "pyproject.toml").read_text()
    assert '[project.entry-points."robots.ai"]' in text and 'cautious = "robots_cautious:CautiousAI"' in text


def test_an_installed_plugin_is_listed_and_plays(installed: Path, engine: Runner, tmp_path: Path) -> None:
    names = dict(list_ais())
    assert "cautious" in names and "robots-cautious" in names["cautious"]
    assert names["reference"].startswith("the contest's reference AI")  # a plugin cannot take a product name
    ai = resolve_ai("cautious")
    assert getattr(ai, "name", "") == "cautious"
    result = engine("play", str(CHOP), "--seed", "3", "--level", "hard", "--ai", "cautious", "--out", "g")
    assert result.code == 0, result.err
    record = (tmp_path / "g" / "rounds.jsonl").read_text()
    assert '"kind": "mark"' in record  # the example draws its safe tiles


def test_a_broken_plugin_is_one_line(installed: Path) -> None:
    with pytest.raises(
        InputError, match=r"the AI 'broken' from the package entry point .* cannot be loaded: AttributeError"
    ):
        resolve_ai("broken")


def test_the_help_the_guide_names_lists_the_plugin(installed: Path, engine: Runner) -> None:
    """docs/ai-authors.md promised 'robots-engine --help lists it'; only the sub-command's help does."""
    guide = " ".join((ROOT / "docs" / "ai-authors.md").read_text().split())
    assert "`robots-engine play --help` (or `robots-contest --help`) lists it" in guide
    result = engine("play", "--help")
    assert result.code == 0 and "cautious" in " ".join(result.out.split())


BUGGY = """from engine.ai.base import BaseAI


class Raises(BaseAI):
    name = "raises"

    def choose(self, board, level, pose, hand):
        self.say("thinking")
        return {}["plan"]


class Strings(BaseAI):
    name = "strings"

    def choose(self, board, level, pose, hand):
        return [card.value for card in hand[:5]]
"""


@pytest.fixture
def buggy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A plugin with an author's bugs: an exception in choose, card names returned instead of cards."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "buggy_ai.py").write_text(BUGGY)
    info = site / "buggy_ai-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: buggy-ai\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[robots.ai]\nraises = buggy_ai:Raises\nstrings = buggy_ai:Strings\n")
    monkeypatch.syspath_prepend(str(site))
    registry.plugin_ais.cache_clear()
    yield site
    registry.plugin_ais.cache_clear()
    sys.modules.pop("buggy_ai", None)


def test_an_exception_in_a_plugin_ends_the_game_with_its_line_not_the_engine(buggy: Path, engine: Runner) -> None:
    # It ended robots-engine with a traceback and exit 1, and wrote no game folder to look into.
    result = engine("play", str(CHOP), "--seed", "3", "--ai", "raises", "--out", "g")
    assert result.code == 3, result.err
    assert "AI error: round 1: raises raised KeyError: 'plan' (buggy_ai.py:9)" in result.out
    assert "Traceback" not in result.err
    record = json.loads((buggy.parent / "g" / "rounds.jsonl").read_text().splitlines()[-1])
    assert record["end"] == "E" and record["output"].startswith("thinking\nTraceback (most recent call last):")
    assert 'return {}["plan"]' in record["output"]


def test_a_plugin_returning_card_names_is_told_to_parse_them(buggy: Path, engine: Runner) -> None:
    result = engine("play", str(CHOP), "--seed", "3", "--ai", "strings", "--out", "g")
    assert result.code == 3, result.err
    assert "round 1: strings.choose returned 'MF 3' (str), not a Card: use Card.parse('MF 3')" in result.out


def test_a_listener_abandoning_the_game_passes_through_a_plugin_untouched() -> None:
    """BaseAI turns an AI's exceptions into AI errors; the viewer's Cancel, raised by a progress
    listener inside ``choose``, must still reach the game's caller as itself."""
    from engine.ai.base import BaseAI
    from engine.ai.progress import Abandoned, listening, report
    from engine.boardfile import parse_board
    from engine.cards import Card
    from engine.model import Level
    from viewer3d.sources import Cancelled

    class Thinker(BaseAI):
        name = "thinker"

        def choose(self, board, level, pose, hand):  # type: ignore[no-untyped-def]
            report("thinking", 0.5)
            return hand[:5]

    def cancel(stage: str, fraction: float) -> None:
        raise Cancelled

    board = parse_board("3 1\nT Z\n")
    hand = (Card.MF1,) * 8
    with listening(cancel), pytest.raises(Cancelled) as caught:
        Thinker()(board, Level.HARD, board.start, hand)
    assert isinstance(caught.value, Abandoned)
    assert list(Thinker()(board, Level.HARD, board.start, hand)) == [Card.MF1] * 5  # no listener: it plays
