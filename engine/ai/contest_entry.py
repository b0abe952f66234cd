"""``robots-ai LEVEL``: the planner as a contest entry speaking the contest's file protocol.

Reads ``board.txt``, ``cards.txt`` and ``bot.txt`` in the working directory, writes the chosen
five cards to ``ccards.txt``. Tables are cached in ``.robots-ai-cache/`` next to the board (keyed
by board text, level and table-format version; a stale or damaged file is ignored and rewritten),
so only the first round of a game pays for the precomputation.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.ai.plan_cache import CACHE_FOLDER
from engine.ai.planner import Planner
from engine.cards import HAND_SIZE
from engine.errors import InputError
from engine.model import Level
from engine.protocol import CARDS_FILE, read_ai_inputs, write_chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="robots-ai",
        description="Choose 5 of the 8 cards in cards.txt for the robot in bot.txt on board.txt; write ccards.txt.",
    )
    parser.add_argument("level", choices=[lv.value for lv in Level], help="game level")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per decision (default 1)")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write the table cache")
    args = parser.parse_args(argv)
    folder = Path.cwd()
    try:
        board, hand, pose = read_ai_inputs(folder)
        if len(hand) != HAND_SIZE:
            raise InputError(f"expected {HAND_SIZE} cards, found {len(hand)}", folder / CARDS_FILE)
        if not board.in_bounds(pose.x, pose.y):
            raise InputError(
                f"robot position {pose.x} {pose.y} is off the {board.width}x{board.height} board",
                folder / "bot.txt",
                1,
                1,
            )
        cache = None if args.no_cache else folder / CACHE_FOLDER
        planner = Planner(budget_seconds=args.budget, cache_dir=cache)
        chosen = planner(board, Level(args.level), pose, tuple(hand))
        write_chosen(folder, chosen)
    except (InputError, ValueError, OSError) as exc:
        print(f"robots-ai: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
