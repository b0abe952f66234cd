"""The documented GL contract, checked on a real (headless EGL) context: uploading
``texture_array()`` unchanged puts each image's TOP row at v = 0 of its layer."""

from __future__ import annotations

from collections.abc import Iterator

import moderngl
import numpy as np
import pytest
from PIL import Image

from engine.model import Direction
from themes import load_theme
from viewer3d.render.offscreen import create_headless_context

VERTEX = """
#version 330
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
FRAGMENT = """
#version 330
uniform sampler2DArray tiles;
uniform float layer;
out vec4 colour;
void main() { colour = texture(tiles, vec3(gl_FragCoord.xy / 64.0, layer)); }
"""


@pytest.fixture(scope="module")
def ctx() -> Iterator[moderngl.Context]:
    context = create_headless_context()  # as the viewer makes one (pending pyglet garbage collected first)
    yield context
    context.release()


@pytest.mark.parametrize(
    ("name", "key"), [("default", "conveyor-up"), ("default", "robot"), ("pen", "wall-f"), ("pen", "start-right")]
)
def test_layer_sampled_at_v_equals_png_row(ctx: moderngl.Context, name: str, key: str) -> None:
    theme = load_theme(name)
    array, layer_of = theme.texture_array()
    texture = ctx.texture_array((64, 64, array.shape[0]), 4, array.tobytes())
    texture.filter = (moderngl.NEAREST, moderngl.NEAREST)
    program = ctx.program(vertex_shader=VERTEX, fragment_shader=FRAGMENT)
    program["layer"].value = float(layer_of[key])
    quad = ctx.buffer(np.array([-1, -1, 1, -1, -1, 1, 1, 1], dtype="f4").tobytes())
    vao = ctx.vertex_array(program, [(quad, "2f", "pos")])
    target = ctx.framebuffer(color_attachments=[ctx.texture((64, 64), 4)])
    target.use()
    ctx.disable(moderngl.BLEND)
    texture.use(0)
    vao.render(moderngl.TRIANGLE_STRIP)
    # Framebuffer row j holds v = (j + 0.5) / 64; read() returns row 0 first.
    rendered = np.frombuffer(target.read(components=4), dtype=np.uint8).reshape(64, 64, 4)
    expected = array[layer_of[key]]
    if key.startswith("start-"):
        expected = np.asarray(theme.start_marker(Direction.RIGHT))
    else:
        with Image.open(theme.path / f"{key}.png") as png:
            np.testing.assert_array_equal(expected, np.asarray(png.convert("RGBA")))
    np.testing.assert_array_equal(rendered, expected)  # v = 0 row is the PNG's top row
    for obj in (vao, quad, program, texture, target):
        obj.release()
