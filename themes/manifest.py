"""The optional ``theme.json`` manifest: parsing with precise, collected problems."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from engine.bounds import cut, json_too_deep, shown

MANIFEST_FILE = "theme.json"
#: A manifest is one flat object; anything nested deeper than this is refused before parsing.
MAX_MANIFEST_DEPTH = 8

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
    deep = json_too_deep(text, MAX_MANIFEST_DEPTH)
    if deep is not None:
        problems.append(f"{path}:{deep[0]}:{deep[1]}: nested more than {MAX_MANIFEST_DEPTH} levels deep")
        return default
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.append(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}")
        return default
    except (ValueError, RecursionError) as exc:  # a number of more than 4,300 digits, say
        problems.append(f"{path}: invalid JSON: {str(exc).split(':')[0]}")
        return default
    if not isinstance(data, dict):
        problems.append(f'{path}: must hold a JSON object like {{"name": "..."}}, not a {type(data).__name__}')
        return default
    fields: dict[str, object] = {}
    for key, value in data.items():
        if key not in _KNOWN_FIELDS:
            known = ", ".join(_KNOWN_FIELDS)
            problems.append(f"{path}: unknown field {shown(key, 30)} (known fields: {known})")
        elif key == "start_marker":
            if isinstance(value, bool):
                fields[key] = value
            else:
                problems.append(f"{path}: field 'start_marker' must be true or false, not {cut(json.dumps(value), 30)}")
        elif isinstance(value, str):
            fields[key] = value
        else:
            problems.append(f"{path}: field {shown(key, 30)} must be a text string, not {cut(json.dumps(value), 30)}")
    if "name" in fields and not str(fields["name"]).strip():
        problems.append(f"{path}: field 'name' must not be empty")
        del fields["name"]
    return Manifest(
        name=str(fields.get("name", default.name)),
        author=str(fields.get("author", "")),
        licence=str(fields.get("licence", "")),
        start_marker=bool(fields.get("start_marker", False)),
    )
