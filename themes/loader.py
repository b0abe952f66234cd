"""Finding themes and loading them: discovery, validation of every file, and a small cache."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from engine.resources import resource_path
from themes.errors import ThemeError
from themes.images import read_image
from themes.keys import START_MARKER_KEY, TILE_KEYS, board_chars_for
from themes.manifest import MANIFEST_FILE, read_manifest
from themes.theme import Theme

#: The folder of the shipped themes: the ``themes`` package itself (its folders are package data).
BUILTIN_DIR = resource_path("themes", ".").resolve()


def user_themes_dir() -> Path:
    """The per-user theme folder: ``$XDG_DATA_HOME/robots/themes`` (default ``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "robots" / "themes"


@dataclass(frozen=True, slots=True)
class ThemeInfo:
    """A discovered theme folder. ``key`` is the folder name (what ``load_theme`` accepts);
    ``name`` is the manifest's display name; ``origin`` is ``builtin``, ``user`` or ``extra``."""

    key: str
    name: str
    path: Path
    origin: str


def _is_theme_folder(folder: Path) -> bool:
    """A folder holding a manifest or any PNG, and not a Python package (e.g. the generator)."""
    if not folder.is_dir() or folder.name.startswith((".", "_")) or (folder / "__init__.py").exists():
        return False
    return (folder / MANIFEST_FILE).is_file() or any(folder.glob("*.png"))


def _search_dirs(extra_dirs: Iterable[Path | str] = ()) -> Iterator[tuple[Path, str]]:
    """Theme parents in lookup order; lazy, so a shipped theme is found without touching $HOME."""
    yield BUILTIN_DIR, "builtin"
    yield user_themes_dir(), "user"
    for extra in extra_dirs:
        yield Path(extra), "extra"


def list_themes(extra_dirs: Iterable[Path | str] = ()) -> list[ThemeInfo]:
    """Every theme folder found: shipped ones, the per-user folder, then ``extra_dirs``; sorted per origin.

    Listing does not validate (so a half-made theme still shows up for ``check``);
    the display name is read from the manifest when it parses.
    """
    found: list[ThemeInfo] = []
    for base, origin in _search_dirs(extra_dirs):
        try:
            folders = sorted(base.iterdir()) if base.is_dir() else []
        except OSError:  # an unreadable folder hides its themes, it does not break the listing
            continue
        for folder in folders:
            if _is_theme_folder(folder):
                name = read_manifest(folder, []).name
                found.append(ThemeInfo(folder.name, name, folder.resolve(), origin))
    return found


def resolve_theme(name_or_path: str | Path, extra_dirs: Iterable[Path | str] = ()) -> Path:
    """The folder meant by a theme name (folder name of a discovered theme) or a path.

    A :class:`Path`, or a string with a path separator, is taken as a path; a bare name
    is looked up in the shipped themes first, then the per-user folder, then ``extra_dirs``.
    """
    extra_dirs = tuple(extra_dirs)  # used twice below; may be a one-shot iterator
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or os.sep in text or (os.altsep and os.altsep in text):
        return Path(name_or_path)
    if not text.strip():
        raise ThemeError(Path(text), ["no theme name given"])
    searchable = not text.startswith((".", "_"))  # '.', '..', '__pycache__' are never theme names
    for base, _origin in _search_dirs(extra_dirs) if searchable else ():
        candidate = base / text
        if candidate.is_dir() and not (candidate / "__init__.py").exists():
            return candidate
    if Path(text).is_dir():
        return Path(text)
    known = ", ".join(sorted({info.key for info in list_themes(extra_dirs)})) or "none"
    raise ThemeError(Path(text), [f"no theme called {text!r} (known themes: {known})"])


def _role(key: str) -> str:
    chars = board_chars_for(key)
    shown = ", ".join(repr(c) for c in chars)
    return f"the {key} tile, board character{'s' if len(chars) != 1 else ''} {shown}"


def validate_folder(folder: Path) -> tuple[list[str], Theme | None]:
    """Every problem with the theme in ``folder`` and, when there are none, the loaded theme."""
    if not folder.is_dir():
        what = "does not exist" if not folder.exists() else "is not a folder"
        return [f"{folder}: {what}"], None
    problems: list[str] = []
    manifest = read_manifest(folder, problems)
    tiles: dict[str, Image.Image | None] = {}
    for key in TILE_KEYS:
        tiles[key] = read_image(folder / f"{key}.png", problems, needs_alpha=False, role=_role(key))
    robot = read_image(folder / "robot.png", problems, needs_alpha=True, role="robot")
    cursor = read_image(folder / "cursor.png", problems, needs_alpha=True, role="cursor")
    start = None
    if manifest.start_marker:
        start = read_image(
            folder / f"{START_MARKER_KEY}.png",
            problems,
            needs_alpha=True,
            role="start marker (theme.json sets start_marker)",
        )
    if problems:
        return problems, None
    assert robot is not None and cursor is not None
    complete = {key: img for key, img in tiles.items() if img is not None}
    return [], Theme(folder, manifest, complete, robot, cursor, start)


def _signature(folder: Path) -> tuple[tuple[str, int, int], ...] | None:
    """Names, sizes and modification times of the theme's files (a changed file means a reload);
    None when the folder cannot be listed, which disables caching for it."""
    entries = []
    try:
        with os.scandir(folder) as scan:
            for entry in scan:
                if entry.name.endswith((".png", ".json")):
                    stat = entry.stat()
                    entries.append((entry.name, stat.st_size, stat.st_mtime_ns))
    except OSError:
        return None
    return tuple(sorted(entries))


_CACHE: dict[Path, tuple[tuple[tuple[str, int, int], ...], Theme]] = {}


def load_theme(name_or_path: str | Path, extra_dirs: Iterable[Path | str] = ()) -> Theme:
    """The theme named ``name_or_path`` (see :func:`resolve_theme`), validated.

    Raises :class:`ThemeError` listing every problem at once. Loaded themes are cached
    by folder and reused (with their packed textures) until one of their files changes.
    """
    folder = resolve_theme(name_or_path, extra_dirs).resolve()
    signature = _signature(folder)
    cached = _CACHE.get(folder)
    if cached is not None and signature is not None and cached[0] == signature:
        return cached[1]
    problems, theme = validate_folder(folder)
    if theme is None:
        _CACHE.pop(folder, None)
        raise ThemeError(folder, problems)
    if signature is not None:
        _CACHE[folder] = (signature, theme)
    return theme


def check_theme(name_or_path: str | Path) -> list[str]:
    """Every problem with a theme, without raising (an empty list means it is valid)."""
    try:
        folder = resolve_theme(name_or_path)
    except ThemeError as exc:
        return exc.problems
    return validate_folder(folder)[0]


def clear_cache() -> None:
    """Forget every loaded theme (tests; a theme editor that writes files in place)."""
    _CACHE.clear()
