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
    problems_before = len(problems)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow warns about odd-but-readable chunks; load() decides
            with Image.open(path) as opened:
                fmt, size = opened.format, opened.size
                has_alpha = opened.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in opened.info
                if fmt != "PNG":
                    problems.append(f"{path}: is a {fmt or 'unknown'} image, must be a PNG")
                if size != (TILE_SIZE, TILE_SIZE):
                    # Reported from the header alone: a wrong-sized (maybe huge) image is never decoded.
                    problems.append(f"{path}: is {size[0]}x{size[1]} pixels, must be {TILE_SIZE}x{TILE_SIZE}")
                if needs_alpha and not has_alpha:
                    problems.append(f"{path}: has no alpha channel; the {role} needs a transparent background")
                if len(problems) > problems_before:
                    return None
                opened.load()
                rgba = opened.convert("RGBA")
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        reason = str(exc) or type(exc).__name__
        problems.append(f"{path}: not a readable PNG image ({reason})")
        return None
    if needs_alpha:
        lowest, highest = rgba.getchannel("A").getextrema()
        if lowest == 255:
            problems.append(
                f"{path}: has an alpha channel but every pixel is opaque; the {role} needs a transparent background"
            )
            return None
        if highest == 0:
            problems.append(f"{path}: every pixel is fully transparent; the {role} would be invisible")
            return None
    return rgba
