"""``robots-theme``: list, check, contact sheet, new theme, paint template and its import.

Errors are one line each and never a traceback: theme makers run ``check`` in a loop
while they draw, and every problem should be visible at once.
"""

from __future__ import annotations

import argparse
import io
import os
import shlex
import shutil
import stat
import sys
from dataclasses import replace
from pathlib import Path

from PIL import Image

from engine.atomic import resolve_target, write_bytes_atomic
from engine.cliutil import EXIT_BAD_INPUT, OneLineParser, add_version, run_command
from engine.errors import printable
from themes.errors import ThemeError
from themes.loader import check_theme, list_themes, load_theme, shipped_theme_names, user_themes_dir
from themes.manifest import MANIFEST_FILE, write_manifest
from themes.report import summary
from themes.sheet import contact_sheet
from themes.template import (
    MAX_TEMPLATE_SCALE,
    TemplateError,
    fresh_staging,
    read_template,
    replace_pictures,
    template_sheet,
    write_pictures,
)
from themes.theme import Theme


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="robots-theme", description="Tile themes for the robots board views.")
    add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
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
    template = sub.add_parser("template", help="write one image of every picture, to paint on, with a guide grid")
    template.add_argument("theme", nargs="?", default="default", metavar="THEME", help="theme to start from")
    template.add_argument("--out", type=Path, required=True, help="PNG file to write")
    template.add_argument("--scale", type=int, default=1, help="pixels per theme pixel (1 to 8, default 1)")
    cut = sub.add_parser("import", help="cut a painted template back into a theme folder")
    cut.add_argument("sheet", type=Path, metavar="SHEET", help="a template PNG written by 'template'")
    cut.add_argument("name", metavar="NAME", help="folder name of the new theme")
    cut.add_argument("--dir", type=Path, default=None, metavar="DIR", help="create it in DIR (default: per-user)")
    cut.add_argument(
        "--replace",
        action="store_true",
        help="NAME exists: replace its pictures painted on the sheet, keep everything else",
    )
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


def _new_target(name: str, parent: Path | None, replace: bool | None = None) -> Path | int:
    """Where a new theme called ``name`` goes (with ``replace``: or the theme that is there), or
    the exit status after saying why it cannot. ``replace`` None: for ``new``, which cannot."""
    if not name or name in (".", "..") or "/" in name or "\\" in name or name.startswith((".", "_")):
        print(f"robots-theme: {name!r} is not a usable folder name", file=sys.stderr)
        return 2
    if any("\udc80" <= char <= "\udcff" for char in name):  # bytes of the name that are not UTF-8
        # theme.json holds the name as UTF-8 text: writing it raised mid-copy, leaving a staging folder.
        print(f"robots-theme: {printable(name)}: a theme's name must be UTF-8 text", file=sys.stderr)
        return 2
    if name.lower() in (shipped.lower() for shipped in shipped_theme_names()):
        print(f"robots-theme: {name!r} is a shipped theme's name; choose another", file=sys.stderr)
        return 2
    target = (parent or user_themes_dir()) / name
    if target.exists() and not (replace and target.is_dir()):
        again = "; import --replace updates its pictures" if replace is False else ""
        print(f"robots-theme: {target}: already exists, not overwriting it{again}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return target


def _copied_base(origin: Theme) -> str | None:
    """The copy's ``base``: the origin's, a relative path made absolute (it was read from the origin's
    folder, and the copy lives elsewhere)."""
    base = origin.manifest.base
    if base is None or not (os.sep in base or (os.altsep and os.altsep in base)) or Path(base).is_absolute():
        return base
    return str((origin.path / base).resolve())


def _make_writable(folder: Path) -> None:
    """Let the theme maker save over every file of a new theme and add files to its folders: a
    theme copied from a read-only install (a system package, a store) kept its modes, and
    ``edit its PNGs`` met "permission denied" in the image editor."""
    for path in (folder, *folder.rglob("*")):
        mode = path.stat().st_mode
        os.chmod(path, mode | stat.S_IWUSR | (stat.S_IXUSR if path.is_dir() else 0))


def _new(name: str, source: str, parent: Path | None) -> int:
    target = _new_target(name, parent)
    if isinstance(target, int):
        return target
    origin = load_theme(source)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        staging = fresh_staging(target)  # ours: what an interrupted "new" left there is removed
        staging.rmdir()  # copytree makes it
        shutil.copytree(
            origin.path, staging, ignore=shutil.ignore_patterns("*.tmp", ".*"), copy_function=shutil.copyfile
        )
        _make_writable(staging)
        manifest = replace(origin.manifest, name=name, author="", licence="", base=_copied_base(origin))
        (staging / MANIFEST_FILE).write_text(write_manifest(manifest), encoding="utf-8")
        staging.rename(target)
    except OSError as exc:
        print(f"robots-theme: {exc.filename or target}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{target}: new theme copied from {origin.name}; edit its PNGs, then: robots-theme check {_arg(target)}")
    return 0


def _arg(path: Path) -> str:
    """``path`` as it must be typed in the command a message suggests: a theme folder called
    ``my theme`` made ``robots-theme check .../my theme``, which checks ``.../my``."""
    return shlex.quote(str(path))


def _list(dirs: list[Path]) -> int:
    infos = list_themes(dirs)
    if not infos:
        print(f"no themes found (per-user folder: {user_themes_dir()})")
        return 0
    rows = []
    for info in infos:
        problems = check_theme(info.path)
        status = "ok" if not problems else f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        if info.shadowed:
            status = "shadowed"  # its name means the shipped theme; load it by its path
        rows.append((info.path.name, info.name, info.origin, status, str(info.path)))
    widths = [max(len(row[column]) for row in rows) for column in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)) + "  " + row[4])
    return 0


def _check(theme: str) -> int:
    """Every warning on its own line; exit 1 when any of them must be fixed."""
    try:
        loaded = load_theme(theme)
    except ThemeError as exc:
        for problem in exc.problems:
            print(problem)
        return 1
    for line in loaded.warnings:
        print(_located(loaded.path, line))
    if loaded.faults:
        return 1
    print(f"{loaded.path}: ok")
    return 0


def _load_noisy(theme: str) -> Theme:
    """The theme, its warnings on stderr (a few lines at most: the full list is ``check``'s job)."""
    loaded = load_theme(theme)
    for line in summary([_located(loaded.path, line) for line in loaded.warnings]):
        print(line, file=sys.stderr)
    return loaded


def _located(folder: Path, line: str) -> str:
    """A warning with its theme folder in front: ``mytheme/hole.png: ...`` or ``mytheme: ...``."""
    head = line.split(":", 1)[0]
    if "." in head and " " not in head:
        return f"{folder.name}/{line}"
    return f"{folder.name}: {line}"


def _template(theme: str, out: Path, scale: int) -> int:
    if not 1 <= scale <= MAX_TEMPLATE_SCALE:
        print(f"robots-theme: --scale must be 1 to {MAX_TEMPLATE_SCALE}", file=sys.stderr)
        return 2
    if out.suffix.lower() != ".png":
        print(f"robots-theme: {out}: a template is a PNG; give --out a name ending in .png", file=sys.stderr)
        return 2
    resolve_target(out)  # a folder or FIFO in the way: said before the drawing
    loaded = _load_noisy(theme)
    _save_png(template_sheet(loaded, scale), out)
    print(f"{out}: template of {loaded.name} at scale {scale}; paint it, then: robots-theme import {_arg(out)} NAME")
    return 0


def _import(sheet: Path, name: str, parent: Path | None, replace: bool = False) -> int:
    target = _new_target(name, parent, replace)
    if isinstance(target, int):
        return target
    notes: list[str] = []
    try:
        pictures = read_template(sheet, notes)
    except TemplateError as exc:
        print(f"robots-theme: {sheet}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        written = replace_pictures(pictures, target) if target.is_dir() else write_pictures(pictures, target, name)
    except OSError as exc:  # a full disk: PIL's error names no file ("robots-theme: : File too large")
        print(f"robots-theme: {target}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for note in notes:
        print(f"{sheet}: {note}", file=sys.stderr)
    print(f"{target}: {written} pictures from {sheet}; check it with: robots-theme check {_arg(target)}")
    return 0


def _save_png(image: Image.Image, out: Path) -> None:
    """Write ``image`` to ``out`` atomically (``engine.atomic``): a failed write loses nothing, a
    symlink stays a link (its target is written), a folder or FIFO is refused, and no fixed
    ``OUT.tmp`` name can take a file of the user's with it."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    out.parent.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(out, buffer.getvalue())


def _sheet(theme: str, out: Path, columns: int, scale: int) -> int:
    if columns < 1 or scale < 1:
        print("robots-theme: --columns and --scale must be at least 1", file=sys.stderr)
        return 2
    if out.suffix.lower() != ".png":
        print(f"robots-theme: {out}: a contact sheet is a PNG; give --out a name ending in .png", file=sys.stderr)
        return 2
    resolve_target(out)  # a folder or FIFO in the way: said before the 3D thumbnails are rendered
    loaded = _load_noisy(theme)
    image = contact_sheet(loaded, columns, scale, thumbnails=_thumbnails(loaded))
    _save_png(image, out)
    print(f"{out}: contact sheet of {loaded.name} ({image.width}x{image.height})")
    return 0


def _thumbnails(theme: Theme) -> dict[str, Image.Image] | None:
    """The viewer's 3D rendering of each tile, when the viewer and an OpenGL context are at hand."""
    from viewer3d.render.thumbnails import render_thumbnails  # only here: it brings in the GL renderer

    try:
        shots: dict[str, Image.Image] = render_thumbnails(theme)
        return shots
    except Exception as exc:  # no GL here: the sheet is still useful without the 3D column
        print(f"robots-theme: no 3D thumbnails ({str(exc)[:60]})", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    """Through ``engine.cliutil.run_command``, as every other tool: bad input and file errors are
    one line and status 2, Ctrl-C is ``interrupted`` and 130 (it was a traceback), and a reader
    that leaves (``robots-theme list | head -1``) ends it quietly with 141."""
    from engine.textout import readable_streams

    readable_streams()  # a file name that is not UTF-8 is printed as \xNN, never a traceback
    args = _parser().parse_args(argv)
    return run_command("robots-theme", lambda: _run(args))


def _run(args: argparse.Namespace) -> int:
    if args.command == "list":
        return _list(args.dir)
    if args.command == "check":
        return _check(args.theme)
    try:
        if args.command == "new":
            return _new(args.name, args.source, args.dir)
        if args.command == "template":
            return _template(args.theme, args.out, args.scale)
        if args.command == "import":
            return _import(args.sheet, args.name, args.dir, args.replace)
        return _sheet(args.theme, args.out, args.columns, args.scale)
    except ThemeError as exc:  # each problem on its own line, named after the tool like any bad input
        for problem in exc.problems:
            print(f"robots-theme: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
