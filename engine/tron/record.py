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

from engine.errors import InputError, parse_json_object, quoted, read_utf8
from engine.jsonplace import JsonSource
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

Keys = tuple[str | int, ...]


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


def _int_keys(value: Any, what: str, source: JsonSource, keys: Keys) -> dict[int, Any]:
    # ASCII digits only, and few of them: int() refuses "²" and numbers of thousands of digits.
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 9 for k in value
    ):
        raise source.error(f"{what} must map bot numbers to values", keys)
    return {int(k): v for k, v in value.items()}


def parse_game(text: str, path: str | Path | None = None) -> GameRecord:
    """Read a game file and re-simulate it; InputError naming the round and bot on any contradiction,
    at the line and column of the value it is about."""
    data = parse_json_object(text, path)
    source = JsonSource(text, path)
    if data.get("format") != FORMAT:
        raise source.error(f'not a Tron game file (expected "format": "{FORMAT}")', ("format",))
    if data.get("version") != VERSION:
        message = f"unsupported game file version {quoted(data.get('version'))} (this is version {VERSION})"
        raise source.error(message, ("version",))
    lines = data.get("arena")
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise source.error('"arena" must be the arena file as a list of lines', ("arena",))
    try:
        arena = parse_arena("\n".join(lines) + "\n")
    except InputError as exc:
        where = ("arena", exc.line - 1) if exc.line is not None else ("arena",)
        raise source.error(f'in "arena", line {exc.line}: {exc.message}', where) from None
    bots_raw = data.get("bots")
    if not isinstance(bots_raw, list) or not bots_raw or not all(isinstance(b, dict) for b in bots_raw):
        raise source.error('"bots" must be a non-empty list of objects', ("bots",))
    bots = []
    for index, b in enumerate(bots_raw):
        command = b.get("command", [])
        if not isinstance(b.get("name"), str) or not isinstance(command, list):
            raise source.error('every bot needs a "name" (text) and a "command" (list)', ("bots", index))
        bots.append(BotInfo(b["name"], tuple(str(c) for c in command)))
    limit = data.get("time_limit", 1.0)
    if not isinstance(limit, int | float) or isinstance(limit, bool) or not 0 < limit < 1e9:
        raise source.error('"time_limit" must be a number of seconds', ("time_limit",))
    rounds_raw = data.get("rounds")
    if not isinstance(rounds_raw, list):
        raise source.error('"rounds" must be a list', ("rounds",))
    try:
        starts = arena.starts_for(len(bots))
    except ValueError as exc:
        raise source.error(f"the arena cannot host {len(bots)} bots: {exc}", ("bots",)) from None
    state = initial_state(arena, starts)
    rounds: list[RoundRecord] = []
    for number, raw in enumerate(rounds_raw, 1):
        here = ("rounds", number - 1)
        rounds.append(_check_round(raw, number, state, source, here))
        answers: dict[int, Turn | str] = {
            p: Turn(w) if w is not None else rounds[-1].failures[p] for p, w in rounds[-1].answers.items()
        }
        state, events = step(state, answers)
        went_out = sorted(e.bot for e in events if isinstance(e, Out))
        if went_out != sorted(rounds[-1].outs):
            extra = sorted(set(rounds[-1].outs) - set(went_out))
            missing = sorted(set(went_out) - set(rounds[-1].outs))
            if extra:
                message = f"round {number}, bot {extra[0]}: the file says it went out, the rules say it is still in"
                raise source.error(message, (*here, "out"))
            raise source.error(f"round {number}, bot {missing[0]}: the rules put it out, the file does not", here)
    if not state.over:
        message = f"the file ends after round {state.round} with bots {state.alive} still in the game"
        raise source.error(message, ("rounds", len(rounds_raw) - 1) if rounds_raw else ("rounds",))
    record = GameRecord(arena, tuple(bots), tuple(rounds), float(limit))
    survived = [rounds_survived(c, state.round) for c in state.cycles]  # the final state, replayed above
    points = game_points(state)
    for i, b in enumerate(bots_raw):
        for key, value in (("survived", survived[i]), ("points", points[i])):
            if key in b and b[key] != value:
                message = f"bot {i + 1}: the file says {key} {quoted(b[key])}, the rules give {value}"
                raise source.error(message, ("bots", i, key))
    return record


def _check_round(raw: Any, number: int, state: State, source: JsonSource, here: Keys) -> RoundRecord:
    if not isinstance(raw, dict):
        raise source.error(f"round {number}: expected an object", here)
    if state.over:
        raise source.error(f"round {number}: every bot is already out, the game has ended", here)
    answers = _int_keys(raw.get("answers"), f'round {number}: "answers"', source, (*here, "answers"))
    failures = _int_keys(raw.get("failures", {}), f'round {number}: "failures"', source, (*here, "failures"))
    alive = state.alive
    for p in sorted(set(answers) | set(alive)):
        if p not in alive:
            raise source.error(
                f"round {number}, bot {p}: it answers, but it is not in the game", (*here, "answers", str(p))
            )
        if p not in answers:
            raise source.error(f"round {number}, bot {p}: it is in the game but has no answer", (*here, "answers"))
        word = answers[p]
        if word is None:
            if not isinstance(failures.get(p), str):
                message = f'round {number}, bot {p}: a failed answer needs its reason in "failures"'
                raise source.error(message, (*here, "failures"))
        elif word not in ("LEFT", "RIGHT", "AHEAD"):
            message = f"round {number}, bot {p}: answer {quoted(word)} is not LEFT, RIGHT or AHEAD"
            raise source.error(message, (*here, "answers", str(p)))
    outs = raw.get("out", [])
    if not isinstance(outs, list) or not all(isinstance(o, int) for o in outs):
        raise source.error(f'round {number}: "out" must be a list of bot numbers', (*here, "out"))
    ms = _int_keys(raw.get("ms", {}), f'round {number}: "ms"', source, (*here, "ms"))
    seconds = {p: float(v) / 1000 for p, v in ms.items() if isinstance(v, int | float) and abs(v) < 1e15}
    return RoundRecord(dict(answers), {p: str(f) for p, f in failures.items()}, list(outs), seconds)


def load_game(path: str | Path) -> GameRecord:
    return parse_game(read_utf8(path), path)
