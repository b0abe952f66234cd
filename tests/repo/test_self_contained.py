"""The repository carries everything its tests, docs and tools read.

A user's clone has nothing beside it, so no tracked file may name a folder outside the checkout
(the specification folder the project was written from sits beside our own checkout, which is how
such paths crept in before). ``.ci/run`` proves it for real by testing in a fresh clone; this test
names the offending file and line at once."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = "sha" + "red"  # spelt in two parts so this file does not match itself
PATTERN = re.compile(r"\.\./" + OUTSIDE + r"|" + OUTSIDE + r"/(conformance|seeds|spec)|\.\./(spec|seeds)/|parents\[3\]")


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    paths = [ROOT / name for name in listed.decode().split("\0") if name]
    return [p for p in paths if p.suffix in {".py", ".md", ".txt", ".toml", ".cfg", ".sh", ""} and p.is_file()]


def test_no_tracked_file_names_a_path_outside_the_repository() -> None:
    hits = []
    for path in tracked_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if PATTERN.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert hits == []


def test_the_conformance_data_is_in_the_repository() -> None:
    data = ROOT / "tests" / "data" / "conformance"
    for name in ["cards.jsonl", "games.jsonl", "decks/deck-1.txt", "decks/deck-2.txt", "decks/deck-3.txt", "README.md"]:
        assert (data / name).is_file(), name
    assert sum(1 for _ in (data / "cards.jsonl").open()) == 3095
    assert sum(1 for _ in (data / "games.jsonl").open()) == 49


def test_no_tracked_symlink_leads_outside_the_repository() -> None:
    """A developer's ``.venv-main -> /work/main/.venv`` link was committed once: in a user's clone
    it points at nothing, or at someone else's files."""
    listed = subprocess.run(["git", "ls-files", "-s", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    links = [entry.split("\t", 1)[1] for entry in listed.decode().split("\0") if entry.startswith("120000 ")]
    outside = []
    for name in links:
        target = (ROOT / name).parent / Path(
            subprocess.run(
                ["git", "cat-file", "blob", f":{name}"], cwd=ROOT, capture_output=True, check=True
            ).stdout.decode()
        )
        if not target.resolve().is_relative_to(ROOT.resolve()):
            outside.append(name)
    assert outside == []
