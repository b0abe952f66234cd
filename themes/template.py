"""A sheet to paint on: every picture of a theme in one labelled image with a guide grid, and
the way back, cutting a painted sheet into a theme folder.

The layout depends only on the scale, so a sheet whose text chunks an image editor dropped is
still read: the scale is found from the image's width. Cells hold the pictures enlarged by
whole pixels (nearest neighbour) and nothing else, so ``import`` of an untouched template gives
the theme's pictures back exactly; guides and labels live in the gutters between cells.
"""

from __future__ import annotations

import io
import json
import math
import shutil
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from engine.atomic import write_files_atomic
from themes.folder import PICTURE_KEYS
from themes.images import TILE_SIZE, image_problem, read_regular_file
from themes.keys import GAME_FOLDERS, GAME_KEYS, OPTIONAL_KEYS
from themes.manifest import DEFAULT_BASE, MANIFEST_FILE, Manifest, write_manifest
from themes.report import name_list
from themes.theme import Theme

COLUMNS = 8
#: Every cell of a template: the robot game's pictures, then other games' required ones (``tron/floor``,
#: ``tron/blocked``), which fill the last row's free cells, so templates written before them keep
#: their size and still read (an optional ``tron/trail`` is drawn as a file of its own).
TEMPLATE_KEYS: tuple[str, ...] = (
    *PICTURE_KEYS,
    *(
        f"{sub}/{key}"
        for game, sub in GAME_FOLDERS.items()
        if sub
        for key in GAME_KEYS[game]
        if key not in OPTIONAL_KEYS[game]
    ),
)
MAX_TEMPLATE_SCALE = 8
_GUTTER, _LABEL, _HEADER = 12, 16, 40
_BACK = (70, 74, 82, 255)
_GUIDE = (120, 126, 136, 255)
_MAJOR = (235, 200, 60, 255)
_TEXT = (240, 242, 245, 255)


class TemplateError(ValueError):
    """A sheet that is not a template (wrong size, not a PNG, unreadable)."""


def _cell(scale: int) -> int:
    return TILE_SIZE * scale


def layout(scale: int) -> tuple[tuple[int, int], dict[str, tuple[int, int]]]:
    """The sheet size and each picture's cell (left, top) at ``scale``."""
    cell = _cell(scale)
    step_x, step_y = cell + 2 * _GUTTER, cell + _LABEL + 2 * _GUTTER
    cells = {
        key: (_GUTTER + (index % COLUMNS) * step_x, _HEADER + _GUTTER + (index // COLUMNS) * step_y)
        for index, key in enumerate(TEMPLATE_KEYS)
    }
    rows = math.ceil(len(TEMPLATE_KEYS) / COLUMNS)
    return (COLUMNS * step_x + _GUTTER, _HEADER + rows * step_y + _GUTTER), cells


def _guides(draw: ImageDraw.ImageDraw, left: int, top: int, scale: int) -> None:
    """A frame round the cell and ticks every 8 theme pixels (every 32 in yellow), outside it."""
    cell = _cell(scale)
    draw.rectangle((left - 1, top - 1, left + cell, top + cell), outline=_GUIDE)
    for pixel in range(0, TILE_SIZE + 1, 8):
        at = pixel * scale
        colour, length = (_MAJOR, 7) if pixel % 32 == 0 else (_GUIDE, 4)
        draw.line((left + at, top - 2, left + at, top - 1 - length), fill=colour)
        draw.line((left + at, top + cell + 1, left + at, top + cell + length), fill=colour)
        draw.line((left - 2, top + at, left - 1 - length, top + at), fill=colour)
        draw.line((left + cell + 1, top + at, left + cell + length, top + at), fill=colour)


def template_sheet(theme: Theme, scale: int = 1) -> Image.Image:
    """An RGBA sheet: each picture ``theme`` holds in its cell (transparent stays transparent);
    cells of pictures it composes (whole wall tiles of an overlay theme) are left empty."""
    (width, height), cells = layout(scale)
    sheet = Image.new("RGBA", (width, height), _BACK)
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.load_default(size=11)
    draw.text((_GUTTER, 8), f"robots theme template: {theme.name}  (scale {scale})", font=font, fill=_TEXT)
    draw.text((_GUTTER, 22), "paint inside the frames; empty frames are skipped", font=font, fill=_TEXT)
    cell = _cell(scale)
    for key, (left, top) in cells.items():
        sheet.paste(Image.new("RGBA", (cell, cell), (0, 0, 0, 0)), (left, top))
        sub, _, name = key.rpartition("/")
        game = next((g for g, folder in GAME_FOLDERS.items() if folder == sub), None) if sub else None
        picture = theme.game(game).get(name) if game is not None else theme.pictures.get(key)
        if picture is not None:
            sheet.paste(picture.resize((cell, cell), Image.Resampling.NEAREST), (left, top))
        _guides(draw, left, top, scale)
        draw.text((left, top + cell + 9), key, font=font, fill=_TEXT)
    sheet.info["robots-template"] = json.dumps({"scale": scale, "pictures": list(TEMPLATE_KEYS)})
    return sheet


def _shrink(block: NDArray[np.uint8], scale: int) -> NDArray[np.uint8]:
    """A (64*s, 64*s, 4) cell to 64x64: exact when every s x s block is one colour (an untouched
    template), else an area average on premultiplied alpha (paint at the larger size)."""
    if scale == 1:
        return block
    blocks = block.reshape(TILE_SIZE, scale, TILE_SIZE, scale, 4)
    corner = blocks[:, :1, :, :1, :]
    if np.array_equal(blocks, np.broadcast_to(corner, blocks.shape)):
        return np.ascontiguousarray(corner[:, 0, :, 0, :])
    values = blocks.astype(np.float64)
    alpha = values[..., 3:4] / 255.0
    summed = (values[..., :3] * alpha).sum(axis=(1, 3))
    weight = alpha.sum(axis=(1, 3))
    rgb = np.where(weight > 0, summed / np.maximum(weight, 1e-9), 0.0)
    mean_alpha = values[..., 3].mean(axis=(1, 3))
    out = np.concatenate([rgb, mean_alpha[..., None]], axis=2)
    return np.clip(np.round(out), 0, 255).astype(np.uint8)


def read_template(path: Path, notes: list[str] | None = None) -> dict[str, Image.Image]:
    """The painted pictures of a template sheet (empty cells left out), 64x64 RGBA each; what
    the painter should know (paint over the frames) is appended to ``notes``."""
    try:
        data = read_regular_file(path)  # a FIFO would block for ever, /dev/zero never end
    except OSError as exc:
        raise TemplateError(str(exc.strerror or exc)) from None
    try:
        with Image.open(io.BytesIO(data)) as opened:
            if opened.format != "PNG":
                raise TemplateError(f"is a {opened.format or 'unknown'} image, not a PNG template")
            size = opened.size
            scale = next((s for s in range(1, MAX_TEMPLATE_SCALE + 1) if layout(s)[0] == size), None)
            if scale is None:
                raise TemplateError(f"is {size[0]}x{size[1]}: not the size of a template (write one with 'template')")
            opened.load()
            pixels = np.asarray(opened.convert("RGBA"))
    except (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError) as exc:
        # DecompressionBombError: a 40000x40000 header (a 100-byte file) was a traceback.
        if isinstance(exc, TemplateError):
            raise
        raise TemplateError(f"not a readable PNG ({image_problem(exc)[:60]})") from None
    cell = _cell(scale)
    pictures: dict[str, Image.Image] = {}
    for key, (left, top) in layout(scale)[1].items():
        block = pixels[top : top + cell, left : left + cell]
        if block[..., 3].max() == 0:
            continue
        pictures[key] = Image.fromarray(_shrink(np.ascontiguousarray(block), scale), "RGBA")
    if not pictures:
        raise TemplateError("every frame is empty: nothing to import")
    crossed = crossed_frames(pixels, scale)
    if crossed and notes is not None:
        frames = "frames" if len(crossed) > 1 else "frame"
        notes.append(f"paint over the {frames} of {name_list(crossed, 24)}: keep it inside")
    return pictures


def crossed_frames(pixels: NDArray[np.uint8], scale: int) -> list[str]:
    """The cells whose one-pixel frame was painted over. Import cuts at the frames, so paint
    shifted off the grid came in silently as a band of the template's old picture along two
    edges and the painting cut at the other two. A small tolerance lets an image editor's
    colour handling (an indexed-colour export) pass."""
    cell = _cell(scale)
    guide = np.array(_GUIDE, dtype=np.int16)
    crossed = []
    for key, (left, top) in layout(scale)[1].items():
        box = pixels[top - 1 : top + cell + 1, left - 1 : left + cell + 1].astype(np.int16)
        ring = np.concatenate([box[0], box[-1], box[1:-1, 0], box[1:-1, -1]])
        if (np.abs(ring - guide) > 24).any():
            crossed.append(key)
    return crossed


def write_pictures(pictures: dict[str, Image.Image], target: Path, name: str) -> int:
    """Write ``pictures`` and a manifest into the new folder ``target`` (made whole, then renamed)."""
    staging = fresh_staging(target)
    try:
        for key, image in pictures.items():
            path = staging / f"{key}.png"  # "tron/floor": another game's picture, in its subfolder
            path.parent.mkdir(exist_ok=True)
            image.save(path, format="PNG")
        manifest = Manifest(name=name, base=DEFAULT_BASE)
        (staging / MANIFEST_FILE).write_text(write_manifest(manifest), encoding="utf-8")
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)  # a full disk or Ctrl-C leaves no half theme
        raise
    return len(pictures)


def replace_pictures(pictures: dict[str, Image.Image], target: Path) -> int:
    """Write ``pictures`` over those of the theme folder ``target`` (``import --replace``): the
    way to paint a sheet again and again. Its manifest and every picture not on the sheet stay;
    the files are replaced all together or, on a failure, none of them (``engine.atomic``), so
    a live-reloading viewer never sees a half-written picture."""
    files: dict[Path, str | bytes] = {}
    for key, image in pictures.items():
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        files[target / f"{key}.png"] = buffer.getvalue()
    for path in files:
        path.parent.mkdir(exist_ok=True)  # a "tron/" the theme had not yet
    write_files_atomic(files)
    return len(files)


def fresh_staging(target: Path) -> Path:
    """``.NAME.tmp`` beside ``target``, new and empty: whatever an interrupted run left there is
    removed first, a symlink never followed (writing through it filled the folder it led to)."""
    staging = target.with_name(f".{target.name}.tmp")
    if staging.is_symlink() or (staging.exists() and not staging.is_dir()):
        staging.unlink()
    elif staging.exists():
        shutil.rmtree(staging)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging.mkdir()
    return staging
