"""Benchmark the strong Tron bot: against the simple bot and any programs given, every arena, both starts.

    python3 bench/tron.py [--arenas FILE...] [--against PROGRAM...] [--budget S] [--jobs N] [--json FILE]

Every game runs through the real server with both bots as programs (the strong bot as
``python -m engine.tron.bots strong --budget S``), so the decision times are what a contest sees:
from sending ``ROUND`` to reading the answer, process start-up excluded (round 1 is left out).
Prints, per opponent, points (3/1/0 per game), wins/draws/losses, and the strong bot's decision
times; then one line per arena and start.  Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.tron.arena import load_arena  # noqa: E402
from engine.tron.cli import bot_spec  # noqa: E402
from engine.tron.server import BotSpec, play_game  # noqa: E402

ARENAS = sorted((ROOT / "gameboards" / "tron").glob("*.txt"))


def strong_spec(budget: float) -> BotSpec:
    return BotSpec(
        f"strong({budget:g}s)", (sys.executable, "-m", "engine.tron.bots", "strong", "--budget", str(budget))
    )


def one_game(arena_path: Path, strong: BotSpec, other: BotSpec, strong_first: bool, limit: float) -> dict[str, object]:
    arena = load_arena(arena_path)
    bots = [strong, other] if strong_first else [other, strong]
    me = 0 if strong_first else 1
    started = time.monotonic()
    record, _ = play_game(arena, bots, time_limit=limit)
    took = time.monotonic() - started
    survived, points = record.survived(), record.points()
    times = [r.seconds[me + 1] for r in record.rounds[1:] if me + 1 in r.seconds]
    return {
        "arena": arena_path.stem,
        "opponent": other.name,
        "strong_start": me + 1,
        "points": points[me],
        "opponent_points": points[1 - me],
        "survived": survived[me],
        "opponent_survived": survived[1 - me],
        "strong_reason": record.reasons()[me],
        "opponent_reason": record.reasons()[1 - me],
        "decisions": len(times),
        "ms_mean": 1000 * statistics.fmean(times) if times else 0.0,
        "ms_max": 1000 * max(times) if times else 0.0,
        "ms_p99": 1000 * sorted(times)[int(0.99 * (len(times) - 1))] if times else 0.0,
        "seconds": took,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arenas", nargs="+", type=Path, default=ARENAS)
    parser.add_argument("--against", nargs="*", default=[], metavar="PROGRAM", help="more opponents (programs)")
    parser.add_argument("--budget", type=float, default=0.3, help="strong bot's seconds per move (default 0.3)")
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write every game's figures here")
    args = parser.parse_args()
    strong = strong_spec(args.budget)
    opponents = [bot_spec("simple"), *(bot_spec(p) for p in args.against)]
    tasks = [(a, strong, o, first) for o in opponents for a in args.arenas for first in (True, False)]
    print(f"# Tron: strong bot (budget {args.budget:g} s) vs {', '.join(o.name for o in opponents)}")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{len(tasks)} games, {args.jobs} in parallel, time limit {args.time_limit:g} s")
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        games = list(pool.map(lambda t: one_game(*t, args.time_limit), tasks))
    print(f"all games: {time.monotonic() - started:.0f} s wall\n")
    print("| opponent | games | points (max) | won | drawn | lost | win rate | decision ms mean | p99 | max |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for other in opponents:
        mine = [g for g in games if g["opponent"] == other.name]
        won = sum(1 for g in mine if g["points"] == 3)
        drawn = sum(1 for g in mine if g["points"] == 1)
        means = [float(g["ms_mean"]) for g in mine if g["decisions"]]
        print(
            f"| {other.name} | {len(mine)} | {sum(int(g['points']) for g in mine)} ({3 * len(mine)}) | {won} | {drawn} "
            f"| {len(mine) - won - drawn} | {100 * won / len(mine):.0f}% | {statistics.fmean(means):.1f} "
            f"| {max(float(g['ms_p99']) for g in mine):.0f} | {max(float(g['ms_max']) for g in mine):.0f} |"
        )
    print(
        "\n| arena | opponent | strong is bot | points | rounds survived (strong : other) | other out because | ms mean / max | game s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for g in games:
        print(
            f"| {g['arena']} | {g['opponent']} | {g['strong_start']} | {g['points']} : {g['opponent_points']} "
            f"| {g['survived']} : {g['opponent_survived']} | {g['opponent_reason']} "
            f"| {float(g['ms_mean']):.1f} / {float(g['ms_max']):.0f} | {float(g['seconds']):.1f} |"
        )
    if args.json:
        args.json.write_text(json.dumps(games, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
