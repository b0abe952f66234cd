"""Finding themes and loading them: discovery, validation of every file, and a small cache."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from engine.resources import resource_path
from themes.compose import WALL_OVERLAYS
from themes.errors import ThemeError
from themes.folder import FolderScan, scan_folder
from themes.game_pictures import read_game_pictures
from themes.images import TILE_SIZE, read_picture
from themes.keys import GAME_FOLDERS, OVERLAY_KEYS, SPRITE_KEYS, START_MARKER_KEY, TILE_KEYS, board_chars_for
from themes.manifest import DEFAULT_BASE, MANIFEST_FILE, Manifest, read_manifest
from themes.report import clip, name_list
from themes.stamp import Stamp, folder_stamp
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
    ``name`` is the manifest's display name; ``origin`` is ``builtin``, ``user`` or ``extra``.
    A user or extra folder named like a shipped theme is ``shadowed``: the name means the shipped
    one, so its ``key`` is its path (which ``load_theme`` accepts too)."""

    key: str
    name: str
    path: Path
    origin: str
    shadowed: bool = False


def _is_theme_folder(folder: Path) -> bool:
    """A folder holding a manifest or any PNG, and not a Python package (e.g. the generator)."""
    if not folder.is_dir() or folder.name.startswith((".", "_")) or (folder / "__init__.py").exists():
        return False
    try:
        return (folder / MANIFEST_FILE).is_file() or any(p.suffix.lower() == ".png" for p in folder.iterdir())
    except OSError:
        return False


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
    shipped = set(shipped_theme_names())
    for base, origin in _search_dirs(extra_dirs):
        try:
            folders = sorted(base.iterdir()) if base.is_dir() else []
        except OSError:  # an unreadable folder hides its themes, it does not break the listing
            continue
        for folder in folders:
            if _is_theme_folder(folder):
                name = read_manifest(folder, []).name
                path = folder.resolve()
                if origin != "builtin" and folder.name in shipped:
                    found.append(ThemeInfo(str(path), name, path, origin, shadowed=True))
                else:
                    found.append(ThemeInfo(folder.name, name, path, origin))
    return found


def shipped_theme_names() -> list[str]:
    """The folder names of the shipped themes (names no user theme may take)."""
    return sorted(folder.name for folder in BUILTIN_DIR.iterdir() if _is_theme_folder(folder))


def resolve_theme(name_or_path: str | Path, extra_dirs: Iterable[Path | str] = ()) -> Path:
    """The folder meant by a theme name (folder name of a discovered theme) or a path.

    A :class:`Path`, or a string with a path separator, is taken as a path; a bare name
    is looked up in the shipped themes first, then the per-user folder, then ``extra_dirs``.
    """
    extra_dirs = tuple(extra_dirs)  # used twice below; may be a one-shot iterator
    text = str(name_or_path)
    if "\0" in text:  # no file name holds one (the system calls would raise ValueError)
        raise ThemeError(Path(text.replace("\0", "\\0")), ["a theme name or folder cannot hold a NUL character"])
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
    if key in SPRITE_KEYS:
        return key
    if key == START_MARKER_KEY:
        return "start marker"
    chars = board_chars_for(key)
    return f"{key} tile" if chars else key


_SHIPPED_DEFAULT = BUILTIN_DIR / DEFAULT_BASE


def _placeholder(key: str) -> Image.Image:
    """What a damaged ``default`` theme draws for a picture it lacks: flat grey, or a grey disc."""
    if key in TILE_KEYS:
        return Image.new("RGBA", (TILE_SIZE, TILE_SIZE), (128, 128, 128, 255))
    image = Image.new("RGBA", (TILE_SIZE, TILE_SIZE), (0, 0, 0, 0))
    if key not in OVERLAY_KEYS:
        ImageDraw.Draw(image).ellipse((12, 12, 51, 51), fill=(200, 200, 200, 255))
    return image


def _base_theme(folder: Path, manifest: Manifest, seen: tuple[Path, ...], notes: list[str]) -> Theme | None:
    """The theme that fills in what ``folder`` lacks: ``theme.json``'s base, else ``default``."""
    if manifest.base is None and folder == _SHIPPED_DEFAULT.resolve():
        return None
    name = manifest.base or DEFAULT_BASE
    try:
        found = resolve_theme(name)
        if not found.is_absolute() and (os.sep in name or (os.altsep and os.altsep in name)):
            found = folder / found  # a path in theme.json is read from the theme's own folder
        base = found.resolve()
        if not base.is_dir():  # a path to nothing (a name not found is a ThemeError already)
            raise ThemeError(base, ["not a folder"])
    except (ThemeError, OSError, RuntimeError):  # not found, or a path no folder can be (a link loop)
        notes.append(f"{MANIFEST_FILE}: base theme {name[:30]!r} not found; using default")
        base = _SHIPPED_DEFAULT.resolve()
    if base == folder or base in seen:
        notes.append(f"{MANIFEST_FILE}: base theme {name[:30]!r} leads back to this theme; using default")
        base = _SHIPPED_DEFAULT.resolve()
        if base == folder or base in seen:
            return None
    try:
        return _load(base, None, (*seen, folder))
    except ThemeError:
        return None


def _wanted_keys(scan: FolderScan, manifest: Manifest, base: Theme | None) -> list[str]:
    """The pictures this theme needs, in layer order (a wall given whole needs no overlays)."""
    keys = ["floor"]
    for key in TILE_KEYS[1:]:
        if key in scan.files or key not in WALL_OVERLAYS:
            keys.append(key)
    keys += [key for key in OVERLAY_KEYS]
    keys += list(SPRITE_KEYS)
    marker = manifest.start_marker
    if marker is None:
        marker = START_MARKER_KEY in scan.files or (base is not None and START_MARKER_KEY in base.pictures)
    if marker:
        keys.append(START_MARKER_KEY)
    return keys


def read_theme(
    folder: Path, previous: Theme | None = None, seen: tuple[Path, ...] = (), stamp: Stamp | None = None
) -> Theme:
    """The theme in ``folder``, completed from its base theme; ThemeError only when the folder
    cannot be read. ``previous`` (live reload): a picture that became broken keeps its last good
    version from there instead of the base theme's."""
    stamp = stamp or folder_stamp(folder)
    try:
        scan = scan_folder(folder)
    except OSError as exc:
        what = "does not exist" if not folder.exists() else ("is not a folder" if not folder.is_dir() else "")
        raise ThemeError(
            folder, [f"{folder}: {what or 'cannot be read (' + (exc.strerror or str(exc)) + ')'}"]
        ) from None
    notes: list[str] = []
    manifest = read_manifest(folder, notes)
    base = _base_theme(folder, manifest, seen, notes)
    base_name = base.path.name if base is not None else "placeholders"
    pictures: dict[str, Image.Image] = {}
    sources: dict[str, str] = {}
    missing: list[str] = []
    walls_whole = _walls_complete(scan)
    for key in _wanted_keys(scan, manifest, base):
        path = scan.files.get(key)
        if path is not None:
            read = read_picture(path, needs_alpha=key in (*SPRITE_KEYS, START_MARKER_KEY), role=_role(key))
            if read.image is not None:
                pictures[key], sources[key] = read.image, "own"
                continue
            if previous is not None and previous.sources.get(key) == "own" and key in previous.pictures:
                notes.append(f"{path.name}: keeping the last good picture; {read.problem}")
                pictures[key], sources[key] = previous.pictures[key], "own"
                continue
            notes.append(f"{path.name}: {read.problem}")
        elif key in OVERLAY_KEYS and walls_whole:
            continue  # every wall is drawn whole: overlays are not needed
        else:
            missing.append(key)
        if base is not None and key in base.pictures:
            pictures[key], sources[key] = base.pictures[key], base_name
        elif base is None or key not in (*WALL_OVERLAYS, *OVERLAY_KEYS):
            pictures[key], sources[key] = _placeholder(key), base_name
        # else: a wall composed from overlays, or overlays the base lacks (walls then take its whole tiles)
    for key in WALL_OVERLAYS:  # a wall tile with neither its picture nor overlays: the base's whole tile
        if key not in pictures and not all(o in pictures for o in WALL_OVERLAYS[key]):
            pictures[key] = base.tile(key) if base is not None else _placeholder(key)
            sources[key] = base_name
    warnings: list[str] = []
    if scan.case_notes:
        shown = name_list(scan.case_notes, 40)
        warnings.append(clip(f"names not in lower case, read anyway: {shown}; rename them"))
    faults = [clip(line) for line in (*notes, *scan.unknown_notes)]
    warnings += faults
    if missing:
        count = f"{len(missing)} picture{'s' if len(missing) != 1 else ''}"
        line = clip(f"{count} not here, taken from {base_name}: " + name_list(missing, 36))
        warnings.append(line)
        if manifest.base is None:
            faults.append(line)
    faults = ([warnings[0]] if scan.case_notes else []) + faults
    games: dict[str, dict[str, Image.Image]] = {}
    for game, sub in GAME_FOLDERS.items():
        if not sub:
            continue  # the robot game's pictures: the folder itself, read above
        kept = None
        if previous is not None:
            kept = {k: v for k, v in previous.game(game).items() if previous.sources.get(f"{sub}/{k}") == "own"}
        got = read_game_pictures(
            folder,
            game,
            base.game(game) if base is not None else None,
            base_name,
            previous=kept,
            declared_base=manifest.base is not None,
        )
        games[game] = got.pictures
        sources.update({f"{sub}/{key}": where for key, where in got.sources.items()})
        warnings += [clip(line) for line in got.warnings]
        faults += [clip(line) for line in got.faults]
    return Theme(
        folder, manifest, pictures, warnings=warnings, faults=faults, sources=sources, stamp=stamp, games=games
    )


def _walls_complete(scan: FolderScan) -> bool:
    """Whether the folder draws all 15 wall tiles whole (then it needs no overlays)."""
    return all(key in scan.files for key in WALL_OVERLAYS)


_CACHE: dict[Path, tuple[Stamp, Theme | None, Theme]] = {}


def _load(folder: Path, previous: Theme | None, seen: tuple[Path, ...] = ()) -> Theme:
    """``read_theme`` behind a cache keyed by the folder's file signature and its base theme."""
    signature = folder_stamp(folder)
    cached = _CACHE.get(folder)
    if cached is not None and signature is not None and cached[0] == signature:
        base_now = _base_theme(folder, cached[2].manifest, seen, [])
        if base_now is cached[1]:
            return cached[2]
    theme = read_theme(folder, previous, seen, signature)
    if signature is not None and previous is None:  # pictures kept from ``previous`` are not the folder's
        base = _base_theme(folder, theme.manifest, seen, [])
        _CACHE[folder] = (signature, base, theme)
    return theme


def load_theme(name_or_path: str | Path, extra_dirs: Iterable[Path | str] = (), previous: Theme | None = None) -> Theme:
    """The theme named ``name_or_path`` (see :func:`resolve_theme`), completed from its base.

    Missing or broken pictures come from the base theme (``theme.json``'s ``base``, else
    ``default``) and are listed in ``theme.warnings``; :class:`ThemeError` is raised only when
    the folder cannot be found or read. Loaded themes are cached by folder and reused (with
    their packed textures) until one of their files changes. ``previous``: the theme shown
    until now (live reload), whose pictures stand in for ones that became broken.
    """
    folder = resolve_theme(name_or_path, extra_dirs).resolve()
    return _load(folder, previous)


def check_theme(name_or_path: str | Path) -> list[str]:
    """What a theme maker must fix (an empty list means the theme is complete and clean)."""
    try:
        return list(load_theme(name_or_path).faults)
    except ThemeError as exc:
        return exc.problems


def clear_cache() -> None:
    """Forget every loaded theme (tests; a theme editor that writes files in place)."""
    _CACHE.clear()
