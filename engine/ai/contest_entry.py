"""``robots-ai LEVEL``: the planner as a contest entry speaking the contest's file protocol.

Reads ``board.txt``, ``cards.txt`` and ``bot.txt`` in the working directory, writes the chosen
five cards to ``ccards.txt``. The contest starts a new process every round, often in a fresh
folder every game, so the board's plan is cached per user (``--cache-dir``, default
``$XDG_CACHE_HOME/robots/planner``; see ``plan_file``). With the plan cached, a round reads one
file and ranks the hand in pure Python: numpy and the compiled kernel are imported only on a
cold start. The ordinary warm round does not even load the engine's model or argument parser:
``warm_round.answer`` tries it with the standard library first, and everything else (options,
errors, other file layouts, a cold cache) takes the full path below, imported only then.
``robots-ai --warm BOARD LEVEL`` builds the cache ahead of a contest.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from engine.ai import plan_choice, plan_file, warm_round

TYPE_CHECKING = False  # typing.TYPE_CHECKING would import typing on the warm path
if TYPE_CHECKING:
    from collections.abc import Sequence

    from engine.cards import Card
    from engine.model import Board, Level, Pose

#: Seconds of value iteration a cold first round may spend (the contest's timeout is 10 s a round,
#: and starting Python, numba and building the rules table take their share).
COLD_LIMIT = 5.0


def warm_choice(folder: Path, board: Board, level: Level, pose: Pose, hand: Sequence[Card]) -> list[Card] | None:
    """The planner's choice from a cached plan, without numpy; None if the cache cannot answer."""
    from engine.cards import Card
    from engine.model import Direction

    cards = tuple(Card)
    data = plan_file.load(folder, board, level)
    if data is None:
        return None
    state = (pose.y * board.width + pose.x) * 4 + tuple(Direction).index(pose.facing)
    if not data.solved[state]:
        return None
    indices = [cards.index(card) for card in hand]
    best = plan_choice.best(data.next, data.goal, data.won, data.alive, data.states, state, indices)
    return [cards[i] for i in best]


def cold_choice(
    folder: Path | None, board: Board, level: Level, pose: Pose, hand: Sequence[Card], level_name: str
) -> list[Card]:
    """Build (and cache) the plan within ``COLD_LIMIT`` seconds of value iteration, then choose.

    The contest engine's default timeout is 10 s a round; a plan stopped early is sound (goal
    probabilities are lower bounds) and is cached as it is, with a hint on how to finish it.
    """
    from engine.ai.planner import plan_for

    plan = plan_for(board, level, cache_dir=folder, time_limit=COLD_LIMIT)
    if not plan.values.converged:
        print(
            f"robots-ai: the plan for this board stopped after {COLD_LIMIT:.0f} s and plays on partial values; "
            f"'robots-ai --warm board.txt {level_name}' finishes it",
            file=sys.stderr,
        )
    return plan.best(pose, hand)


def warm(board_path: str, level: Level, folder: Path, time_limit: float) -> int:
    """Build (or finish) the cache of a board and level ahead of a contest; prints where and how long."""
    from engine.ai.planner import compile_kernels, plan_for
    from engine.boardfile import load_board
    from engine.cliutil import make_folder
    from engine.shipped import board_argument

    board = load_board(board_argument(board_path))  # a file, or a shipped board's name
    make_folder(folder, "the plan cache")  # a file in the way fails now, not after the planning
    begin = time.perf_counter()
    if compile_kernels():  # a first run on this machine: said apart, it is not this board's time
        print(f"robots-ai: compiled the planner's kernels in {time.perf_counter() - begin:.1f} s (once)")
    begin = time.perf_counter()
    plan = plan_for(board, level, cache_dir=folder, time_limit=time_limit)
    plan.finish(time_limit)
    seconds = time.perf_counter() - begin
    path = plan_file.cache_path(folder, board, level)
    if plan_file.load(folder, board, level) is None:
        # Not stored (plan_for and finish store quietly), or what is there is not this plan: a
        # folder or FIFO in its place, a damaged file that could not be replaced. Say why.
        try:
            plan_file.write(folder, board, level, plan.to_data())
        except OSError as exc:
            reason = exc.strerror or str(exc)
            if exc.filename is not None and str(exc.filename) != str(path):
                reason += f" ({exc.filename})"
            raise OSError(f"could not write the cache file {path}: {reason}") from None
        if plan_file.load(folder, board, level) is None:
            raise OSError(f"could not write the cache file {path}: it does not read back")
    state = "converged" if plan.values.converged else "stopped early (time limit; run again to go on)"
    print(f"robots-ai: cached {board_path} ({level.value}) in {path} after {seconds:.1f} s, {state}")
    return 0


def _folder(text: str) -> Path:
    """A --cache-dir: an empty one (an unset shell variable) would quietly mean the current folder."""
    import argparse  # not at the top: the warm path must not pay for it

    if not text.strip():
        raise argparse.ArgumentTypeError("must name a folder, not an empty string")
    return Path(text)


def main(argv: Sequence[str] | None = None) -> int:
    if warm_round.answer(list(sys.argv[1:] if argv is None else argv)):
        return 0
    return full_main(argv)


def full_main(argv: Sequence[str] | None = None) -> int:
    """Every case: options, errors, a cold cache (imports the engine, and numpy when it must plan)."""
    from engine.cards import HAND_SIZE
    from engine.cliutil import EXIT_BROKEN_PIPE, OneLineParser, add_version, stdout_gone, time_limit_argument
    from engine.deck import card_line
    from engine.errors import InputError, read_text
    from engine.model import Level
    from engine.protocol import CARDS_FILE, read_ai_inputs, write_chosen
    from engine.stopping import describe, exit_status, raise_on_signals
    from engine.textout import readable_streams

    readable_streams()  # a file name that is not UTF-8 is printed as \xNN, never a traceback
    parser = OneLineParser(
        prog="robots-ai",
        description="Choose 5 of the 8 cards in cards.txt for the robot in bot.txt on board.txt; write ccards.txt.",
    )
    add_version(parser)
    parser.add_argument(
        "level", nargs="?", choices=[lv.value for lv in Level], help="game level (required unless --warm)"
    )
    parser.add_argument(
        "--budget", type=float, default=1.0, metavar="S", help="accepted for compatibility; decisions take ms"
    )
    parser.add_argument(
        "--cache-dir", type=_folder, metavar="DIR", help="plan cache folder (default: per-user cache folder)"
    )
    parser.add_argument("--no-cache", action="store_true", help="do not read or write the plan cache")
    parser.add_argument(
        "--warm", nargs=2, metavar=("BOARD", "LEVEL"), help="only build the cache for BOARD at LEVEL, then exit"
    )
    parser.add_argument(
        "--time-limit",
        type=time_limit_argument,
        metavar="S",
        default=600.0,
        help="with --warm: seconds of value iteration (default 600)",
    )
    args = parser.parse_args(argv)
    folder = args.cache_dir if args.cache_dir is not None else plan_file.default_cache_dir()
    raise_on_signals()  # SIGTERM and SIGHUP end it as Ctrl-C does: one line, no traceback
    try:
        if args.warm:
            board_path, level_name = args.warm
            if level_name not in {lv.value for lv in Level}:
                parser.error(f"--warm: level must be one of easy, normal, hard, not {level_name[:20]!r}")
            return warm(board_path, Level(level_name), folder, args.time_limit)
        if args.level is None:
            parser.error("the level is required (or --warm BOARD LEVEL)")
        here = Path.cwd()
        board, hand, pose = read_ai_inputs(here)
        if len(hand) != HAND_SIZE:  # named at the first card too many, or where the first missing was due
            text = read_text(here / CARDS_FILE)
            line = card_line(text, HAND_SIZE if len(hand) > HAND_SIZE else len(hand))
            raise InputError(f"expected {HAND_SIZE} cards, found {len(hand)}", here / CARDS_FILE, line, 1)
        if not board.in_bounds(pose.x, pose.y):
            raise InputError(
                f"robot position {pose.x} {pose.y} is off the {board.width}x{board.height} board",
                here / "bot.txt",
                1,
                1,
            )
        level = Level(args.level)
        chosen = None if args.no_cache else warm_choice(folder, board, level, pose, hand)
        if chosen is None:
            chosen = cold_choice(None if args.no_cache else folder, board, level, pose, hand, args.level)
        write_chosen(here, chosen)
    except BrokenPipeError:
        if stdout_gone():  # ``robots-ai --warm ... | head -0``: quiet, as every tool (was "Broken pipe", 2)
            return EXIT_BROKEN_PIPE
        print("robots-ai: Broken pipe", file=sys.stderr)
        return 2
    except OSError as exc:  # as ``cliutil.run_command`` words it: the file, then the reason
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"robots-ai: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except (InputError, ValueError) as exc:
        print(f"robots-ai: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:  # a long --warm or cold plan stopped: the cache is as it was
        print(f"robots-ai: {describe(stop)}", file=sys.stderr)
        return exit_status(stop)
    return 0


if __name__ == "__main__":
    sys.exit(main())
