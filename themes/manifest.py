"""The optional ``theme.json`` manifest: parsing with precise, collected problems."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

MANIFEST_FILE = "theme.json"

_TEXT_FIELDS = ("name", "author", "licence")
_KNOWN_FIELDS = (*_TEXT_FIELDS, "start_marker")


@dataclass(frozen=True, slots=True)
class Manifest:
    """What a theme says about itself. ``start_marker``: start tiles get an overlay showing the facing."""

    name: str
    author: str = ""
    licence: str = ""
    start_marker: bool = False


def read_manifest(folder: Path, problems: list[str]) -> Manifest:
    """The manifest of ``folder`` (defaults when there is none); problems are appended, never raised.

    The folder name is the default display name, so a theme without a manifest still
    shows up sensibly in pickers.
    """
    path = folder / MANIFEST_FILE
    default = Manifest(name=folder.name)
    if not path.exists():
        return default
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        problems.append(f"{path}: cannot be read ({exc.strerror or exc})")
        return default
    except UnicodeDecodeError as exc:
        problems.append(f"{path}: is not UTF-8 text (byte {exc.start})")
        return default
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.append(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}")
        return default
    if not isinstance(data, dict):
        problems.append(f'{path}: must hold a JSON object like {{"name": "..."}}, not a {type(data).__name__}')
        return default
    fields: dict[str, object] = {}
    for key, value in data.items():
        if key not in _KNOWN_FIELDS:
            known = ", ".join(_KNOWN_FIELDS)
            problems.append(f"{path}: unknown field {key!r} (known fields: {known})")
        elif key == "start_marker":
            if isinstance(value, bool):
                fields[key] = value
            else:
                problems.append(f"{path}: field 'start_marker' must be true or false, not {json.dumps(value)}")
        elif isinstance(value, str):
            fields[key] = value
        else:
            problems.append(f"{path}: field {key!r} must be a text string, not {json.dumps(value)}")
    if "name" in fields and not str(fields["name"]).strip():
        problems.append(f"{path}: field 'name' must not be empty")
        del fields["name"]
    return Manifest(
        name=str(fields.get("name", default.name)),
        author=str(fields.get("author", "")),
        licence=str(fields.get("licence", "")),
        start_marker=bool(fields.get("start_marker", False)),
    )
