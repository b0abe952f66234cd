"""An installed package adds an AI through the ``robots.ai`` entry-point group, without editing robots."""

from __future__ import annotations

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
