"""Headless rendering: an EGL context and a multisampled framebuffer read back as an image."""

from __future__ import annotations

import gc
from collections.abc import Callable

import moderngl
from PIL import Image


class HeadlessContextError(RuntimeError):
    """No offscreen OpenGL is available (EGL or its GL driver missing)."""


GL_VERSIONS = (430, 330)
"""Asked for in this order. 4.3 brings the indirect draws that cull boxes off screen in one call;
some drivers (NVIDIA's) give exactly the version asked for, so asking for 3.3 would lose them
where the hardware has them. 3.3 is the least the shaders need."""


def create_headless_context() -> moderngl.Context:
    """A standalone OpenGL context over EGL (works without any display): 4.3 or newer where the
    driver has it, else 3.3."""
    # pyglet deletes a dropped GL object in whatever context is current, believing it its own: garbage
    # waiting in reference cycles (closed windows' labels and shaders) is collected now, while
    # pyglet's context is still current, not later while this one is (GL_INVALID_VALUE in __del__).
    gc.collect()
    error: Exception | None = None
    for version in GL_VERSIONS:
        try:
            return moderngl.create_standalone_context(backend="egl", require=version)  # type: ignore[arg-type]
        except Exception as failure:  # moderngl raises plain Exception subclasses from glcontext
            error = failure
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
