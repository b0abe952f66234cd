"""Regenerate the shipped themes' PNGs (into the package folders, or ``--out DIR/<name>``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from themes.loader import BUILTIN_DIR
from themes.make import GENERATORS, write_theme


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m themes.make", description=__doc__)
    parser.add_argument(
        "names", nargs="*", default=[], metavar="NAME", help=f"themes to draw (default: all of {', '.join(GENERATORS)})"
    )
    parser.add_argument("--out", type=Path, default=BUILTIN_DIR, help="parent folder (default: the themes package)")
    args = parser.parse_args(argv)
    for name in args.names or list(GENERATORS):
        files = write_theme(name, args.out / name)
        print(f"{name}: {len(files)} files in {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
