"""Draw a Tron moment with moderngl: a dark floor with a grid, blocked fields as dark blocks (both
with the theme's Tron pictures when it has them: ``textures``), light walls as glowing ribbons in
each bot's colour, cycles as bright wedges, crashes as bursts.

Everything is an instanced box (centre, half size, colour, yaw, light) drawn by one small shader;
light walls are drawn twice, the second time larger and additively blended, which reads as glow.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import moderngl
import numpy as np
from numpy.typing import NDArray

from engine.tron.arena import Arena
from viewer3d.games.tron.textures import TronTextures
from viewer3d.games.tron.timeline import WALL_HEIGHT, Moment, WallRuns, bot_colour
from viewer3d.render.renderer import LOCATOR_BELOW_PX, Locator, tile_pixels
from viewer3d.render.state import CameraMatrices

FLOATS = 11  # centre3 half3 colour3 yaw1 light1

_VERTEX = """
#version 330
uniform mat4 u_view;
uniform mat4 u_proj;
in vec3 in_pos;
in vec3 in_normal;
in vec3 i_centre;
in vec3 i_half;
in vec3 i_colour;
in float i_yaw;
in float i_light;
out vec3 v_normal;
out vec3 v_colour;
out float v_light;
out vec3 v_world;
void main() {
    float c = cos(i_yaw), s = sin(i_yaw);
    vec3 p = in_pos * i_half;
    vec3 r = vec3(c * p.x - s * p.z, p.y, s * p.x + c * p.z);
    vec3 n = vec3(c * in_normal.x - s * in_normal.z, in_normal.y, s * in_normal.x + c * in_normal.z);
    vec4 world = vec4(i_centre + r, 1.0);
    v_world = world.xyz;
    v_normal = n;
    v_colour = i_colour;
    v_light = i_light;
    gl_Position = u_proj * u_view * world;
}
"""

_FRAGMENT = """
#version 330
uniform float u_alpha;
in vec3 v_normal;
in vec3 v_colour;
in float v_light;
in vec3 v_world;
out vec4 f_colour;
uniform sampler2D u_floor;
uniform sampler2D u_blocked;
uniform sampler2D u_trail;
uniform float u_has_floor;
uniform float u_has_blocked;
uniform float u_has_trail;
uniform float u_wall_height;
void main() {
    vec3 colour = v_colour;
    if (v_light > 2.5) {  // a blocked field: the theme's picture on its top and sides, lit
        vec2 uv = abs(v_normal.y) > 0.5 ? v_world.xz : vec2(abs(v_normal.x) > 0.5 ? v_world.z : v_world.x,
                                                              (0.6 - v_world.y) / 0.6);
        if (u_has_blocked > 0.5) colour = texture(u_blocked, uv).rgb;
        vec3 light = normalize(vec3(0.4, 1.0, 0.3));
        float diffuse = 0.45 + 0.55 * max(dot(normalize(v_normal), light), 0.0);
        f_colour = vec4(colour * diffuse, 1.0);
        return;
    }
    if (v_light > 1.5 && u_has_floor > 0.5 && v_normal.y > 0.5) {  // the floor: the theme's picture per field
        f_colour = vec4(texture(u_floor, v_world.xz).rgb, 1.0);
        return;
    }
    if (v_light > 1.5) {  // the floor: a faint grid of field borders
        vec2 cell = fract(v_world.xz);
        float line = step(cell.x, 0.03) + step(0.97, cell.x) + step(cell.y, 0.03) + step(0.97, cell.y);
        colour = mix(colour, vec3(0.12, 0.22, 0.32), clamp(line, 0.0, 1.0));
        f_colour = vec4(colour, 1.0);
        return;
    }
    if (v_light > 1.1 && u_has_trail > 0.5) {  // a light wall: the theme's pattern along it
        colour *= texture(u_trail, vec2(v_world.x + v_world.z, 1.0 - v_world.y / u_wall_height)).rgb;
    }
    if (v_light > 0.5) {
        float core = 0.75 + 0.25 * abs(v_normal.y);
        f_colour = vec4(colour * core, u_alpha);
        return;
    }
    vec3 light = normalize(vec3(0.4, 1.0, 0.3));
    float diffuse = 0.35 + 0.65 * max(dot(normalize(v_normal), light), 0.0);
    f_colour = vec4(colour * diffuse, 1.0);
}
"""


def _cube() -> NDArray[np.float32]:
    """36 vertices of the unit cube (-1..1) with face normals: position3 normal3."""
    faces = [
        ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
        ((-1, 0, 0), (0, 0, 1), (0, 1, 0)),
        ((0, 1, 0), (0, 0, 1), (1, 0, 0)),
        ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
        ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
        ((0, 0, -1), (0, 1, 0), (1, 0, 0)),
    ]
    rows = []
    for normal, a, b in faces:
        n, u, v = np.array(normal, float), np.array(a, float), np.array(b, float)
        corners = [n + su * u + sv * v for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, -1), (1, 1), (-1, 1))]
        if np.dot(np.cross(u, v), n) < 0:
            corners = corners[::-1]
        rows += [[*c, *n] for c in corners]
    return np.array(rows, dtype=np.float32)


def static_boxes(arena: Arena) -> NDArray[np.float32]:
    """The floor, the blocked fields and a rim around the board."""
    w, h = arena.width, arena.height
    rows = [[w / 2, -0.05, h / 2, w / 2, 0.05, h / 2, 0.02, 0.03, 0.06, 0.0, 2.0]]
    blocked = np.frombuffer(arena.blocked, dtype=np.uint8).reshape(h, w)
    ys, xs = np.nonzero(blocked)
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        rows.append([x + 0.5, 0.3, y + 0.5, 0.5, 0.3, 0.5, 0.16, 0.18, 0.24, 0.0, 3.0])  # light 3: blocked
    rim = 0.15
    for centre, half in (
        ((w / 2, 0.1, -rim), (w / 2 + 2 * rim, 0.1, rim)),
        ((w / 2, 0.1, h + rim), (w / 2 + 2 * rim, 0.1, rim)),
        ((-rim, 0.1, h / 2), (rim, 0.1, h / 2)),
        ((w + rim, 0.1, h / 2), (rim, 0.1, h / 2)),
    ):
        rows.append([*centre, *half, 0.1, 0.45, 0.6, 0.0, 1.0])
    return np.array(rows, dtype=np.float32)


WALL_THICKNESS = 0.05


def wall_rows(
    bot: int, ends: NDArray[np.float64], height: float = WALL_HEIGHT
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """The solid and glow boxes of bot ``bot``'s walls from (x0, z0) to (x1, z1) (rows of ``ends``)."""
    colour = np.array(bot_colour(bot), dtype=np.float64)
    n = len(ends)
    solid = np.zeros((n, FLOATS), np.float32)
    centre_x = (ends[:, 0] + ends[:, 2]) / 2 + 0.5
    centre_z = (ends[:, 1] + ends[:, 3]) / 2 + 0.5
    half_x = np.abs(ends[:, 2] - ends[:, 0]) / 2 + WALL_THICKNESS
    half_z = np.abs(ends[:, 3] - ends[:, 1]) / 2 + WALL_THICKNESS
    solid[:, 0], solid[:, 1], solid[:, 2] = centre_x, height / 2, centre_z
    solid[:, 3], solid[:, 4], solid[:, 5] = half_x, height / 2, half_z
    solid[:, 6:9] = colour
    solid[:, 10] = 1.25  # a wall
    glow = solid.copy()
    glow[:, 3] += 0.12
    glow[:, 4] += 0.08
    glow[:, 5] += 0.12
    glow[:, 6:9] = colour * 0.35
    glow[:, 10] = 1.0
    return solid, glow


class SettledWalls:
    """The settled light walls (``Moment.walls``) in GPU buffers, one pair (solid, glow) per bot:
    each run is uploaded once, when it settles, and a frame draws a prefix of the buffer. Going back
    in time draws fewer; a new game (other path lists) starts again. So the cost of a frame does not
    grow with the rounds played (before, every wall of every round was rebuilt in Python and
    uploaded every frame: 0.9 s a frame at round 60,000 of a 512x512 arena)."""

    def __init__(self, ctx: moderngl.Context, vao: Callable[[moderngl.Buffer], moderngl.VertexArray]) -> None:
        self.ctx, self._vao = ctx, vao
        self._bots: dict[int, list[Any]] = {}  # bot: [path, uploaded, capacity, solid buf, glow buf, vaos]
        self.rows_uploaded = 0  # runs written to the GPU (tests count work with it)

    def update(self, walls: Sequence[WallRuns]) -> list[tuple[moderngl.VertexArray, moderngl.VertexArray, int]]:
        """Upload the newly settled runs; (solid vao, glow vao, runs to draw) per bot."""
        drawn = []
        for wall in walls:
            entry = self._bots.get(wall.bot)
            if entry is None or entry[0] is not wall.path:
                if entry is not None:
                    self._release(entry)
                entry = self._bots[wall.bot] = [wall.path, 0, 0, None, None, None, None]
            if wall.count > entry[1]:
                if wall.count > entry[2]:  # grow: a new pair of buffers holding every run so far
                    capacity = max(64, 2 * wall.count)
                    self._release(entry)
                    solid_buffer = self.ctx.buffer(reserve=capacity * FLOATS * 4)
                    glow_buffer = self.ctx.buffer(reserve=capacity * FLOATS * 4)
                    entry[1:] = [
                        0,
                        capacity,
                        solid_buffer,
                        glow_buffer,
                        self._vao(solid_buffer),
                        self._vao(glow_buffer),
                    ]
                first = entry[1]
                ends = np.array([wall.run(i) for i in range(first, wall.count)], dtype=np.float64).reshape(-1, 4)
                solid, glow = wall_rows(wall.bot, ends)
                entry[3].write(solid.tobytes(), offset=first * FLOATS * 4)
                entry[4].write(glow.tobytes(), offset=first * FLOATS * 4)
                entry[1] = wall.count
                self.rows_uploaded += len(ends)
            if wall.count and entry[5] is not None:
                drawn.append((entry[5], entry[6], wall.count))
        return drawn

    @staticmethod
    def _release(entry: list[Any]) -> None:
        for item in entry[3:]:
            if item is not None:
                item.release()
        entry[3:] = [None, None, None, None]

    def release(self) -> None:
        for entry in self._bots.values():
            self._release(entry)
        self._bots.clear()


def dynamic_boxes(moment: Moment) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Fresh light walls, cycles and crash bursts (solid), and the glow around walls and bursts
    (blended); the settled walls (``moment.walls``) are ``SettledWalls``'."""
    solid: list[list[float]] = []
    glow: list[list[float]] = []
    thickness = WALL_THICKNESS
    for seg in moment.fresh:
        colour = bot_colour(seg.bot)
        cx, cz = (seg.x0 + seg.x1) / 2 + 0.5, (seg.z0 + seg.z1) / 2 + 0.5
        hx, hz = abs(seg.x1 - seg.x0) / 2 + thickness, abs(seg.z1 - seg.z0) / 2 + thickness
        solid.append([cx, seg.height / 2, cz, hx, seg.height / 2, hz, *colour, 0.0, 1.25])  # 1.25: a wall
        glow.append(
            [cx, seg.height / 2, cz, hx + 0.12, seg.height / 2 + 0.08, hz + 0.12, *(c * 0.35 for c in colour), 0.0, 1.0]
        )
    for cycle in moment.cycles:
        if not cycle.alive:
            continue
        colour = bot_colour(cycle.bot)
        x, z = cycle.x + 0.5, cycle.z + 0.5
        solid.append([x, 0.2, z, 0.42, 0.17, 0.2, 0.85, 0.9, 0.95, cycle.yaw, 0.0])  # body
        solid.append(
            [x + 0.3 * math.cos(cycle.yaw), 0.3, z + 0.3 * math.sin(cycle.yaw), 0.1, 0.1, 0.21, *colour, cycle.yaw, 1.0]
        )
        solid.append(
            [
                x - 0.3 * math.cos(cycle.yaw),
                0.26,
                z - 0.3 * math.sin(cycle.yaw),
                0.1,
                0.12,
                0.22,
                *colour,
                cycle.yaw,
                1.0,
            ]
        )
    for flash in moment.flashes:
        colour = bot_colour(flash.bot)
        size = 0.2 + 1.1 * flash.phase
        fade = (1.0 - flash.phase) ** 1.5
        white = [min(1.0, c * 0.5 + 0.6) * fade for c in colour]
        solid.append(
            [flash.x + 0.5, 0.3, flash.z + 0.5, size * 0.45, size * 0.45, size * 0.45, *white, flash.phase * 3, 1.0]
        )
        glow.append([flash.x + 0.5, 0.3, flash.z + 0.5, size, size, size, *(c * fade * 0.6 for c in colour), 0.0, 1.0])
    empty = np.zeros((0, FLOATS), dtype=np.float32)
    return (np.array(solid, dtype=np.float32) if solid else empty, np.array(glow, dtype=np.float32) if glow else empty)


def cycle_rings(moment: Moment) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """A locator ring for each cycle still riding, in its bot's colour, at its body's centre."""
    return [((c.x + 0.5, 0.3, c.z + 0.5), bot_colour(c.bot)) for c in moment.cycles if c.alive]


class TronRenderer:
    """Owns the GL objects for one arena; ``render(camera, moment, viewport)`` draws into the bound
    framebuffer (``viewer3d.games.base.GameRenderer[Moment]``)."""

    def __init__(self, ctx: moderngl.Context, arena: Arena, theme: object | None = None) -> None:
        self.ctx = ctx
        self.arena = arena
        self.theme = theme  # the window watches its folder (live reload) and passes it on
        self.textures = TronTextures(ctx, theme)
        self.program = ctx.program(vertex_shader=_VERTEX, fragment_shader=_FRAGMENT)
        self.cube = ctx.buffer(_cube().tobytes())
        self.static = static_boxes(arena)
        self.static_buffer = ctx.buffer(self.static.tobytes())
        self.static_vao = self._vao(self.static_buffer)
        self.dynamic_buffer = ctx.buffer(reserve=FLOATS * 4 * 64)
        self.dynamic_vao = self._vao(self.dynamic_buffer)
        self.walls = SettledWalls(ctx, self._vao)
        self.locator = Locator(ctx)
        #: Whether the last frame ringed the cycles (tiles too small to see them: a 512x512 arena).
        self.locators_drawn = False

    def _vao(self, instances: moderngl.Buffer) -> moderngl.VertexArray:
        return self.ctx.vertex_array(
            self.program,
            [
                (self.cube, "3f 3f", "in_pos", "in_normal"),
                (instances, "3f 3f 3f 1f 1f/i", "i_centre", "i_half", "i_colour", "i_yaw", "i_light"),
            ],
        )

    def _draw(self, rows: NDArray[np.float32]) -> None:
        if not len(rows):
            return
        data = rows.tobytes()
        if len(data) > self.dynamic_buffer.size:
            self.dynamic_buffer.orphan(max(len(data), 2 * self.dynamic_buffer.size))
            self.dynamic_vao.release()
            self.dynamic_vao = self._vao(self.dynamic_buffer)
        self.dynamic_buffer.write(data)
        self.dynamic_vao.render(moderngl.TRIANGLES, vertices=36, instances=len(rows))

    def set_theme(self, theme: object) -> None:
        """The floor and blocked fields take the theme's Tron pictures (``tron/`` in its folder);
        the light walls and cycles keep the bots' colours."""
        self.textures.release()
        self.theme, self.textures = theme, TronTextures(self.ctx, theme)

    def render(self, camera: CameraMatrices, moment: Moment, viewport: tuple[int, int]) -> None:
        ctx = self.ctx
        ctx.viewport = (0, 0, *viewport)
        ctx.clear(0.01, 0.015, 0.035, 1.0)
        ctx.enable(moderngl.DEPTH_TEST)
        ctx.disable(moderngl.BLEND)
        self.program["u_view"].write(np.asarray(camera.view, dtype=np.float32).tobytes())  # type: ignore[union-attr]
        self.program["u_proj"].write(np.asarray(camera.projection, dtype=np.float32).tobytes())  # type: ignore[union-attr]
        self.program["u_alpha"].value = 1.0  # type: ignore[union-attr]
        self.textures.use(self.program)
        if "u_wall_height" in self.program:
            self.program["u_wall_height"].value = WALL_HEIGHT  # type: ignore[union-attr]
        self.static_vao.render(moderngl.TRIANGLES, vertices=36, instances=len(self.static))
        settled = self.walls.update(moment.walls)
        for solid_vao, _, count in settled:
            solid_vao.render(moderngl.TRIANGLES, vertices=36, instances=count)
        solid, glow = dynamic_boxes(moment)
        self._draw(solid)
        if len(glow) or settled:
            ctx.enable(moderngl.BLEND)
            ctx.blend_func = moderngl.ONE, moderngl.ONE  # additive: overlapping glow brightens
            framebuffer = ctx.fbo  # glow is seen through, it hides nothing: no depth writes
            framebuffer.depth_mask = False
            self.program["u_alpha"].value = 1.0  # type: ignore[union-attr]
            for _, glow_vao, count in settled:
                glow_vao.render(moderngl.TRIANGLES, vertices=36, instances=count)
            self._draw(glow)
            framebuffer.depth_mask = True
            ctx.disable(moderngl.BLEND)
        rings = cycle_rings(moment)
        self.locators_drawn = bool(rings) and tile_pixels(camera, viewport, self.arena.width, self.arena.height) < (
            LOCATOR_BELOW_PX
        )
        if self.locators_drawn:
            view = np.asarray(camera.view, dtype=np.float32).tobytes()
            proj = np.asarray(camera.projection, dtype=np.float32).tobytes()
            self.locator.draw(view, proj, viewport, rings)

    def release(self) -> None:
        self.walls.release()
        self.locator.release()
        for item in (
            self.static_vao,
            self.dynamic_vao,
            self.static_buffer,
            self.dynamic_buffer,
            self.cube,
            self.program,
        ):
            item.release()
        self.textures.release()
