"""A loaded, validated theme: its images by name and the packed forms the renderers upload."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

import numpy as np
from PIL import Image

from engine.model import Direction, Tile
from themes.compose import compose_tiles
from themes.keys import START_MARKER_KEY, START_MARKER_LAYERS, direction_word, tile_key
from themes.look import resolve_look
from themes.manifest import Manifest
from themes.packing import pack_atlas, pack_texture_array
from themes.stamp import Stamp

# PIL rotates anticlockwise; an image drawn pointing up turns to face each direction by these.
_ROTATE_FROM_UP = {
    Direction.UP: None,
    Direction.RIGHT: Image.Transpose.ROTATE_270,
    Direction.DOWN: Image.Transpose.ROTATE_180,
    Direction.LEFT: Image.Transpose.ROTATE_90,
}


def turned_from_up(image: Image.Image, direction: Direction) -> Image.Image:
    """``image`` (drawn pointing up) turned to point towards ``direction``; exact quarter turns."""
    transpose = _ROTATE_FROM_UP[direction]
    return image.copy() if transpose is None else image.transpose(transpose)


class Theme:
    """Every picture of one theme, checked and completed: 31 tiles, robot, cursor, start marker,
    and other games' pictures (:meth:`game`).

    ``pictures`` are the pictures as the theme holds them (after missing or broken ones were
    taken from the base theme); the tiles are composed from them (see :mod:`themes.compose`).
    ``warnings`` holds one short line per problem found while loading; ``faults`` the ones a
    theme maker must fix (everything but the note about pictures taken from a declared base).
    Images are 64x64 RGBA. The packed forms are computed once and cached, so switching
    back and forth between themes at run time costs one upload, not a re-pack.
    """

    def __init__(
        self,
        path: Path,
        manifest: Manifest,
        pictures: Mapping[str, Image.Image],
        *,
        warnings: Sequence[str] = (),
        faults: Sequence[str] = (),
        sources: Mapping[str, str] | None = None,
        stamp: Stamp | None = None,
        games: Mapping[str, Mapping[str, Image.Image]] | None = None,
    ) -> None:
        self.path = path
        self.stamp = stamp  # the folder's files as they were just before they were read
        self.manifest = manifest
        self.pictures = MappingProxyType(dict(pictures))
        self.warnings = tuple(warnings)
        self.faults = tuple(faults)
        self.sources = MappingProxyType(dict(sources or {}))
        self._games = {game: MappingProxyType(dict(images)) for game, images in (games or {}).items()}
        self._tiles = MappingProxyType(compose_tiles(pictures, manifest.backdrop))
        self._robot = pictures["robot"]
        self._cursor = pictures["cursor"]
        self._start = pictures.get(START_MARKER_KEY)
        self.look = resolve_look(manifest.look, self.pictures, self._tiles)
        self._array: tuple[np.ndarray, dict[str, int]] | None = None
        self._atlases: dict[int, tuple[Image.Image, dict[str, tuple[int, int, int, int]]]] = {}

    def game(self, name: str) -> Mapping[str, Image.Image]:
        """Another game's pictures by key (``keys.GAME_KEYS``), e.g. ``theme.game("tron")["floor"]``:
        the theme's own, else its base theme's; empty when no theme draws that game (its renderer
        then uses plain colours). ``sources["tron/floor"]`` says where each came from."""
        return self._games.get(name, MappingProxyType({}))

    @property
    def name(self) -> str:
        """The display name from the manifest (the folder name when there is none)."""
        return self.manifest.name

    @property
    def robot(self) -> Image.Image:
        """The robot, pointing up (towards the top of the image), on a transparent background."""
        return self._robot.copy()

    @property
    def cursor(self) -> Image.Image:
        return self._cursor.copy()

    def tile(self, key: str) -> Image.Image:
        """The tile named ``key`` (one of TILE_KEYS) as drawn: composed over the floor, opaque."""
        return self._tiles[key].copy()

    def tile_for(self, tile: Tile) -> Image.Image:
        return self.tile(tile_key(tile))

    def robot_facing(self, direction: Direction) -> Image.Image:
        """The robot turned to look towards ``direction``."""
        return turned_from_up(self._robot, direction)

    def start_marker(self, direction: Direction) -> Image.Image | None:
        """The overlay for a start tile facing ``direction``, or None if the theme has no markers."""
        if self._start is None:
            return None
        return turned_from_up(self._start, direction)

    def layer_images(self) -> dict[str, Image.Image]:
        """Every image in layer order: the 31 tiles, robot, cursor, then start-left/right/up/down if any."""
        images: dict[str, Image.Image] = dict(self._tiles)
        images["robot"] = self._robot
        images["cursor"] = self._cursor
        if self._start is not None:
            for layer, direction in zip(START_MARKER_LAYERS, Direction, strict=True):
                assert layer == f"start-{direction_word(direction)}"
                images[layer] = turned_from_up(self._start, direction)
        return images

    def texture_array(self) -> tuple[np.ndarray, dict[str, int]]:
        """``(layers, 64, 64, 4)`` uint8 RGBA and key -> layer; rows top to bottom as in the PNGs.

        The array is shared and read-only. OpenGL's first texel row is v=0, so uploading
        it unchanged puts the image's top row at v=0: map v=0 to the tile's top (north) edge,
        or flip with ``array[:, ::-1]`` before upload.
        """
        if self._array is None:
            self._array = pack_texture_array(self.layer_images())
        return self._array

    def atlas(self, columns: int = 8) -> tuple[Image.Image, dict[str, tuple[int, int, int, int]]]:
        """One RGBA sheet of every layer image and key -> (left, top, right, bottom) pixel box."""
        if columns not in self._atlases:
            self._atlases[columns] = pack_atlas(self.layer_images(), columns)
        sheet, boxes = self._atlases[columns]
        return sheet.copy(), dict(boxes)

    def __repr__(self) -> str:
        return f"Theme({self.name!r}, {str(self.path)!r})"
