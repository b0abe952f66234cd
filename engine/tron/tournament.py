"""A Tron tournament with the contest's scoring, resumable, in parallel.

Every pair of distinct bots plays on every arena twice, start positions swapped; 3 points for
surviving longer, 1 each for going out in the same round, 0 for going out first; points are summed
and ties broken by the total rounds survived.  Bots with random elements play each game ``repeat``
times and score the rounded mean (half up, "mathematically rounded").

Each finished game is appended to ``journal.jsonl`` in the output folder (one fsynced line) and its
game file saved under ``games/``; run the same tournament again with the same folder and it plays
only what is missing, so an interrupted tournament (Ctrl-C, a crash, a reboot) loses at most the
games in progress.  A journal written for another set-up (other bots, arenas, limits) is refused
rather than mixed in.  Games run on ``jobs`` threads: each game's work is in its bot programs.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from engine.ai.external import kill_running_ais
from engine.atomic import write_text_atomic
from engine.errors import InputError
from engine.tron.arena import Arena
from engine.tron.record import save_game
from engine.tron.server import BotSpec, play_game

JOURNAL = "journal.jsonl"
RESULTS_FILE = "results.csv"
SUMMARY_FILE = "summary.json"
DEFAULT_REPEAT = 10


@dataclass(frozen=True)
class Task:
    """One game: bots ``first`` and ``second`` (indexes into the bot list) in that start order."""

    first: int
    second: int
    arena: int
    repeat: int

    @property
    def key(self) -> str:
        return f"{self.first}-{self.second}@{self.arena}#{self.repeat}"


@dataclass(frozen=True)
class GameResult:
    """A finished game as the journal and ``results.csv`` keep it."""

    key: str
    arena: str
    bot1: str
    bot2: str
    survived1: int
    survived2: int
    points1: int
    points2: int
    rounds: int
    reason1: str
    reason2: str


@dataclass(frozen=True)
class Standing:
    bot: str
    points: int
    rounds: int
    won: int
    drawn: int
    lost: int


def plan(bots: int, arenas: int, randomness: Sequence[bool], repeat: int) -> list[Task]:
    """Every pair, both start orders, every arena; ``repeat`` times where either bot is random."""
    tasks: list[Task] = []
    for a in range(bots):
        for b in range(a + 1, bots):
            times = repeat if randomness[a] or randomness[b] else 1
            for arena in range(arenas):
                for first, second in ((a, b), (b, a)):
                    tasks.extend(Task(first, second, arena, r) for r in range(times))
    return tasks


def fingerprint(bots: Sequence[BotSpec], arenas: Sequence[tuple[str, Arena]], settings: dict[str, Any]) -> str:
    """What makes a journal belong to this tournament: bots, arena contents, limits."""
    text = json.dumps(
        {
            "bots": [list(b.argv) for b in bots],
            "arenas": [
                [name, arena.width, arena.height, arena.blocked.hex(), repr(arena.starts)] for name, arena in arenas
            ],
            **settings,
        },
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def read_journal(folder: Path, stamp: str) -> dict[str, GameResult]:
    """Results already played (by task key); InputError when the journal belongs to another set-up."""
    path = folder / JOURNAL
    if not path.exists():
        return {}
    done: dict[str, GameResult] = {}
    names = {f.name for f in GameResult.__dataclass_fields__.values()}
    data_bytes = path.read_bytes()
    if data_bytes and not data_bytes.endswith(b"\n"):
        # the last line was being written when the run stopped: drop it, that game is played again
        keep = data_bytes.rfind(b"\n") + 1
        with open(path, "r+b") as handle:
            handle.truncate(keep)
        data_bytes = data_bytes[:keep]
    for number, line in enumerate(data_bytes.decode("utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            raise InputError("not valid JSON", path, number) from None
        if number == 1:
            if not isinstance(data, dict) or data.get("tournament") != stamp:
                raise InputError(
                    "this folder holds another tournament (other bots, arenas or limits): use another --out", path, 1
                )
            continue
        if not isinstance(data, dict) or set(data) != names:
            raise InputError("not a game result line", path, number)
        done[data["key"]] = GameResult(**data)
    return done


def _mean_half_up(values: Sequence[int]) -> int:
    return int((Decimal(sum(values)) / len(values)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def standings(bot_names: Sequence[str], results: Sequence[GameResult]) -> list[Standing]:
    """The table: repeated games are folded into their rounded mean first, then everything summed."""
    groups: dict[str, list[GameResult]] = {}
    for result in results:
        groups.setdefault(result.key.split("#")[0], []).append(result)
    points = dict.fromkeys(bot_names, 0)
    rounds = dict.fromkeys(bot_names, 0)
    record = {name: [0, 0, 0] for name in bot_names}
    for games in groups.values():
        first, second = games[0].bot1, games[0].bot2
        p1 = _mean_half_up([g.points1 for g in games])
        p2 = _mean_half_up([g.points2 for g in games])
        points[first] += p1
        points[second] += p2
        rounds[first] += _mean_half_up([g.survived1 for g in games])
        rounds[second] += _mean_half_up([g.survived2 for g in games])
        for name, mine in ((first, p1), (second, p2)):
            record[name][0 if mine == 3 else 1 if mine == 1 else 2] += 1
    table = [Standing(n, points[n], rounds[n], *record[n]) for n in bot_names]
    return sorted(table, key=lambda s: (-s.points, -s.rounds, s.bot))


def format_table(table: Sequence[Standing]) -> str:
    width = max(4, *(len(s.bot) for s in table))
    lines = [f"rank  {'bot':<{width}}  points  rounds  won drawn lost"]
    for rank, s in enumerate(table, 1):
        lines.append(f"{rank:>4}  {s.bot:<{width}}  {s.points:>6}  {s.rounds:>6}  {s.won:>3} {s.drawn:>5} {s.lost:>4}")
    return "\n".join(lines)


def write_reports(folder: Path, bot_names: Sequence[str], results: Sequence[GameResult]) -> list[Standing]:
    table = standings(bot_names, results)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(GameResult.__dataclass_fields__))
    writer.writeheader()
    for result in sorted(results, key=lambda r: r.key):
        writer.writerow(asdict(result))
    write_text_atomic(folder / RESULTS_FILE, buffer.getvalue())
    summary = {"standings": [asdict(s) for s in table], "games": len(results)}
    write_text_atomic(folder / SUMMARY_FILE, json.dumps(summary, indent=1) + "\n")
    return table


def run_tournament(
    bots: Sequence[BotSpec],
    arenas: Sequence[tuple[str, Arena]],
    folder: Path,
    *,
    random_bots: Sequence[bool] | None = None,
    repeat: int = DEFAULT_REPEAT,
    jobs: int = 1,
    time_limit: float = 1.0,
    startup: float = 2.0,
    on_game: Callable[[int, int], None] | None = None,
) -> list[GameResult]:
    """Play every game not yet in the journal; returns all results (old and new)."""
    names = [b.name for b in bots]
    if len(set(names)) != len(names):
        raise InputError(f"two bots have the same name: {names}")
    randomness = list(random_bots) if random_bots is not None else [False] * len(bots)
    for name, arena in arenas:
        try:
            arena.starts_for(2)
        except ValueError as exc:
            raise InputError(f"cannot host two bots: {exc}", name) from None
    stamp = fingerprint(bots, arenas, {"repeat": repeat, "random": randomness, "limit": time_limit, "startup": startup})
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "games").mkdir(exist_ok=True)
    done = read_journal(folder, stamp)
    tasks = [t for t in plan(len(bots), len(arenas), randomness, repeat) if t.key not in done]
    total = len(done) + len(tasks)
    journal_path = folder / JOURNAL
    lock = threading.Lock()
    with open(journal_path, "a", encoding="utf-8") as journal:
        if journal.tell() == 0:
            journal.write(json.dumps({"tournament": stamp, "bots": names}) + "\n")

        def play(task: Task) -> GameResult:
            label, arena = arenas[task.arena]
            record, _ = play_game(arena, [bots[task.first], bots[task.second]], time_limit=time_limit, startup=startup)
            survived, points, reasons = record.survived(), record.points(), record.reasons()
            safe = task.key.replace("@", "_at_").replace("#", "_r")
            save_game(record, folder / "games" / f"{safe}.json")
            return GameResult(
                task.key, label, names[task.first], names[task.second], survived[0], survived[1], points[0], points[1],
                len(record.rounds), reasons[0], reasons[1],
            )  # fmt: skip

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = [pool.submit(play, t) for t in tasks]
            try:
                for future in as_completed(futures):
                    result = future.result()
                    with lock:
                        journal.write(json.dumps(asdict(result)) + "\n")
                        journal.flush()
                        os.fsync(journal.fileno())
                        done[result.key] = result
                        if on_game is not None:
                            on_game(len(done), total)
            except BaseException:
                for future in futures:
                    future.cancel()
                kill_running_ais()  # games in progress end at once; they are not journaled
                raise
    return list(done.values())
