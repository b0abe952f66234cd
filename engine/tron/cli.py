"""``robots-tron``: play Tron games between programs, check arenas, re-check game files.

    robots-tron play BOARD BOT1 BOT2 [BOT...] [--log FILE] [--out DIR] [--time-limit S] [--startup S] [--memory MIB]
    robots-tron check BOARD...
    robots-tron replay GAME.json
    robots-tron tournament BOT1 BOT2 [BOT...] [--boards BOARD...] [--jobs N] [--out DIR]
    robots-tron arenas                 (the shipped arenas and where they are)

A BOARD is an arena file, or the name of a shipped arena (``robots-tron arenas``).

A BOT is the path of any executable program speaking the contest's protocol (as in the contest's
``start.sh``), a built-in bot (``simple``, ``random``, ``strong``), or a command line with arguments
(``"python3 bot.py"``, split like a shell would).  Bad input: one line naming file, line and column,
exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.ai.external import normalize_command
from engine.ai.hints import file_problem
from engine.atomic import atomic_output, write_files_atomic
from engine.bounds import MAX_TIMEOUT, cut, shown
from engine.cliutil import EXIT_BAD_INPUT, OneLineParser, add_version, output_folder, run_command
from engine.errors import InputError
from engine.shipped import arena_argument
from engine.tron.arena import Arena, load_arena
from engine.tron.bots import BUILTIN_NAMES
from engine.tron.process import DEFAULT_MEMORY_MB
from engine.tron.record import GameRecord, load_game, write_game
from engine.tron.server import DEFAULT_STARTUP, DEFAULT_TIME_LIMIT, BotSpec, play_game
from engine.wording import counted

PROG = "robots-tron"
GAME_FILE = "tron-game.json"


def bot_spec(text: str) -> BotSpec:
    """What a BOT argument starts: a program file, a built-in bot, or a command line."""
    if Path(text).exists() or not text.strip():
        argv = normalize_command(text) if text.strip() else [text]
        return BotSpec(text, tuple(argv))
    if text in BUILTIN_NAMES:
        return BotSpec(text, (sys.executable, "-m", "engine.tron.bots", text))
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise InputError(f"cannot split the bot command {text!r}: {exc}") from None
    if not words:
        raise InputError("empty bot command")
    return BotSpec(text, tuple(normalize_command(words)))


def check_program(spec: BotSpec) -> None:
    """Refuse a bot whose program is missing or cannot be run (a typo would lose every game of a
    tournament, the whole run long); InputError.  ``play`` lets such a bot go out in round 1."""
    program = spec.argv[0]
    if spec.name in BUILTIN_NAMES:
        return
    if os.sep not in program and not Path(program).exists():
        if shutil.which(program) is None:
            raise InputError(
                f"bot {cut(spec.name)!r}: no program of that name (not a file, a built-in bot"
                f" ({', '.join(BUILTIN_NAMES)}) or a command on PATH)"
            )
        return
    path = Path(program)
    where = spec.name if len(spec.argv) == 1 else program  # the path as given
    if not path.is_file():
        raise InputError("no such bot program" if not path.exists() else "is not a bot program file", where)
    if not os.access(path, os.X_OK):
        raise InputError(
            f"bot program is not executable (try chmod +x, or name its interpreter: 'python3 {path.name}')", where
        )
    problem = file_problem(path, option="")
    if problem is not None:
        raise InputError(f"bot program cannot run: {problem}", where)


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= MAX_TIMEOUT:  # nan fails too; 1e300 overflowed the deadline (a traceback)
        raise argparse.ArgumentTypeError(
            f"must be a positive number of seconds, at most {MAX_TIMEOUT:g}, not {shown(text, 30)}"
        )
    return value


def whole_number(low: int, high: int, meaning: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (``meaning`` says what ``low`` means)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low}{meaning} to {high}, not {value}")
        return value

    return parse


def format_result(record: GameRecord) -> str:
    survived, points, reasons = record.survived(), record.points(), record.reasons()
    width = max(len(b.name) for b in record.bots)
    digits = len(str(len(record.bots)))  # bot 10 and on kept the columns of bots 1 to 9
    lines = [f"{counted(len(record.rounds), 'round')} on a {record.arena.width}x{record.arena.height} arena"]
    for i, bot in enumerate(record.bots):
        lines.append(
            f"  bot {i + 1:<{digits}}  {bot.name:<{width}}  {points[i]:>2} points  survived {survived[i]:>5}  {reasons[i]}"
        )
    return "\n".join(lines)


def cmd_play(args: argparse.Namespace) -> int:
    arena = load_arena(args.board)
    bots = [bot_spec(b) for b in args.bots]
    try:
        arena.starts_for(len(bots))
    except ValueError as exc:
        raise InputError(str(exc), args.board) from None
    out = Path(args.out) if args.out else None
    with output_folder(out) if out is not None else contextlib.nullcontext(None):
        return _play_into(args, arena, bots, out)


def _play_into(args: argparse.Namespace, arena: Arena, bots: list[BotSpec], out: Path | None) -> int:
    """``cmd_play`` once ``--out`` (if any) exists: the game, its transcript and its files."""
    # The transcript goes to a temporary file beside --log, renamed over it once the game is over:
    # a FIFO or folder there is refused before the game, a full disk or Ctrl-C keeps the old log.
    with atomic_output(args.log) if args.log else contextlib.nullcontext(None) as log_path:
        log = open(log_path, "w", encoding="utf-8") if log_path is not None else None  # noqa: SIM115
        try:
            record, processes = play_game(
                arena, bots, time_limit=args.time_limit, startup=args.startup, memory_mb=args.memory, transcript=log
            )
        finally:
            if log is not None:
                log.close()
    print(format_result(record))
    for number, process in enumerate(processes, 1):
        if process.lingered:
            print(f"  note: bot {number} {process.lingered}")
    if out is not None:
        files: dict[Path, str | bytes] = {
            out / f"bot{number}.stderr.txt": process.stderr.data() for number, process in enumerate(processes, 1)
        }
        files[out / GAME_FILE] = write_game(record)  # all or nothing, the game file last
        write_files_atomic(files)
        print(f"game file: {out / GAME_FILE}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    bad = 0
    for path in args.boards:
        try:
            arena = load_arena(path)
            arena.starts_for(arena.default_bots)
        except InputError as exc:
            print(f"{PROG}: {exc}", file=sys.stderr)
            bad += 1
            continue
        except ValueError as exc:
            print(f"{PROG}: {path}: {exc}", file=sys.stderr)
            bad += 1
            continue
        free = arena.width * arena.height - sum(arena.blocked)
        starts = len(arena.starts) or "default 2"
        print(f"{path}: ok, {arena.width}x{arena.height}, {free} free fields, starts: {starts}")
    return EXIT_BAD_INPUT if bad else 0


def cmd_arenas(args: argparse.Namespace) -> int:
    """The arenas shipped inside the package, one ``NAME  WxH  PATH`` line each (for an installed copy)."""
    from gameboards import tron_arena_names, tron_arena_path

    for name in tron_arena_names():
        path = tron_arena_path(name)
        arena = load_arena(path)
        print(f"{name:26} {arena.width}x{arena.height}\t{path}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    record = load_game(args.game)
    print(format_result(record))
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from engine.cliutil import ProgressBar
    from engine.tron.tournament import run_tournament, write_reports
    from gameboards import tron_arena_names, tron_arena_path

    boards = args.boards or [str(tron_arena_path(name)) for name in tron_arena_names()]
    arenas: list[tuple[str, Arena]] = [(b, load_arena(b)) for b in boards]
    bots = [bot_spec(b) for b in args.bots]
    if len(bots) < 2:
        raise InputError("a tournament needs at least two bots")
    for spec in bots:
        check_program(spec)
    random_names = set(args.random or [])
    unknown = random_names - set(args.bots)
    if unknown:
        raise InputError(f"--random names {sorted(unknown)[0]!r}, which is not one of the bots")
    randomness = [b in random_names or b == "random" for b in args.bots]
    out = Path(args.out)
    progress = ProgressBar(1, sys.stderr)

    def tick(done: int, total: int) -> None:
        progress.total = total
        progress.update(done)

    from engine.batch import BatchLost, BatchStopped
    from engine.stopping import describe, exit_status

    if args.cluster is not None:
        from engine.batch.cluster import parse_address

        parse_address(args.cluster)
    try:
        results = run_tournament(
            bots, arenas, out, random_bots=randomness, repeat=args.repeat, jobs=args.jobs or os.cpu_count() or 1,
            cluster=args.cluster,
            resume=args.resume, time_limit=args.time_limit, startup=args.startup, memory_mb=args.memory, on_game=tick,
        )  # fmt: skip
    except BatchStopped as stop:
        newline = "\n" if progress.interactive else ""
        print(
            f"{newline}{PROG}: {describe(stop.cause)}: {stop.saved} of {stop.total} games saved in"
            f" {out / 'journal.jsonl'}; play the rest with the same command and --resume",
            file=sys.stderr,
        )
        return exit_status(stop.cause)
    except BatchLost as gone:
        newline = "\n" if progress.interactive else ""
        print(
            f"{newline}{PROG}: {gone.reason}: {gone.saved} of {gone.total} games saved in {out / 'journal.jsonl'};"
            " restart the cluster, then play the rest with the same command and --resume",
            file=sys.stderr,
        )
        return 2
    progress.finish()
    table = write_reports(out, [b.name for b in bots], results)
    from engine.tron.tournament import format_ignored_end, format_table, ignored_end

    print(format_table(table))
    for line in format_ignored_end(ignored_end([s.bot for s in table], results)):
        print(line)
    print(
        f"{counted(len(results), 'game')}; results: {out / 'results.csv'}, {out / 'summary.json'}, game files in {out / 'games'}"
    )
    return 0


def add_bot_limits(parser: argparse.ArgumentParser) -> None:
    """What a bot may take, alike for ``play`` and ``tournament``: seconds per answer, the first
    round's extra seconds, memory."""
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help="seconds per answer (default 1)",
    )
    parser.add_argument(
        "--startup",
        type=positive_seconds,
        default=DEFAULT_STARTUP,
        metavar="S",
        help="extra seconds in round 1 (default 2)",
    )
    parser.add_argument(
        "--memory",
        type=whole_number(0, 1_000_000, " (no limit)"),
        default=DEFAULT_MEMORY_MB,
        metavar="MIB",
        help=f"address space each bot may use, in MiB (default {DEFAULT_MEMORY_MB}; 0 = no limit)",
    )


ARENA_HELP = "an arena file, or the name of a shipped arena (robots-tron arenas lists them)"


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog=PROG, description="Tron (freiesMagazin 2014): play, check, replay, tournaments.")
    add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play one game between bot programs")
    play.add_argument("board", metavar="BOARD", type=arena_argument, help=ARENA_HELP)
    play.add_argument(
        "bots", nargs="+", metavar="BOT", help=f"program path, built-in ({', '.join(BUILTIN_NAMES)}) or command line"
    )
    play.add_argument("--log", metavar="FILE", help="write the whole conversation (>N to bot N, <N from it)")
    play.add_argument("--out", metavar="DIR", help=f"write {GAME_FILE} and each bot's error output here")
    add_bot_limits(play)
    play.set_defaults(run=cmd_play)
    check = sub.add_parser("check", help="check arena files")
    check.add_argument("boards", nargs="+", metavar="BOARD", type=arena_argument, help=ARENA_HELP)
    check.set_defaults(run=cmd_check)
    replay = sub.add_parser("replay", help="re-check a game file against the rules and print its result")
    replay.add_argument("game", metavar="GAME", help=f"a game file ({GAME_FILE}) written by play or tournament")
    replay.set_defaults(run=cmd_replay)
    tour = sub.add_parser("tournament", help="every pair on every arena, both starts, the contest's 3/1/0 scoring")
    tour.add_argument(
        "bots", nargs="+", metavar="BOT", help=f"program path, built-in ({', '.join(BUILTIN_NAMES)}) or command line"
    )
    tour.add_argument(
        "--boards", nargs="+", metavar="BOARD", type=arena_argument, help="arenas (default: every shipped arena)"
    )
    tour.add_argument("--random", nargs="+", metavar="BOT", help="bots with random elements: their games are repeated")
    tour.add_argument(
        "--repeat",
        type=whole_number(1, 1000),
        default=10,
        metavar="K",
        help="games per pairing for random bots (default 10)",
    )
    tour.add_argument(
        "--jobs",
        type=whole_number(0, 1024, " (one per core)"),
        default=1,
        metavar="N",
        help="games at the same time; 0 = one per core (default 1)",
    )
    tour.add_argument(
        "--cluster", metavar="ADDRESS", help="play on a Dask cluster (tcp://HOST:8786) or local:N, as robots-contest"
    )
    tour.add_argument("--resume", action="store_true", help="finish a stopped tournament in --out (only missing games)")
    tour.add_argument(
        "--out",
        default="tron-tournament",
        metavar="DIR",
        help="results, journal and game files (default: tron-tournament)",
    )
    add_bot_limits(tour)
    tour.set_defaults(run=cmd_tournament)
    arenas = sub.add_parser("arenas", help="list the arenas shipped with the package and where they are")
    arenas.set_defaults(run=cmd_arenas)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from engine.textout import readable_streams

    readable_streams()  # a file name that is not UTF-8 is printed as \xNN, never a traceback
    args = build_parser().parse_args(argv)
    return run_command(PROG, lambda: int(args.run(args)))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
