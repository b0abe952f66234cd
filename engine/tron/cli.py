"""``robots-tron``: play Tron games between programs, check arenas, re-check game files.

    robots-tron play BOARD BOT1 BOT2 [BOT...] [--log FILE] [--out DIR] [--time-limit S] [--startup S]
    robots-tron check BOARD...
    robots-tron replay GAME.json

A BOT is the path of any executable program speaking the contest's protocol (as in the contest's
``start.sh``), a built-in bot (``simple``, ``random``, ``strong``), or a command line with arguments
(``"python3 bot.py"``, split like a shell would).  Bad input: one line naming file, line and column,
exit status 2.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.ai.external import normalize_command
from engine.errors import InputError
from engine.tron.arena import load_arena
from engine.tron.bots import BUILTIN_NAMES
from engine.tron.record import GameRecord, load_game, save_game
from engine.tron.server import DEFAULT_STARTUP, DEFAULT_TIME_LIMIT, BotSpec, play_game

PROG = "robots-tron"
EXIT_BAD_INPUT = 2
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


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}")
    return value


def format_result(record: GameRecord) -> str:
    survived, points, reasons = record.survived(), record.points(), record.reasons()
    width = max(len(b.name) for b in record.bots)
    lines = [f"{len(record.rounds)} rounds on a {record.arena.width}x{record.arena.height} arena"]
    for i, bot in enumerate(record.bots):
        lines.append(
            f"  bot {i + 1}  {bot.name:<{width}}  {points[i]:>2} points  survived {survived[i]:>5}  {reasons[i]}"
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
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    log = open(args.log, "w", encoding="utf-8") if args.log else None  # noqa: SIM115
    try:
        record, processes = play_game(arena, bots, time_limit=args.time_limit, startup=args.startup, transcript=log)
    finally:
        if log is not None:
            log.close()
    print(format_result(record))
    if out is not None:
        save_game(record, out / GAME_FILE)
        for number, process in enumerate(processes, 1):
            (out / f"bot{number}.stderr.txt").write_bytes(process.stderr.data())
        print(f"game file: {out / GAME_FILE}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    bad = 0
    for path in args.boards:
        try:
            arena = load_arena(path)
            arena.starts_for(max(1, len(arena.starts) or 2))
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


def cmd_replay(args: argparse.Namespace) -> int:
    record = load_game(args.game)
    print(format_result(record))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Tron (freiesMagazin 2014): play, check, replay.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play one game between bot programs")
    play.add_argument("board", metavar="BOARD")
    play.add_argument(
        "bots", nargs="+", metavar="BOT", help=f"program path, built-in ({', '.join(BUILTIN_NAMES)}) or command line"
    )
    play.add_argument("--log", metavar="FILE", help="write the whole conversation (>N to bot N, <N from it)")
    play.add_argument("--out", metavar="DIR", help=f"write {GAME_FILE} and each bot's error output here")
    play.add_argument(
        "--time-limit", type=_positive, default=DEFAULT_TIME_LIMIT, metavar="S", help="seconds per answer (default 1)"
    )
    play.add_argument(
        "--startup", type=_positive, default=DEFAULT_STARTUP, metavar="S", help="extra seconds in round 1 (default 2)"
    )
    play.set_defaults(run=cmd_play)
    check = sub.add_parser("check", help="check arena files")
    check.add_argument("boards", nargs="+", metavar="BOARD")
    check.set_defaults(run=cmd_check)
    replay = sub.add_parser("replay", help="re-check a game file against the rules and print its result")
    replay.add_argument("game", metavar="GAME")
    replay.set_defaults(run=cmd_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
        return status
    except InputError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"{PROG}: {where}{exc.strerror or exc}", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
