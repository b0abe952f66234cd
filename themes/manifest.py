"""The optional ``theme.json`` manifest: parsing with precise, collected problems.

Besides the credits, it names the ``base`` theme that fills in missing pictures, the
``backdrop`` colour under transparent floors, and the 3D settings no picture can express
(``"3d"``: wall height and colour, robot body colour, light strength).
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from engine.bounds import json_too_deep
from engine.errors import line_column, long_number_at
from engine.jsonplace import json_place
from themes.images import read_regular_file

MANIFEST_FILE = "theme.json"
#: A manifest is a small object; anything nested deeper than this is refused before parsing.
MAX_MANIFEST_DEPTH = 8
DEFAULT_BASE = "default"
DEFAULT_BACKDROP = (38, 42, 50)

_TEXT_FIELDS = ("name", "author", "licence", "base")
_KNOWN_FIELDS = (*_TEXT_FIELDS, "start_marker", "backdrop", "3d")
#: ``"3d"`` settings: name -> (kind, lowest, highest) for numbers; colours are "#rrggbb".
_LOOK_NUMBERS = {"wall_height": (0.05, 1.5), "light": (0.2, 2.0)}
_LOOK_COLOURS = ("wall_colour", "robot_colour")
Colour = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Look:
    """The 3D settings of a theme; None means "derived from the pictures" (or the viewer's default)."""

    wall_colour: Colour | None = None
    robot_colour: Colour | None = None
    wall_height: float | None = None
    light: float | None = None


@dataclass(frozen=True, slots=True)
class Manifest:
    """What a theme says about itself. ``start_marker`` None: as the base theme has it."""

    name: str
    author: str = ""
    licence: str = ""
    start_marker: bool | None = None
    base: str | None = None
    backdrop: Colour = DEFAULT_BACKDROP
    look: Look = field(default_factory=Look)


def parse_colour(value: object) -> Colour | None:
    """``"#rrggbb"`` as a tuple, or None when ``value`` is anything else."""
    if not isinstance(value, str) or len(value) != 7 or not value.startswith("#"):
        return None
    try:
        number = int(value[1:], 16)
    except ValueError:
        return None
    return (number >> 16 & 255, number >> 8 & 255, number & 255)


def colour_text(colour: Colour) -> str:
    """``"#rrggbb"``: the form ``parse_colour`` reads."""
    return "#{:02x}{:02x}{:02x}".format(*colour)


def write_manifest(manifest: Manifest) -> str:
    """The text of ``theme.json`` saying ``manifest``: the writer paired with ``read_manifest``
    (what is unset -- no start marker choice, no base, the default backdrop, no 3D setting -- is
    left out, as a hand-written file would, so it reads back as the same value)."""
    data: dict[str, object] = {"name": manifest.name, "author": manifest.author, "licence": manifest.licence}
    if manifest.start_marker is not None:
        data["start_marker"] = manifest.start_marker
    if manifest.base is not None:
        data["base"] = manifest.base
    if manifest.backdrop != DEFAULT_BACKDROP:
        data["backdrop"] = colour_text(manifest.backdrop)
    look: dict[str, object] = {}
    for key in (*_LOOK_COLOURS, *_LOOK_NUMBERS):
        value = getattr(manifest.look, key)
        if value is not None:
            look[key] = colour_text(value) if key in _LOOK_COLOURS else value
    if look:
        data["3d"] = look
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _at(text: str, *path: str, key: bool = False) -> str:
    """``theme.json:LINE:COLUMN`` of the value at ``path`` (with ``key``: of its key), or the file's
    name alone if it cannot be found."""
    place = json_place(text, path, key=key) if text else None
    return f"{MANIFEST_FILE}:{place[0]}:{place[1]}" if place is not None else MANIFEST_FILE


def _hint(key: str, known: tuple[str, ...]) -> str:
    """What to write instead of an unknown ``key``: the near miss (``license`` -> ``licence``), else
    the known names. The near miss comes first: the whole list made the line longer than 80
    characters, and the clipped line lost the names at its end -- ``licence`` among them."""
    close = difflib.get_close_matches(key.lower(), known, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(known)}"


def _look(value: object, problems: list[str], text: str = "") -> Look:
    where = f'{_at(text, "3d")}: "3d"'
    if not isinstance(value, dict):
        problems.append(f'{where} must be an object like {{"wall_colour": "#806040"}}')
        return Look()
    settings: dict[str, object] = {}
    for key, item in value.items():
        if key in _LOOK_COLOURS:
            colour = parse_colour(item)
            if colour is None:
                problems.append(
                    f'{_at(text, "3d", key)}: "3d".{key} must be a colour like "#806040", not {json.dumps(item)[:20]}'
                )
            else:
                settings[key] = colour
        elif key in _LOOK_NUMBERS:
            low, high = _LOOK_NUMBERS[key]
            if isinstance(item, int | float) and not isinstance(item, bool) and low <= item <= high:
                settings[key] = float(item)
            else:
                problems.append(f'{_at(text, "3d", key)}: "3d".{key} must be a number from {low} to {high}')
        else:
            known = (*_LOOK_COLOURS, *_LOOK_NUMBERS)
            problems.append(
                f"{_at(text, '3d', key, key=True)}: {str(key)[:20]!r} is unknown{_hint(key, known)}"
            )  # its place says "3d"
    return Look(**settings)  # type: ignore[arg-type]


def read_manifest(folder: Path, problems: list[str]) -> Manifest:
    """The manifest of ``folder`` (defaults when there is none); problems are appended, never raised.

    The folder name is the default display name, so a theme without a manifest still
    shows up sensibly in pickers.
    """
    path = folder / MANIFEST_FILE
    default = Manifest(name=folder.name)
    if not os.path.lexists(path):  # not exists(): a link loop or a dangling link is no manifest, it says so
        return default
    try:
        raw = read_regular_file(path)
    except OSError as exc:
        problems.append(f"{MANIFEST_FILE}: cannot be read ({exc.strerror or exc})")
        return default
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # Notepad's byte order mark: JSON readers may ignore it (RFC 8259, 8.1), so this one does
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = line_column(raw, exc.start)
        problems.append(f"{MANIFEST_FILE}:{line}:{column}: is not UTF-8 text (byte 0x{raw[exc.start]:02x})")
        return default
    deep = json_too_deep(text, MAX_MANIFEST_DEPTH)
    if deep is not None:
        problems.append(f"{MANIFEST_FILE}:{deep[0]}:{deep[1]}: nested more than {MAX_MANIFEST_DEPTH} levels deep")
        return default
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.append(f"{MANIFEST_FILE}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}")
        return default
    except (ValueError, RecursionError):  # a number of more than 4,300 digits: Python's message named no place
        where = "".join(f":{n}" for n in long_number_at(text) or ())
        problems.append(f"{MANIFEST_FILE}{where}: invalid JSON: a number of more than 4,300 digits")
        return default
    if not isinstance(data, dict):
        problems.append(f'{_at(text)}: must hold a JSON object like {{"name": "..."}}, not a {type(data).__name__}')
        return default
    fields: dict[str, object] = {}
    for key, value in data.items():
        if key not in _KNOWN_FIELDS:
            problems.append(f"{_at(text, key, key=True)}: unknown field {key[:20]!r}{_hint(key, _KNOWN_FIELDS)}")
        elif key == "start_marker":
            if isinstance(value, bool):
                fields[key] = value
            else:
                problems.append(f"{_at(text, key)}: field 'start_marker' must be true or false")
        elif key == "backdrop":
            colour = parse_colour(value)
            if colour is None:
                problems.append(f"{_at(text, key)}: field 'backdrop' must be a colour like \"#262a32\"")
            else:
                fields[key] = colour
        elif key == "3d":
            fields["look"] = _look(value, problems, text)
        elif isinstance(value, str):
            fields[key] = value
        else:
            problems.append(f"{_at(text, key)}: field {key!r} must be a text string, not {json.dumps(value)[:20]}")
    if "name" in fields and not str(fields["name"]).strip():
        problems.append(f"{_at(text, 'name')}: field 'name' must not be empty")
        del fields["name"]
    if "base" in fields and not str(fields["base"]).strip():
        del fields["base"]
    fields.setdefault("name", default.name)
    return Manifest(**fields)  # type: ignore[arg-type]
