"""A Tron game file: the arena, the bots, every round's answers and outs; read back and re-checked.

The file is JSON (``"format": "robots-tron-game"``).  Reading it replays every round through
``rules.step`` and compares: a file whose outs, answers or result contradict the rules is rejected
with the round and the bot named, so a viewer never shows a game that could not have happened.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import InputError, parse_json_object, quoted, read_text
from engine.tron.arena import Arena, parse_arena, write_arena
from engine.tron.rules import Event, Out, State, Turn, game_points, initial_state, rounds_survived, step

_CRASH_WORDS = {
    "edge": "drove off the board",
    "wall": "drove into a wall",
    "trail": "drove into a trail",
    "collision": "collided with another bot",
}

FORMAT = "robots-tron-game"
VERSION = 1


@dataclass(frozen=True)
class BotInfo:
    """A bot as the game file names it."""

    name: str
    command: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoundRecord:
    """One round: each playing bot's answer word (None when it failed), why failures failed, who went out."""

    answers: dict[int, str | None]
    failures: dict[int, str]
    outs: list[int]
    seconds: dict[int, float]


@dataclass(frozen=True)
class GameRecord:
    """A whole game; :meth:`replay` gives every state and the events between them."""

    arena: Arena
    bots: tuple[BotInfo, ...]
    rounds: tuple[RoundRecord, ...]
    time_limit: float = 1.0

    def initial(self) -> State:
        """The state before round 1."""
        return initial_state(self.arena, self.arena.starts_for(len(self.bots)))

    def rounds_replayed(self) -> Iterator[tuple[State, list[Event]]]:
        """The state after each round and its events, one round at a time: a long game on a big
        arena is never held whole (each state holds the arena's blocked fields: 66,000 rounds of a
        512x512 arena would be 17 GB)."""
        state = self.initial()
        for record in self.rounds:
            answers: dict[int, Turn | str] = {
                p: Turn(word) if word is not None else record.failures.get(p, "failed")
                for p, word in record.answers.items()
            }
            state, happened = step(state, answers)
            yield state, happened

    def replay(self) -> tuple[list[State], list[list[Event]]]:
        """States before round 1 and after every round, and each round's events (checked by ``check``).
        Holds every state: for short games and tests; ``rounds_replayed`` streams them."""
        states, events = [self.initial()], []
        for state, happened in self.rounds_replayed():
            states.append(state)
            events.append(happened)
        return states, events

    @property
    def final(self) -> State:
        state = self.initial()
        for after, _ in self.rounds_replayed():
            state = after
        return state

    def survived(self) -> list[int]:
        final = self.final
        return [rounds_survived(c, final.round) for c in final.cycles]

    def points(self) -> list[int]:
        return game_points(self.final)

    def reasons(self) -> list[str]:
        """Why each bot went out, in words (a failed answer's reason, else the kind of crash)."""
        text = ["still in"] * len(self.bots)
        for round_no, (_, happened) in enumerate(self.rounds_replayed(), 1):
            for event in happened:
                if isinstance(event, Out):
                    text[event.bot - 1] = f"round {round_no}: {out_reason(event)}"
        return text

    def to_json(self) -> dict[str, Any]:
        survived, points = self.survived(), self.points()
        return {
            "format": FORMAT,
            "version": VERSION,
            "arena": write_arena(self.arena).splitlines(),
            "time_limit": self.time_limit,
            "bots": [
                {"name": b.name, "command": list(b.command), "survived": survived[i], "points": points[i]}
                for i, b in enumerate(self.bots)
            ],
            "rounds": [
                {
                    "answers": {str(p): w for p, w in r.answers.items()},
                    **({"failures": {str(p): f for p, f in r.failures.items()}} if r.failures else {}),
                    "out": r.outs,
                    "ms": {str(p): round(s * 1000, 1) for p, s in r.seconds.items()},
                }
                for r in self.rounds
            ],
        }


def out_reason(event: Out) -> str:
    """Why a bot went out, in words: a failed answer's reason, else the kind of crash."""
    return event.detail or _CRASH_WORDS[event.reason.value]


def write_game(record: GameRecord) -> str:
    """The game file's text: one round per line, so long games stay readable and diffable."""
    data = record.to_json()
    rounds = data.pop("rounds")
    head = json.dumps(data, indent=1)[:-2]
    body = ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in rounds)
    return f'{head},\n "rounds": [\n{body}\n ]\n}}\n'


def save_game(record: GameRecord, path: str | Path) -> None:
    from engine.atomic import write_text_atomic

    write_text_atomic(path, write_game(record))


def _int_keys(value: Any, what: str, path: str | Path | None) -> dict[int, Any]:
    # ASCII digits only, and few of them: int() refuses "²" and numbers of thousands of digits.
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 9 for k in value
    ):
        raise InputError(f"{what} must map bot numbers to values", path)
    return {int(k): v for k, v in value.items()}


def parse_game(text: str, path: str | Path | None = None) -> GameRecord:
    """Read a game file and re-simulate it; InputError naming the round and bot on any contradiction."""
    data = parse_json_object(text, path)
    if data.get("format") != FORMAT:
        raise InputError(f'not a Tron game file (expected "format": "{FORMAT}")', path, 1, 1)
    if data.get("version") != VERSION:
        raise InputError(
            f"unsupported game file version {quoted(data.get('version'))} (this is version {VERSION})", path
        )
    lines = data.get("arena")
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise InputError('"arena" must be the arena file as a list of lines', path)
    try:
        arena = parse_arena("\n".join(lines) + "\n")
    except InputError as exc:
        raise InputError(f'in "arena", line {exc.line}: {exc.message}', path) from None
    bots_raw = data.get("bots")
    if not isinstance(bots_raw, list) or not bots_raw or not all(isinstance(b, dict) for b in bots_raw):
        raise InputError('"bots" must be a non-empty list of objects', path)
    bots = []
    for b in bots_raw:
        command = b.get("command", [])
        if not isinstance(b.get("name"), str) or not isinstance(command, list):
            raise InputError('every bot needs a "name" (text) and a "command" (list)', path)
        bots.append(BotInfo(b["name"], tuple(str(c) for c in command)))
    limit = data.get("time_limit", 1.0)
    if not isinstance(limit, int | float) or isinstance(limit, bool) or not 0 < limit < 1e9:
        raise InputError('"time_limit" must be a number of seconds', path)
    rounds_raw = data.get("rounds")
    if not isinstance(rounds_raw, list):
        raise InputError('"rounds" must be a list', path)
    try:
        starts = arena.starts_for(len(bots))
    except ValueError as exc:
        raise InputError(f"the arena cannot host {len(bots)} bots: {exc}", path) from None
    state = initial_state(arena, starts)
    rounds: list[RoundRecord] = []
    for number, raw in enumerate(rounds_raw, 1):
        rounds.append(_check_round(raw, number, state, path))
        answers: dict[int, Turn | str] = {
            p: Turn(w) if w is not None else rounds[-1].failures[p] for p, w in rounds[-1].answers.items()
        }
        state, events = step(state, answers)
        went_out = sorted(e.bot for e in events if isinstance(e, Out))
        if went_out != sorted(rounds[-1].outs):
            extra = sorted(set(rounds[-1].outs) - set(went_out))
            missing = sorted(set(went_out) - set(rounds[-1].outs))
            if extra:
                raise InputError(
                    f"round {number}, bot {extra[0]}: the file says it went out, the rules say it is still in", path
                )
            raise InputError(f"round {number}, bot {missing[0]}: the rules put it out, the file does not", path)
    if not state.over:
        raise InputError(f"the file ends after round {state.round} with bots {state.alive} still in the game", path)
    record = GameRecord(arena, tuple(bots), tuple(rounds), float(limit))
    survived = [rounds_survived(c, state.round) for c in state.cycles]  # the final state, replayed above
    points = game_points(state)
    for i, b in enumerate(bots_raw):
        for key, value in (("survived", survived[i]), ("points", points[i])):
            if key in b and b[key] != value:
                raise InputError(f"bot {i + 1}: the file says {key} {quoted(b[key])}, the rules give {value}", path)
    return record


def _check_round(raw: Any, number: int, state: State, path: str | Path | None) -> RoundRecord:
    if not isinstance(raw, dict):
        raise InputError(f"round {number}: expected an object", path)
    if state.over:
        raise InputError(f"round {number}: every bot is already out, the game has ended", path)
    answers = _int_keys(raw.get("answers"), f'round {number}: "answers"', path)
    failures = _int_keys(raw.get("failures", {}), f'round {number}: "failures"', path)
    alive = state.alive
    for p in sorted(set(answers) | set(alive)):
        if p not in alive:
            raise InputError(f"round {number}, bot {p}: it answers, but it is not in the game", path)
        if p not in answers:
            raise InputError(f"round {number}, bot {p}: it is in the game but has no answer", path)
        word = answers[p]
        if word is None:
            if not isinstance(failures.get(p), str):
                raise InputError(f'round {number}, bot {p}: a failed answer needs its reason in "failures"', path)
        elif word not in ("LEFT", "RIGHT", "AHEAD"):
            raise InputError(f"round {number}, bot {p}: answer {quoted(word)} is not LEFT, RIGHT or AHEAD", path)
    outs = raw.get("out", [])
    if not isinstance(outs, list) or not all(isinstance(o, int) for o in outs):
        raise InputError(f'round {number}: "out" must be a list of bot numbers', path)
    ms = _int_keys(raw.get("ms", {}), f'round {number}: "ms"', path)
    seconds = {p: float(v) / 1000 for p, v in ms.items() if isinstance(v, int | float) and abs(v) < 1e15}
    return RoundRecord(dict(answers), {p: str(f) for p, f in failures.items()}, list(outs), seconds)


def load_game(path: str | Path) -> GameRecord:
    return parse_game(read_text(path), path)
