"""The contest's server: start each bot as a program and play a game over the line protocol.

To every bot: ``GAMEBOARDSTART n,m``, the rows, ``GAMEBOARDEND``, ``SET p``; then each round, to every
bot still in, ``POS`` lines for all bots still in and ``ROUND r``; it answers ``LEFT``, ``RIGHT`` or
``AHEAD``; after the moves, ``OUT p`` for each bot that went out; at the end ``END`` to every bot,
including those out earlier.  The server writes exactly these lines, each ending in ``\\n`` alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from engine.tron import process as bot_process
from engine.tron.arena import Arena, write_board_lines
from engine.tron.process import DEFAULT_MEMORY_MB, BotProcess, exchange
from engine.tron.record import BotInfo, GameRecord, RoundRecord
from engine.tron.rules import Event, Moved, Out, State, Turn, initial_state, step

DEFAULT_TIME_LIMIT = 1.0
DEFAULT_STARTUP = 2.0


@dataclass(frozen=True)
class BotSpec:
    """A bot to start: its display name and the argv that starts it."""

    name: str
    argv: tuple[str, ...]


def pos_line(bot: int, x: int, y: int, heading_name: str) -> str:
    return f"POS {bot} {x},{y} {heading_name}"


def parse_answer(line: str) -> Turn | None:
    """The turn an answer line names (surrounding white space and ``\\r`` ignored), None when invalid."""
    word = line.strip()
    try:
        return Turn(word)
    except ValueError:
        return None


def _escaped(line: str) -> str:
    """An answer line as the transcript shows it: control characters as ``\\r``, ``\\x00``...  A bot's
    NUL byte went into ``--log`` raw, and grep then called the whole log a binary file."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)


def _quoted(line: str) -> str:
    text = "".join(c if c.isprintable() else "?" for c in line.strip())
    return repr(text if len(text) <= 40 else text[:37] + "...")


def play_game(
    arena: Arena,
    bots: Sequence[BotSpec],
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    startup: float = DEFAULT_STARTUP,
    memory_mb: int = DEFAULT_MEMORY_MB,
    transcript: TextIO | None = None,
    on_round: Callable[[State], None] | None = None,
    on_record: Callable[[RoundRecord, State, Sequence[Event]], None] | None = None,
    on_start: Callable[[Sequence[BotProcess]], None] | None = None,
) -> tuple[GameRecord, list[BotProcess]]:
    """Play one game to its end; returns the record and the finished processes (for their error output).

    ``on_record`` hears each round as it is decided (its record, the state after it and its events),
    so a watcher can show the game while it is played; ``on_start`` gets the bot processes before
    the first is started, so a watcher can kill them at once to end the game (their answers then
    fail, the round ends and an exception raised from a callback stops the game).  An exception
    raised from a callback ends the game: every bot is killed and it propagates.

    ``memory_mb`` caps each bot's address space (0: no limit); a bot over it fails to allocate and
    usually crashes, which puts it out with its last error output as the reason.

    Raises ValueError when the arena cannot host that many bots (nothing is started then).
    """
    starts = arena.starts_for(len(bots))
    state = initial_state(arena, starts)
    processes = [BotProcess(spec.argv, spec.name, memory_mb=memory_mb) for spec in bots]

    def log(direction: str, bot: int, lines: Sequence[str]) -> None:
        if transcript is not None:
            transcript.writelines(f"{direction}{bot} {line}\n" for line in lines)

    rounds: list[RoundRecord] = []
    if on_start is not None:
        on_start(processes)
    try:
        board_lines = write_board_lines(arena)
        for number, process in enumerate(processes, 1):
            process.start()
            process.send([*board_lines, f"SET {number}"])
            log(">", number, [*board_lines, f"SET {number}"])
        while not state.over and state.round < arena.width * arena.height:
            round_no = state.round + 1
            alive = state.alive
            pos = [pos_line(p, c.x, c.y, c.heading.name) for p, c in enumerate(state.cycles, 1) if c.alive]
            now = time.monotonic()
            limit = time_limit + (startup if round_no == 1 else 0.0)
            for p in alive:
                processes[p - 1].send([*pos, f"ROUND {round_no}"])
                log(">", p, [*pos, f"ROUND {round_no}"])
            results = exchange([processes[p - 1] for p in alive], [now + limit] * len(alive), since=now)
            answers: dict[int, Turn | str] = {}
            words: dict[int, str | None] = {}
            seconds: dict[int, float] = {}
            for p, (line, failure, took) in zip(alive, results, strict=True):
                seconds[p] = took
                turn = parse_answer(line) if line is not None else None
                if line is not None:
                    log("<", p, [_escaped(line)])
                if turn is not None:
                    answers[p], words[p] = turn, turn.value
                else:
                    answers[p] = failure or f"answered {_quoted(line or '')}, not LEFT, RIGHT or AHEAD"
                    words[p] = None
            state, events = step(state, answers)
            outs = [e for e in events if isinstance(e, Out)]
            failures = {p: a for p, a in answers.items() if isinstance(a, str)}
            rounds.append(RoundRecord(words, failures, [o.bot for o in outs], seconds))
            if outs:
                notice = [f"OUT {o.bot}" for o in outs]
                for p in state.alive:
                    processes[p - 1].send(notice)
                    log(">", p, notice)
            assert all(isinstance(e, Moved | Out) for e in events)
            if on_record is not None:
                on_record(rounds[-1], state, events)
            if on_round is not None:
                on_round(state)
        for number, process in enumerate(processes, 1):
            process.send(["END"])
            if process.running:
                log(">", number, ["END"])
        deadline = time.monotonic() + bot_process.END_GRACE  # read here: the one value its notes name
        for process in processes:
            process.finish(max(0.05, deadline - time.monotonic()))
    finally:
        for process in processes:
            process.kill()
    infos = tuple(BotInfo(spec.name, spec.argv) for spec in bots)
    return GameRecord(arena, infos, tuple(rounds), time_limit), processes
