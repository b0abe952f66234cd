"""Reading one theme image and checking it, collecting problems instead of raising."""

from __future__ import annotations

import warnings
from pathlib import Path

from PIL import Image

TILE_SIZE = 64


def read_image(path: Path, problems: list[str], *, needs_alpha: bool, role: str) -> Image.Image | None:
    """The image at ``path`` as 64x64 RGBA, or None after appending every problem found with it.

    ``needs_alpha``: the image is drawn over tiles (robot, cursor, start marker), so it must
    carry real transparency: an alpha channel (or a PNG transparency chunk) and at least
    one pixel that is not fully opaque.
    """
    if not path.is_file():
        problems.append(f"{path}: missing ({role})" if not path.exists() else f"{path}: is not a file ({role})")
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow warns about odd-but-readable chunks; load() decides
            with Image.open(path) as opened:
                fmt = opened.format
                opened.load()
                image = opened.copy()
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        reason = str(exc) or type(exc).__name__
        problems.append(f"{path}: not a readable PNG image ({reason})")
        return None
    ok = True
    if fmt != "PNG":
        problems.append(f"{path}: is a {fmt or 'unknown'} image, must be a PNG")
        ok = False
    if image.size != (TILE_SIZE, TILE_SIZE):
        width, height = image.size
        problems.append(f"{path}: is {width}x{height} pixels, must be {TILE_SIZE}x{TILE_SIZE}")
        ok = False
    has_alpha = image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info
    rgba = image.convert("RGBA")
    if needs_alpha:
        if not has_alpha:
            problems.append(f"{path}: has no alpha channel; the {role} needs a transparent background")
            ok = False
        elif rgba.getchannel("A").getextrema()[0] == 255:
            problems.append(f"{path}: has an alpha channel but every pixel is opaque; "
                            f"the {role} needs a transparent background")
            ok = False
    return rgba if ok else None
