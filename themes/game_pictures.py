"""Another game's pictures in a theme: the subfolder named after the game (``tron/``), each picture
checked like a tile, and whatever is missing or broken taken from the base theme.

A theme without the subfolder is complete (it shows that game with its base theme's pictures, or
with the renderer's plain colours when no theme has any); a subfolder that holds some pictures is
judged like the theme's own: a broken picture, a stray file, or (without a declared base) a missing
picture is a fault for ``robots-theme check``, said in one line naming ``tron/FILE``.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from themes.images import read_picture
from themes.keys import GAME_FOLDERS, GAME_KEYS, OPTIONAL_KEYS
from themes.report import name_list


@dataclass
class GamePictures:
    """One game's pictures of a theme: ``pictures`` by key, where each came from (``own`` or the
    base theme's folder name), and the lines to report (``faults``: a theme maker must fix them)."""

    pictures: dict[str, Image.Image] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)


def _scan(folder: Path, game: str, keys: tuple[str, ...], notes: list[str]) -> dict[str, Path]:
    """The game's picture files in ``folder`` by key (any case), and a note for every other image."""
    found: dict[str, Path] = {}
    with os.scandir(folder) as entries:
        names = sorted(entry.name for entry in entries)
    for name in names:
        stem, dot, suffix = name.rpartition(".")
        if name.startswith(".") or not dot:
            continue
        key = stem.lower()
        if key in keys and suffix.lower() == "png":
            if name == f"{key}.png" or key not in found:
                found[key] = folder / name
            continue
        if suffix.lower() in ("png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff"):
            close = difflib.get_close_matches(key, keys, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]}.png?" if close else f"{game} pictures are {', '.join(keys)}"
            notes.append(f"{GAME_FOLDERS[game]}/{name}: not a {game} picture; {hint}")
    return found


def read_game_pictures(
    theme_folder: Path,
    game: str,
    base: Mapping[str, Image.Image] | None,
    base_name: str,
    *,
    previous: Mapping[str, Image.Image] | None = None,
    declared_base: bool = False,
) -> GamePictures:
    """``game``'s pictures of the theme in ``theme_folder``; ``base``: the base theme's (None: no
    base), ``previous``: the pictures shown until now (live reload keeps a good one that broke)."""
    keys, sub = GAME_KEYS[game], GAME_FOLDERS[game]
    folder = theme_folder / sub
    result = GamePictures()
    inherited = dict(base or {})
    if not folder.exists():
        result.pictures = inherited
        result.sources = {key: base_name for key in inherited}
        return result
    notes: list[str] = []
    readable = True
    try:
        files = _scan(folder, game, keys, notes)
    except OSError as exc:
        what = "is not a folder" if not folder.is_dir() else f"cannot be read ({exc.strerror or exc})"
        files, readable = {}, False
        notes.append(f"{sub}: {what}; the {game} pictures come from {base_name}")
    missing: list[str] = []
    for key in keys:
        path = files.get(key)
        if path is not None:
            read = read_picture(path, role=f"{game} {key}")
            if read.image is not None:
                result.pictures[key], result.sources[key] = read.image, "own"
                continue
            if previous is not None and key in previous:
                notes.append(f"{sub}/{path.name}: keeping the last good picture; {read.problem}")
                result.pictures[key], result.sources[key] = previous[key], "own"
                continue
            notes.append(f"{sub}/{path.name}: {read.problem}")
        elif readable and key not in OPTIONAL_KEYS[game]:
            missing.append(key)
        if key in inherited:
            result.pictures[key], result.sources[key] = inherited[key], base_name
    result.faults += notes
    result.warnings += notes
    if missing:
        count = f"{len(missing)} {game} picture{'s' if len(missing) != 1 else ''}"
        line = f"{count} not in {sub}/, taken from {base_name}: {name_list(missing, 36)}"
        result.warnings.append(line)
        if not declared_base:
            result.faults.append(line)
    return result
