"""Run conformance vectors: ``python -m engine.conformance FILE...``.

Each file holds JSON lines, either single-card cases (fields ``start``/``cards``/
``after``) or whole games (``deck``/``globalseq``/``stats``), as described in
``tests/data/conformance/README.md``. Prints ``N passed, M failed`` and the first
failures in full; exits 1 when any failed, 2 on unreadable input.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.ai.reference import reference_chooser as reference_chooser  # re-exported for old callers
from engine.boardfile import parse_board
from engine.cards import Card
from engine.deck import load_deck
from engine.errors import InputError, line_column
from engine.events import RobotStatus
from engine.game import play_cards, play_game
from engine.model import Direction, Level, Pose
from engine.outputs import format_globalseq, format_stats

SHOWN_FAILURES = 5


@dataclass(frozen=True)
class Failure:
    case_id: str
    expected: Any
    got: Any

    def describe(self) -> str:
        return f"FAIL {self.case_id}\n  expected: {self.expected}\n  got:      {self.got}"


def _pose(values: Sequence[Any]) -> Pose:
    return Pose(int(values[0]), int(values[1]), Direction(values[2]))


def run_card_case(case: dict[str, Any]) -> Failure | None:
    board = parse_board(case["board"])
    level = Level(case["level"])
    pose = _pose(case["start"])
    cards = [Card.parse(text) for text in case["cards"]]
    got: list[list[Any]] = [
        [
            result.pose.x,
            result.pose.y,
            result.pose.facing.value,
            result.status is RobotStatus.DESTROYED,
            result.status is RobotStatus.FINISHED,
        ]
        for result in play_cards(board, level, pose, cards)
    ]
    if got != case["after"]:
        return Failure(case["id"], case["after"], got)
    return None


def run_game_case(case: dict[str, Any], base: Path) -> Failure | None:
    board = parse_board(case["board"])
    level = Level(case["level"])
    deck = load_deck(base / case["deck"])
    game = play_game(board, level, deck, reference_chooser)
    final = game.pose
    got = {
        "cards": game.cards_played,
        "rounds": len(game.rounds),
        "outcome": game.outcome.value if game.outcome else None,
        "final": [final.x, final.y, final.facing.value],
        "stats": format_stats(game),
        "globalseq": format_globalseq(game),
    }
    expected = {key: case[key] for key in got}
    if got != expected:
        diffs = {k: (expected[k], got[k]) for k in got if got[k] != expected[k]}
        return Failure(case["id"], {k: v[0] for k, v in diffs.items()}, {k: v[1] for k, v in diffs.items()})
    return None


def run_file(path: Path) -> tuple[int, list[Failure]]:
    """Run every vector in one file; returns (cases run, failures)."""
    passed_or_failed = 0
    failures: list[Failure] = []
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:  # vector files are JSON Lines, always UTF-8
        raise InputError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x})", path, *line_column(data, exc.start)
        ) from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON: {exc.msg}", path, number, exc.colno) from None
        if not isinstance(case, dict) or "id" not in case:
            raise InputError("each line must be a JSON object with an 'id'", path, number, 1)
        try:
            if "deck" in case:
                failure = run_game_case(case, path.parent)
            elif "after" in case:
                failure = run_card_case(case)
            else:
                raise InputError("neither a card case ('after') nor a game case ('deck')", path, number, 1)
        except InputError as exc:
            raise exc.located(path) from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InputError(f"case {case.get('id')!r} is malformed: {exc}", path, number, 1) from None
        passed_or_failed += 1
        if failure is not None:
            failures.append(failure)
    return passed_or_failed, failures


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m engine.conformance FILE...", file=sys.stderr)
        return 2
    total = 0
    failures: list[Failure] = []
    for name in args:
        try:
            count, file_failures = run_file(Path(name))
        except InputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"error: {name}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        total += count
        failures.extend(file_failures)
    for failure in failures[:SHOWN_FAILURES]:
        print(failure.describe())
    if len(failures) > SHOWN_FAILURES:
        print(f"... and {len(failures) - SHOWN_FAILURES} more failures")
    print(f"{total - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
