"""Draws the editor with pyglet (top-down): board, overlays, palette, validation panel, status bar, help.

Drawing only reads the controller's state. Each part is built into a pyglet batch
that is rebuilt only when what it shows changes (a cache key per part), so an idle
frame costs a few batch draws. Screen rectangles come from the layout and the shared
``TopDownMapping`` in top-left coordinates; ``_flip`` turns them into pyglet's
bottom-left ones in one place.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Hashable
from enum import Enum
from typing import TYPE_CHECKING, Any

import pyglet
from PIL import Image

from editor.art import TILE_PX, theme_tile_images, theme_warning, tile_images
from editor.boardlayer import MAX_SPRITES, BoardTexture
from editor.controller import EditorController
from editor.events import BoardChanged, DocumentEvent
from editor.games import EditorGame
from editor.games.base import Grid, Problem
from editor.helplayout import help_rows, layout_help
from editor.layout import PANEL_PAD, TITLE_HEIGHT, Rect
from editor.tools import WallTool
from engine.model import Direction
from pathui.elide import elide_middle, elide_start, fitted
from viewer3d.coords import TopDownMapping

if TYPE_CHECKING:
    from themes import ThemeWatcher

THEME_POLL_S = 0.25  # seconds between looks at the theme's folder (live reload)

BACKGROUND = (28, 30, 36, 255)
PANEL = (40, 43, 52, 255)
PANEL_LINE = (70, 74, 88, 255)
TEXT = (225, 228, 235, 255)
DIM_TEXT = (150, 155, 170, 255)
ACCENT = (90, 170, 255, 255)
#: How opaque a cell the game implies but the file does not hold is drawn (a Tron default start).
IMPLIED_OPACITY = 110
PROBLEM = (255, 80, 70, 255)
GOOD = (110, 210, 120, 255)
GRID = (0, 0, 0, 90)
FONT_SIZE = 10


def to_texture(image: Image.Image) -> pyglet.image.Texture:
    rgba = image.convert("RGBA").resize((TILE_PX, TILE_PX)).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    texture = pyglet.image.ImageData(TILE_PX, TILE_PX, "RGBA", rgba.tobytes(), pitch=TILE_PX * 4).get_texture()
    return texture


@functools.lru_cache(maxsize=4096)
def _text_width(text: str, size: int, bold: bool = False) -> float:
    """The drawn width of ``text`` on one line at ``size`` points (what the status bar and F1 place by):
    the sum of its glyphs' advances, which is what a label lays out (pyglet does not kern; equal to a
    label's ``content_width`` for every text and size tried) at ~1/100 of a throwaway label's cost
    (~1 ms each: F1 measures every word of a wrapped help line). Remembered, too."""
    font = pyglet.font.load(None, size, weight="bold" if bold else "normal")
    glyphs, _ = font.get_glyphs(text)
    return float(sum(glyph.advance for glyph in glyphs))


@functools.lru_cache(maxsize=512)
def _fit_lines(text: str, size: int, width: float, height: float) -> str:
    """``text``, its middle left out (``…``) if wrapped to ``width`` it would be taller than
    ``height``: the start says what happened, the end names the file, the bar holds two lines."""

    def fits(candidate: str) -> bool:
        label = pyglet.text.Label(candidate, font_size=size, width=int(width), multiline=True)
        tall = float(label.content_height)
        label.delete()
        return tall <= height

    return fitted(text, fits, elide_middle)


@functools.lru_cache(maxsize=4096)
def _fit_width(
    text: str, size: int, width: float, elide: Callable[[str, int], str] = elide_middle, bold: bool = False
) -> str:
    """``text`` on one line of ``width`` pixels, cut with ``…`` (measured) where it is wider."""
    return fitted(text, lambda candidate: _text_width(candidate, size, bold) <= width, elide)


def union_box(a: tuple[int, int, int, int] | None, b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The smallest box (x0, y0, x1, y1) holding both."""
    if a is None:
        return b
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


LabelLook = tuple[str, int, tuple[int, int, int, int], int | None, bool]  # text, size, color, wrap width, bold


class _Part:
    """One part of the window: a batch of shapes and sprites, rebuilt whenever what the part shows
    changes, and a batch of labels drawn over it that outlives the rebuilds. A rebuild takes back the
    labels of the last build that look the same (text, size, colour, wrap width, weight) and only
    moves them: laying out text is what made every frame with a changed status or pointer readout
    cost ~16 ms; moving a label is a translation."""

    def __init__(self, text: pyglet.graphics.Batch | None = None) -> None:
        self.key: Hashable = object()
        self.batch = pyglet.graphics.Batch()
        self.text = text if text is not None else pyglet.graphics.Batch()
        self.keep: list[Any] = []  # everything this build shows, its labels too
        self.labels: dict[LabelLook, list[pyglet.text.Label]] = {}
        self.spare: dict[LabelLook, list[pyglet.text.Label]] = {}  # the last build's, until taken back

    def take_label(self, look: LabelLook) -> pyglet.text.Label | None:
        spare = self.spare.get(look)
        return spare.pop() if spare else None

    def drop_spare(self) -> None:
        """Delete the last build's labels that this build did not take back."""
        for labels in self.spare.values():
            for label in labels:
                label.delete()
        self.spare = {}

    def draw(self) -> None:
        self.batch.draw()
        self.text.draw()


class BoardSprites:
    """One sprite per visible board tile, kept between frames.

    The document's ``BoardChanged`` events say which tiles changed (``touch``); only those
    get new pictures. Zoom and pan move the sprites; only a new board size, theme or a
    pan that shows other tiles creates sprites.
    """

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self.sprites: dict[tuple[int, int], tuple[str, pyglet.sprite.Sprite]] = {}
        self._board: Grid | None = None
        self._mapping: TopDownMapping | None = None
        self._window_height = 0
        self._touched: set[tuple[int, int]] | None = set()

    def touch(self, positions: frozenset[tuple[int, int]] | None) -> None:
        """Tiles whose pictures may have changed (None: all of them)."""
        if positions is None or self._touched is None:
            self._touched = None
        else:
            self._touched |= positions

    def show(
        self,
        board: Grid,
        mapping: TopDownMapping,
        visible: tuple[range, range],
        textures: dict[str, pyglet.image.Texture],
        window_height: int,
    ) -> None:
        moved = mapping != self._mapping or window_height != self._window_height
        if not moved and self._touched is not None:
            if board is not self._board:  # only the touched tiles can differ
                rows = board.rows
                for pos in self._touched:
                    entry = self.sprites.get(pos)
                    if entry is not None and entry[0] != rows[pos[1]][pos[0]].char:
                        entry[1].image = textures[rows[pos[1]][pos[0]].char]
                        self.sprites[pos] = (rows[pos[1]][pos[0]].char, entry[1])
                self._board = board
            self._touched = set()
            return
        self._touched = set()
        xs, ys = visible
        wanted = {(x, y) for y in ys for x in xs}
        for pos in [pos for pos in self.sprites if pos not in wanted]:
            self.sprites.pop(pos)[1].delete()
        scale = mapping.tile_px / TILE_PX
        for x, y in wanted:
            char = board.tile(x, y).char
            entry = self.sprites.get((x, y))
            left, top, size, _ = mapping.tile_rect(x, y)
            bottom = window_height - top - size
            if entry is None:
                sprite = pyglet.sprite.Sprite(textures[char], x=left, y=bottom, batch=self.batch)
                sprite.scale = scale
                self.sprites[(x, y)] = (char, sprite)
                continue
            old_char, sprite = entry
            if old_char != char:
                sprite.image = textures[char]
                self.sprites[(x, y)] = (char, sprite)
            if moved:
                sprite.update(x=left, y=bottom, scale=scale)
        self._board, self._mapping, self._window_height = board, mapping, window_height


class EditorView:
    def __init__(self, controller: EditorController) -> None:
        self.ctl = controller
        self.game: EditorGame = controller.document.game
        self.textures: dict[str, pyglet.image.Texture] = {}
        self.images: dict[str, Image.Image] = {}
        self.board_texture: BoardTexture | None = None
        self._touched: set[tuple[int, int]] | None = set()
        self._touched_box: tuple[int, int, int, int] | None = None  # big edits: a box, not tiles
        self.theme_loaded = ""
        self.theme_failed = ""
        self.watcher: ThemeWatcher | None = None
        self.theme_reloads = 0  # live reloads applied (tests wait on this, not on time)
        self._last_watch = 0.0
        self._parts: dict[str, _Part] = {}
        self._implied_for: Grid | None = None  # the board ``_implied`` was read from
        self._implied: tuple[tuple[tuple[int, int], str], ...] = ()
        self.board_sprites = BoardSprites()
        self.set_theme(controller.theme)
        controller.document.subscribe(self._on_event)

    def _on_event(self, event: DocumentEvent) -> None:
        """Views listen to the document instead of comparing boards every frame."""
        if isinstance(event, BoardChanged):
            if self.game is not self.ctl.document.game:  # a file of another game was opened here
                self.set_theme(self.ctl.theme)
            self.board_sprites.touch(event.positions)
            if event.resized:
                self._drop_board_texture()
            elif event.positions is None and event.box is not None and self._touched is not None:
                self._touched_box = union_box(self._touched_box, event.box)
            elif event.positions is None or self._touched is None:
                self._touched = None
            else:
                self._touched |= event.positions

    def set_theme(self, name: str) -> None:
        from editor.art import FALLBACK_THEME

        self.watcher = None
        self.game = game = self.ctl.document.game
        if not game.themed:  # the game draws its own pictures
            self._show_pictures(game.cell_images(name))
            self.theme_loaded = name
            return
        try:
            if name == FALLBACK_THEME:
                images = tile_images(name)
            else:
                from themes import ThemeWatcher, load_theme

                theme = load_theme(name)
                images = theme_tile_images(theme)
                self.watcher = ThemeWatcher(theme)  # live reload: see watch_theme()
                if theme.warnings:
                    self.ctl.say(theme_warning(name, theme.warnings))
        except Exception as exc:  # an unreadable theme: keep the previous pictures and say why
            self.theme_failed = name
            first = str(getattr(exc, "problems", [exc])[0])
            self.ctl.say(f"theme {name!r} cannot be used: {first}")
            if self.textures:
                return
            images = tile_images(FALLBACK_THEME)
        self._show_pictures(images)
        self.theme_loaded = name

    def watch_theme(self, now: float | None = None) -> bool:
        """Live reload: a few times a second, look whether the theme's files changed and show the
        new pictures at once (a picture that broke keeps its last good version); True if reloaded."""
        now = time.monotonic() if now is None else now
        if self.watcher is None or now - self._last_watch < THEME_POLL_S:
            return False
        self._last_watch = now
        fresh = self.watcher.poll()
        if fresh is None:
            return False
        self._show_pictures(theme_tile_images(fresh))
        self.theme_reloads += 1
        self.ctl.say(theme_warning(self.theme_loaded, fresh.warnings) if fresh.warnings else "theme reloaded")
        return True

    def _show_pictures(self, images: dict[str, Image.Image]) -> None:
        self.images = {char: self.game.on_screen(char, image) for char, image in images.items()}
        self.textures = {char: to_texture(image) for char, image in self.images.items()}
        self.board_sprites = BoardSprites()  # new pictures: rebuild the board's sprites
        self._drop_board_texture()
        self._parts.clear()  # palette and previews show the pictures too

    def _drop_board_texture(self) -> None:
        if self.board_texture is not None:
            self.board_texture.delete()
        self.board_texture = None
        self._touched = set()
        self._touched_box = None

    # -- helpers -------------------------------------------------------------
    def _flip(self, rect: Rect) -> tuple[float, float, float, float]:
        left, top, width, height = rect
        return left, self.ctl.layout.height - top - height, width, height

    def _part(self, name: str, key: Hashable, build: Callable[[_Part], None]) -> _Part:
        old = self._parts.get(name)
        if old is not None and old.key == key:
            return old
        part = _Part(old.text if old is not None else None)
        if old is not None:
            part.spare = old.labels
        part.key = key
        build(part)
        part.drop_spare()
        self._parts[name] = part
        return part

    def _rect(self, part: _Part, rect: Rect, color: tuple[int, int, int, int]) -> None:
        x, y, w, h = self._flip(rect)
        part.keep.append(pyglet.shapes.Rectangle(x, y, w, h, color=color, batch=part.batch))

    def _box(self, part: _Part, rect: Rect, color: tuple[int, int, int, int], thickness: float = 2.0) -> None:
        x, y, w, h = self._flip(rect)
        part.keep.append(pyglet.shapes.Box(x, y, w, h, thickness=thickness, color=color, batch=part.batch))

    def _line(
        self,
        part: _Part,
        a: tuple[float, float],
        b: tuple[float, float],
        color: tuple[int, int, int, int],
        width: float = 1.0,
    ) -> None:
        h = self.ctl.layout.height
        part.keep.append(
            pyglet.shapes.Line(a[0], h - a[1], b[0], h - b[1], thickness=width, color=color, batch=part.batch)
        )

    def _label(
        self,
        part: _Part,
        text: str,
        left: float,
        top: float,
        color: tuple[int, int, int, int] = TEXT,
        size: int = FONT_SIZE,
        width: float | None = None,
        bold: bool = False,
    ) -> float:
        """Draw a label (wrapped to ``width`` if given); returns its height as laid out, so what
        comes below it goes below it, however many lines it took."""
        h = self.ctl.layout.height
        wrap = int(width) if width else None
        look: LabelLook = (text, size, color, wrap, bold)
        label = part.take_label(look)
        if label is None:
            label = pyglet.text.Label(
                text, x=left, y=h - top, anchor_y="top", font_size=size, color=color, batch=part.text,
                width=wrap, multiline=width is not None, weight="bold" if bold else "normal",
            )  # fmt: skip
        elif label.position != (left, h - top, 0):
            label.position = (left, h - top, 0)
        part.labels.setdefault(look, []).append(label)
        part.keep.append(label)
        return float(label.content_height)

    def _sprite(self, part: _Part, char: str, rect: Rect, opacity: int = 255) -> None:
        x, y, w, _ = self._flip(rect)
        sprite = pyglet.sprite.Sprite(self.textures[char], x=x, y=y, batch=part.batch)
        sprite.scale = w / TILE_PX
        sprite.opacity = opacity
        part.keep.append(sprite)

    # -- drawing ---------------------------------------------------------------------
    def draw(self) -> None:
        ctl = self.ctl
        if ctl.theme not in (self.theme_loaded, self.theme_failed):  # a refused theme is tried once
            self.set_theme(ctl.theme)
        board = ctl.document.board
        layout = ctl.layout
        validation = ctl.validation_state()
        problems = validation.problems
        summary = validation.summary if validation.done and (not problems or ctl.game.summary_with_problems) else ()
        pending = validation.pending
        key_base = (layout, self.theme_loaded)
        # No rectangle for the canvas: the window clears to BACKGROUND (a second fill of the whole
        # canvas cost ~2 ms a frame in software GL).
        self._draw_board(board)
        grid_key = (*key_base, board.width, board.height, ctl.mapping, ctl.grid)
        self._part("grid", grid_key, self._build_grid).draw()
        overlay_key = (
            *key_base,
            ctl.mapping,
            tuple(p.tiles for p in problems),
            ctl.preview_box(),
            frozenset(ctl.preview()) if ctl.preview_box() is None else frozenset(),
            tuple(ctl.preview_edges()),
            ctl.hover,
            ctl.hover_edge,
            type(ctl.tool),
            self._implied_cells(board),
        )
        self._part("overlay", overlay_key, lambda part: self._build_overlay(part, problems)).draw()
        palette_key = (*key_base, ctl.ctx.brush, type(ctl.tool), layout.cell_px)
        self._part("palette", palette_key, self._build_palette).draw()
        side_key = (
            *key_base,
            board.width,
            board.height,
            problems,
            summary,
            pending,
            ctl.level,
            ctl.document.path,
            ctl.ctx.brush,
            ctl.document.modified,
            ctl.right_click,
        )
        self._part("side", side_key, lambda part: self._build_side(part, problems, summary, pending)).draw()
        prompt = ctl.prompt
        status_key = (
            *key_base,
            ctl.status,
            ctl.hover_info,
            prompt.label if prompt else None,
            prompt.display if prompt else None,
            tuple(prompt.candidates) if prompt else None,
        )
        self._part("status", status_key, self._build_status).draw()
        if prompt is not None and (prompt.listing is not None or prompt.menu is not None):
            listing = prompt.listing
            browser_key = (
                *key_base,
                prompt.label,
                prompt.text,
                prompt.menu_selected,
                (listing.folder, tuple(listing.entries), listing.selected, listing.error) if listing else None,
            )
            self._part("browser", browser_key, self._build_browser).draw()
        note = ctl.toast.text if ctl.toast is not None else ctl.tooltip
        if note and ctl.palette_drag is None:
            px, py = ctl.pointer_px
            self._part("note", (*key_base, note, px, py), lambda p: self._note(p, note, px, py)).draw()
        if ctl.palette_drag is not None and ctl.palette_drag.moved:
            drag = ctl.palette_drag
            size = max(24.0, min(ctl.mapping.tile_px, 96.0))
            ghost_key = (*key_base, drag.char, drag.px, drag.py, size)
            self._part(
                "ghost",
                ghost_key,
                lambda p: self._sprite(p, drag.char, (drag.px - size / 2, drag.py - size / 2, size, size), 190),
            ).draw()
        if ctl.help_visible:
            self._part("help", key_base, self._build_help).draw()

    def _draw_board(self, board: Grid) -> None:
        """The board texture (any zoom), plus sharp sprites of the visible tiles when zoomed in."""
        ctl = self.ctl
        if self.board_texture is None or self.board_texture.shape != (board.width, board.height):
            self._drop_board_texture()
            self.board_texture = BoardTexture(board, self.images, TILE_PX)
        elif self._touched is None or self._touched or self._touched_box or self.board_texture.board is not board:
            touched = None if self._touched is None else frozenset(self._touched)
            self.board_texture.update(board, touched, self._touched_box if touched is not None else None)
        self._touched = set()
        self._touched_box = None
        texture = self.board_texture
        texture.place(ctl.mapping, ctl.layout.height)
        xs, ys = self._visible_tiles()
        left, top, width, height = ctl.layout.canvas
        pyglet.gl.glEnable(pyglet.gl.GL_SCISSOR_TEST)
        pyglet.gl.glScissor(int(left), int(ctl.layout.height - top - height), int(width), int(height))
        texture.sprite.draw()
        if ctl.mapping.tile_px > texture.res and len(xs) * len(ys) <= MAX_SPRITES:
            self.board_sprites.show(board, ctl.mapping, (xs, ys), self.textures, ctl.layout.height)
            self.board_sprites.batch.draw()
        pyglet.gl.glDisable(pyglet.gl.GL_SCISSOR_TEST)

    def _visible_tiles(self) -> tuple[range, range]:
        """Only the tiles inside the canvas are drawn: per-frame work follows what is seen."""
        ctl = self.ctl
        board = ctl.document.board
        left, top, width, height = ctl.layout.canvas
        x0, y0 = ctl.mapping.tile_at(left, top)
        x1, y1 = ctl.mapping.tile_at(left + width, top + height)
        return range(max(0, x0), min(board.width, x1 + 1)), range(max(0, y0), min(board.height, y1 + 1))

    def _build_grid(self, part: _Part) -> None:
        """Grid lines and built-in walls: they change with zoom/pan and edits, not with the pointer."""
        ctl = self.ctl
        board = ctl.document.board
        m = ctl.mapping
        xs, ys = self._visible_tiles()
        if ctl.grid and m.tile_px >= 12 and xs and ys:  # denser grids hide the tiles
            left, top = m.tile_rect(xs.start, ys.start)[:2]
            right, bottom = m.tile_rect(xs.stop, ys.stop)[:2]
            for x in range(xs.start, xs.stop + 1):
                sx = m.tile_rect(x, 0)[0]
                self._line(part, (sx, top), (sx, bottom), GRID)
            for y in range(ys.start, ys.stop + 1):
                sy = m.tile_rect(0, y)[1]
                self._line(part, (left, sy), (right, sy), GRID)
        # Built-in walls of pushers and crushers are part of their pictures (with_builtin_walls).
        bw, bh = board.width * m.tile_px, board.height * m.tile_px
        self._box(part, (m.origin_x - 1, m.origin_y - 1, bw + 2, bh + 2), PANEL_LINE, 1.0)

    def _implied_cells(self, board: Grid) -> tuple[tuple[tuple[int, int], str], ...]:
        """The game's implied cells (``EditorGame.implied_cells``), read once per board value
        (boards are immutable), not on every pointer move."""
        if self._implied_for is not board:
            self._implied_for = board
            cells = self.ctl.game.implied_cells(board)
            self._implied = tuple(sorted((pos, cell.char) for pos, cell in cells.items()))
        return self._implied

    def _build_overlay(self, part: _Part, problems: tuple[Problem, ...]) -> None:
        """Implied cells, problem tiles, the rectangle preview and the pointer: cheap, rebuilt as
        the pointer moves."""
        ctl = self.ctl
        board = ctl.document.board
        m = ctl.mapping
        thickness = max(2.0, m.tile_px * 0.09)
        for (x, y), char in self._implied_cells(board):
            if board.in_bounds(x, y) and char in self.textures:
                self._sprite(part, char, m.tile_rect(x, y), opacity=IMPLIED_OPACITY)
                self._box(part, m.tile_rect(x, y), DIM_TEXT, 1.0)
        for x, y in {tile for p in problems for tile in p.tiles}:
            if board.in_bounds(x, y):
                self._rect(part, m.tile_rect(x, y), (255, 80, 70, 60))
                self._box(part, m.tile_rect(x, y), PROBLEM, max(2.0, m.tile_px * 0.06))
        box = ctl.preview_box()
        if box is not None:  # a rectangle of any size is one shape, clipped to what is seen
            xs, ys = self._visible_tiles()
            x0, y0, x1, y1 = (
                max(box[0], xs.start),
                max(box[1], ys.start),
                min(box[2], xs.stop - 1),
                min(box[3], ys.stop - 1),
            )
            if x0 <= x1 and y0 <= y1:
                left, top = m.tile_rect(x0, y0)[:2]
                right, bottom = m.tile_rect(x1 + 1, y1 + 1)[:2]
                self._rect(part, (left, top, right - left, bottom - top), (90, 170, 255, 90))
        else:
            for x, y in ctl.preview():
                if board.in_bounds(x, y):
                    self._rect(part, m.tile_rect(x, y), (90, 170, 255, 90))
        for x, y, side in ctl.preview_edges():
            assert isinstance(side, Direction)
            self._wall_bars(part, x, y, side.wall_bit, (80, 230, 255, 200), max(4.0, thickness * 1.6))
        if ctl.hover is not None:
            self._box(part, m.tile_rect(*ctl.hover), (255, 255, 255, 200), 2.0)
            if isinstance(ctl.tool, WallTool) and ctl.hover_edge is not None:
                x, y, side = ctl.hover_edge
                assert isinstance(side, Direction)
                self._wall_bars(part, x, y, side.wall_bit, (80, 230, 255, 255), max(4.0, thickness * 1.6))

    def _wall_bars(
        self, part: _Part, x: int, y: int, bits: int, color: tuple[int, int, int, int], thickness: float
    ) -> None:
        left, top, size, _ = self.ctl.mapping.tile_rect(x, y)
        bars = {
            Direction.LEFT: (left, top, thickness, size),
            Direction.RIGHT: (left + size - thickness, top, thickness, size),
            Direction.UP: (left, top, size, thickness),
            Direction.DOWN: (left, top + size - thickness, size, thickness),
        }
        for d, rect in bars.items():
            if bits & d.wall_bit:
                self._rect(part, rect, color)

    def _build_palette(self, part: _Part) -> None:
        ctl = self.ctl
        layout = ctl.layout
        self._rect(part, layout.palette, PANEL)
        self._rect(part, (layout.palette[2] - 1, 0, 1, layout.palette[3]), PANEL_LINE)
        self._label(part, "TILES — drag onto the board", PANEL_PAD, 8, DIM_TEXT, 9, bold=True)
        for index, char in enumerate(layout.palette_chars):
            rect = layout.palette_cell(index)
            if char == ctl.ctx.brush.char:
                left, top, w, h = rect
                self._rect(part, (left - 3, top - 3, w + 6, h + 6), ACCENT)
            self._sprite(part, char, rect)
        self._label(part, "TOOLS", PANEL_PAD, layout.tools_top - TITLE_HEIGHT + 4, DIM_TEXT, 9, bold=True)
        for index, tool in enumerate(ctl.tools):
            rect = layout.tool_button(index)
            active = tool is ctl.tool
            self._rect(part, rect, ACCENT if active else (55, 59, 70, 255))
            left, top, _, h = rect
            narrow = layout.tool_columns > 1  # half-width buttons: a tighter label
            self._label(
                part,
                f"{tool.key} {tool.name}" if narrow else f"{tool.key}   {tool.name}",
                left + (6 if narrow else 10),
                top + (h - 14) / 2,
                (20, 22, 28, 255) if active else TEXT,
                FONT_SIZE - 1 if narrow else FONT_SIZE,
            )

    def _build_side(
        self, part: _Part, problems: tuple[Problem, ...], summary: tuple[str, ...], pending: tuple[Enum, ...]
    ) -> None:
        ctl = self.ctl
        layout = ctl.layout
        left, _, width, height = layout.side
        self._rect(part, layout.side, PANEL)
        self._rect(part, (left, 0, 1, height), PANEL_LINE)
        x = left + 14
        y = 10.0
        wrap = width - 28
        board = ctl.document.board
        self._label(part, ctl.game.noun.upper(), x, y, DIM_TEXT, 9, bold=True)
        y += 20
        name = ctl.document.path.name if ctl.document.path else "untitled"
        shown = f"{name}{' (modified)' if ctl.document.modified else ''}"
        y += self._label(part, shown, x, y, TEXT, 11, width=wrap) + 6
        self._label(part, f"{board.width} x {board.height} tiles", x, y, DIM_TEXT)
        y += 20
        y += self._label(part, f"brush: {ctl.game.cell_name(ctl.ctx.brush)}", x, y, DIM_TEXT, width=wrap) + 20
        self._label(part, "VALIDATION", x, y, DIM_TEXT, 9, bold=True)
        y += 22
        # Each line moves on by its height as wrapped, not by a guess from its length (a line
        # guessed to wrap left a blank line under it).
        if pending:
            checking = (
                "checking reachability: " + ", ".join(level.value for level in pending) + " …"
                if ctl.game.levels
                else f"checking the {ctl.game.noun} …"
            )
            y += self._label(part, checking, x, y, DIM_TEXT, width=wrap) + 10
        elif not problems:
            self._label(part, "playable at every level" if ctl.game.levels else "playable", x, y, GOOD, 11)
            y += 24
            for line in summary:
                y += self._label(part, "✓ " + line, x, y, TEXT, width=wrap) + 6
        room = height - 200  # keep the test-play section and the help line on screen
        for index, problem in enumerate(problems):
            if y > room and index < len(problems) - 1:
                self._label(part, f"… and {len(problems) - index} more (outlined in red)", x, y, PROBLEM, 9)
                y += 20
                break
            self._rect(part, (x, y + 3, 8, 8), PROBLEM)
            y += self._label(part, problem.message, x + 16, y, TEXT, width=wrap - 16) + 10
        for line in summary if problems else ():
            if y > room:
                break
            y += self._label(part, "· " + line, x, y, DIM_TEXT, width=wrap) + 6
        y += 18
        self._label(part, "TEST-PLAY", x, y, DIM_TEXT, 9, bold=True)
        y += 22
        if ctl.level is not None:
            playing = f"F5 plays at level '{ctl.level.value}' (F6 changes it)"
        else:
            playing = "F5 plays the strong bot against the simple one"
        y += self._label(part, playing, x, y, TEXT, width=wrap) + 12
        y += self._label(part, f"theme: {self.theme_loaded}   (F2 next)", x, y, DIM_TEXT, width=wrap) + 4
        y += self._label(part, f"right button: {ctl.right_click} (Ctrl+Shift+X)", x, y, DIM_TEXT, width=wrap) + 8
        if y <= height - 28:  # a short window: the status bar's "F1 help" says it already
            self._label(part, "F1: all shortcuts", x, height - 28, DIM_TEXT)

    def _build_status(self, part: _Part) -> None:
        ctl = self.ctl
        layout = ctl.layout
        self._rect(part, layout.status, (22, 24, 29, 255))
        left, top, width, height = layout.status
        if ctl.prompt is not None:
            self._rect(part, (left, top, width, height), (35, 52, 80, 255))
            prompt = ctl.prompt
            room = width - 24  # measured: a long path ran out of a narrow window
            if prompt.choices:
                text = _fit_width(prompt.label, 12, room)
            else:  # the label stays; the typed text keeps its end (the file name, the cursor)
                head = prompt.label + "  "
                text = head + _fit_width(prompt.display, 12, max(room - _text_width(head, 12), 20.0), elide_start)
            self._label(part, text, 12, top + 8, TEXT, 12)
            hint = "" if prompt.choices else "Enter: OK   Esc: cancel   ←/→ Home/End: move   Ctrl+A: select all"
            if prompt.paths:
                hint += "   Tab: complete   ↑/↓: choose in the list"
            if prompt.candidates:
                hint = "   ".join(prompt.candidates[:12]) + ("  …" if len(prompt.candidates) > 12 else "")
            self._label(part, _fit_width(hint, 9, room), 12, top + 28, DIM_TEXT, 9)
        else:
            # Widths are measured, not guessed from the length: a path or a wide glyph made a
            # long message run into the tile readout.
            info_width = _text_width(ctl.hover_info, 11) if ctl.hover_info else 0.0
            room = width - 24 - (info_width + 30 if ctl.hover_info else 0.0)
            if room < 240:  # a narrow window: the message goes first, the readout waits for room
                info_width, room = 0.0, width - 24
            status_width = _text_width(ctl.status, 11) if ctl.status else 0.0
            if status_width <= room:
                self._label(part, ctl.status, 12, top + 8, TEXT, 11)
                info_left = max(12 + status_width + 30, min(layout.width - 420, width - 12 - info_width))
            else:  # too long for one line beside the readout: wrap it, over the shortcut line
                self._label(part, _fit_lines(ctl.status, 10, room, height - 6), 12, top + 4, TEXT, 10, width=room)
                info_left = 12 + room + 30
                if info_width:
                    self._label(part, ctl.hover_info, info_left, top + 8, ACCENT, 11)
                return
            if info_width:
                self._label(part, ctl.hover_info, info_left, top + 8, ACCENT, 11)
            self._label(
                part,
                f"Ctrl+Shift+P all commands  Ctrl+Z undo  Ctrl+S save  Ctrl+G grid  {ctl.game.hint}  F5 test-play  F1 help",
                12,
                top + 28,
                DIM_TEXT,
                9,
            )

    def _note(self, part: _Part, text: str, px: float, py: float) -> None:
        """A tooltip or a refusal next to the pointer, kept inside the window."""
        layout = self.ctl.layout
        width = min(7.2 * len(text) + 16, 520.0)
        lines = 1 + int(7.2 * len(text) // 504)
        height = 8 + 16 * lines
        left = min(max(4.0, px + 16), layout.width - width - 4)
        top = min(max(4.0, py + 20), layout.height - height - 4)
        self._rect(part, (left, top, width, height), (15, 17, 22, 235))
        self._box(part, (left, top, width, height), ACCENT, 1.0)
        self._label(part, text, left + 8, top + 4, TEXT, 9, width=width - 16)

    def _build_browser(self, part: _Part) -> None:
        """The file browser (open / save as / export) or the command palette, over the canvas."""
        ctl = self.ctl
        prompt = ctl.prompt
        assert prompt is not None
        layout = ctl.layout
        rect = layout.browser
        self._rect(part, rect, (30, 34, 44, 245))
        self._box(part, rect, ACCENT, 1.5)
        left, top, width, _ = rect
        if prompt.menu is not None:
            items = prompt.menu_items()
            heading = _fit_width("COMMANDS — type to filter, ↑/↓ and Enter to run", 9, width - 20, bold=True)
            self._label(part, heading, left + 10, top + 12, DIM_TEXT, 9, bold=True)
            rows = [label for label, _ in items]
            selected = min(prompt.menu_selected, len(items) - 1)
        else:
            listing = prompt.listing
            assert listing is not None
            heading = listing.error or f"{listing.folder}"
            heading = _fit_width(heading, 9, width - 20, elide_start if not listing.error else elide_middle, bold=True)
            self._label(part, heading, left + 10, top + 12, PROBLEM if listing.error else DIM_TEXT, 9, bold=True)
            rows = [("★ " if e.recent else "") + e.label for e in listing.entries]
            selected = listing.selected
        for index, label in enumerate(rows[: layout.browser_rows]):
            row = layout.browser_row(index)
            if index == selected:
                self._rect(part, row, ACCENT)
            color = (20, 22, 28, 255) if index == selected else (ACCENT if label.endswith("/") else TEXT)
            self._label(part, _fit_width(label, FONT_SIZE, row[2] - 12), row[0] + 6, row[1] + 3, color, FONT_SIZE)
        if len(rows) > layout.browser_rows:
            last = layout.browser_row(layout.browser_rows - 1)
            self._label(
                part,
                _fit_width(f"… {len(rows) - layout.browser_rows} more: type to narrow", 9, last[2] - 12),
                last[0] + 6,
                last[1] + 24,
                DIM_TEXT,
                9,
            )

    def _build_help(self, part: _Part) -> None:
        """F1: every shortcut, laid out by ``editor.helplayout`` (type size and wrapping chosen so
        that no line is cut at any window size)."""
        ctl = self.ctl
        w, h = ctl.layout.width, ctl.layout.height
        self._rect(part, (0, 0, w, h), (10, 12, 16, 215))
        layout = layout_help(help_rows(ctl), w, h, _text_width)
        bx, by, _, box_h = layout.box
        self._rect(part, layout.box, (40, 44, 54, 250))
        self._box(part, layout.box, ACCENT, 2)
        self._label(part, "robots-edit — shortcuts", bx + 24, by + 18, TEXT, 15, bold=True)
        for line in layout.lines:
            if line.keys:
                self._label(part, line.keys, line.keys_left, line.top, ACCENT, layout.size, bold=True)
            self._label(part, line.text, line.text_left, line.top, TEXT, layout.size)
        self._label(part, "press F1 or Esc to close", bx + 24, by + box_h - 30, DIM_TEXT, 9)
