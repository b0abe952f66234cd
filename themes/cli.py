"""``robots-theme``: list themes, check a theme folder, draw a contact sheet, start a new theme.

Errors are one line each and never a traceback: theme makers run ``check`` in a loop
while they draw, and every problem should be visible at once.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import NoReturn

from themes.errors import ThemeError
from themes.loader import check_theme, list_themes, load_theme, resolve_theme, user_themes_dir
from themes.manifest import MANIFEST_FILE
from themes.sheet import contact_sheet


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line (exit 2), without the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="robots-theme", description="Tile themes for the robots board views.")
    sub = parser.add_subparsers(dest="command", required=True)
    listing = sub.add_parser("list", help="list the themes found (shipped, per-user, extra folders)")
    listing.add_argument(
        "--dir",
        action="append",
        default=[],
        type=Path,
        metavar="DIR",
        help="also look for theme folders in DIR (repeatable)",
    )
    check = sub.add_parser("check", help="validate a theme; prints every problem, exit 1 if any")
    check.add_argument("theme", metavar="PATH", help="a theme folder, or the name of a discovered theme")
    sheet = sub.add_parser("sheet", help="write a labelled contact sheet of a theme's images")
    sheet.add_argument("theme", metavar="NAME", help="a theme name or folder")
    sheet.add_argument("--out", type=Path, required=True, help="PNG file to write")
    sheet.add_argument("--columns", type=int, default=8, help="images per row (default 8)")
    sheet.add_argument("--scale", type=int, default=2, help="enlargement of each image (default 2)")
    new = sub.add_parser("new", help="start a new theme as a copy of an existing one, in the per-user folder")
    new.add_argument("name", metavar="NAME", help="folder name of the new theme")
    new.add_argument(
        "--from", dest="source", default="default", metavar="THEME", help="theme to copy (default: default)"
    )
    new.add_argument(
        "--dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="create the theme in DIR instead of the per-user theme folder",
    )
    return parser


def _new(name: str, source: str, parent: Path | None) -> int:
    if not name or name in (".", "..") or "/" in name or "\\" in name:
        print(f"robots-theme: {name!r} is not a usable folder name", file=sys.stderr)
        return 2
    origin = load_theme(source)
    target = (parent or user_themes_dir()) / name
    if target.exists():
        print(f"robots-theme: {target}: already exists, not overwriting it", file=sys.stderr)
        return 1
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f".{name}.tmp")
    if staging.exists():
        shutil.rmtree(staging)
    shutil.copytree(origin.path, staging, ignore=shutil.ignore_patterns("*.tmp", ".*"))
    manifest = {"name": name, "author": "", "licence": "", "start_marker": origin.manifest.start_marker}
    (staging / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    staging.rename(target)
    print(f"{target}: new theme copied from {origin.name}; edit its PNGs, then: robots-theme check {target}")
    return 0


def _list(dirs: list[Path]) -> int:
    infos = list_themes(dirs)
    if not infos:
        print(f"no themes found (per-user folder: {user_themes_dir()})")
        return 0
    for info in infos:
        problems = check_theme(info.path)
        status = "ok" if not problems else f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        print(f"{info.key:<16} {info.name:<20} {info.origin:<8} {status:<12} {info.path}")
    return 0


def _check(theme: str) -> int:
    problems = check_theme(theme)
    if problems:
        for problem in problems:
            print(problem)
        return 1
    print(f"{resolve_theme(theme)}: ok")
    return 0


def _sheet(theme: str, out: Path, columns: int, scale: int) -> int:
    if columns < 1 or scale < 1:
        print("robots-theme: --columns and --scale must be at least 1", file=sys.stderr)
        return 2
    if out.suffix.lower() != ".png":
        print(f"robots-theme: {out}: a contact sheet is a PNG; give --out a name ending in .png", file=sys.stderr)
        return 2
    loaded = load_theme(theme)
    image = contact_sheet(loaded, columns, scale)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    image.save(tmp, format="PNG")
    tmp.replace(out)
    print(f"{out}: contact sheet of {loaded.name} ({image.width}x{image.height})")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "list":
            return _list(args.dir)
        if args.command == "check":
            return _check(args.theme)
        if args.command == "new":
            return _new(args.name, args.source, args.dir)
        return _sheet(args.theme, args.out, args.columns, args.scale)
    except ThemeError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"robots-theme: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
