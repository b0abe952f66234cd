"""``robots-ai`` as the contest runs it: an external program under ``robots-engine play``.

Plays ``--games`` games on one board with a fresh plan cache, one new ``robots-ai`` process per
round (as the contest does), and prints the AI time of every round from each game's
``rounds.jsonl``: the first round of the first game (cold: builds the plan) and the slowest of
all later rounds (warm: read the cached plan, rank the hand, no numpy).

    python3 bench/ai_entry.py gameboards/chop.dat --games 10 --level hard
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("board")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args(argv)
    bin_dir = Path(sys.executable).parent
    work = Path(tempfile.mkdtemp(prefix="robots-ai-entry-"))
    env = {**os.environ, "ROBOTS_AI_CACHE": str(work / "cache")}
    # The contest passes the level as the program's argument; a wrapper keeps the cache private.
    program = work / "robots-ai-entry"
    program.write_text(f'#!/bin/sh\nexec "{bin_dir / "robots-ai"}" "$@"\n')
    program.chmod(0o755)
    times: list[list[float]] = []
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
