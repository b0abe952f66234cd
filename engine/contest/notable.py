"""The games of a contest worth watching, each with the command that opens it in the viewer.

An organiser reading the results wants to see *why*: the first game an AI lost its robot in,
its first AI error, its longest won game, and between two AIs the game where they differ most.
They are picked here from the rows of ``results.csv`` (numbered as ``--replay`` takes them) for
``summary.json``'s ``watch`` list and the printed summary.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.contest.playback import replay_command
from engine.contest.runner import GameResult
from engine.game import Outcome
from engine.wording import counted

#: With more AIs than this the printed summary points to summary.json instead of listing them.
MOST_AIS_PRINTED = 4


def _entry(out: Path, what: str, row: int, result: GameResult) -> dict[str, Any]:
    return {
        "ai": result.ai,
        "what": what,
        "row": row,
        "board": result.board,
        "deck": result.deck,
        "outcome": result.outcome,
        "rounds": result.rounds,
        "command": replay_command(out, row),
    }


def _first(rows: Sequence[tuple[int, GameResult]], outcome: Outcome) -> tuple[int, GameResult] | None:
    return next((pair for pair in rows if pair[1].outcome == outcome.value), None)


def per_ai(out: Path, rows: Sequence[tuple[int, GameResult]]) -> list[dict[str, Any]]:
    """One AI's games to watch: its first destroyed robot, first AI error, and longest won game."""
    found: list[dict[str, Any]] = []
    for what, outcome in (("first robot destroyed", Outcome.DESTROYED), ("first AI error", Outcome.AI_ERROR)):
        pair = _first(rows, outcome)
        if pair is not None:
            found.append(_entry(out, what, *pair))
    won = [pair for pair in rows if pair[1].outcome == Outcome.FINISHED.value]
    if won:
        longest = max(won, key=lambda pair: (pair[1].rounds, -pair[0]))  # the first of the longest
        found.append(_entry(out, "longest won game", *longest))
    return found


def _difference(a: GameResult, b: GameResult) -> tuple[int, int]:
    """How far apart two AIs' games on one board and deck are: won by one only first, then rounds."""
    won_a, won_b = a.outcome == Outcome.FINISHED.value, b.outcome == Outcome.FINISHED.value
    return (int(won_a != won_b), abs(a.rounds - b.rounds))


def watch_list(out: Path, results: Sequence[GameResult], labels: Sequence[str]) -> list[dict[str, Any]]:
    """Every AI's games to watch, then per pair of AIs the game (both rows) where they differ most."""
    numbered = list(enumerate(results, start=1))
    by_ai = {label: [pair for pair in numbered if pair[1].ai == label] for label in labels}
    found = [entry for label in labels for entry in per_ai(out, by_ai[label])]
    for a, b in itertools.combinations(labels, 2):
        pairs = list(zip(by_ai[a], by_ai[b], strict=False))  # the same boards and decks, in the same order
        scored = [(_difference(x[1], y[1]), -x[0], x, y) for x, y in pairs if _difference(x[1], y[1]) != (0, 0)]
        if scored:
            _, _, x, y = max(scored, key=lambda item: (item[0], item[1]))
            what = f"{a} and {b} differ most"
            found += [_entry(out, what, *x), _entry(out, what, *y)]
    return found


def watch_lines(watch: Sequence[dict[str, Any]], ais: int) -> list[str]:
    """The printed lines: one per game to watch, or with many AIs a pointer to summary.json."""
    if not watch:
        return []
    if ais > MOST_AIS_PRINTED:
        return [f"{len(watch)} games to watch, each with the command that opens it: 'watch' in summary.json"]
    return [
        f"watch {entry['ai']}, {entry['what']} ({Path(entry['board']).name} {entry['deck']}: {entry['outcome']} in {counted(entry['rounds'], 'round')}):"
        f" {entry['command']}"
        for entry in watch
    ]
