"""``robots-contest``: play many boards x many decks at one level with one AI and report.

    robots-contest BOARDS... [--decks DIR_OR_FILE... | --seeds N] [--level L] [--ai NAME|PROGRAM]
                   [--jobs N] [--out DIR] [--timeout S]
    robots-contest BOARD DECK [easy|normal|hard]        (the contest's own call, as in start_contest)

Like the contest's ``start_contest`` script (every board with every deck of a folder), but
in parallel, with a progress bar, a summary table and ``results.csv`` / ``summary.json``.
An AI error ends only its own game.  Bad board or deck files stop before any game is played
with a one-line message and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.ai.external import DEFAULT_TIMEOUT, ExternalAI
from engine.ai.registry import ai_help, resolve_ai
from engine.boardfile import parse_board
from engine.bounds import check_seconds
from engine.cards import Card
from engine.cliutil import OneLineParser, ProgressBar
from engine.contest.report import format_table, summaries, write_reports
from engine.contest.runner import BoardSource, ContestSetup, DeckSource, GameResult, effective_jobs, run_contest
from engine.deck import load_deck
from engine.errors import InputError, read_text
from engine.game import Outcome
from engine.model import Level
from engine.status import require_start

PROGRAM = "robots-contest"
DEFAULT_SEEDS = 10
DEFAULT_OUT = "contest-results"

__all__ = ["main"]


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROGRAM,
        description="Play every board with every deck at one level with one AI, in parallel, and report the results.",
    )
    parser.add_argument(
        "boards",
        nargs="+",
        metavar="BOARD",
        help="board files to play; deck files and a final level word are accepted here too, as the contest's"
        " start_contest calls 'robots-contest BOARD DECK LEVEL'",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--decks",
        nargs="+",
        metavar="DIR_OR_FILE",
        help="deck files, or folders whose every (non-hidden) file is a deck",
    )
    source.add_argument(
        "--seeds", type=int, metavar="N", help=f"play N generated decks, seeds 1..N (default: {DEFAULT_SEEDS})"
    )
    parser.add_argument("--level", choices=[lv.value for lv in Level], help="default: normal, as in the contest")
    parser.add_argument("--ai", default="reference", metavar="NAME|PROGRAM", help=ai_help() + " (default: reference)")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="games played in parallel; 0 = one per core (default: 1)"
    )
    parser.add_argument(
        "--out",
        default=DEFAULT_OUT,
        metavar="DIR",
        help=f"where results.csv and summary.json go (default: {DEFAULT_OUT})",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds an external AI may take per round (default: {DEFAULT_TIMEOUT:g})",
    )
    return parser


def load_boards(paths: Sequence[str]) -> tuple[BoardSource, ...]:
    """Read and check every board up front, so a bad file stops the contest before it starts."""
    sources = []
    for path in paths:
        text = read_text(path)
        board = parse_board(text, path)
        require_start(board, path, need_goal=True)
        sources.append(BoardSource(path, text))
    return tuple(sources)


def deck_files(specs: Sequence[str]) -> list[Path]:
    """The deck files named: files as given, folders expanded to their files sorted by name."""
    files: list[Path] = []
    for spec in specs:
        path = Path(spec)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
            if not found:
                raise InputError("deck folder holds no deck files", path)
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            raise InputError("no such deck file or folder", path)
    return files


def looks_like_deck(path: str) -> bool:
    """Whether a file named among the boards is a deck: its first non-blank line is a card."""
    try:
        with open(path, encoding="latin-1") as handle:
            head = handle.read(256)
    except OSError:
        return False
    first = next((line for line in head.splitlines() if line.strip()), "")
    try:
        Card.parse(first)
    except ValueError:
        return False
    return True


def split_contest_form(args: argparse.Namespace) -> None:
    """Accept the contest's ``robots-contest BOARD DECK LEVEL``: move decks and the level word to their options."""
    positional: list[str] = list(args.boards)
    levels = {lv.value for lv in Level}
    if len(positional) > 1 and positional[-1] in levels and not Path(positional[-1]).exists():
        word = positional.pop()
        if args.level is not None and args.level != word:
            raise InputError(f"two levels given: {word!r} and --level {args.level}")
        args.level = word
    decks = [p for p in positional if looks_like_deck(p)]
    if decks:
        if args.seeds is not None:
            raise InputError("deck files and --seeds given: play either those decks or generated ones")
        args.decks = [*(args.decks or []), *decks]
        positional = [p for p in positional if p not in decks]
    if not positional:
        raise InputError("no board given (every file named is a deck)")
    args.boards = positional
    if args.level is None:
        args.level = Level.NORMAL.value


def load_decks(args: argparse.Namespace) -> tuple[DeckSource, ...]:
    if args.decks:
        files = deck_files(args.decks)
        for path in files:
            load_deck(path)  # check every deck now; workers load them again, one at a time
        return tuple(DeckSource(path=path) for path in files)
    seeds = DEFAULT_SEEDS if args.seeds is None else args.seeds
    if seeds < 1:
        raise InputError(f"--seeds must be at least 1, not {seeds}")
    return tuple(DeckSource(seed=seed) for seed in range(1, seeds + 1))


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.jobs < 0:
            raise InputError(f"--jobs must be 0 (all cores) or more, not {args.jobs}")
        check_seconds(args.timeout, "--timeout")
        split_contest_form(args)
        boards = load_boards(args.boards)
        decks = load_decks(args)
        probe = resolve_ai(args.ai, timeout=args.timeout)
        out = Path(args.out)
        if out.exists() and not out.is_dir():
            raise InputError("--out must be a folder, this is a file", out)
    except InputError as exc:
        print(f"{PROGRAM}: {exc}", file=sys.stderr)
        return 2
    log_dir = out / "ai-logs" if isinstance(probe, ExternalAI) else None
    if isinstance(probe, ExternalAI):
        probe.close()
    # Create the output folder before playing: an unusable --out must not cost a whole contest.
    for folder in (out, log_dir):
        try:
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"{PROGRAM}: {folder}: cannot create: {exc.strerror or exc}", file=sys.stderr)
            return 2
    level = Level(args.level)
    setup = ContestSetup(boards, decks, level, args.ai, args.timeout, log_dir)
    jobs = effective_jobs(args.jobs)
    bar = ProgressBar(len(boards) * len(decks), sys.stderr)

    def report(done: int, result: GameResult) -> None:
        bar.update(done, error=result.outcome == Outcome.AI_ERROR.value)

    try:
        results = run_contest(setup, jobs, report)
    except KeyboardInterrupt:
        print(f"\n{PROGRAM}: interrupted", file=sys.stderr)
        return 130
    seconds = bar.finish()
    per_board, total = summaries(results)
    print(f"{len(results)} games, level {level.value}, AI {args.ai}, {len(decks)} decks, {jobs} jobs, {seconds:.2f} s")
    print(format_table(per_board, total), end="")
    try:
        csv_path, json_path = write_reports(
            out, results, level=level.value, ai=args.ai, decks=[d.label for d in decks], jobs=jobs, seconds=seconds
        )
    except OSError as exc:
        print(f"{PROGRAM}: {out}: cannot write results: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"results: {csv_path}  summary: {json_path}" + (f"  AI logs: {log_dir}" if log_dir else ""))
    first_error = next((r for r in results if r.error), None)
    if first_error is not None:
        print(f"first AI error: {first_error.board} {first_error.deck}: {first_error.error}", file=sys.stderr)
    return 0
