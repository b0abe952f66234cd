"""Benchmarks for the AI protocol and robots-contest: prints figures, asserts nothing.

    python3 bench/ai_protocol.py [--seeds N] [--levels L...] [--games N] [--rounds N]

1. One external-AI round (write inputs, start the program, read ccards.txt), per example AI.
2. robots-contest throughput with the reference AI on chop.dat hard, --jobs 1 and 2.
3. How the example AIs do against the reference AI (same decks), chop.dat at every level.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.ai.external import ExternalAI  # noqa: E402
from engine.boardfile import load_board  # noqa: E402
from engine.contest.report import summaries  # noqa: E402
from engine.contest.runner import BoardSource, ContestSetup, DeckSource, run_contest  # noqa: E402
from engine.deck import generate_deck  # noqa: E402
from engine.model import Level  # noqa: E402

CHOP = ROOT / "gameboards" / "chop.dat"
EXAMPLES = {"python": ROOT / "examples/python/bot.py", "shell": ROOT / "examples/shell/bot.sh"}


def round_trip(rounds: int) -> None:
    board = load_board(CHOP)
    deck = generate_deck(1)
    print(f"## External AI round trip ({rounds} rounds each, chop.dat, hard)")
    for name, program in EXAMPLES.items():
        times = []
        with tempfile.TemporaryDirectory() as work, ExternalAI(program, workdir=Path(work)) as ai:
            for i in range(rounds):
                hand = tuple(deck[8 * i : 8 * i + 8])
                began = time.perf_counter()
                ai(board, Level.HARD, board.start, hand)
                times.append(time.perf_counter() - began)
        print(
            f"{name:8s} median {1000 * statistics.median(times):6.1f} ms/round, {len(times) / sum(times):6.1f} rounds/s"
        )


def setup(seeds: int, level: Level, ai: str, log_dir: Path | None = None) -> ContestSetup:
    boards = (BoardSource(str(CHOP), CHOP.read_text()),)
    decks = tuple(DeckSource(seed=s) for s in range(1, seeds + 1))
    return ContestSetup(boards, decks, level, ai, 10.0, log_dir)


def throughput(seeds: int) -> None:
    print(f"\n## robots-contest throughput (reference AI, chop.dat hard, {seeds} decks)")
    for jobs in (1, 2):
        began = time.perf_counter()
        results = run_contest(setup(seeds, Level.HARD, "reference"), jobs)
        elapsed = time.perf_counter() - began
        print(f"--jobs {jobs}: {len(results)} games in {elapsed:.2f} s, {len(results) / elapsed:.0f} games/s")


def strength(seeds: int, levels: list[Level]) -> None:
    print(f"\n## Example AIs against the reference AI (chop.dat, the same {seeds} decks, --jobs 2)")
    print(
        f"{'level':7s} {'ai':10s} {'goal %':>7s} {'destroyed %':>12s} {'cards-out %':>12s} {'mean cards':>11s} {'seconds':>8s}"
    )
    for level in levels:
        for name, spec in (("reference", "reference"), *((n, str(p)) for n, p in EXAMPLES.items())):
            began = time.perf_counter()
            _, total = summaries(run_contest(setup(seeds, level, spec), 2))
            elapsed = time.perf_counter() - began
            print(
                f"{level.value:7s} {name:10s} {total.percent(total.finished):7.1f} {total.percent(total.destroyed):12.1f}"
                f" {total.percent(total.cards_out):12.1f} {total.mean_cards:11.1f} {elapsed:8.1f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seeds", type=int, default=30, help="decks for the strength comparison")
    parser.add_argument(
        "--levels",
        nargs="+",
        choices=[lv.value for lv in Level],
        default=["hard"],
        help="levels for the strength comparison (easy and normal games last hundreds of rounds: minutes)",
    )
    parser.add_argument("--games", type=int, default=400, help="games for the throughput figure")
    parser.add_argument("--rounds", type=int, default=100, help="rounds for the round-trip figure")
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"
    )
    round_trip(args.rounds)
    throughput(args.games)
    strength(args.seeds, [Level(v) for v in args.levels])


if __name__ == "__main__":
    main()
