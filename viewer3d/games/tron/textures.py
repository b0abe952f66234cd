"""A theme's Tron pictures (``themes``: ``tron/floor.png``, ``tron/blocked.png``, the optional
``tron/trail.png``) as GL textures
for ``TronRenderer``: mipmapped and repeating, so a field's picture is sampled at the world
position itself (one picture per field, no seams, no shimmer on a 200x200 arena seen whole).

A theme without Tron pictures (or none at all: ``None`` means the shipped default) leaves a
texture out, and the renderer draws that surface in its plain colour.
"""

from __future__ import annotations

from collections.abc import Mapping

import moderngl
import numpy as np
from PIL import Image

KEYS = ("floor", "blocked", "trail")


def tron_pictures(theme: object | None) -> Mapping[str, Image.Image]:
    """The Tron pictures of ``theme`` (None: the shipped default theme); empty when it has none."""
    if theme is None:
        from viewer3d.render.renderer import default_theme

        theme = default_theme()
    game = getattr(theme, "game", None)
    return game("tron") if callable(game) else {}


class TronTextures:
    """One texture per picture the theme has (``textures[key]``), bound to fixed units."""

    def __init__(self, ctx: moderngl.Context, theme: object | None) -> None:
        self.textures: dict[str, moderngl.Texture] = {}
        for key, image in tron_pictures(theme).items():
            if key not in KEYS:
                continue
            pixels = np.asarray(image.convert("RGBA"), dtype=np.uint8)  # rows top to bottom: v=0 is north
            texture = ctx.texture((pixels.shape[1], pixels.shape[0]), 4, pixels.tobytes())
            texture.build_mipmaps()
            texture.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
            texture.repeat_x = texture.repeat_y = True
            self.textures[key] = texture

    def use(self, program: moderngl.Program) -> None:
        """Bind the textures and tell the shader which surfaces have one (``u_has_floor``...)."""
        for unit, key in enumerate(KEYS):
            texture = self.textures.get(key)
            if f"u_{key}" in program:
                program[f"u_{key}"].value = unit  # type: ignore[union-attr]
            if f"u_has_{key}" in program:
                program[f"u_has_{key}"].value = 1.0 if texture is not None else 0.0  # type: ignore[union-attr]
            if texture is not None:
                texture.use(location=unit)

    def release(self) -> None:
        for texture in self.textures.values():
            texture.release()
        self.textures = {}
