"""``robots-contest``: play many boards x many decks at one level with one AI and report.

    robots-contest BOARDS... [--decks DIR_OR_FILE... | --seeds N] [--level L] [--ai NAME|PROGRAM]...
                   [--jobs N | --cluster ADDRESS] [--out DIR] [--timeout S] [--ai-limit KEY=VALUE]
                   [--resume]
    robots-contest BOARD DECK [easy|normal|hard]        (the contest's own call, as in start_contest)
    robots-contest --out DIR --replay ROW [--view]      (row ROW of DIR/results.csv into a game folder)

Like the contest's ``start_contest`` script (every board with every deck of a folder), but
in parallel, with a progress bar, a summary table and ``results.csv`` / ``summary.json``.
An AI error, or the death of the process playing a game, ends only that game (outcome E).
Each finished game is appended to ``journal.jsonl`` in the output folder at once, so a
stopped contest (Ctrl-C, kill -9, a crash) goes on with ``--resume`` and plays only the
missing games.  Bad board or deck files stop before any game is played with a one-line
message and exit status 2.

With several ``--ai`` every AI plays the same boards with the same decks, one after the other,
and the report compares them fairly (``engine.contest.compare``): per AI the goal rate with its
95% interval and the mean rounds of the won games, per pair the paired differences with their
intervals and a plain verdict, ``comparison.json`` and the chart ``comparison.png``.

Every game can be watched afterwards: ``contest.json`` records how to play any row again and
``--replay`` does so into ``OUT/games/row-N`` (``engine.contest.playback``); the summary names
each AI's games worth watching with that command (``engine.contest.notable``).
"""

from __future__ import annotations

import argparse
import contextlib
import re
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.ai.external import DEFAULT_TIMEOUT, ExternalAI
from engine.ai.registry import ai_help, resolve_ai
from engine.ai.supervise import AILimits
from engine.atomic import resolve_target
from engine.batch import BatchLost, BatchStopped, Journal
from engine.batch.cluster import parse_address
from engine.boardfile import parse_board
from engine.bounds import check_seconds
from engine.cards import Card
from engine.cliutil import EXIT_BROKEN_PIPE, OneLineParser, ProgressBar, add_version, stdout_gone, timeout_argument
from engine.contest.compare import distinct_labels
from engine.contest.notable import watch_lines, watch_list
from engine.contest.record import RECORD_FILE, write_record
from engine.contest.report import RESULTS_FILE, SUMMARY_FILE, format_table, summaries, write_reports
from engine.contest.runner import BoardSource, ContestSetup, DeckSource, GameResult, effective_jobs, run_contest
from engine.contest.several import CHART_FILE, COMPARISON_FILE, report_several, safe_name
from engine.deck import load_deck
from engine.errors import InputError, read_text
from engine.game import Outcome
from engine.model import Level
from engine.shipped import board_argument
from engine.status import require_start
from engine.stopping import describe, exit_status, raise_on_signals
from engine.wording import counted

PROGRAM = "robots-contest"
DEFAULT_SEEDS = 10
DEFAULT_OUT = "contest-results"
JOURNAL_FILE = "journal.jsonl"
#: The journals of a contest: ``journal.jsonl`` with one AI, ``journal-N.jsonl`` with several.
OTHER_JOURNAL = re.compile(r"journal(-[0-9]+)?\.jsonl")
#: More generated decks than this per contest is surely a typo (each board plays every deck).
MAX_SEEDS = 100_000

__all__ = ["main"]


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROGRAM,
        description="Play every board with every deck at one level with one AI, in parallel, and report the results.",
    )
    add_version(parser)
    parser.add_argument(
        "boards",
        nargs="*",
        metavar="BOARD",
        help="board files (or shipped boards' names) to play; deck files and a final level word are accepted"
        " here too, as the contest's start_contest calls 'robots-contest BOARD DECK LEVEL'",
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
    parser.add_argument(
        "--ai",
        action="append",
        metavar="NAME|PROGRAM",
        help=ai_help() + " (default: reference); give it several times to compare AIs on the same games",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="games played in parallel; 0 = one per core (default: 1)"
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help=f"where results.csv and summary.json go (default: {DEFAULT_OUT}; for the contest's call"
        f" 'BOARD DECK LEVEL': {DEFAULT_OUT}/BOARD__DECK__LEVEL, one folder per game)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the games on a Dask distributed cluster: a scheduler's address (tcp://HOST:8786), or local:N"
        " for N local worker processes (see docs/contest-cluster.md)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on with the contest journaled in --out (same boards, decks and settings): play only the missing games",
    )
    parser.add_argument(
        "--replay",
        type=int,
        metavar="ROW",
        help="play row ROW of --out's results.csv (1 = the first game) again, checked to be the same game,"
        " into --out/games/row-ROW, a game folder robots-view opens",
    )
    parser.add_argument(
        "--view", action="store_true", help="with --replay: open the game in robots-view (one already open reloads)"
    )
    parser.add_argument(
        "--ai-limit",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a resource limit of an AI program, 0 for none: memory (MiB), processes, file-size (MiB), cpu (s),"
        " sandbox (1: it writes only in its own folder);"
        f" repeatable (default: {AILimits().describe()})",
    )
    parser.add_argument(
        "--timeout",
        type=timeout_argument,
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
    if not Path(path).is_file():  # a FIFO would block the open; the board reader names what it is
        return False
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
    if args.level is None:
        args.level = Level.NORMAL.value
    if args.out is None:
        # start_contest calls 'robots-contest BOARD DECK LEVEL' once per game, all in one folder:
        # one shared default folder refused every game after the first (its journal is another's).
        one_game = len(positional) == 1 and len(decks) == 1 and not args.decks[:-1]
        args.out = (
            str(Path(DEFAULT_OUT) / game_folder(positional[0], decks[0], args.level)) if one_game else DEFAULT_OUT
        )
    args.boards = [board_argument(p) for p in positional]  # a shipped board's name works too


def game_folder(board: str, deck: str, level: str) -> str:
    """The folder name of one game of the contest's call: ``chop__carddeck0__hard``."""
    return "__".join(safe_name(Path(name).stem) for name in (board, deck, level))


def load_decks(args: argparse.Namespace) -> tuple[DeckSource, ...]:
    if args.decks:
        files = deck_files(args.decks)
        for path in files:
            load_deck(path)  # check every deck now; workers load them again, one at a time
        # The text travels with each game, so workers on other machines need not see the files.
        return tuple(DeckSource(path=path, text=read_text(path)) for path in files)
    seeds = DEFAULT_SEEDS if args.seeds is None else args.seeds
    if not 1 <= seeds <= MAX_SEEDS:
        raise InputError(f"--seeds must be 1 to {MAX_SEEDS}, not {seeds}")
    return tuple(DeckSource(seed=seed) for seed in range(1, seeds + 1))


def absolute_command(probe: object) -> str | None:
    """An AI program's command line with its paths made absolute, as the games must run it; None
    for a built-in AI.  The games of ``--cluster`` run on workers in other folders: there
    ``--ai bots/bot.py`` named nothing, and every game of that AI ended 'no such AI program'."""
    if not isinstance(probe, ExternalAI):
        return None
    return shlex.join(probe.argv) if len(probe.argv) > 1 else probe.argv[0]


def refuse_other_journals(out: Path, ours: Sequence[Path]) -> None:
    """A journal in ``out`` that this contest does not use (one AI's in a comparison's folder, or the
    other way round, or a comparison's with more AIs) belongs to another contest, whose results
    this one would overwrite: InputError."""
    if not out.is_dir():
        return
    for path in sorted(out.iterdir()):
        if path not in ours and OTHER_JOURNAL.fullmatch(path.name):
            kind = "one AI" if path.name == JOURNAL_FILE else "several AIs"
            raise InputError(
                f"holds the journal of another contest (with {kind}): its results would be lost; choose another --out",
                path,
            )


def main(argv: Sequence[str] | None = None) -> int:
    """The command; a reader of its output that leaves early (``| head``) ends it quietly, as
    ``run_command`` does for the other commands (it was a traceback)."""
    from engine.textout import readable_streams

    readable_streams()  # a file name that is not UTF-8 is printed as \xNN, never a traceback
    try:
        return _main(argv)
    except BrokenPipeError:
        if stdout_gone():
            return EXIT_BROKEN_PIPE
        raise


def replay(args: argparse.Namespace) -> int:
    """``--replay ROW``: the row's game into ``OUT/games/row-ROW``, and with ``--view`` into the viewer."""
    from engine.cli import open_viewer
    from engine.contest.playback import replay_row

    def announce(row: GameResult) -> None:
        print(f"row {args.replay}: playing it again ({row.deck}, AI {row.ai}) ...", flush=True)

    try:
        if args.boards or args.decks or args.seeds is not None or args.resume or args.cluster or args.ai:
            raise InputError("--replay takes only --out (the contest's folder), the row and --view")
        if args.out is None:
            raise InputError("--replay needs --out: the folder of the contest's results.csv")
        done = replay_row(Path(args.out), args.replay, announce=announce)
    except InputError as exc:
        print(f"{PROGRAM}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{PROGRAM}: {exc.filename or args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    row = done.result
    print(
        f"row {args.replay}: {row.board}, {row.deck}, {row.level}, AI {row.ai}: {row.outcome} after"
        f" {counted(row.rounds, 'round')}, {counted(row.cards, 'card')}, the same as in results.csv; files in {done.folder}"
    )
    if args.view:
        open_viewer(done.folder)
    else:
        print(f"watch it: robots-view {done.folder}")
    return 0


def _main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.replay is not None:
        return replay(args)
    try:
        if args.view:
            raise InputError("--view goes with --replay ROW")
        if not args.boards:
            raise InputError("no board given: name the boards to play (or --replay ROW with --out)")
        if args.jobs < 0:
            raise InputError(f"--jobs must be 0 (all cores) or more, not {args.jobs}")
        check_seconds(args.timeout, "--timeout")
        limits = AILimits.parse(args.ai_limit)
        if args.cluster is not None:
            parse_address(args.cluster)
        split_contest_form(args)
        boards = load_boards(args.boards)
        decks = load_decks(args)
        ais: list[str] = args.ai or ["reference"]
        probes = [resolve_ai(ai, timeout=args.timeout) for ai in ais]
        out = Path(args.out)
        if out.exists() and not out.is_dir():
            raise InputError("--out must be a folder, this is a file", out)
    except InputError as exc:
        print(f"{PROGRAM}: {exc}", file=sys.stderr)
        return 2
    labels = distinct_labels(ais)
    several = len(ais) > 1
    log_dirs: list[Path | None] = []
    commands: list[str | None] = []
    for index, probe in enumerate(probes):
        commands.append(absolute_command(probe))
        if isinstance(probe, ExternalAI):
            probe.close()
            log_dirs.append(out / "ai-logs" / (f"{index + 1}-{safe_name(labels[index])}" if several else ""))
        else:
            log_dirs.append(None)
    # Create the output folder before playing: an unusable --out must not cost a whole contest.
    made: list[Path] = []  # the folders this run made, removed again if nothing can be played
    for folder in (out, *log_dirs):
        try:
            if folder is not None:
                made += [path for path in (folder, *folder.parents) if path not in made and not path.exists()]
                folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"{PROGRAM}: {folder}: cannot create: {exc.strerror or exc}", file=sys.stderr)
            return 2
    level = Level(args.level)
    setups = [
        ContestSetup(boards, decks, level, ai, args.timeout, log_dir, limits, command)
        for ai, log_dir, command in zip(ais, log_dirs, commands, strict=True)
    ]
    jobs = effective_jobs(args.jobs)
    paths = [out / (f"journal-{i + 1}.jsonl" if several else JOURNAL_FILE) for i in range(len(setups))]
    # The reports are written after the last game: something in their way (a FIFO, a folder, a
    # read-only file) is named now, before hours of games, not after them.
    reports = [RESULTS_FILE, SUMMARY_FILE, RECORD_FILE, *((COMPARISON_FILE, CHART_FILE) if several else ())]
    try:
        for name in reports:
            resolve_target(out / name)
    except OSError as exc:
        print(f"{PROGRAM}: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        refuse_other_journals(out, paths)
        journals = [
            Journal.open(path, setup.fingerprint(), resume=args.resume)
            for path, setup in zip(paths, setups, strict=True)
        ]
    except (InputError, OSError) as exc:
        print(f"{PROGRAM}: {exc}", file=sys.stderr)
        return 2
    record = out / RECORD_FILE
    record_made = not record.exists()  # removed again with the journals if nothing can be played
    try:  # how to play any row again (--replay), before the first game: a contest stopped early has it too
        write_record(out, setups[0], labels if several else ais, ais)  # the labels results.csv will hold
    except OSError as exc:
        for each in journals:
            each.discard_if_empty()
        print(f"{PROGRAM}: {exc.filename or out}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2
    games = len(boards) * len(decks)
    bar = ProgressBar(games * len(ais), sys.stderr)
    offset = 0

    def report(done: int, result: GameResult) -> None:
        bar.update(offset + done, error=result.outcome == Outcome.AI_ERROR.value)

    raise_on_signals()  # SIGTERM and SIGHUP stop the contest as Ctrl-C does
    per_ai: list[list[GameResult]] = []
    journal = journals[0]
    try:
        for setup, journal in zip(setups, journals, strict=True):
            with journal:
                per_ai.append(run_contest(setup, jobs, report, journal=journal, cluster=args.cluster))
            offset += games
    except (BatchStopped, BatchLost) as ended:
        # With several AIs the earlier AIs' games count too (they were only this AI's: "0 of 6 saved").
        saved_in = out / "journal-*.jsonl" if several else journal.path
        lost = isinstance(ended, BatchLost)  # the cluster's scheduler went away: what it finished is journaled
        why = ended.reason if isinstance(ended, BatchLost) else describe(ended.cause)
        print(
            f"{chr(10) if bar.interactive else ''}{PROGRAM}: {why}: {offset + ended.saved} of {games * len(ais)} games"
            f" saved in {saved_in}; {'restart the cluster, then ' if lost else ''}play the rest with the same"
            " command and --resume",
            file=sys.stderr,
        )
        return 2 if isinstance(ended, BatchLost) else exit_status(ended.cause)
    except OSError as exc:  # the journal could not be written (a full disk): what it holds is whole
        newline = "\n" if bar.interactive else ""
        where = f"{exc.filename}: " if exc.filename else ""
        print(
            f"{newline}{PROGRAM}: {where}{exc.strerror or exc}; the games saved so far are kept:"
            " play the rest with the same command and --resume",
            file=sys.stderr,
        )
        return 2
    except InputError as exc:  # --cluster: the scheduler cannot be reached
        # Nothing was played: leave nothing behind, so the same command may simply be run again.
        for each in journals:
            each.discard_if_empty()
        if record_made and not any(each.done for each in journals):
            record.unlink(missing_ok=True)
        for folder in sorted(made, key=lambda path: len(path.parts), reverse=True):
            with contextlib.suppress(OSError):  # only empty folders go
                folder.rmdir()
        print(f"{PROGRAM}: {exc}", file=sys.stderr)
        return 2
    seconds = bar.finish()
    where = f"cluster {args.cluster}" if args.cluster else counted(jobs, "job")
    if several:
        return report_several(
            out,
            labels,
            ais,
            per_ai,
            level=level,
            decks=decks,
            where=where,
            seconds=seconds,
            jobs=jobs,
            cluster=args.cluster,
        )
    results = per_ai[0]
    log_dir = log_dirs[0]
    per_board, total = summaries(results)
    watch = watch_list(out, results, ais[:1])
    try:  # written before anything is printed: a reader that leaves early (| head) must not cost them
        csv_path, json_path = write_reports(
            out,
            results,
            level=level.value,
            ai=ais[0],
            decks=[d.label for d in decks],
            jobs=jobs,
            cluster=args.cluster,
            seconds=seconds,
            watch=watch,
        )
    except OSError as exc:
        print(f"{PROGRAM}: {out}: cannot write results: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(
        f"{counted(len(results), 'game')}, level {level.value}, AI {ais[0]}, {counted(len(decks), 'deck')}, {where}, {seconds:.2f} s"
    )
    print(format_table(per_board, total), end="")
    for line in watch_lines(watch, 1):
        print(line)
    print(f"results: {csv_path}  summary: {json_path}" + (f"  AI logs: {log_dir}" if log_dir else ""))
    first_error = next((r for r in results if r.error), None)
    if first_error is not None:
        print(f"first AI error: {first_error.board} {first_error.deck}: {first_error.error}", file=sys.stderr)
    return 0
