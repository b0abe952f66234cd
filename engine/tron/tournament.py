"""A Tron tournament with the contest's scoring, on the same batch machinery as ``robots-contest``.

Every pair of distinct bots plays on every arena twice, start positions swapped; 3 points for
surviving longer, 1 each for going out in the same round, 0 for going out first; points are summed
and ties broken by the total rounds survived.  Bots with random elements play each game ``repeat``
times and score the rounded mean (half up, "mathematically rounded").

Games run through :func:`engine.batch.run_batch`: in worker processes (``jobs``) or on a Dask
cluster (``cluster``); each finished game is journaled at once (``journal.jsonl``, fsynced), so a
stopped tournament goes on with ``resume`` and plays only the missing games, and a worker that
dies loses only its own game (scored 0 for both, with the reason).  Each game's file is saved
under ``games/``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from engine.atomic import resolve_target, write_text_atomic
from engine.batch import Journal, run_batch
from engine.batch.table import read_rows
from engine.cliutil import make_folder
from engine.errors import InputError
from engine.textout import escape_bytes
from engine.tron import process as bot_process
from engine.tron.arena import Arena, parse_arena, write_arena
from engine.tron.process import DEFAULT_MEMORY_MB
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
class Job:
    """Everything a worker (a process here, or a cluster's) needs to play one game: picklable."""

    key: str
    arena_label: str
    arena_text: str
    names: tuple[str, str]
    argvs: tuple[tuple[str, ...], tuple[str, ...]]
    time_limit: float
    startup: float
    games_dir: str
    memory_mb: int = DEFAULT_MEMORY_MB


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
    #: 1 where the bot had to be killed after ``END`` (it ignored it, or left a program holding its
    #: output): each such game cost the grace time, which the summary reports per bot.  Kept in the
    #: journal, not in ``results.csv`` (its columns stay as they were); 0 in journals from before.
    lingered1: int = 0
    lingered2: int = 0


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


def play_job(job: Job) -> dict[str, Any]:
    """Play one game (in a worker) and save its game file; the row for the journal."""
    arena = parse_arena(job.arena_text, job.arena_label)
    bots = [BotSpec(name, argv) for name, argv in zip(job.names, job.argvs, strict=True)]
    record, processes = play_game(arena, bots, time_limit=job.time_limit, startup=job.startup, memory_mb=job.memory_mb)
    survived, points, reasons = record.survived(), record.points(), record.reasons()
    safe = job.key.replace("@", "_at_").replace("#", "_r")
    save_game(record, Path(job.games_dir) / f"{safe}.json")
    return asdict(
        GameResult(
            job.key, job.arena_label, *job.names, survived[0], survived[1], points[0], points[1],
            len(record.rounds), reasons[0], reasons[1], *(int(bool(p.lingered)) for p in processes),
        )
    )  # fmt: skip


def lost_job(job: Job, reason: str) -> dict[str, Any]:
    """The row of a game whose worker died: no points for either bot, the reason kept."""
    why = f"game lost: {reason}"
    return asdict(GameResult(job.key, job.arena_label, *job.names, 0, 0, 0, 0, 0, why, why))


def job_key(job: Job) -> str:
    return job.key


def fingerprint(
    bots: Sequence[BotSpec], arenas: Sequence[tuple[str, Arena]], settings: dict[str, Any]
) -> dict[str, Any]:
    """What makes a journal belong to this tournament: bots, arena contents, limits."""
    return {
        "game": "tron",
        "bots": [[b.name, *b.argv] for b in bots],
        "arenas": [[name, hashlib.sha256(write_arena(arena).encode()).hexdigest()[:16]] for name, arena in arenas],
        **settings,
    }


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


#: The columns of ``results.csv``: a game result's fields, in order, but for the lingering marks.
RESULT_COLUMNS = tuple(name for name in GameResult.__dataclass_fields__ if not name.startswith("lingered"))
_COUNT_COLUMNS = ("survived1", "survived2", "points1", "points2", "rounds")
#: No count of a game result comes near this (a game has at most 512 x 512 rounds).
MAX_COUNT = 10**9


def format_results(results: Sequence[GameResult]) -> str:
    """The text of ``results.csv``: a header and one row per game, in key order (the writer paired
    with ``parse_results``; rows end in CRLF, so a text field holding a lone CR is quoted). A bot or
    arena named by a path that is not UTF-8 is written with its bytes as ``\\xNN`` (it was a traceback
    after the last game, and no results.csv)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(RESULT_COLUMNS), extrasaction="ignore")
    writer.writeheader()
    for result in sorted(results, key=lambda r: r.key):
        writer.writerow({key: escape_bytes(v) if isinstance(v, str) else v for key, v in asdict(result).items()})
    return buffer.getvalue()


def parse_results(text: str, path: str | Path | None = None) -> list[GameResult]:
    """Read ``results.csv`` back; InputError naming the line (and the column of a bad count)."""
    return [GameResult(**values) for _, values in read_rows(text, RESULT_COLUMNS, _COUNT_COLUMNS, MAX_COUNT, path)]  # type: ignore[arg-type]


def ignored_end(bot_names: Sequence[str], results: Sequence[GameResult]) -> dict[str, int]:
    """For each bot that had to be killed after ``END``, in how many games (bots in table order)."""
    counts = dict.fromkeys(bot_names, 0)
    for result in results:
        counts[result.bot1] += result.lingered1
        counts[result.bot2] += result.lingered2
    return {name: count for name, count in counts.items() if count}


def format_ignored_end(counts: dict[str, int]) -> list[str]:
    """One line per bot that ignored ``END``: each of those games waited the grace time for it."""
    grace = bot_process.END_GRACE
    return [
        f"note: {name} did not exit at END in {count} game{'s' if count != 1 else ''}:"
        f" each waited {grace:g} s before it was killed"
        for name, count in counts.items()
    ]


def write_reports(folder: Path, bot_names: Sequence[str], results: Sequence[GameResult]) -> list[Standing]:
    table = standings(bot_names, results)
    write_text_atomic(folder / RESULTS_FILE, format_results(results))
    summary: dict[str, Any] = {"standings": [asdict(s) for s in table], "games": len(results)}
    lingering = ignored_end([s.bot for s in table], results)
    if lingering:
        summary["ignored_end"] = {"grace_s": bot_process.END_GRACE, "games": lingering}
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
    cluster: str | None = None,
    resume: bool = False,
    time_limit: float = 1.0,
    startup: float = 2.0,
    memory_mb: int = DEFAULT_MEMORY_MB,
    on_game: Callable[[int, int], None] | None = None,
) -> list[GameResult]:
    """Play every game not yet in the journal; returns all results (journaled and new), in plan order.

    Without ``resume`` a folder holding a journal is refused (its results would be lost); with it,
    a journal of another tournament is refused too (engine.batch.JournalError, a one-line InputError).
    """
    if repeat < 1:
        raise InputError(f"--repeat must be 1 or more, not {repeat}")
    names = [b.name for b in bots]
    if len(set(names)) != len(names):
        raise InputError(f"two bots have the same name: {names}")
    randomness = list(random_bots) if random_bots is not None else [False] * len(bots)
    for name, arena in arenas:
        try:
            arena.starts_for(2)
        except ValueError as exc:
            raise InputError(f"cannot host two bots: {exc}", name) from None
    settings = {
        "repeat": repeat,
        "random": randomness,
        "time_limit": time_limit,
        "startup": startup,
        # Without a limit the key is left out: a journal from before bots had one (they had none)
        # is then resumed with --memory 0.
        **({"memory": memory_mb} if memory_mb else {}),
    }
    make_folder(folder)
    # The reports are written after the last game: something in their way (a FIFO, a folder, a
    # read-only file) is named now, as robots-contest does, not after hours of games.
    for name in (RESULTS_FILE, SUMMARY_FILE):
        try:
            resolve_target(folder / name)
        except OSError as exc:
            raise InputError(str(exc.strerror or exc), folder / name) from None
    games = folder / "games"
    games.mkdir(exist_ok=True)
    texts = [write_arena(arena) for _, arena in arenas]
    work = [
        Job(t.key, arenas[t.arena][0], texts[t.arena], (names[t.first], names[t.second]),
            (bots[t.first].argv, bots[t.second].argv), time_limit, startup, str(games), memory_mb)
        for t in plan(len(bots), len(arenas), randomness, repeat)
    ]  # fmt: skip
    journal = Journal.open(folder / JOURNAL, fingerprint(bots, arenas, settings), resume=resume)
    try:
        rows = run_batch(
            work,
            play_job,
            key=job_key,
            lost=lost_job,
            journal=journal,
            workers=jobs,
            cluster=cluster,
            on_row=(lambda done, row: on_game(done, len(work))) if on_game is not None else None,
        )
    finally:
        journal.close()
    return [GameResult(**row) for row in rows]
