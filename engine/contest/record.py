"""``contest.json``: what it takes to play any row of ``results.csv`` again, written before the games.

A contest keeps no game folders (a thousand games would be tens of thousands of files, and on a
cluster they would land on the workers' disks), but the engine is deterministic: the same board,
deck, level and AI play the same game.  So the contest records, beside its results, everything a
row leaves out: the boards' texts, each deck's seed or file (absolute path and SHA-256, since a
deck file named relative to the contest's folder, or edited since, would be another deck), the
level, the AI's timeout and limits, and per AI its command with absolute paths and the SHA-256 of
every file the command names (an AI program changed since is refused, not silently replayed).
``engine.contest.playback`` reads it to play a row into a game folder.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.ai.external import ExternalAI
from engine.ai.registry import resolve_ai
from engine.atomic import read_regular, write_text_atomic
from engine.cliutil import package_version
from engine.contest.runner import ContestSetup
from engine.errors import InputError

RECORD_FILE = "contest.json"
FORMAT = 1
#: A record holds every board's text; boards are at most a few MiB each.
MAX_RECORD_BYTES = 256 * 1024 * 1024


def file_hash(path: str | Path) -> str:
    """The SHA-256 of a file, in hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class RecordedAI:
    """One AI of the contest: its label in results.csv, its spec, and for a program its files."""

    label: str
    spec: str
    #: An external AI's command, paths made absolute (None for a built-in AI).
    command: str | None
    #: Every file the command names, absolute, with its SHA-256 when the contest ran.
    files: dict[str, str]


def recorded_ai(label: str, spec: str, timeout: float) -> RecordedAI:
    """An AI as recorded: a program's command resolved to absolute paths and each file hashed."""
    probe = resolve_ai(spec, timeout=timeout)
    if not isinstance(probe, ExternalAI):
        return RecordedAI(label, spec, None, {})
    probe.close()
    argv = [str(Path(word).resolve()) if Path(word).is_file() else word for word in probe.argv]
    files = {word: file_hash(word) for word in argv if Path(word).is_file()}
    return RecordedAI(label, spec, shlex.join(argv), files)


def record_json(setup: ContestSetup, labels: Sequence[str], specs: Sequence[str]) -> str:
    """The text of ``contest.json`` for a contest of ``setup``'s boards and decks with these AIs."""
    decks: list[dict[str, Any]] = []
    for deck in setup.decks:
        if deck.path is None:
            decks.append({"label": deck.label, "seed": deck.seed})
        else:
            path = Path(deck.path).resolve()
            decks.append({"label": deck.label, "path": str(path), "sha256": file_hash(path)})
    data = {
        "format": FORMAT,
        "robots": package_version(),
        "level": setup.level.value,
        "timeout": setup.timeout,
        "limits": asdict(setup.limits),
        "boards": [{"label": b.label, "text": b.text} for b in setup.boards],
        "decks": decks,
        "ais": [asdict(recorded_ai(label, spec, setup.timeout)) for label, spec in zip(labels, specs, strict=True)],
    }
    return json.dumps(data, indent=1) + "\n"


def write_record(out: Path, setup: ContestSetup, labels: Sequence[str], specs: Sequence[str]) -> Path:
    """Write ``contest.json`` into ``out`` atomically (again on ``--resume``: the same settings)."""
    path = out / RECORD_FILE
    write_text_atomic(path, record_json(setup, labels, specs))
    return path


def read_record(out: Path) -> dict[str, Any]:
    """The record of the contest in ``out``; InputError naming the file when missing or not one."""
    path = out / RECORD_FILE
    try:
        data = read_regular(path, MAX_RECORD_BYTES)
    except FileNotFoundError:
        raise InputError(
            f"no {RECORD_FILE}: not a contest's folder, or one played before contests recorded how to replay", out
        ) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    try:
        record = json.loads(data)
    except (ValueError, RecursionError):
        raise InputError("damaged: not JSON", path, 1, 1) from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise InputError(f"not a contest record of format {FORMAT}", path, 1, 1)
    return record
