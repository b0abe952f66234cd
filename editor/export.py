"""Export the board alone (no palette, no panels) as PNG, SVG or PDF, drawn with a theme.

* PNG: one picture, ``tile_px`` pixels per tile (Pillow).
* SVG: hand-written; each distinct tile picture is embedded once (a PNG in ``<defs>``)
  and placed with ``<use>``, grid lines and coordinates are vector strokes and text.
  No SVG library is needed for that and none would make it smaller or clearer.
* PDF: fpdf2, a maintained pure-Python PDF writer: vector grid and text, each tile
  picture embedded once however often it is used (Pillow's own PDF writer can only
  place one raster image per page, which makes coordinates blurry and files large).
  Pages are A4 or Letter; a board is scaled to fit one page unless its tiles would get
  smaller than ``MIN_TILE_MM`` (8 mm), in which case it is split over as many pages as
  needed at that size, each page labelled with its columns and rows.

Tile pictures come from ``tile_picture``: the one place that decides how a tile looks
in an export (the theme's picture for the character), so a change of how themes draw
tiles reaches every format at once. No display and no GL are needed.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from editor.art import FALLBACK_THEME, TILE_PX, theme_keys
from editor.games import ROBOTS, EditorGame, game_named, game_of
from editor.games.base import Grid
from engine.atomic import write_bytes_atomic, write_text_atomic

FORMATS = (".png", ".svg", ".pdf")
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MIN_TILE_MM = 8.0
PAGE_MARGIN_MM = 12.0
GRID_RGB = (0, 0, 0)
MAX_TILE_PX = 512
#: The most pixels a PNG export may have (8192x8192). The picture is drawn whole in memory: a
#: 512x512 board at 48 px a tile is 24576x24576 pixels, which took 4.7 GB and 30 s, and Pillow
#: itself refuses to open pictures of more than about 179 million pixels.
MAX_PNG_PIXELS = 8192 * 8192

#: Told how far an export is (0.0 .. 1.0), from the thread that exports (the editor's status bar).
Progress = Callable[[float], None]


def _no_progress(done: float) -> None:
    pass


@dataclass(frozen=True)
class ExportOptions:
    theme: str | None = None
    tile_px: int = 48
    grid: bool = False
    coords: bool = False
    paper: str = "a4"
    min_tile_mm: float = MIN_TILE_MM


def parse_options(text: str, theme: str | None = None) -> ExportOptions:
    """The editor's export prompt: ``--tile N --grid --coords --paper a4|letter`` (ValueError if not)."""
    words = text.split()
    tile, grid, coords, paper = 48, False, False, "a4"
    while words:
        word = words.pop(0)
        if word == "--grid":
            grid = True
        elif word == "--coords":
            coords = True
        elif word in ("--tile", "--paper") and not words:
            raise ValueError(f"{word} needs a value")
        elif word == "--tile":
            value = words.pop(0)
            if not value.isdigit() or not 4 <= int(value) <= MAX_TILE_PX:
                raise ValueError(f"--tile must be 4..{MAX_TILE_PX} pixels, not {value[:20]!r}")
            tile = int(value)
        elif word == "--paper":
            paper = words.pop(0).lower()
            if paper not in PAPERS:
                raise ValueError(f"--paper must be one of {', '.join(PAPERS)}, not {paper[:20]!r}")
        else:
            raise ValueError(f"unknown option {word[:20]!r}; use --tile N --grid --coords --paper a4|letter")
    return ExportOptions(theme=theme, tile_px=tile, grid=grid, coords=coords, paper=paper)


def tile_pictures(theme: str | None, game: EditorGame | None = None) -> dict[str, Image.Image]:
    """Every cell picture of ``game`` (robots when None) in ``theme`` (the first installed theme when None)."""
    game = game if game is not None else game_named(ROBOTS)
    name = theme if theme is not None else theme_keys()[0]
    try:
        return game.cell_images(name)
    except Exception:
        if theme is not None:
            raise
        return game.cell_images(FALLBACK_THEME)


def tile_picture(pictures: dict[str, Image.Image], char: str, size: int) -> Image.Image:
    """How one tile looks in an export, ``size`` pixels square (the one function to change)."""
    picture = pictures[char].convert("RGBA")
    return picture if picture.size == (size, size) else picture.resize((size, size), Image.Resampling.LANCZOS)


def _margin(options: ExportOptions, size: int) -> int:
    return max(14, size // 2) if options.coords else 0


# -- PNG ------------------------------------------------------------------------------------
def png_size(board: Grid, tile_px: int, coords: bool) -> tuple[int, int]:
    """The PNG's width and height in pixels for ``tile_px`` pixels per tile."""
    margin = max(14, tile_px // 2) if coords else 0
    return margin + board.width * tile_px, margin + board.height * tile_px


def png_tile_limit(board: Grid, coords: bool = False) -> int:
    """The largest tile (pixels) whose PNG of ``board`` has at most ``MAX_PNG_PIXELS`` (at least 4:
    at 4 px a tile no board a file may hold, at most 262,144 tiles, comes near the limit)."""
    tile = MAX_TILE_PX
    while tile > 4 and math.prod(png_size(board, tile, coords)) > MAX_PNG_PIXELS:
        tile -= 1
    return tile


def check_png_size(board: Grid, options: ExportOptions) -> None:
    """ValueError, naming the tile that fits, when the PNG would be too big to draw."""
    width, height = png_size(board, options.tile_px, options.coords)
    if width * height > MAX_PNG_PIXELS:
        fit = png_tile_limit(board, options.coords)
        raise ValueError(
            f"at {options.tile_px} px a tile the picture is {width}x{height} pixels, more than 8192x8192 holds;"
            f" use --tile {fit} or less, or .svg or .pdf"
        )


def board_png(board: Grid, options: ExportOptions, progress: Progress = _no_progress) -> Image.Image:
    check_png_size(board, options)
    size = options.tile_px
    pictures = tile_pictures(options.theme, game_of(board))
    margin = _margin(options, size)
    image = Image.new("RGBA", (margin + board.width * size, margin + board.height * size), (255, 255, 255, 255))
    cache: dict[str, Image.Image] = {}
    for y, row in enumerate(board.rows):
        for x, tile in enumerate(row):
            if tile.char not in cache:
                cache[tile.char] = tile_picture(pictures, tile.char, size)
            image.alpha_composite(cache[tile.char], (margin + x * size, margin + y * size))
        progress(0.8 * (y + 1) / board.height)  # the rest: grid, coordinates, encoding
    draw = ImageDraw.Draw(image)
    if options.grid:
        width = max(1, size // 32)
        for x in range(board.width + 1):
            draw.line([(margin + x * size, margin), (margin + x * size, image.height)], fill=GRID_RGB, width=width)
        for y in range(board.height + 1):
            draw.line([(margin, margin + y * size), (image.width, margin + y * size)], fill=GRID_RGB, width=width)
    if options.coords:
        font = ImageFont.load_default(size=max(8, int(margin * 0.6)))
        for x in range(board.width):
            draw.text((margin + x * size + size / 2, margin / 2), str(x), fill=GRID_RGB, font=font, anchor="mm")
        for y in range(board.height):
            draw.text((margin / 2, margin + y * size + size / 2), str(y), fill=GRID_RGB, font=font, anchor="mm")
    return image.convert("RGB")


# -- SVG ------------------------------------------------------------------------------------
def _png_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _svg_id(char: str) -> str:
    """An XML id for a cell picture: ``t`` and the code points (``t62``; ``t49-69`` for Tron's ``1E``)."""
    return "t" + "-".join(str(ord(c)) for c in char)


def board_svg(board: Grid, options: ExportOptions, progress: Progress = _no_progress) -> str:
    size = options.tile_px
    pictures = tile_pictures(options.theme, game_of(board))
    margin = _margin(options, size)
    width, height = margin + board.width * size, margin + board.height * size
    used = sorted({tile.char for row in board.rows for tile in row})
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        "<defs>",
    ]
    for char in used:
        data = base64.b64encode(_png_bytes(tile_picture(pictures, char, min(size * 2, MAX_TILE_PX)))).decode()
        lines.append(
            f'<image id="{_svg_id(char)}" width="{size}" height="{size}" xlink:href="data:image/png;base64,{data}"/>'
        )
    lines.append("</defs>")
    lines.append(f'<g transform="translate({margin},{margin})">')
    for y, row in enumerate(board.rows):
        for x, tile in enumerate(row):
            lines.append(f'<use xlink:href="#{_svg_id(tile.char)}" x="{x * size}" y="{y * size}"/>')
        progress(0.9 * (y + 1) / board.height)
    if options.grid:
        path = [f"M{x * size} 0V{board.height * size}" for x in range(board.width + 1)]
        path += [f"M0 {y * size}H{board.width * size}" for y in range(board.height + 1)]
        lines.append(f'<path d="{" ".join(path)}" stroke="#000" stroke-width="{max(1, size // 32)}" fill="none"/>')
    lines.append("</g>")
    if options.coords:
        font = max(8, int(margin * 0.6))
        style = f'font-family="sans-serif" font-size="{font}" text-anchor="middle" dominant-baseline="central"'
        for x in range(board.width):
            lines.append(f'<text x="{margin + x * size + size / 2}" y="{margin / 2}" {style}>{x}</text>')
        for y in range(board.height):
            lines.append(f'<text x="{margin / 2}" y="{margin + y * size + size / 2}" {style}>{y}</text>')
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


# -- PDF ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PagePlan:
    """How a board goes onto paper: the page size, the tile size, and the tile ranges per page."""

    orientation: str  # "P" or "L"
    page_mm: tuple[float, float]
    tile_mm: float
    pages: tuple[tuple[range, range], ...]

    @property
    def split(self) -> bool:
        return len(self.pages) > 1


def plan_pages(board: Grid, options: ExportOptions) -> PagePlan:
    """Fit the board on one page (either orientation) if tiles stay >= ``min_tile_mm``, else split."""
    if options.paper not in PAPERS:
        raise ValueError(f"unknown paper {options.paper!r}; use one of {', '.join(PAPERS)}")
    short, long = PAPERS[options.paper]
    label_mm = 6.0  # room for the coordinates and the page caption
    best: PagePlan | None = None
    for orientation, (pw, ph) in (("P", (short, long)), ("L", (long, short))):
        aw, ah = pw - 2 * PAGE_MARGIN_MM - label_mm, ph - 2 * PAGE_MARGIN_MM - 2 * label_mm
        tile = min(aw / board.width, ah / board.height, 20.0)
        if tile >= options.min_tile_mm and (best is None or tile > best.tile_mm):
            best = PagePlan(orientation, (pw, ph), tile, ((range(board.width), range(board.height)),))
    if best is not None:
        return best
    plans = []
    for orientation, (pw, ph) in (("P", (short, long)), ("L", (long, short))):
        aw, ah = pw - 2 * PAGE_MARGIN_MM - label_mm, ph - 2 * PAGE_MARGIN_MM - 2 * label_mm
        per_x, per_y = max(1, int(aw // options.min_tile_mm)), max(1, int(ah // options.min_tile_mm))
        pages = tuple(
            (range(x0, min(board.width, x0 + per_x)), range(y0, min(board.height, y0 + per_y)))
            for y0 in range(0, board.height, per_y)
            for x0 in range(0, board.width, per_x)
        )
        plans.append(PagePlan(orientation, (pw, ph), options.min_tile_mm, pages))
    return min(plans, key=lambda plan: len(plan.pages))


def board_pdf(board: Grid, options: ExportOptions, title: str = "board", progress: Progress = _no_progress) -> bytes:
    from fpdf import FPDF

    plan = plan_pages(board, options)
    pictures = tile_pictures(options.theme, game_of(board))
    dpi_px = min(MAX_TILE_PX, max(TILE_PX, math.ceil(plan.tile_mm / 25.4 * 300)))
    images = {char: tile_picture(pictures, char, dpi_px).convert("RGB") for char in pictures}
    pdf = FPDF(
        orientation=plan.orientation, unit="mm", format=options.paper.upper() if options.paper == "a4" else "letter"
    )
    pdf.set_auto_page_break(False)
    pdf.set_title(title)
    pdf.set_creator("robots-edit")
    coords = options.coords or plan.split
    for number, (xs, ys) in enumerate(plan.pages, start=1):
        pdf.add_page()
        t = plan.tile_mm
        left, top = PAGE_MARGIN_MM + 6.0, PAGE_MARGIN_MM + 6.0
        pdf.set_font("helvetica", size=9)
        caption = f"{title}  {board.width}x{board.height}"
        if plan.split:
            caption += (
                f"  page {number}/{len(plan.pages)}: columns {xs.start}-{xs.stop - 1}, rows {ys.start}-{ys.stop - 1}"
            )
        pdf.text(PAGE_MARGIN_MM, PAGE_MARGIN_MM, caption)
        for j, y in enumerate(ys):
            for i, x in enumerate(xs):
                pdf.image(images[board.tile(x, y).char], x=left + i * t, y=top + j * t, w=t, h=t)
            progress(0.8 * (number - 1 + (j + 1) / len(ys)) / len(plan.pages))
        if options.grid:
            pdf.set_draw_color(*GRID_RGB)
            pdf.set_line_width(0.15)
            for i in range(len(xs) + 1):
                pdf.line(left + i * t, top, left + i * t, top + len(ys) * t)
            for j in range(len(ys) + 1):
                pdf.line(left, top + j * t, left + len(xs) * t, top + j * t)
        if coords:
            pdf.set_font("helvetica", size=max(5.0, min(9.0, t * 1.4)))
            for i, x in enumerate(xs):
                label = str(x)
                pdf.text(left + i * t + t / 2 - pdf.get_string_width(label) / 2, top - 1.5, label)
            for j, y in enumerate(ys):
                label = str(y)
                pdf.text(left - 1.5 - pdf.get_string_width(label), top + j * t + t / 2 + 1.2, label)
    return bytes(pdf.output())


# -- files ----------------------------------------------------------------------------------
def check_target(path: Path) -> None:
    """ValueError for a suffix that names no format, FileNotFoundError for a missing folder."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"export as .png, .svg or .pdf (not {suffix or 'no suffix'!r})")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FileNotFoundError(2, f"the folder {folder} does not exist", str(path))


def export_board(
    board: Grid, path: Path, options: ExportOptions, title: str | None = None, progress: Progress = _no_progress
) -> Path:
    """Write the board to ``path`` in the format its suffix names (atomically: the whole file is
    made in memory, then written beside it and renamed over it, so ``path`` is either the old file
    or the complete new one); returns the path. ``progress`` is told how far it is."""
    suffix = path.suffix.lower()
    check_target(path)
    if not 4 <= options.tile_px <= MAX_TILE_PX:
        raise ValueError(f"--tile must be 4..{MAX_TILE_PX} pixels")
    if suffix == ".png":
        out = io.BytesIO()
        board_png(board, options, progress).save(out, "PNG", optimize=True)
        write_bytes_atomic(path, out.getvalue())
    elif suffix == ".svg":
        write_text_atomic(path, board_svg(board, options, progress))
    else:
        write_bytes_atomic(path, board_pdf(board, options, title or path.stem, progress))
    progress(1.0)
    return path
