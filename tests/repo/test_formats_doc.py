"""docs/limits.md's table of formats names readers, writers and round-trip tests that exist."""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _rows() -> list[list[str]]:
    text = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    table = text.split("## Every format has a reader and a writer", 1)[1]
    return [line.split("|")[1:-1] for line in table.splitlines() if line.startswith("| ") and "---" not in line][1:]


def _resolve(name: str, module: str) -> tuple[object | None, str]:
    """The object ``name`` names (dotted from a package, or else inside ``module``), and its module."""
    parts = name.split(".")
    if parts[0] in ("engine", "themes"):
        cut = len(parts) - 1
        while cut > 1 and importlib.util.find_spec(".".join(parts[:cut])) is None:
            cut -= 1  # a class's method: engine.batch.Journal.open
        module, parts = ".".join(parts[:cut]), parts[cut:]
    if not module:
        return None, module
    found: object | None = importlib.import_module(module)
    for attr in parts:
        found = getattr(found, attr, None)
    return found, module


def test_the_named_readers_and_writers_exist() -> None:
    """A bare name is in the module of the row's last dotted one (``write_board`` beside
    ``engine.boardfile.parse_board``), or a method of a class named before it (``Stats.format``)."""
    missing = []
    for _, reader, writer, _ in _rows():
        module = ""
        for name in re.findall(r"`([\w.]+)", reader + writer):
            found, module = _resolve(name, module)
            if found is None:
                missing.append(name)
    assert missing == []


def test_the_named_tests_exist() -> None:
    missing = []
    for *_, tests in _rows():
        for name in re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`", tests):
            path, function = ROOT / name[0], name[1]
            if not path.is_file() or (function and f"def {function}(" not in path.read_text(encoding="utf-8")):
                missing.append("::".join(n for n in name if n))
    assert missing == []
