"""Engine speed: single cards per second, whole games per second, conformance run time.

Prints figures only (no asserts). Run from the repository root:

    python3 bench/engine.py [--games N] [--cards N] [--reach SIDE]

Times are CPU time of this process (``time.process_time``): the machine is shared, and wall time
would mostly measure the other processes. Games are played with the contest's reference AI (the first five cards of each hand) on seeded
decks, so two runs on the same machine play exactly the same games.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.boardfile import load_board  # noqa: E402
from engine.cards import Card  # noqa: E402
from engine.conformance import reference_chooser, run_file  # noqa: E402
from engine.deck import generate_deck  # noqa: E402
from engine.game import play_game  # noqa: E402
from engine.model import Board, Direction, Level, Pose  # noqa: E402
from engine.reach import goal_reach  # noqa: E402
from engine.rules import play_card  # noqa: E402

CONFORMANCE = ROOT / "tests" / "data" / "conformance"


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()} ({platform.python_implementation()})"


def cards_per_second(board: Board, level: Level, count: int, seed: int = 1) -> float:
    """Single-card simulations per second from random on-board poses with random cards."""
    rng = random.Random(seed)
    cards = list(Card)
    directions = list(Direction)
    jobs = [
        (Pose(rng.randrange(board.width), rng.randrange(board.height), rng.choice(directions)), rng.choice(cards))
        for _ in range(count)
    ]
    play_card(board, level, jobs[0][0], jobs[0][1])  # build the cached level view outside the timing
    begin = time.process_time()
    for pose, card in jobs:
        play_card(board, level, pose, card)
    return count / (time.process_time() - begin)


def game_times(board: Board, level: Level, games: int) -> list[float]:
    """CPU seconds per whole game, reference AI, decks seeded 0..games-1 (deck generation not timed)."""
    times = []
    for seed in range(games):
        deck = generate_deck(seed)
        begin = time.process_time()
        play_game(board, level, deck, reference_chooser)
        times.append(time.process_time() - begin)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def open_board(side: int) -> Board:
    """An empty ``side`` x ``side`` board, start in one corner, goal in the other: the search's worst case."""
    rows = [" " * side for _ in range(side)]
    rows[0] = "T" + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "Z"
    return Board.from_strings(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per level on chop.dat (default 1000)")
    parser.add_argument("--cards", type=int, default=200_000, help="single cards per board (default 200000)")
    parser.add_argument(
        "--reach",
        type=int,
        default=256,
        metavar="SIDE",
        help="side of the open board of the reach search (default 256)",
    )
    args = parser.parse_args()

    print(f"machine: {machine()}")
    chop = load_board(ROOT / "gameboards" / "chop.dat")
    big = load_board(ROOT / "gameboards" / "big-100x100.dat")

    print("\nsingle cards (random pose and card, play_card; CPU time):")
    for name, board in (("chop.dat", chop), ("big-100x100.dat", big)):
        for level in (Level.NORMAL, Level.HARD):
            rate = cards_per_second(board, level, args.cards)
            print(f"  {name:16} {level.value:6} {rate:12,.0f} cards/s  ({1e6 / rate:.2f} us/card)")

    print(f"\nwhole games on chop.dat, reference AI, {args.games} seeded decks (CPU time):")
    for level in (Level.HARD, Level.NORMAL, Level.EASY):
        games = args.games if level is not Level.EASY else max(1, args.games // 10)
        times = game_times(chop, level, games)
        total = sum(times)
        print(
            f"  {level.value:6} {games:5} games  {games / total:10,.0f} games/s  "
            f"median {statistics.median(times) * 1e3:7.3f} ms  p90 {percentile(times, 0.9) * 1e3:7.3f} ms  "
            f"max {max(times) * 1e3:7.3f} ms"
        )

    print(
        f"\ngoal search (engine.reach, as check --reach and the editor run it; CPU time), open {args.reach}x{args.reach}:"
    )
    far = open_board(args.reach)
    for name, board in (("chop.dat", chop), ("big-100x100.dat", big), (f"open-{args.reach}", far)):
        for level in Level:
            begin = time.process_time()
            found = goal_reach(board, level, board.starts[0])
            elapsed = time.process_time() - begin
            per_pose = elapsed / found.poses * 1e6
            print(
                f"  {name:16} {level.value:6} {found.poses:9,} poses  {found.cards} cards  {elapsed:7.3f} s"
                f"  ({per_pose:.1f} us/pose)"
            )

    print("\nconformance vectors (CPU time):")
    for path in sorted(CONFORMANCE.glob("*.jsonl")):
        begin = time.process_time()
        run, failures = run_file(path)
        elapsed = time.process_time() - begin
        print(f"  {path.name:12} {run - len(failures)} passed, {len(failures)} failed in {elapsed:.2f} s")


if __name__ == "__main__":
    main()
