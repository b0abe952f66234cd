"""A Tron bot program the tests pace: it answers round r only once its gate file has r lines.

``gatebot.py PIDFILE GATE SEEN [EXIT_ROUND]``: writes its process id to PIDFILE, writes each round
number it is asked about to SEEN (one line per round, so a test knows the server has decided every
round before it), answers ``AHEAD`` when the gate allows, and exits without answering in round
EXIT_ROUND (a bot that crashes mid-game). The waiting happens here, in the bot, never in a test.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def lines(path: Path) -> int:
    try:
        return len(path.read_text().splitlines())
    except OSError:
        return 0


def main() -> None:
    pidfile, gate, seen = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    exit_round = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    pidfile.write_text(f"{os.getpid()}\n")
    for line in sys.stdin:
        word = line.split()
        if word[:1] == ["END"]:
            return
        if word[:1] != ["ROUND"]:
            continue
        number = int(word[1])
        with seen.open("a") as handle:
            handle.write(f"{number}\n")
        if number == exit_round:
            sys.exit(3)
        while lines(gate) < number:
            time.sleep(0.01)
        print("AHEAD", flush=True)


if __name__ == "__main__":
    main()
