"""Reading one theme picture: any PNG mode Pillow reads, any multiple of 64 pixels, to 64x64 RGBA.

A picture is either usable (an image) or not (one short reason); the loader decides what
takes its place. Nothing here raises for bad input.
"""

from __future__ import annotations

import errno
import io
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from engine.atomic import read_regular
from engine.bounds import MAX_FILE_BYTES

TILE_SIZE = 64
#: The largest picture accepted (16x the tile, 1024x1024): larger is refused from the header alone.
MAX_FACTOR = 16

_ALPHA_MODES = ("RGBA", "LA", "PA", "RGBa", "La")
_WIDE_GREY = ("I", "I;16", "I;16B", "I;16L", "I;16N", "F")


@dataclass(frozen=True, slots=True)
class Picture:
    """A read picture: ``image`` (64x64 RGBA) when usable, else ``problem`` (one short reason)."""

    image: Image.Image | None
    problem: str = ""


def _grey_to_8bit(opened: Image.Image) -> Image.Image:
    """16-bit (or float) grey to 8-bit L by its top byte, keeping a tRNS grey key as alpha.

    Pillow's own ``convert`` clips 16-bit values at 255, which draws a mid grey as white.
    """
    values = np.asarray(opened)
    if opened.mode == "F":
        wide = np.clip(values.astype(np.float64), 0.0, 1.0) * 65535.0
    else:
        wide = np.clip(values.astype(np.int64), 0, 65535)
    grey = Image.fromarray((wide.astype(np.int64) >> 8).astype(np.uint8), "L")
    key = opened.info.get("transparency")
    rgba = grey.convert("RGBA")
    if isinstance(key, int) and opened.mode != "F":
        alpha = np.where(values.astype(np.int64) == key, 0, 255).astype(np.uint8)
        rgba.putalpha(Image.fromarray(alpha, "L"))
    return rgba


def to_rgba(opened: Image.Image) -> Image.Image:
    """Any Pillow image as 8-bit RGBA, honouring palette and colour-key transparency."""
    if opened.mode in _WIDE_GREY:
        return _grey_to_8bit(opened)
    return opened.convert("RGBA")


def downsample(image: Image.Image, size: int = TILE_SIZE) -> Image.Image:
    """``image`` (RGBA, square, a multiple of ``size``) reduced by area averaging on premultiplied
    alpha, so a transparent edge gets no dark fringe and a uniform block keeps its exact colour."""
    if image.size == (size, size):
        return image
    factor = image.width // size
    return image.convert("RGBa").reduce(factor).convert("RGBA")


def _size_problem(size: tuple[int, int]) -> str:
    """Short enough that the longest file name (``conveyor-right.png``) with a 4-digit size fits in
    80 characters: ``(or 128x128, 192x192 ... 1024x1024)`` was clipped to ``1024x…``."""
    width, height = size
    if width == height and width % TILE_SIZE == 0 and 0 < width <= TILE_SIZE * MAX_FACTOR:
        return ""
    return f"is {width}x{height} pixels; must be 64x64, 128x128 ... 1024x1024"


def has_transparency(opened: Image.Image) -> bool:
    return opened.mode in _ALPHA_MODES or "transparency" in opened.info


def image_problem(exc: Exception) -> str:
    """Pillow's message without the in-memory file it names (``cannot identify image file <_io...>``)."""
    return re.sub(r" <_io\.\w+ object at 0x[0-9a-fA-F]+>", "", str(exc)) or type(exc).__name__


def read_regular_file(path: Path) -> bytes:
    """``engine.atomic.read_regular`` at the input limit: a FIFO picture (or a link to one) froze
    the viewer's live reload, a device such as ``/dev/zero`` never ended (``docs/limits.md``)."""
    return read_regular(path, MAX_FILE_BYTES)


def read_picture(path: Path, *, needs_alpha: bool = False, role: str = "") -> Picture:
    """The picture at ``path`` as 64x64 RGBA, or why it cannot be used.

    ``needs_alpha``: drawn over tiles (robot, cursor, start marker), so it must carry real
    transparency: some pixel not fully opaque and some pixel not fully transparent.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow warns about odd-but-readable chunks; load() decides
            with Image.open(io.BytesIO(read_regular_file(path))) as opened:
                if opened.format != "PNG":
                    return Picture(None, f"is a {opened.format or 'unknown'} image, must be a PNG")
                problem = _size_problem(opened.size)  # judged from the header: a huge image is never decoded
                if problem:
                    return Picture(None, problem)
                if needs_alpha and not has_transparency(opened):
                    return Picture(None, f"has no alpha channel; the {role} needs a transparent background")
                opened.load()
                rgba = to_rgba(opened)
    except OSError as exc:
        if exc.filename is None:  # Pillow on the content
            return Picture(None, f"not a readable PNG image ({image_problem(exc)})")
        if exc.errno in (errno.EISDIR, errno.EINVAL, errno.EFBIG):  # read_regular_file's own refusals
            return Picture(None, str(exc.strerror))
        return Picture(None, f"cannot be read ({exc.strerror or exc})")
    except (SyntaxError, ValueError, EOFError, Image.DecompressionBombError) as exc:
        return Picture(None, f"not a readable PNG image ({image_problem(exc)})")
    rgba = downsample(rgba)
    if needs_alpha:
        lowest, highest = rgba.getchannel("A").getextrema()
        if lowest == 255:
            return Picture(None, f"every pixel is opaque; the {role} needs a transparent background")
        if highest == 0:
            return Picture(None, f"every pixel is fully transparent; the {role} would be invisible")
    return Picture(rgba)
