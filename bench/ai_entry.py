"""``robots-ai`` as the contest runs it: an external program under ``robots-engine play``.

Plays ``--games`` games on one board with a fresh plan cache, one new ``robots-ai`` process per
round (as the contest does), and prints the AI time of every round from each game's
``rounds.jsonl``: the first round of the first game (cold: builds the plan) and the slowest of
all later rounds (warm: read the cached plan, rank the hand, no numpy). Then it replays the
recorded rounds' inputs, running ``robots-ai`` directly ``--repeat`` times each against the warm
cache, and prints the whole-process wall and CPU (user + system) time per decision, beside a
bare ``python -c pass`` for scale.

    python3 bench/ai_entry.py gameboards/chop.dat --games 10 --level hard
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("board")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="direct runs per recorded round (0: none)")
    args = parser.parse_args(argv)
    bin_dir = Path(sys.executable).parent
    work = Path(tempfile.mkdtemp(prefix="robots-ai-entry-"))
    env = {**os.environ, "ROBOTS_AI_CACHE": str(work / "cache")}
    # The contest passes the level as the program's argument; a wrapper keeps the cache private.
    program = work / "robots-ai-entry"
    program.write_text(f'#!/bin/sh\nexec "{bin_dir / "robots-ai"}" "$@"\n')
    program.chmod(0o755)
    times: list[list[float]] = []
    records: list[dict[str, object]] = []
    try:
        for game in range(args.games):
            out = work / f"game{game}"
            subprocess.run(
                [
                    str(bin_dir / "robots-engine"),
                    "play",
                    args.board,
                    "--ai",
                    str(program),
                    "--level",
                    args.level,
                    "--seed",
                    str(args.first_seed + game),
                    "--out",
                    str(out),
                    "--timeout",
                    "60",
                ],
                env=env,
                check=True,
                capture_output=True,
            )
            lines = (out / "rounds.jsonl").read_text().splitlines()
            times.append([float(json.loads(line)["seconds"]) for line in lines])
            records.extend(json.loads(line) for line in lines)
        direct = _direct(bin_dir, work / "game0" / "board.txt", args.level, records, args.repeat, work / "direct", env)
        bare = [_timed([sys.executable, "-c", "pass"], work, env) for _ in range(max(args.repeat, 1) * 10)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    later = [t for i, game_times in enumerate(times) for j, t in enumerate(game_times) if (i, j) != (0, 0)]
    print(f"board {args.board}, level {args.level}, {args.games} games, {sum(map(len, times))} rounds")
    print(f"first round of the first game (cold): {times[0][0] * 1000:.0f} ms")
    if later:
        print(
            f"all later rounds (warm): median {statistics.median(later) * 1000:.0f} ms, "
            f"max {max(later) * 1000:.0f} ms, over 100 ms: {sum(t > 0.1 for t in later)} of {len(later)}"
        )
    if direct:
        for name, runs in (("robots-ai warm decision", direct), ("bare 'python -c pass'", bare)):
            walls, cpus = [w for w, _ in runs], [c for _, c in runs]
            print(
                f"{name}, {len(runs)} runs: wall median {statistics.median(walls) * 1000:.0f} ms "
                f"(max {max(walls) * 1000:.0f}), CPU median {statistics.median(cpus) * 1000:.0f} ms "
                f"(max {max(cpus) * 1000:.0f})"
            )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


def _timed(command: list[str], folder: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    begin = time.perf_counter()
    subprocess.run(command, cwd=folder, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - begin
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _direct(
    bin_dir: Path,
    board: Path,
    level: str,
    records: list[dict[str, object]],
    repeat: int,
    folder: Path,
    env: dict[str, str],
) -> list[tuple[float, float]]:
    """Run ``robots-ai LEVEL`` on each recorded round's inputs, ``repeat`` times, with the warm cache."""
    folder.mkdir()
    shutil.copyfile(board, folder / "board.txt")  # the first game's copy: as robots-engine writes it
    runs: list[tuple[float, float]] = []
    for record in records if repeat > 0 else []:
        hand = record["hand"]
        assert isinstance(hand, list)
        (folder / "cards.txt").write_text("".join(f"{card}\n" for card in hand))
        (folder / "bot.txt").write_text(f"{record['before']}\n")
        runs.extend(_timed([str(bin_dir / "robots-ai"), level], folder, env) for _ in range(repeat))
    return runs


if __name__ == "__main__":
    sys.exit(main())
