"""``robots-engine``: the contest engine's command line (save, load, start) plus play, check and replay.

The first three behave like the 2009 contest's ``robots-engine`` so its scripts carry
over: ``save DECK`` writes a random deck, ``load BOARD [DECK] [LEVEL]`` prepares a game in
the working directory, and each ``start [LEVEL]`` plays one round with the AI behind
``./bot-ki``. ``play`` runs a whole game in one go and writes a game directory;
``check`` validates boards; ``replay`` checks a sequence file against its board; ``round``
sets up one round of a played game again and reruns an AI on it.

Every bad input ends with one line ``robots-engine: path:line:col: message`` on stderr
and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from engine.ai.external import DEFAULT_TIMEOUT, ExternalAI, run_ai_once
from engine.ai.registry import ai_help, resolve_ai
from engine.ai.supervise import AILimits
from engine.ai.trace import Trace
from engine.asciiboard import render_ascii_board
from engine.atomic import open_log, write_files_atomic, write_text_atomic
from engine.boardfile import load_board, write_board
from engine.cards import Card
from engine.cliutil import (
    EXIT_BAD_INPUT,
    OneLineParser,
    add_version,
    make_folder,
    output_folder,
    run_command,
    seed_argument,
    timeout_argument,
)
from engine.debugmarks import parse_debug
from engine.deck import generate_deck, load_deck, save_deck, write_cards
from engine.errors import InputError, SequenceError, read_text
from engine.folderlock import folder_lock
from engine.game import AIError, Chooser, GameRecord, Outcome, check_choice, play_game
from engine.gamedir import OUTCOME_WORDS, outcome_note, refuse_foreign_folder, viewer_pid, write_game_dir
from engine.model import Board, Level, Pose
from engine.outputs import format_globalseq, format_stats, last_sequence
from engine.protocol import BOT_FILE, CARDS_FILE, parse_pose, write_ai_inputs, write_chosen, write_pose
from engine.replay import HARDEST_FIRST, fit_levels, parse_globalseq
from engine.rerun import round_state
from engine.roundlog import ROUNDS_FILE, round_line
from engine.session import STATE_FILE, Session, load_session, session_to_json
from engine.shipped import board_argument
from engine.status import board_problems, board_status, game_start, require_start
from engine.turns import Turn, TurnRecorder, keep_trace
from engine.wording import counted

PROG = "robots-engine"
BOT_PROGRAM = "bot-ki"
BOT_LOG = "bot-ki.log"
#: Exit status: 0 the round was played and the game goes on (or a command succeeded);
#: 1 the game has ended (X, Y or Z); 2 bad input or usage; 3 the game ended with an AI error.
EXIT_OK, EXIT_GAME_OVER, EXIT_AI_ERROR = 0, 1, 3
#: Files of a previous game that ``load`` removes so they cannot be mistaken for the new game's.
STALE_OUTPUTS = ("sequence.txt", "globalseq.txt", "stats.txt", "ccards.txt", ROUNDS_FILE)
LEVEL_WORDS = ", ".join(level.value for level in Level)


def parse_level(word: str) -> Level:
    """A level word of the contest's command line; InputError for anything else."""
    try:
        return Level(word)
    except ValueError:
        raise InputError(f"unknown level {word!r} (expected {LEVEL_WORDS})") from None


def _level_arg(word: str) -> Level:
    try:
        return parse_level(word)
    except InputError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def _round_arg(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a round number must be a whole number, not {text[:20]!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"rounds are numbered from 1, not {number}")
    return number


def _pose_arg(text: str) -> Pose:
    try:
        return parse_pose(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(f"--start: {exc.message}") from None


def load_playable_board(path: str | Path) -> Board:
    """A board with exactly one start tile (a missing goal only means the game cannot be won)."""
    board = load_board(path)
    require_start(board, path)
    return board


# ---------------------------------------------------------------------------------------------- save / load


def cmd_save(args: argparse.Namespace) -> int:
    deck = generate_deck(args.seed)
    make_folder(Path(args.deck).parent, "the deck")  # like --out: 'save decks/d0.dat' in a fresh clone
    save_deck(deck, args.deck)
    seed = f" (seed {args.seed})" if args.seed is not None else ""
    print(f"{args.deck}: new deck of {len(deck)} cards{seed}")
    return EXIT_OK


def _split_load_args(rest: Sequence[str]) -> tuple[str | None, Level]:
    """``[DECK] [LEVEL]`` as the contest read them: a level word last, a deck path before it."""
    if len(rest) > 2:
        raise InputError(
            f"too many arguments: {' '.join(rest)} (usage: {PROG} load BOARD [DECK] [{'|'.join(LEVEL_WORDS.split(', '))}])"
        )
    if not rest:
        return None, Level.NORMAL
    if len(rest) == 2:
        return rest[0], parse_level(rest[1])
    word = rest[0]
    if word in {level.value for level in Level}:
        return None, Level(word)
    if not Path(word).exists():
        raise InputError(f"no such file (and not a level: {LEVEL_WORDS})", word)
    return word, Level.NORMAL


def cmd_load(args: argparse.Namespace) -> int:
    deck_path, level = _split_load_args(args.rest)
    board = load_playable_board(args.board)
    deck = load_deck(deck_path) if deck_path is not None else generate_deck()
    here = Path.cwd()
    session = Session(board, level, deck, board_source=str(args.board), deck_source=deck_path)
    # All or nothing: every file is written aside first, the state file is renamed in last.
    files = {
        here / "board.txt": write_board(board),
        here / BOT_FILE: write_pose(board.start),
        here / CARDS_FILE: write_cards(deck),
        here / "ascii-board.txt": render_ascii_board(board, board.start),
        here / STATE_FILE: session_to_json(session),
    }
    with folder_lock(here, what=PROG):
        for name in STALE_OUTPUTS:
            if (here / name).is_dir():
                raise InputError("is a folder where an output file belongs: remove it first", here / name)
        write_files_atomic(files)
        for name in STALE_OUTPUTS:
            (here / name).unlink(missing_ok=True)
    deck_words = deck_path if deck_path is not None else "a new random deck"
    print(
        f"loaded {args.board} ({board.width}x{board.height}) with {deck_words}, level {level.value}; "
        f"robot at {board.start.to_bot_line()}; next: {PROG} start {level.value}"
    )
    return EXIT_OK


# ---------------------------------------------------------------------------------------------- start


def _write_round_outputs(here: Path, session: Session, game: GameRecord) -> None:
    """The files a round leaves: sequence, globalseq, bot, the remaining deck; stats at game end.

    All or nothing, the state file last: a failure leaves the folder as it was before the round.
    """
    files = {
        here / "sequence.txt": last_sequence(game),
        here / "globalseq.txt": format_globalseq(game),
        here / BOT_FILE: write_pose(game.pose),
        here / CARDS_FILE: write_cards(session.remaining_deck()),
    }
    if game.outcome is not None:
        files[here / "stats.txt"] = format_stats(game)
        files[here / "ascii-board.txt"] = render_ascii_board(game.board, game.pose, note=outcome_note(game))
    files[here / STATE_FILE] = session_to_json(session)
    write_files_atomic(files, follow_symlinks=False)  # the AI runs here: a link it planted is replaced


def _game_over_line(game: GameRecord) -> str:
    note = outcome_note(game)
    assert note is not None
    return f"{note}; robot at {game.pose.to_bot_line()}" + (f": {game.error}" if game.error else "")


def cmd_start(args: argparse.Namespace) -> int:
    here = Path.cwd()
    with folder_lock(here, what=PROG):
        return _start_locked(args, here)


def _start_locked(args: argparse.Namespace, here: Path) -> int:
    """One round, with the folder's lock held (see engine.folderlock)."""
    session = load_session(here)
    if args.level is not None and args.level is not session.level:
        if session.chosen:
            raise InputError(
                f"this game was loaded at level {session.level.value} and has started; "
                f"run '{PROG} load' again to play it at level {args.level.value}",
                STATE_FILE,
            )
        session.level = args.level
    if session.over:
        game = session.rebuild()
        print(f"{PROG}: {_game_over_line(game)}; run '{PROG} load' for a new game", file=sys.stderr)
        return EXIT_GAME_OVER
    game = session.rebuild()
    number = session.next_round
    write_text_atomic(here / "ascii-board.txt", render_ascii_board(session.board, game.pose), follow_symlinks=False)
    trace = Trace()
    turn = Turn(number, game.pose, ())  # the game loop deals; bot_ki learns the hand

    def bot_ki(board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> list[Card]:
        """The contest's way: the round's files in this folder, then ./bot-ki once."""
        turn.hand = hand
        write_ai_inputs(here, board, hand, pose)
        return run_ai_once(
            str(here / BOT_PROGRAM),
            here,
            level,
            args.timeout,
            here / BOT_LOG,
            round_number=number,
            limits=AILimits.parse(args.ai_limit),
            trace=trace,
        )

    started = time.perf_counter()
    game = session.play_next_round(bot_ki)
    turn.seconds = time.perf_counter() - started
    _write_round_outputs(here, session, game)
    if turn.hand:  # bot-ki was asked: keep the round's record, as 'play' does (rounds.jsonl)
        _record_turn(here, session, game, turn, trace)
    if game.outcome is None:
        print(f"round {number}: robot at {game.pose.to_bot_line()}; the game goes on")
        return EXIT_OK
    print(f"round {number}: {_game_over_line(game)}")
    return EXIT_AI_ERROR if game.outcome is Outcome.AI_ERROR else EXIT_GAME_OVER


def _record_turn(here: Path, session: Session, game: GameRecord, turn: Turn, trace: Trace) -> None:
    """Append this round to the folder's ``rounds.jsonl`` (what bot-ki got, chose, said and drew)."""
    if trace.debug_text is not None:
        trace.debug = parse_debug(trace.debug_text, session.board.width, session.board.height, cut=trace.debug_cut)
    keep_trace(turn, trace)
    if len(game.rounds) >= turn.number:
        turn.chosen = game.rounds[turn.number - 1].chosen
    elif game.outcome is Outcome.AI_ERROR:
        turn.error = game.error
    else:
        return
    with open_log(here / ROUNDS_FILE, follow_symlinks=False) as handle:  # bot-ki may have planted a link
        handle.write(round_line(game, turn).encode("utf-8"))


# ---------------------------------------------------------------------------------------------- play


def resolve_chooser(spec: str, timeout: float, log_path: Path, limits: AILimits | None = None) -> Chooser:
    """The AI named ``spec``: a built-in AI's name or an external program (see engine.ai.registry)."""
    return resolve_ai(spec, timeout=timeout, log_path=log_path, limits=limits)


def cmd_play(args: argparse.Namespace) -> int:
    board = load_playable_board(args.board)
    seed: int | None = None
    if args.deck is not None:
        deck: list[Card] = load_deck(args.deck)
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        deck = generate_deck(seed)
    out = Path(args.out)
    refuse_foreign_folder(out)
    chooser = resolve_chooser(args.ai, args.timeout, out / "ai.log", AILimits.parse(args.ai_limit))
    with output_folder(out):
        recorder = TurnRecorder(chooser)
        try:
            if isinstance(chooser, ExternalAI):
                chooser.prepare()  # its launcher, before the first round's clock starts
            game = play_game(board, args.level, deck, recorder)
        finally:
            recorder.close()
        command = shlex.join(chooser.argv) if isinstance(chooser, ExternalAI) else None
        write_game_dir(
            out, game, ai=args.ai, deck=args.deck, seed=seed, turns=recorder.turns, cards=deck, ai_command=command
        )
    assert game.outcome is not None
    how = f"deck {args.deck}" if args.deck is not None else f"seed {seed}"
    error = f": {game.error}" if game.error else ""
    print(
        f"{args.board}, {args.level.value}, AI {args.ai}, {how}: {game.outcome.value} "
        f"({OUTCOME_WORDS[game.outcome]}{error}) after {counted(len(game.rounds), 'round')}, {counted(game.cards_played, 'card')}; "
        f"files in {out}"
    )
    if args.view:
        open_viewer(out)
    return EXIT_AI_ERROR if game.outcome is Outcome.AI_ERROR else EXIT_OK


def open_viewer(folder: Path) -> None:
    """``play --view``: a viewer already showing ``folder`` reloads the new game by itself;
    otherwise start ``robots-view FOLDER`` in the background (the engine imports no front end)."""
    pid = viewer_pid(folder)
    if pid is not None:
        print(f"the viewer open on {folder} (process {pid}) shows the new game")
        return
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        print(
            f"{PROG}: no display to open the viewer on; render the game instead: "
            f"robots-view {shlex.quote(str(folder))} --headless --out game.gif",
            file=sys.stderr,
        )
        return
    subprocess.Popen(
        [sys.executable, "-m", "viewer3d", str(folder)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    print(f"opened the viewer on {folder} (it reloads when the game is played again into that folder)")


# ---------------------------------------------------------------------------------------------- round


def _cards_text(cards: Sequence[Card] | None) -> str:
    return ", ".join(card.value for card in cards) if cards is not None else "none"


def _round_ai(args: argparse.Namespace, recorded: object) -> str:
    """The AI to rerun: --ai, else the one the game was played with."""
    if args.ai is not None:
        return str(args.ai)
    if not isinstance(recorded, str) or not recorded:
        raise InputError("game.json names no AI: give one with --ai NAME|PROGRAM")
    return recorded


def cmd_round(args: argparse.Namespace) -> int:
    state = round_state(args.gamedir, args.number)
    out = make_folder(Path(args.out) if args.out is not None else state.game.path / f"round-{state.number}")
    write_ai_inputs(out, state.board, state.hand, state.pose)
    entry = state.entry
    print(
        f"round {state.number} of {state.game.path} ({state.level.value}): robot at {state.pose.to_bot_line()}; "
        f"hand: {_cards_text(state.hand)}"
    )
    if entry is not None:
        played = f"{_cards_text(entry.chosen)}" + (f" (error: {entry.error})" if entry.error else "")
        print(f"the game chose: {played}")
    print(f"files in {out}: board.txt cards.txt bot.txt")
    if args.write_only:
        return EXIT_OK
    spec = _round_ai(args, state.game.info.get("ai_command") or state.game.info.get("ai"))
    limits = AILimits.parse(args.ai_limit)
    chooser = resolve_ai(spec, timeout=args.timeout, log_path=out / "ai.log", limits=limits)
    if isinstance(chooser, ExternalAI):
        chooser.close()
        chooser = ExternalAI(
            chooser.argv, workdir=out.absolute(), timeout=args.timeout, log_path=out / "ai.log", limits=limits
        )
    recorder = TurnRecorder(chooser)
    try:
        chosen = list(recorder(state.board, state.level, state.pose, state.hand))
        check_choice(state.hand, chosen)
    except AIError as exc:
        print(f"{PROG}: round {state.number}: {exc}", file=sys.stderr)
        _print_turn_output(recorder, out)
        return EXIT_AI_ERROR
    finally:
        recorder.close()
    if not isinstance(chooser, ExternalAI):
        write_chosen(out, chosen)
    turn = recorder.turns[-1]
    print(f"AI {spec} chose now: {_cards_text(chosen)} ({turn.seconds:.3f} s); ccards.txt in {out}")
    _print_turn_output(recorder, out)
    if entry is not None and entry.chosen is not None:
        same = tuple(chosen) == entry.chosen
        print(
            "the same choice as in the game"
            if same
            else f"a different choice from the game ({_cards_text(entry.chosen)})"
        )
    return EXIT_OK


def _print_turn_output(recorder: TurnRecorder, out: Path) -> None:
    """The last lines the AI wrote and any problems with its debug marks."""
    if not recorder.turns:
        return
    turn = recorder.turns[-1]
    lines = turn.output.splitlines()
    if lines:
        shown = lines[-10:]
        more = f" (last {len(shown)} of {len(lines)} lines; all in {out / 'ai.log'})" if len(lines) > len(shown) else ""
        print(f"AI output{more}:")
        for line in shown:
            print(f"  {line}")
    for problem in turn.debug.problems:
        print(f"{PROG}: {problem}", file=sys.stderr)
    if turn.debug.marks:
        print(f"debug marks: {len(turn.debug.marks)}")


def cmd_analyse(args: argparse.Namespace) -> int:
    from engine.analyse import analyse_game, format_verdicts, write_analysis  # numpy and the planner: only here

    verdicts = analyse_game(args.gamedir)
    print(format_verdicts(verdicts), end="")
    path = write_analysis(args.gamedir, verdicts)
    print(f"written to {path} (robots-view shows the best choice as a ghost robot and lossy rounds on the timeline)")
    return EXIT_OK


# ---------------------------------------------------------------------------------------------- check / replay


def cmd_check(args: argparse.Namespace) -> int:
    bad = 0
    for path in args.boards:
        try:
            board = load_board(path)
        except InputError as exc:
            print(f"{PROG}: {exc}", file=sys.stderr)
            bad += 1
            continue
        problems = board_problems(board, board_status(board, Level if args.reach else ()))
        for problem in problems:
            print(f"{PROG}: {problem.error(path)}", file=sys.stderr)
        if problems:
            bad += 1
        else:
            start = board.start
            print(f"{path}: ok, {board.width}x{board.height}, start {start.to_bot_line()}, {len(board.goals)} goal(s)")
    return EXIT_BAD_INPUT if bad else EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    board = load_board(args.board)
    start = game_start(board, args.start, args.board)
    sequence = parse_globalseq(read_text(args.globalseq, SequenceError), args.globalseq)
    replays = fit_levels(board, start, sequence, args.globalseq, HARDEST_FIRST if args.level is None else [args.level])
    replay = replays[0]
    levels_text = ", ".join(fit.level.value for fit in replays)
    final = replay.final_pose.to_bot_line()
    if replay.outcome is None:
        print(
            f"{args.globalseq}: consistent with {args.board} at level {levels_text}; the file stops before the "
            f"game ended, after {counted(replay.round_count, 'round')}, {counted(len(replay.steps), 'card')}; robot at {final}"
        )
    else:
        print(
            f"{args.globalseq}: consistent with {args.board} at level {levels_text}: {replay.outcome.value} "
            f"({OUTCOME_WORDS[replay.outcome]}) after {counted(replay.round_count, 'round')}, {counted(len(replay.steps), 'card')}; "
            f"robot at {final}"
        )
    return EXIT_OK


BOARD_HELP = "a board file, or the name of a shipped board (robots-engine boards lists them)"


def cmd_boards(args: argparse.Namespace) -> int:
    """The boards shipped inside the package, one ``NAME  WxH  PATH`` line each (for an installed copy)."""
    import gameboards

    for name in gameboards.board_names():
        path = gameboards.board_path(name)
        board = load_board(path)
        print(f"{name:24} {board.width}x{board.height}\t{path}")
    return EXIT_OK


# ---------------------------------------------------------------------------------------------- main


def _add_limit_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ai-limit",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a resource limit of the AI program, 0 for none: memory (MiB), processes, file-size (MiB), cpu (s),"
        " sandbox (1: it writes only in its own folder);"
        f" repeatable (default: {AILimits().describe()}; see docs/limits.md)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="The robot game engine of the 2009 freiesMagazin contest.",
        epilog="exit status: 0 ok / the game goes on, 1 the game has ended (X, Y or Z), 2 bad input, "
        "3 the game ended with an AI error, 4 a damaged installation (a shipped file is missing). "
        "See docs/engine-cli.md.",
    )
    add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)

    save = sub.add_parser("save", help="write a new random deck of 5,600 cards")
    save.add_argument("deck", metavar="DECK", help="the deck file to write (its folder is created)")
    save.add_argument("--seed", type=seed_argument, help="seed for a reproducible deck")
    save.set_defaults(run=cmd_save)

    load = sub.add_parser("load", help="load a board and a deck (random if none) into this directory")
    load.add_argument("board", metavar="BOARD", type=board_argument, help=BOARD_HELP)
    load.add_argument(
        "rest",
        nargs="*",
        metavar="[DECK] [easy|normal|hard]",
        help="a deck file (default: a new random deck) and the level (default: normal)",
    )
    load.set_defaults(run=cmd_load)

    start = sub.add_parser("start", help="play one round of the loaded game with ./bot-ki")
    start.add_argument(
        "level", nargs="?", type=_level_arg, metavar="easy|normal|hard", help="the level (default: the loaded one)"
    )
    start.add_argument(
        "--timeout",
        type=timeout_argument,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds the AI may take (default: {DEFAULT_TIMEOUT:g})",
    )
    _add_limit_arg(start)
    start.set_defaults(run=cmd_start)

    play = sub.add_parser("play", help="play a whole game and write every file into a directory")
    play.add_argument("board", metavar="BOARD", type=board_argument, help=BOARD_HELP)
    source = play.add_mutually_exclusive_group()
    source.add_argument("--deck", metavar="DECK", help="deck file (default: a new deck from --seed)")
    source.add_argument(
        "--seed", type=seed_argument, help="seed of a new deck (default: random, recorded in game.json)"
    )
    play.add_argument(
        "--level", type=_level_arg, default=Level.NORMAL, metavar="{easy,normal,hard}", help="default: normal"
    )
    play.add_argument("--ai", default="reference", metavar="NAME|PROGRAM", help=ai_help() + " (default: reference)")
    play.add_argument(
        "--out", default="game-out", metavar="DIR", help="directory for the game's files (default: game-out)"
    )
    play.add_argument(
        "--timeout",
        type=timeout_argument,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds an external AI may take (default: {DEFAULT_TIMEOUT:g})",
    )
    _add_limit_arg(play)
    play.add_argument(
        "--view",
        action="store_true",
        help="show the game in robots-view (a viewer already open on --out reloads it instead)",
    )
    play.set_defaults(run=cmd_play)

    rnd = sub.add_parser(
        "round",
        help="set up round N of a played game again (board.txt, cards.txt, bot.txt) and rerun an AI on it",
    )
    rnd.add_argument("gamedir", metavar="GAMEDIR", help="a folder written by 'play'")
    rnd.add_argument("number", type=_round_arg, metavar="N", help="the round, from 1")
    rnd.add_argument("--ai", metavar="NAME|PROGRAM", help=ai_help() + " (default: the AI the game was played with)")
    rnd.add_argument("--out", metavar="DIR", help="where the round's files go (default: GAMEDIR/round-N)")
    rnd.add_argument("--write-only", action="store_true", help="only write the input files, run no AI")
    rnd.add_argument(
        "--timeout",
        type=timeout_argument,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds an external AI may take (default: {DEFAULT_TIMEOUT:g})",
    )
    _add_limit_arg(rnd)
    rnd.set_defaults(run=cmd_round)

    analyse = sub.add_parser(
        "analyse",
        help="judge every round of a played game against the best choice without foresight (goal, then rounds)",
    )
    analyse.add_argument("gamedir", metavar="GAMEDIR", help="a folder written by 'play'")
    analyse.set_defaults(run=cmd_analyse)

    check = sub.add_parser("check", help="check that boards are playable (one start, a goal; --reach: reachable)")
    check.add_argument("boards", nargs="+", metavar="BOARD", type=board_argument, help=BOARD_HELP)
    check.add_argument("--reach", action="store_true", help="also search whether a goal can be reached at each level")
    check.set_defaults(run=cmd_check)

    replay = sub.add_parser("replay", help="check a globalseq.txt against its board and print the outcome")
    replay.add_argument("board", metavar="BOARD", type=board_argument, help=BOARD_HELP)
    replay.add_argument("globalseq", metavar="GLOBALSEQ", help="a globalseq.txt written by the engine")
    replay.add_argument("--level", type=_level_arg, metavar="{easy,normal,hard}", help="default: every level that fits")
    replay.add_argument("--start", type=_pose_arg, metavar='"X Y D"', help="start pose (default: the start tile)")
    replay.set_defaults(run=cmd_replay)

    boards = sub.add_parser("boards", help="list the boards shipped with the package and where they are")
    boards.set_defaults(run=cmd_boards)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from engine.textout import readable_streams

    readable_streams()  # a file name that is not UTF-8 is printed as \xNN, never a traceback
    args = build_parser().parse_args(argv)
    # SIGTERM/SIGHUP unwind like Ctrl-C there: the AI is killed, its folders removed.
    return run_command(PROG, lambda: int(args.run(args)))


if __name__ == "__main__":
    raise SystemExit(main())
