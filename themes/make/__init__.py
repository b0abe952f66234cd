"""The generators of the shipped themes: ``python3 -m themes.make [--out DIR] [default] [pen]``.

Each theme module exposes ``draw_theme() -> dict[name, 64x64 RGBA image]`` and a
``MANIFEST`` (``themes.manifest.Manifest``, written by ``write_manifest``). Drawing is deterministic (fixed seeds, no clock), so regenerating
gives the same pixels as the committed PNGs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PIL import Image

from themes.make import default, pen
from themes.manifest import Manifest, write_manifest

GENERATORS: dict[str, tuple[Callable[[], dict[str, Image.Image]], Manifest]] = {
    "default": (default.draw_theme, default.MANIFEST),
    "pen": (pen.draw_theme, pen.MANIFEST),
}


def write_theme(name: str, folder: Path) -> list[Path]:
    """Draw theme ``name`` into ``folder`` (created if needed); returns the files written."""
    draw, manifest = GENERATORS[name]
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, image in draw().items():
        path = folder / f"{stem}.png"  # "tron/floor": another game's pictures, in its subfolder
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, format="PNG", optimize=True)
        written.append(path)
    manifest_path = folder / "theme.json"
    manifest_path.write_text(write_manifest(manifest), encoding="utf-8")
    written.append(manifest_path)
    return written
