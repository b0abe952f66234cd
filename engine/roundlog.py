"""``rounds.jsonl``: the per-round record of a game folder, one JSON object a line.

Each line says, for one round: the pose before it, the 8 cards dealt, the 5 chosen, how many
were played, the pose after it and how the round ended, and -- when the AI's turns were recorded
(``engine.turns``) -- the AI's time, its output (first and last part) and its debug marks, or
the error that ended the game.  It is what an AI author reads to see why round 4 went wrong,
what ``robots-engine round`` reruns and what the viewer shows in its HUD.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.cards import HAND_SIZE, Card
from engine.debugmarks import DebugMarks, marks_from_json, marks_to_json
from engine.errors import InputError, parse_json, read_utf8
from engine.events import RobotStatus
from engine.game import GameRecord, Outcome
from engine.model import Pose
from engine.protocol import parse_pose
from engine.turns import Turn

ROUNDS_FILE = "rounds.jsonl"

#: How a round ended: the robot lives on, or the outcome letter (E: the AI failed in it).
ALIVE = "alive"


@dataclass(frozen=True)
class RoundEntry:
    """One line of ``rounds.jsonl``, read back."""

    number: int
    before: Pose
    hand: tuple[Card, ...]
    chosen: tuple[Card, ...] | None
    played: int
    after: Pose | None
    end: str
    seconds: float | None = None
    output: str = ""
    output_bytes: int = 0
    debug: DebugMarks = field(default_factory=DebugMarks)
    error: str | None = None


def _entry(number: int, turn: Turn | None, game: GameRecord) -> dict[str, Any]:
    index = number - 1
    record = game.rounds[index] if index < len(game.rounds) else None
    data: dict[str, Any] = {"round": number}
    if record is not None:
        data["before"] = record.start.to_bot_line()
        data["hand"] = [c.value for c in record.hand]
        data["chosen"] = [c.value for c in record.chosen]
        data["played"] = len(record.results)
        data["after"] = record.results[-1].pose.to_bot_line() if record.results else record.start.to_bot_line()
        status = record.results[-1].status if record.results else RobotStatus.ALIVE
        data["end"] = {RobotStatus.DESTROYED: "X", RobotStatus.FINISHED: "Z"}.get(status, ALIVE)
    else:
        assert turn is not None
        data["before"] = turn.pose.to_bot_line()
        data["hand"] = [c.value for c in turn.hand]
        data["chosen"] = [c.value for c in turn.chosen] if turn.chosen is not None else None
        data["played"] = 0
        data["after"] = None
        data["end"] = Outcome.AI_ERROR.value
    if turn is not None:
        data["seconds"] = round(turn.seconds, 6)
        data["output"] = turn.output
        data["output_bytes"] = turn.output_bytes
        if turn.debug:
            data["debug"] = marks_to_json(turn.debug)
    if record is None or (game.outcome is Outcome.AI_ERROR and number == len(game.rounds) + 1):
        data["error"] = (turn.error if turn is not None else None) or game.error
    return data


def round_entries(game: GameRecord, turns: Sequence[Turn] = ()) -> list[dict[str, Any]]:
    """The JSON objects of ``rounds.jsonl`` for ``game`` (with the AI's turns where recorded)."""
    by_number = {turn.number: turn for turn in turns}
    count = len(game.rounds)
    if game.outcome is Outcome.AI_ERROR and (count + 1) in by_number:
        count += 1  # the round in which the AI failed: dealt, asked, never played
    return [_entry(number, by_number.get(number), game) for number in range(1, count + 1)]


def round_line(game: GameRecord, turn: Turn) -> str:
    """One line of ``rounds.jsonl`` for the round of ``turn`` (the contest-style ``start`` appends it)."""
    return json.dumps(_entry(turn.number, turn, game), ensure_ascii=False) + "\n"


def format_rounds(game: GameRecord, turns: Sequence[Turn] = ()) -> str:
    return "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in round_entries(game, turns))


def _cards(value: Any, what: str, path: Path, line: int, count: int | None = None) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InputError(f"{what!r} must be a list of cards", path, line, 1)
    try:
        cards = tuple(Card.parse(str(v)) for v in value)
    except ValueError as exc:
        raise InputError(f"{what!r}: {exc}", path, line, 1) from None
    if count is not None and len(cards) != count:  # the planner ranks 8 cards: 7 was a ValueError traceback
        raise InputError(f"{what!r} has {len(cards)} cards, a hand has {count}", path, line, 1)
    return cards


def _pose(value: Any, what: str, path: Path, line: int) -> Pose:
    if not isinstance(value, str):
        raise InputError(f"{what!r} must be a pose 'X Y D'", path, line, 1)
    try:
        return parse_pose(value)
    except InputError as exc:
        raise InputError(f"{what!r}: {exc.message}", path, line, 1) from None


def entry_of(game: GameRecord, turns: Sequence[Turn], number: int) -> RoundEntry:
    """Round ``number``'s entry as ``read_rounds`` would give it, straight from a game being played."""
    turn = next((t for t in reversed(turns) if t.number == number), None)
    data = _entry(number, turn, game)
    return _from_json(data, Path("(game)"), number, game.board.width, game.board.height)


def _from_json(data: dict[str, Any], where: Path, number: int, width: int, height: int) -> RoundEntry:
    chosen = data.get("chosen")
    after = data.get("after")
    seconds = data.get("seconds")
    output = data.get("output")
    error = data.get("error")
    played = data.get("played")
    output_bytes = data.get("output_bytes")
    return RoundEntry(
        number=data["round"],
        before=_pose(data.get("before"), "before", where, number),
        hand=_cards(data.get("hand"), "hand", where, number, HAND_SIZE),
        chosen=_cards(chosen, "chosen", where, number) if chosen is not None else None,
        played=played if isinstance(played, int) else 0,
        after=_pose(after, "after", where, number) if after is not None else None,
        end=str(data.get("end", ALIVE)),
        seconds=float(seconds) if isinstance(seconds, int | float) else None,
        output=output if isinstance(output, str) else "",
        output_bytes=output_bytes if isinstance(output_bytes, int) else 0,
        debug=marks_from_json(data.get("debug"), width, height),
        error=error if isinstance(error, str) else None,
    )


def entry_json(entry: RoundEntry) -> dict[str, Any]:
    """The JSON object of one read-back entry, as ``round_entries`` writes it for the game it came
    from: the AI's side (time, output, marks) only where it was recorded, ``error`` where one was."""
    data: dict[str, Any] = {
        "round": entry.number,
        "before": entry.before.to_bot_line(),
        "hand": [c.value for c in entry.hand],
        "chosen": [c.value for c in entry.chosen] if entry.chosen is not None else None,
        "played": entry.played,
        "after": entry.after.to_bot_line() if entry.after is not None else None,
        "end": entry.end,
    }
    if entry.seconds is not None:
        data["seconds"] = entry.seconds
        data["output"] = entry.output
        data["output_bytes"] = entry.output_bytes
        if entry.debug:
            data["debug"] = marks_to_json(entry.debug)
    if entry.error is not None:
        data["error"] = entry.error
    return data


def write_rounds(entries: Sequence[RoundEntry]) -> str:
    """The text of ``rounds.jsonl`` holding ``entries``: the writer paired with ``parse_rounds``
    (a game's own file, ``format_rounds``, reads back and is written again to the same bytes)."""
    return "".join(json.dumps(entry_json(entry), ensure_ascii=False) + "\n" for entry in entries)


def parse_rounds(text: str, path: str | Path, width: int, height: int) -> list[RoundEntry]:
    """Read ``rounds.jsonl``; a malformed line is an InputError naming its line.

    Lines end at ``\n`` only: an AI's output is kept as it printed it (``ensure_ascii=False``), and
    ``str.splitlines`` also splits at U+2028, U+0085 and the like inside those strings."""
    where = Path(path)
    entries: list[RoundEntry] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        data = parse_json(line, where, number)
        if not isinstance(data, dict) or not isinstance(data.get("round"), int):
            raise InputError("each line must be an object with a 'round' number", where, number, 1)
        entries.append(_from_json(data, where, number, width, height))
    return entries


def read_rounds(folder: str | Path, width: int, height: int) -> list[RoundEntry] | None:
    """The game folder's round record, or None when it has none (older games). A FIFO, a folder
    or a link loop of that name is not "none": it is refused naming what it is (``analyse`` said
    the folder had no round record and told the user to play the game again)."""
    path = Path(folder) / ROUNDS_FILE
    if not os.path.lexists(path):
        return None
    return parse_rounds(read_utf8(path), path, width, height)
