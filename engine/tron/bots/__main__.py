"""``python -m engine.tron.bots NAME [--budget S] [--seed N]``: a built-in bot as a contest program.

The console scripts ``robots-tron-strong`` and ``robots-tron-simple`` are the same with the name
given; each takes only the options its bot uses (``--budget`` for strong, ``--seed`` for random, none
for simple), so an option that would change nothing is a usage error instead of being silently
ignored; ``python -m engine.tron.bots NAME`` holds to the same after reading NAME.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine.bounds import parse_seconds
from engine.cliutil import OneLineParser, add_version, seed_argument
from engine.errors import InputError
from engine.stopping import describe, exit_status
from engine.tron.bots import BUILTIN_NAMES, make_chooser
from engine.tron.bots.client import run


def _budget(text: str) -> float:
    """``--budget``: a positive, finite number of seconds (``nan`` or ``-1`` made the bot answer at once)."""
    try:
        return parse_seconds(text, "budget")
    except InputError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def main(argv: Sequence[str] | None = None, default: str | None = None) -> int:
    prog = f"robots-tron-{default}" if default else "python -m engine.tron.bots"
    parser = OneLineParser(prog=prog, description="A built-in Tron bot on stdin/stdout.")
    add_version(parser)
    if default is None:
        parser.add_argument("name", choices=BUILTIN_NAMES)
    if default in (None, "strong"):
        parser.add_argument("--budget", type=_budget, help="seconds of thought per move (strong bot; default 0.3)")
    if default is None:
        parser.add_argument("--seed", type=seed_argument, help="random seed (random bot)")
    args = parser.parse_args(argv)
    name = default or args.name
    for option, used_by in (("budget", "strong"), ("seed", "random")):
        if getattr(args, option, None) is not None and name != used_by:
            parser.error(f"--{option} is for the {used_by} bot only: the {name} bot would ignore it")
    try:
        return run(lambda: make_chooser(name, getattr(args, "budget", None), getattr(args, "seed", None)))
    except KeyboardInterrupt as stop:  # Ctrl-C on a bot started by hand: as every other command line
        print(f"{prog}: {describe(stop)}", file=sys.stderr)
        return exit_status(stop)
    except BrokenPipeError:  # the server went away
        return 1


def main_strong(argv: Sequence[str] | None = None) -> int:
    return main(argv, default="strong")


def main_simple(argv: Sequence[str] | None = None) -> int:
    return main(argv, default="simple")


if __name__ == "__main__":
    sys.exit(main())
