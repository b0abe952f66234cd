"""pyglet's pending garbage is never deleted into a headless (moderngl) context.

pyglet deletes a dropped shader program in whatever GL context is current at the driver level,
believing it is its own. Held in a reference cycle, such a program waits for the garbage
collector; if that runs while an export's or a thumbnail sheet's headless context is current,
``glDeleteProgram`` hits a number that context does not know and pyglet raises GL_INVALID_VALUE
inside ``__del__`` (printed, and a warning in the test run). ``create_headless_context`` collects
the pending garbage first, while pyglet's own context is still current.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pyglet

pyglet.options["headless"] = True

import pytest  # noqa: E402
from pyglet.graphics.shader import Shader, ShaderProgram  # noqa: E402

from viewer3d.render.offscreen import create_headless_context  # noqa: E402

VERTEX = "#version 330 core\nin vec2 position;\nvoid main() { gl_Position = vec4(position, 0.0, 1.0); }\n"
FRAGMENT = "#version 330 core\nout vec4 colour;\nvoid main() { colour = vec4(1.0); }\n"


@pytest.fixture
def window() -> Iterator[pyglet.window.Window]:
    win = pyglet.window.Window(32, 32, visible=False)
    yield win
    win.close()
    gc.collect()  # the window's own garbage, now, while pyglet's shadow context is current


class Cycle:
    """Holds a program in a reference cycle, so only the garbage collector frees it."""

    def __init__(self, program: ShaderProgram) -> None:
        self.program = program
        self.me = self


def test_pending_pyglet_garbage_is_collected_before_a_headless_context_is_current(
    window: pyglet.window.Window,
) -> None:
    window.switch_to()
    number = ShaderProgram(Shader(VERTEX, "vertex"), Shader(FRAGMENT, "fragment"))
    program_id = number.id
    gc.disable()  # the cycle must wait for a collection, as it does between two automatic ones
    raised: list[str] = []
    previous = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: raised.append(repr(unraisable.exc_value))
    try:
        Cycle(number)
        del number
        headless = create_headless_context()  # current now, as during an export
        try:
            gc.collect()  # the collector runs while the export draws
        finally:
            headless.release()
    finally:
        sys.unraisablehook = previous
        gc.enable()
    assert raised == []
    window.switch_to()
    assert not pyglet.gl.glIsProgram(program_id)  # deleted, in pyglet's own context
