"""The full-information optimum: fewest rounds to a goal when every future card is known.

No AI can beat it, so it is the yardstick of the AI benchmark. A breadth-first search over
rounds: the frontier is the set of poses the robot can stand on after ``r`` rounds. Within a
round the search runs card by card over pairs (pose, cards of the hand still unplayed); since
what follows depends only on that pair, duplicates are merged after every card, which is the same
as trying every ordered 5-of-8 choice from every frontier pose but far cheaper. Destroyed robots
drop out, poses from which no card sequence reaches a goal are pruned, and the first round in
which any choice reaches a goal is the answer. A deck that cannot deal another full hand (or an
empty frontier) means the goal cannot be reached.

Console script ``robots-oracle BOARD DECK [--level L] [--start "X Y D"]`` prints that number or
``unreachable``; ``robots-oracle --from GAMEDIR --round N`` asks it for the position of a played
game before round N (its pose, and the deck from that round's hand on), counting round N as 1.
``robots-oracle BOARD --no-foresight [--start "X Y D"]`` prints the other yardstick, the best any
AI can do without seeing future hands (``no_foresight_optimum``).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.ai.plan_table import CARD_INDEX, CARDS, TransitionTable, cached_table, cards_to_goal
from engine.boardfile import load_board
from engine.cards import CHOSEN_PER_ROUND, HAND_SIZE, Card
from engine.cliutil import OneLineParser, add_version, run_command, time_limit_argument
from engine.deck import load_deck
from engine.errors import InputError
from engine.game import deal
from engine.model import Board, Level, Pose
from engine.protocol import parse_pose
from engine.rerun import remaining_deck, round_state
from engine.shipped import board_argument
from engine.status import game_start, require_goal
from engine.wording import counted

Counts = tuple[int, ...]


def _sub_multisets(hand: Sequence[Card]) -> tuple[list[list[Counts]], list[npt.NDArray[np.int64]]]:
    """Layers of remaining-card multisets (layer j: after j cards) and child maps per card kind."""
    full = [0] * len(CARDS)
    for card in hand:
        full[CARD_INDEX[card]] += 1
    layers: list[list[Counts]] = [[tuple(full)]]
    children: list[npt.NDArray[np.int64]] = []
    for _ in range(CHOSEN_PER_ROUND):
        following: dict[Counts, int] = {}
        child = np.full((len(layers[-1]), len(CARDS)), -1, dtype=np.int64)
        for row, counts in enumerate(layers[-1]):
            for k, n in enumerate(counts):
                if n:
                    key = (*counts[:k], n - 1, *counts[k + 1 :])
                    child[row, k] = following.setdefault(key, len(following))
        layers.append(list(following))
        children.append(child)
    return layers, children


def round_successors(
    table: TransitionTable, frontier: npt.NDArray[np.int64], hand: Sequence[Card]
) -> tuple[bool, npt.NDArray[np.int64]]:
    """Play every ordered 5-card choice of ``hand`` from every frontier pose.

    Returns (a goal was reached, the distinct live poses after the round).
    """
    layers, children = _sub_multisets(hand)
    states = frontier.astype(np.int64)
    remaining = np.zeros(len(states), dtype=np.int64)
    for j, child in enumerate(children):
        new_states: list[npt.NDArray[np.int64]] = []
        new_remaining: list[npt.NDArray[np.int64]] = []
        for c in range(len(CARDS)):
            target = child[remaining, c]
            usable = target >= 0
            if not usable.any():
                continue
            moved = table.next[c, states[usable]].astype(np.int64)
            if (moved == table.goal).any():
                return True, np.zeros(0, dtype=np.int64)
            alive = moved != table.dead
            new_states.append(moved[alive])
            new_remaining.append(target[usable][alive])
        if not new_states:
            return False, np.zeros(0, dtype=np.int64)
        width = len(layers[j + 1])
        encoded = np.unique(np.concatenate(new_states) * width + np.concatenate(new_remaining))
        states, remaining = encoded // width, encoded % width
    return False, np.unique(states)


def optimum_rounds(board: Board, level: Level, deck: Sequence[Card], start: Pose | None = None) -> int | None:
    """The fewest rounds to a goal with full knowledge of ``deck``; None if no choice reaches one.

    From the board's start tile, or ``start``; BoardError when there is none or ``start`` is off the board."""
    begin_pose = game_start(board, start, what="start")
    table = cached_table(board, level)
    hopeful = cards_to_goal(table) >= 0
    begin = table.state_of(begin_pose)
    frontier = np.array([begin], dtype=np.int64)
    number = 1
    while True:
        frontier = frontier[hopeful[frontier]]
        if len(frontier) == 0:
            return None
        hand = deal(deck, number)
        if hand is None:
            return None
        reached, frontier = round_successors(table, frontier, hand)
        if reached:
            return number
        number += 1


@dataclass(frozen=True)
class NoForesight:
    """The best any AI without foresight can do from a pose (independent-draw hand model)."""

    goal_probability: float
    expected_rounds: float  # mean rounds of the won games under the goal-optimal policy with fewest rounds
    converged: bool
    sweeps: int
    seconds: float


def no_foresight_optimum(
    board: Board, level: Level, start: Pose | None = None, *, time_limit: float = 600.0
) -> NoForesight:
    """Exact lexicographic optimum (goal probability, then expected rounds) from ``start``.

    The same values the planner plays by (``engine.ai.plan_value``); ``converged`` False means the
    time limit stopped the iteration and the goal probability is a lower bound. BoardError when the
    board has no start tile or ``start`` is off the board (before the search, which takes seconds).
    """
    from engine.ai.planner import plan_for

    begin = game_start(board, start, what="start")
    plan = plan_for(board, level, cache_dir=None, time_limit=time_limit)
    value = plan.value(begin)
    values = plan.values
    return NoForesight(value.goal_probability, value.expected_rounds, values.converged, values.sweeps, values.seconds)


def _print_no_foresight(board: Board, level: Level, start: Pose, time_limit: float) -> int:
    best = no_foresight_optimum(board, level, start, time_limit=time_limit)
    print(f"goal probability {best.goal_probability:.8f}")
    rounds = "-" if math.isinf(best.expected_rounds) else f"{best.expected_rounds:.6f}"
    print(f"expected rounds of won games {rounds}")
    from engine.ai import plan_kernel
    from engine.ai.jit_cache import kernels_compiled

    note = stopped_early_note(best, compiled=kernels_compiled(plan_kernel) > 0)
    if note:
        print(f"robots-oracle: {note}", file=sys.stderr)
    return 0


def stopped_early_note(best: NoForesight, *, compiled: bool) -> str:
    """What to say when the time limit stopped the iteration ("" when it converged); that this run
    compiled the planner's kernels first, when it did (their time counts, and only once)."""
    if best.converged:
        return ""
    note = f"stopped early after {counted(best.sweeps, 'sweep')} ({best.seconds:.1f} s): the goal probability is a lower bound"
    if compiled:
        note += "; this first run also compiled the planner's kernels (cached for the next runs)"
    return note


def _problem_from_game(args: argparse.Namespace) -> tuple[Board, Level, list[Card], Pose]:
    """Board, level, the deck from round N's hand on, and the pose before round N of a played game."""
    if args.board is not None or args.deck is not None or args.start is not None:
        raise InputError("--from GAMEDIR takes the board, deck and pose from the game: give no BOARD, DECK or --start")
    if args.round is None:
        raise InputError("--from GAMEDIR needs --round N")
    state = round_state(args.from_, args.round)
    deck = remaining_deck(state.game, args.round)
    if deck is None:
        raise InputError("the game folder names no deck (no deck.txt, seed or deck file)", state.game.path)
    level = Level(args.level) if args.level is not None else state.level
    return state.board, level, deck, state.pose


def main(argv: Sequence[str] | None = None) -> int:
    from engine.textout import readable_streams

    readable_streams()  # a file name that is not UTF-8 is printed as \xNN, never a traceback
    parser = OneLineParser(
        prog="robots-oracle",
        description="Fewest rounds in which the goal can be reached when every card of the deck is known; "
        "with --no-foresight instead the best goal probability and expected rounds of any AI that cannot "
        "see future hands.",
    )
    add_version(parser)
    parser.add_argument(
        "board",
        nargs="?",
        type=board_argument,
        help="board file (.dat), or a shipped board's name (robots-engine boards)",
    )
    parser.add_argument("deck", nargs="?", help="deck file (one card a line; need not be a full deck)")
    parser.add_argument(
        "--level", choices=[lv.value for lv in Level], help="default: hard (with --from: the game's level)"
    )
    parser.add_argument("--start", metavar='"X Y D"', help="start pose (default: the board's start tile)")
    parser.add_argument("--from", dest="from_", metavar="GAMEDIR", help="a game folder written by robots-engine play")
    parser.add_argument("--round", type=int, metavar="N", help="with --from: the position before round N (from 1)")
    parser.add_argument(
        "--no-foresight",
        action="store_true",
        help="print the no-foresight optimum (goal probability, then expected rounds of won games); no DECK",
    )
    parser.add_argument(
        "--time-limit",
        type=time_limit_argument,
        default=600.0,
        metavar="S",
        help="with --no-foresight: seconds of value iteration (default 600)",
    )
    args = parser.parse_args(argv)
    # run_command, as every tool: bad input, Ctrl-C / SIGTERM and a reader that leaves
    # (``robots-oracle ... | head -0`` was a BrokenPipeError traceback) each end in one line or none.
    return run_command("robots-oracle", lambda: _answer(args))


def _answer(args: argparse.Namespace) -> int:
    """Print the optimum the arguments ask for; InputError for anything wrong with them."""
    try:
        if args.no_foresight and (args.deck is not None or args.from_ is not None or args.board is None):
            raise InputError("--no-foresight takes a BOARD (and --start, --level), no DECK and no --from")
        if args.from_ is not None:
            board, level, deck, start = _problem_from_game(args)
        else:
            if args.board is None or (args.deck is None and not args.no_foresight):
                raise InputError("give BOARD and DECK, or --from GAMEDIR --round N")
            if args.round is not None:
                raise InputError("--round N goes with --from GAMEDIR")
            board = load_board(args.board)
            deck = load_deck(args.deck, strict=False) if args.deck is not None else []
            level = Level(args.level or Level.HARD.value)
            given = parse_pose(args.start, "--start") if args.start is not None else None
            start = game_start(board, given, args.board)
        if args.no_foresight:
            require_goal(board, args.board)
            return _print_no_foresight(board, level, start, args.time_limit)
        if len(deck) < HAND_SIZE:
            raise InputError(f"the deck has {len(deck)} cards, fewer than one hand of {HAND_SIZE}", args.deck)
        require_goal(board, args.board)
        rounds = optimum_rounds(board, level, deck, start)
    except ValueError as exc:  # a pose or number the parsers refused without a location
        raise InputError(str(exc)) from None
    print("unreachable" if rounds is None else rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
