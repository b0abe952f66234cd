"""``python -m engine.tron.bots NAME [--budget S] [--seed N]``: a built-in bot as a contest program."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine.cliutil import seed_argument
from engine.tron.bots import BUILTIN_NAMES, make_chooser
from engine.tron.bots.client import run


def main(argv: Sequence[str] | None = None, default: str | None = None) -> int:
    parser = argparse.ArgumentParser(prog="robots-tron-bot", description="A built-in Tron bot on stdin/stdout.")
    if default is None:
        parser.add_argument("name", choices=BUILTIN_NAMES)
    parser.add_argument("--budget", type=float, help="seconds of thought per move (strong bot; default 0.3)")
    parser.add_argument("--seed", type=seed_argument, help="random seed (random bot)")
    args = parser.parse_args(argv)
    name = default or args.name
    try:
        return run(lambda: make_chooser(name, args.budget, args.seed))
    except (KeyboardInterrupt, BrokenPipeError):
        return 1


def main_strong() -> int:
    return main(default="strong")


def main_simple() -> int:
    return main(default="simple")


if __name__ == "__main__":
    sys.exit(main())
