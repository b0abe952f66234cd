"""Headless rendering: an EGL context and a multisampled framebuffer read back as an image."""

from __future__ import annotations

from collections.abc import Callable

import moderngl
from PIL import Image


class HeadlessContextError(RuntimeError):
    """No offscreen OpenGL is available (EGL or its GL driver missing)."""


def create_headless_context() -> moderngl.Context:
    """A standalone OpenGL 3.3+ context over EGL (works without any display)."""
    try:
        return moderngl.create_standalone_context(backend="egl", require=330)  # type: ignore[arg-type]
    except Exception as error:  # moderngl raises plain Exception subclasses from glcontext
        raise HeadlessContextError(
            f"cannot create an offscreen OpenGL context over EGL ({error}); install libegl1 and libgl1 (Mesa)"
        ) from error


class OffscreenTarget:
    """A multisampled colour+depth framebuffer of ``size`` and a plain one it resolves into."""

    def __init__(self, ctx: moderngl.Context, size: tuple[int, int], samples: int = 4) -> None:
        self.ctx = ctx
        self.size = size
        self.samples = max(0, min(samples, ctx.max_samples))
        self._color = ctx.renderbuffer(size, 4, samples=self.samples)
        self._depth = ctx.depth_renderbuffer(size, samples=self.samples)
        self.framebuffer = ctx.framebuffer(color_attachments=[self._color], depth_attachment=self._depth)
        if self.samples:
            self._resolved_color = ctx.renderbuffer(size, 4)
            self._resolved = ctx.framebuffer(color_attachments=[self._resolved_color])
        else:
            self._resolved = self.framebuffer

    def render(self, draw: Callable[[], None]) -> Image.Image:
        """Bind the framebuffer, call ``draw()`` and return the resolved RGBA image (top row first)."""
        self.framebuffer.use()
        self.ctx.viewport = (0, 0, *self.size)
        draw()
        if self.samples:
            self.ctx.copy_framebuffer(self._resolved, self.framebuffer)
        data = self._resolved.read(components=4, alignment=1)
        image = Image.frombytes("RGBA", self.size, data)
        return image.transpose(Image.Transpose.FLIP_TOP_BOTTOM)

    def release(self) -> None:
        for resource in (self.framebuffer, self._color, self._depth):
            resource.release()
        if self.samples:
            self._resolved.release()
            self._resolved_color.release()
