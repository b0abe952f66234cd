"""The scene renderer: draws a board, its animated elements and the robot with moderngl into
whatever framebuffer is bound. Per-frame cost is a fixed handful of draw calls:

1. the floor: ONE quad for the whole board, tiles looked up per pixel (O(pixels)),
2. pits: one instanced quad per hole looking down its shaft, one draw; active rotators likewise,
3. every box (walls, crates, pusher plates, crusher jaws, flags, rim) in ONE instanced draw,
   skipped when a tile is only a few pixels wide (walls are then painted flat by the floor),
4. the robot mesh,
5. the ground around the board (``environment.py``): one draw of a fixed grid, after everything
   opaque, so the depth test drops what the board hides,
6. goal light columns in one instanced additive draw,
7. the robot locator: a ring of fixed screen size around the robot when tiles are small on screen
   (held at the screen's edge when the robot is off screen), so it is found at every zoom.

Shadows are baked, not rendered: the floor shader darkens the floor along the walls it reads from
the tile's info texel anyway and under the robot's soft blob, so there is no shadow pass.

Only the few tiles whose animation phase changed are re-uploaded each frame. On a software
rasteriser (llvmpipe) anisotropic filtering costs about four times the whole floor, so it is
used only on hardware GL unless asked for; likewise trilinear filtering falls back to the nearest
mip level there."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

import moderngl
import numpy as np
from numpy.typing import NDArray

from engine.model import START_CHARS, Board
from engine.resources import read_resource_text
from themes import ThemeError, load_theme
from viewer3d import coords
from viewer3d.fallback_theme import FallbackTheme
from viewer3d.render.culling import ChunkedInstances
from viewer3d.render.environment import BACKGROUND, ground_defines, ground_grid, shadow_reach
from viewer3d.render.meshes import MATERIAL_DECAL, robot_mesh, unit_cube
from viewer3d.render.scene import (
    DIRECTION_CODE,
    KIND_BITS,
    KIND_CONVEYOR,
    KIND_CRUSHER,
    KIND_FLOOR,
    KIND_GOAL,
    KIND_HOLE,
    KIND_MASK,
    KIND_OIL,
    KIND_PUSHER,
    KIND_ROTATOR_LEFT,
    KIND_ROTATOR_RIGHT,
    MATERIAL_CRATE,
    MATERIAL_EMISSIVE,
    MATERIAL_HAZARD,
    MATERIAL_PLAIN,
    MATERIAL_WALL,
    WALL_HEIGHT,
    SceneArrays,
    build_scene,
    layer_table,
)
from viewer3d.render.state import CameraMatrices, FrameState, RobotVisual

# Tile size on screen under which 3D boxes are not drawn (the floor paints walls flat). At 6 px a
# wall slab is under a pixel thick and 2-3 px high, while drawing every box on screen costs about
# 2 us of CPU each on llvmpipe: at 200 tiles across a 512x512 board that was 40,000 boxes, 90 ms.
FLAT_WALLS_BELOW_PX = 6.0
LOCATOR_BELOW_PX = 24.0  # tile size on screen under which the robot gets its locator ring
LOCATOR_RADIUS_PX = 20.0
ROBOT_SHADOW_RADIUS = 0.62  # the robot's soft blob shadow on the floor (the robot is 0.72 wide)
ROBOT_SCALE = 1.2  # the mesh is modelled at 0.6 of a tile; this makes it read well in the iso views
MARKER_PX = 10.0  # zoomed far out, the robot and goal beacons grow to stay about this many pixels wide
FEW_GOALS = 16  # beacons grow only on boards with a few goals (a contest board has one)


class ThemeLike(Protocol):
    def texture_array(self) -> tuple[NDArray[np.uint8], dict[str, int]]: ...


def shader_constants() -> tuple[str, ...]:
    """The codes the shaders share with ``viewer3d.render.scene`` and ``meshes`` (tile kinds in the
    info texture, box materials, the direction vectors of a kind's high bits), as ``#define``s, so
    they are written once, in Python, and never kept in step by hand."""
    kinds = {
        "KIND_FLOOR": KIND_FLOOR,
        "KIND_HOLE": KIND_HOLE,
        "KIND_CONVEYOR": KIND_CONVEYOR,
        "KIND_ROTATOR_LEFT": KIND_ROTATOR_LEFT,
        "KIND_ROTATOR_RIGHT": KIND_ROTATOR_RIGHT,
        "KIND_PUSHER": KIND_PUSHER,
        "KIND_CRUSHER": KIND_CRUSHER,
        "KIND_GOAL": KIND_GOAL,
        "KIND_OIL": KIND_OIL,
    }
    materials = {
        "MATERIAL_PLAIN": MATERIAL_PLAIN,
        "MATERIAL_WALL": MATERIAL_WALL,
        "MATERIAL_CRATE": MATERIAL_CRATE,
        "MATERIAL_HAZARD": MATERIAL_HAZARD,
        "MATERIAL_EMISSIVE": MATERIAL_EMISSIVE,
        "MATERIAL_DECAL": MATERIAL_DECAL,
    }
    by_code = sorted(DIRECTION_CODE.items(), key=lambda item: item[1])
    assert [code for _, code in by_code] == list(range(len(by_code)))
    vectors = ", ".join(f"vec2({float(d.dx):.1f}, {float(d.dy):.1f})" for d, _ in by_code)
    return (
        f"KIND_BITS {KIND_BITS}u",
        f"KIND_MASK {KIND_MASK}u",
        *(f"{name} {code}u" for name, code in kinds.items()),
        *(f"{name} {value:.1f}" for name, value in materials.items()),
        "IS_MATERIAL(m, code) (abs((m) - (code)) < 0.5)",
        f"DIRECTION_VECTORS vec2[{len(by_code)}]({vectors})",
    )


def _program(ctx: moderngl.Context, vertex: str, fragment: str, defines: tuple[str, ...] = ()) -> moderngl.Program:
    """Compile shaders shipped in this package, with the shared constants and ``defines`` as
    ``#define``s after ``#version``."""
    constants = shader_constants()

    def source(name: str) -> str:
        text = read_resource_text(__package__ or "viewer3d.render", name)
        version, _, body = text.partition("\n")
        return "\n".join([version, *(f"#define {d}" for d in (*constants, *defines)), body])

    return ctx.program(vertex_shader=source(vertex), fragment_shader=source(fragment))


def _set(program: moderngl.Program, name: str, value: object) -> None:
    """Set a uniform if the compiler kept it (unused uniforms are optimised away)."""
    if name in program:
        member = program[name]
        if isinstance(value, bytes):
            member.write(value)  # type: ignore[union-attr]
        else:
            member.value = value  # type: ignore[union-attr]


#: The robot's locator ring: yellow, as the theme's marks.
LOCATOR_YELLOW = (1.0, 0.86, 0.2)


class Locator:
    """A ring of fixed screen size around a point (``locator.vert``/``.frag``): found at every zoom,
    held at the screen's edge when the point is off screen. The robot has one; so has each Tron
    cycle, in its bot's colour (on a 512x512 arena a cycle is a pixel in the whole view)."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.program = _program(ctx, "locator.vert", "locator.frag")
        corners = np.array([0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1], dtype=np.float32)
        self._corners = ctx.buffer(corners.tobytes())
        self.vao = ctx.vertex_array(self.program, [(self._corners, "2f", "in_corner")])

    def draw(
        self,
        view: bytes,
        proj: bytes,
        viewport: tuple[int, int],
        rings: Sequence[tuple[tuple[float, float, float], tuple[float, float, float]]],
        pulse: float = 0.5,
    ) -> None:
        """One ring for each ``(world centre, colour)``, over everything (no depth test)."""
        ctx = self.ctx
        ctx.disable(moderngl.DEPTH_TEST)
        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        for name, value in (
            ("u_view", view),
            ("u_proj", proj),
            ("u_viewport", (float(viewport[0]), float(viewport[1]))),
            ("u_radius", LOCATOR_RADIUS_PX),
            ("u_pulse", pulse),
        ):
            _set(self.program, name, value)
        for centre, colour in rings:
            _set(self.program, "u_center", centre)
            _set(self.program, "u_colour", colour)
            self.vao.render(moderngl.TRIANGLES)
        ctx.disable(moderngl.BLEND)
        ctx.enable(moderngl.DEPTH_TEST)

    def release(self) -> None:
        for item in (self.vao, self.program, self._corners):
            item.release()


def tile_pixels(camera: CameraMatrices, viewport: tuple[int, int], width: int, height: int) -> float:
    """How many pixels one tile of a ``width`` x ``height`` board spans near the middle of the
    screen (for level of detail)."""
    view_proj = camera.view_proj_columns()
    hit = coords.pick_floor(viewport[0] / 2, viewport[1] / 2, view_proj, viewport)
    if hit is None:
        x, _, z = coords.board_center(width, height)
    else:
        x, z = hit
    a = coords.project((x, 0.0, z), view_proj, viewport)
    b = coords.project((x + 1.0, 0.0, z), view_proj, viewport)
    c = coords.project((x, 0.0, z + 1.0), view_proj, viewport)
    return max(math.hypot(b[0] - a[0], b[1] - a[1]), math.hypot(c[0] - a[0], c[1] - a[1]))


def default_theme() -> ThemeLike:
    """The ``themes`` package's default theme, or the built-in one when its files cannot be loaded."""
    try:
        return load_theme("default")
    except (ThemeError, OSError):  # a damaged install must never stop the viewer
        return FallbackTheme()


def _mean_colour(pixels: NDArray[np.uint8], mask: NDArray[np.bool_]) -> tuple[float, float, float] | None:
    if not mask.any():
        return None
    mean = pixels[mask][:, :3].astype(np.float64).mean(axis=0) / 255.0
    return (float(mean[0]), float(mean[1]), float(mean[2]))


def start_tiles(chars: NDArray[np.uint8]) -> list[tuple[int, int, str]]:
    """(x, y, facing name) of every start tile, read off the scene's character array with numpy
    (``Board.starts`` walks all 262,144 tiles of a 512x512 board in Python: 0.2-0.4 s)."""
    found: list[tuple[int, int, str]] = []
    for char, direction in START_CHARS.items():
        ys, xs = np.nonzero(chars == ord(char))
        found.extend((int(x), int(y), direction.name.lower()) for x, y in zip(xs, ys, strict=True))
    return sorted(found, key=lambda start: (start[1], start[0]))


def model_matrix(robot: RobotVisual, grow: float = 1.0) -> NDArray[np.float32]:
    """Column-vector model matrix: translate to the tile centre, turn by yaw, lean by tilt, scale
    (times ``grow``, which keeps the robot visible on a far-away huge board) and squash."""
    x, y, z = coords.tile_center(robot.bx, robot.by, robot.height)
    c, s = math.cos(robot.yaw), math.sin(robot.yaw)
    yaw = np.array([[c, 0, s, 0], [0, 1, 0, 0], [-s, 0, c, 0], [0, 0, 0, 1]], dtype=np.float64)
    ct, st = math.cos(robot.tilt), math.sin(robot.tilt)
    tilt = np.array([[1, 0, 0, 0], [0, ct, -st, 0], [0, st, ct, 0], [0, 0, 0, 1]], dtype=np.float64)
    size = ROBOT_SCALE * grow
    squash = np.diag([size, size * max(robot.squash, 0.02), size, 1.0])
    translate = np.eye(4)
    translate[:3, 3] = (x, y, z)
    return (translate @ yaw @ tilt @ squash).astype(np.float32)


class SceneRenderer:
    """Draws one board. Create it once per board; call :meth:`render` every frame."""

    def __init__(
        self, ctx: moderngl.Context, board: Board, theme: ThemeLike | None = None, anisotropy: float | None = None
    ) -> None:
        self.ctx = ctx
        software = any(name in ctx.info.get("GL_RENDERER", "").lower() for name in ("llvmpipe", "softpipe", "swrast"))
        self.anisotropy = anisotropy if anisotropy is not None else (1.0 if software else 8.0)
        # trilinear on hardware; bilinear within the nearest mip level on software GL (cheaper per pixel)
        self.min_filter = moderngl.LINEAR_MIPMAP_NEAREST if software else moderngl.LINEAR_MIPMAP_LINEAR
        self.board = board
        self.scene: SceneArrays = build_scene(board)
        self._info = self.scene.info.copy()
        self._active: dict[tuple[int, int], int] = {}
        self._trail_source: NDArray[np.float32] | None = None
        self.wall_colour = (0.78, 0.48, 0.22)
        self.robot_colour = (0.24, 0.5, 0.9)
        self.wall_scale = 1.0  # theme.json's wall height over the modelled one
        self.light = 1.0
        self.picture_layers = {"crate": 0.0, "hole": 0.0, "robot": -1.0, "cursor": -1.0}
        self.props_drawn = False

        self.floor_program = _program(ctx, "floor.vert", "floor.frag")
        self.trail_floor_program = _program(ctx, "floor.vert", "floor.frag", ("TRAIL",))
        self.props_program = _program(ctx, "props.vert", "lit.frag")
        self.patterned_program = _program(ctx, "props.vert", "lit.frag", ("PATTERNS",))
        self.moving_program = _program(ctx, "props.vert", "lit.frag", ("ANIMATED", "PATTERNS"))
        self.mesh_program = _program(ctx, "mesh.vert", "lit.frag", ("PATTERNS",))
        self.glow_program = _program(ctx, "glow.vert", "glow.frag")
        self.pit_program = _program(ctx, "pit.vert", "pit.frag")
        self.rotor_program = _program(ctx, "rotor.vert", "rotor.frag")
        self.locator = Locator(ctx)
        self.ground_program = _program(ctx, "ground.vert", "ground.frag", ground_defines())
        self.show_environment = True  # the ground plane around the board (environment.py)
        self.show_locator = True
        self.locator_drawn = False

        width, height = board.width, board.height
        self.info_texture = ctx.texture((width, height), 4, self._info.tobytes(), dtype="u1")
        self.info_texture.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self.trail_texture = ctx.texture((width, height), 1, np.zeros((height, width), np.uint8).tobytes())
        self.trail_texture.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self.tile_textures: moderngl.TextureArray | None = None

        quad = np.array([0, 0, width, 0, width, height, 0, 0, width, height, 0, height], dtype=np.float32)
        self._floor_vbo = ctx.buffer(quad.tobytes())
        self.floor_vao = ctx.vertex_array(self.floor_program, [(self._floor_vbo, "2f", "in_xz")])
        self.trail_floor_vao = ctx.vertex_array(self.trail_floor_program, [(self._floor_vbo, "2f", "in_xz")])

        cube, cube_indices = unit_cube(bottom=False)
        self._cube_vbo = ctx.buffer(cube.tobytes())
        self._cube_ibo = ctx.buffer(cube_indices.tobytes())
        instances = self.scene.instances
        moving = instances[:, 12] >= 0
        patterned = ~moving & np.isin(instances[:, 14], (MATERIAL_CRATE, MATERIAL_HAZARD))
        plain = ~moving & ~patterned
        self.instance_count = int(plain.sum())
        self.patterned_count = int(patterned.sum())
        self.moving_count = int(moving.sum())
        self.chunks = [ChunkedInstances(instances[mask]) for mask in (plain, patterned, moving)]
        # glMultiDrawElementsIndirect with base instance; older contexts copy the visible chunks'
        # rows into the instance buffers instead (see _draw_chunks). ``culling`` False draws every box.
        self.indirect = ctx.version_code >= 430
        self.culling = True
        self._streamed: list[NDArray[np.bool_] | None] = [None, None, None]  # chunks now in each buffer
        self._streamed_rows = [0, 0, 0]
        self._index_count = len(cube_indices)
        self._instance_vbo, self._patterned_vbo, self._moving_vbo = (
            ctx.buffer(chunked.rows.tobytes() if len(chunked.rows) else b"\0" * 60) for chunked in self.chunks
        )
        self._commands = ctx.buffer(reserve=20 * 64, dynamic=True)
        self.instances_drawn = 0
        layout = ("3f 3f 3f 3f 2f 1f/i", "i_center", "i_half", "i_color", "i_move", "i_tile", "i_material")
        cube_layout = (self._cube_vbo, "3f 3f 2f", "in_pos", "in_normal", "in_uv")
        self.props_vao = ctx.vertex_array(
            self.props_program,
            [cube_layout, (self._instance_vbo, *layout)],
            index_buffer=self._cube_ibo,
            skip_errors=True,
        )
        self.patterned_vao = ctx.vertex_array(
            self.patterned_program,
            [cube_layout, (self._patterned_vbo, *layout)],
            index_buffer=self._cube_ibo,
            skip_errors=True,
        )
        self.moving_vao = ctx.vertex_array(
            self.moving_program, [cube_layout, (self._moving_vbo, *layout)], index_buffer=self._cube_ibo
        )
        glows = self.scene.glows
        self.glow_count = len(glows)
        self._glow_vbo = ctx.buffer(glows.tobytes() if len(glows) else b"\0" * 24)
        self.glow_vao = ctx.vertex_array(
            self.glow_program,
            [(self._cube_vbo, "3f 20x", "in_pos"), (self._glow_vbo, "3f 3f/i", "i_center", "i_half")],
            index_buffer=self._cube_ibo,
        )
        corners = np.array([0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1], dtype=np.float32)
        self._corner_vbo = ctx.buffer(corners.tobytes())
        holes = np.argwhere((self.scene.info[..., 2] & KIND_MASK) == KIND_HOLE)[:, ::-1].astype(np.float32)
        self.hole_count = len(holes)
        self._hole_vbo = ctx.buffer(holes.tobytes() if len(holes) else b"\0" * 8)
        self.pit_vao = ctx.vertex_array(
            self.pit_program, [(self._corner_vbo, "2f", "in_corner"), (self._hole_vbo, "2f/i", "i_tile")]
        )
        self._rotor_vbo = ctx.buffer(reserve=16 * 64, dynamic=True)
        self.rotor_vao = ctx.vertex_array(
            self.rotor_program,
            [(self._corner_vbo, "2f", "in_corner"), (self._rotor_vbo, "2f 1f 1f/i", "i_tile", "i_angle", "i_layer")],
        )
        self.starts = start_tiles(self.scene.chars)
        self._marker_vbo = ctx.buffer(reserve=16 * max(1, len(self.starts)))
        self.marker_vao = ctx.vertex_array(
            self.rotor_program,
            [(self._corner_vbo, "2f", "in_corner"), (self._marker_vbo, "2f 1f 1f/i", "i_tile", "i_angle", "i_layer")],
        )
        self.marker_count = 0
        self._pointer_vbo = ctx.buffer(reserve=16)
        self.pointer_vao = ctx.vertex_array(
            self.rotor_program,
            [(self._corner_vbo, "2f", "in_corner"), (self._pointer_vbo, "2f 1f 1f/i", "i_tile", "i_angle", "i_layer")],
        )
        ground, ground_indices = ground_grid(width, height)
        self._ground_vbo = ctx.buffer(ground.tobytes())
        self._ground_ibo = ctx.buffer(ground_indices.tobytes())
        self.ground_vao = ctx.vertex_array(
            self.ground_program,
            [(self._ground_vbo, "2f", "in_xz")],
            index_buffer=self._ground_ibo,
            index_element_size=4,
        )
        self._robot_vbo: moderngl.Buffer | None = None
        self.robot_vao: moderngl.VertexArray | None = None
        self.set_theme(theme if theme is not None else default_theme())

    # -- theme -----------------------------------------------------------------------------
    def set_theme(self, theme: ThemeLike) -> None:
        """Switch textures and the colours derived from them (walls, robot) at run time."""
        self.theme = theme
        layers, keys = theme.texture_array()
        layers = np.ascontiguousarray(layers, dtype=np.uint8)
        count, size_y, size_x, _ = layers.shape
        if self.tile_textures is not None:
            self.tile_textures.release()
        self.tile_textures = self.ctx.texture_array((size_x, size_y, count), 4, layers.tobytes())
        self.tile_textures.build_mipmaps()
        self.tile_textures.filter = (self.min_filter, moderngl.LINEAR)
        self.tile_textures.anisotropy = self.anisotropy
        self._info[..., 0] = layer_table(keys)[self.scene.chars]
        self.info_texture.write(self._info.tobytes())

        self._theme_pictures(theme, layers, keys)
        markers = [(x, y, 0.0, float(keys[f"start-{name}"])) for x, y, name in self.starts if f"start-{name}" in keys]
        self.marker_count = len(markers)
        if markers:
            self._marker_vbo.write(np.array(markers, dtype=np.float32).tobytes())
        mesh = robot_mesh(self.robot_colour)
        if self._robot_vbo is not None:
            self._robot_vbo.release()
        if self.robot_vao is not None:
            self.robot_vao.release()
        self._robot_vbo = self.ctx.buffer(mesh.tobytes())
        self.robot_vao = self.ctx.vertex_array(
            self.mesh_program,
            [(self._robot_vbo, "3f 3f 2f 3f 1f", "in_pos", "in_normal", "in_uv", "in_color", "in_material")],
        )

    def _theme_pictures(self, theme: ThemeLike, layers: NDArray[np.uint8], keys: dict[str, int]) -> None:
        """Where each picture goes in 3D (crate faces, pit, robot top, pick marker) and the colours
        the pictures cannot give: ``theme.look`` (theme.json's "3d") or, for other themes, derived."""
        floor = float(keys.get("floor", 0))
        self.picture_layers = {
            "crate": float(keys.get("wall-p", floor)),
            "hole": float(keys.get("hole", floor)),
            "robot": float(keys.get("robot", -1)),
            "cursor": float(keys.get("cursor", -1)),
        }
        look = getattr(theme, "look", None)
        if look is not None:
            self.wall_colour = tuple(look.wall_colour)
            self.robot_colour = tuple(look.robot_colour)
            self.wall_scale = float(look.wall_height) / WALL_HEIGHT
            self.light = float(look.light)
            return
        self.wall_scale, self.light = 1.0, 1.0
        if "floor" in keys and "wall-p" in keys:
            floor_layer, wall_layer = layers[keys["floor"]], layers[keys["wall-p"]]
            differs = (
                np.abs(wall_layer[..., :3].astype(np.int16) - floor_layer[..., :3].astype(np.int16)).sum(axis=2) > 40
            )
            colour = _mean_colour(wall_layer, differs & (wall_layer[..., 3] > 128))
            if colour is not None:
                self.wall_colour = colour
        if "robot" in keys:
            robot = layers[keys["robot"]]
            colour = _mean_colour(robot, robot[..., 3] > 200)
            if colour is not None:
                self.robot_colour = colour

    # -- per frame -------------------------------------------------------------------------
    def _update_phases(self, active: object) -> None:
        wanted: dict[tuple[int, int], int] = {}
        for (x, y), phase in dict(active).items():  # type: ignore[call-overload]
            if 0 <= x < self.board.width and 0 <= y < self.board.height:
                wanted[(x, y)] = round(min(max(float(phase), 0.0), 1.0) * 255)
        changed = {tile for tile in set(self._active) | set(wanted) if self._active.get(tile, 0) != wanted.get(tile, 0)}
        if not changed:
            return
        for x, y in changed:
            self._info[y, x, 3] = wanted.get((x, y), 0)
        if len(changed) > 64:
            self.info_texture.write(self._info.tobytes())
        else:
            for x, y in changed:
                self.info_texture.write(self._info[y, x].tobytes(), viewport=(x, y, 1, 1))
        self._active = wanted

    def _update_trail(self, trail: NDArray[np.float32] | None) -> None:
        if trail is None or trail is self._trail_source:
            return
        data = np.clip(np.asarray(trail, dtype=np.float32) * 255.0 + 0.5, 0, 255).astype(np.uint8)
        if data.shape != (self.board.height, self.board.width):
            raise ValueError(
                f"trail must be (height, width) = {(self.board.height, self.board.width)}, not {data.shape}"
            )
        self.trail_texture.write(np.ascontiguousarray(data).tobytes())
        self._trail_source = trail

    def tile_pixels(self, camera: CameraMatrices, viewport: tuple[int, int]) -> float:
        """How many pixels one tile spans near the middle of the screen (for level of detail)."""
        return tile_pixels(camera, viewport, self.board.width, self.board.height)

    def render(self, camera: CameraMatrices, frame: FrameState, viewport: tuple[int, int]) -> None:
        ctx = self.ctx
        ctx.viewport = (0, 0, *viewport)
        ctx.clear(*BACKGROUND, 1.0, depth=1.0)
        self._update_phases(frame.active)
        self._update_trail(frame.trail)
        view = np.ascontiguousarray(camera.view, dtype="f4").tobytes()
        proj = np.ascontiguousarray(camera.projection, dtype="f4").tobytes()
        tile_px = self.tile_pixels(camera, viewport)
        flat = tile_px < FLAT_WALLS_BELOW_PX
        grow = min(max(MARKER_PX / max(tile_px, 1e-3), 1.0), 64.0)
        ctx.disable(moderngl.BLEND | moderngl.CULL_FACE)
        ctx.enable(moderngl.DEPTH_TEST)
        ctx.depth_func = "<="
        assert self.tile_textures is not None
        self.info_texture.use(0)
        self.tile_textures.use(1)
        self.trail_texture.use(2)
        robot = frame.robot
        floor_program, floor_vao = (
            (self.floor_program, self.floor_vao)
            if frame.trail is None
            else (self.trail_floor_program, self.trail_floor_vao)
        )
        for name, value in (
            ("u_view", view),
            ("u_proj", proj),
            ("u_info", 0),
            ("u_tiles", 1),
            ("u_trail", 2),
            ("u_board", (float(self.board.width), float(self.board.height))),
            ("u_flat_walls", 1.0 if flat else 0.0),
            ("u_wall_color", self.wall_colour),
            ("u_goal_pulse", 0.5 + 0.5 * math.sin(frame.time * 3.0)),
            ("u_robot_shadow", self._shadow(robot)),
        ):
            _set(floor_program, name, value)
        floor_vao.render(moderngl.TRIANGLES)

        if self.hole_count:
            pit_uniforms: tuple[tuple[str, object], ...] = (
                ("u_view", view),
                ("u_proj", proj),
                ("u_eye", tuple(float(v) for v in camera.eye)),
                ("u_forward", tuple(float(v) for v in camera.forward())),
                ("u_ortho", 1.0 if camera.is_orthographic else 0.0),
                ("u_info", 0),
                ("u_board", (float(self.board.width), float(self.board.height))),
                ("u_tiles", 1),
                ("u_hole_layer", self.picture_layers["hole"]),
            )
            for name, setting in pit_uniforms:
                _set(self.pit_program, name, setting)
            self.pit_vao.render(moderngl.TRIANGLES, instances=self.hole_count)

        rotors = self._active_rotors()
        if len(rotors) or self.marker_count:
            for name, value in (("u_view", view), ("u_proj", proj), ("u_tiles", 1), ("u_disc", 1.0)):
                _set(self.rotor_program, name, value)
        if len(rotors):
            self._rotor_vbo.orphan(max(len(rotors.tobytes()), 16 * 64))
            self._rotor_vbo.write(rotors.tobytes())
            self.rotor_vao.render(moderngl.TRIANGLES, instances=len(rotors))
        if self.marker_count:
            _set(self.rotor_program, "u_disc", 0.0)
            ctx.enable(moderngl.BLEND)
            ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
            self.marker_vao.render(moderngl.TRIANGLES, instances=self.marker_count)
            ctx.disable(moderngl.BLEND)
        self._draw_pointer(frame.pointer, view, proj)

        common = (
            ("u_view", view),
            ("u_proj", proj),
            ("u_wall_color", self.wall_colour),
            ("u_alpha", 1.0),
            ("u_emissive_boost", (0.0, 0.0, 0.0)),
            ("u_info", 0),
            ("u_tiles", 1),
            ("u_wall_scale", self.wall_scale),
            ("u_light", self.light),
            ("u_crate_layer", self.picture_layers["crate"]),
            ("u_robot_layer", self.picture_layers["robot"]),
        )
        self.props_drawn = not flat and self.instance_count + self.patterned_count + self.moving_count > 0
        self.instances_drawn = 0
        if self.props_drawn:
            ctx.enable(moderngl.CULL_FACE)  # closed boxes wound counter-clockwise outside: halves the triangles
            view_proj = camera.view_proj_columns()
            for buffer, (program, vao, chunked) in enumerate(
                zip(
                    (self.props_program, self.patterned_program, self.moving_program),
                    (self.props_vao, self.patterned_vao, self.moving_vao),
                    self.chunks,
                    strict=True,
                )
            ):
                if len(chunked.rows):
                    for name, value in common:
                        _set(program, name, value)
                    self._draw_chunks(buffer, vao, chunked, view_proj)
            ctx.disable(moderngl.CULL_FACE)

        if robot is not None and robot.alpha > 0.0:
            self._draw_robot(robot, common, grow)
        if frame.ghost is not None:  # the best choice's robot (robots-engine analyse), see-through
            self._draw_robot(frame.ghost, common, grow)
        if self.show_environment:  # after everything opaque: the depth test drops what the board hides
            self._draw_ground(view, proj, viewport)

        few_goals = self.glow_count <= FEW_GOALS
        if self.glow_count and (few_goals or not flat):
            ctx.enable(moderngl.BLEND)
            ctx.blend_func = moderngl.ONE, moderngl.ONE
            ctx.fbo.depth_mask = False  # beacons glow through each other, they do not hide anything
            for name, value in (
                ("u_view", view),
                ("u_proj", proj),
                ("u_glow_color", (0.3, 1.0, 0.5)),
                ("u_time", float(frame.time)),
                ("u_scale", grow if few_goals else 1.0),
            ):
                _set(self.glow_program, name, value)
            self.glow_vao.render(moderngl.TRIANGLES, instances=self.glow_count)
            ctx.fbo.depth_mask = True
        ctx.disable(moderngl.BLEND)
        self.locator_drawn = (
            self.show_locator and robot is not None and robot.alpha > 0.0 and tile_px < LOCATOR_BELOW_PX
        )
        if self.locator_drawn:
            assert robot is not None
            self._draw_locator(robot, view, proj, viewport, frame.time)

    def _draw_ground(self, view: bytes, proj: bytes, viewport: tuple[int, int]) -> None:
        width, height = self.board.width, self.board.height
        for name, value in (
            ("u_view", view),
            ("u_proj", proj),
            ("u_board", (float(width), float(height))),
            ("u_shadow_reach", shadow_reach(width, height)),
            ("u_viewport", (float(viewport[0]), float(viewport[1]))),
        ):
            _set(self.ground_program, name, value)
        self.ground_vao.render(moderngl.TRIANGLES)

    def _draw_locator(
        self, robot: RobotVisual, view: bytes, proj: bytes, viewport: tuple[int, int], time: float
    ) -> None:
        centre = coords.tile_center(robot.bx, robot.by, max(robot.height, 0.0) + 0.2)
        self.locator.draw(view, proj, viewport, [(centre, LOCATOR_YELLOW)], 0.5 + 0.5 * math.sin(time * 4.0))

    def _draw_pointer(self, pointer: tuple[int, int] | None, view: bytes, proj: bytes) -> None:
        """The theme's cursor picture on the tile under the mouse (the viewer's pick marker)."""
        layer = self.picture_layers["cursor"]
        if pointer is None or layer < 0:
            return
        for name, value in (("u_view", view), ("u_proj", proj), ("u_tiles", 1), ("u_disc", 0.0)):
            _set(self.rotor_program, name, value)
        self._pointer_vbo.write(np.array([pointer[0], pointer[1], 0.0, layer], dtype=np.float32).tobytes())
        self.ctx.enable(moderngl.BLEND)
        self.ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        self.pointer_vao.render(moderngl.TRIANGLES, instances=1)
        self.ctx.disable(moderngl.BLEND)

    def _draw_chunks(
        self, buffer: int, vao: moderngl.VertexArray, chunked: ChunkedInstances, view_proj: NDArray[np.float64]
    ) -> None:
        """One draw of the visible chunks' boxes: by indirect commands into the full instance buffer
        (OpenGL 4.3+), or else by copying the visible chunks' rows to the front of the buffer, which
        is redone only when the set of visible chunks changes (panning within a chunk costs nothing)."""
        vbo = (self._instance_vbo, self._patterned_vbo, self._moving_vbo)[buffer]
        if not self.culling or not self.indirect:
            seen = chunked.visible(view_proj) if self.culling else np.ones(len(chunked.ranges), bool)
            shown = self._streamed[buffer]
            if shown is None or not np.array_equal(shown, seen):
                rows = chunked.visible_rows(seen)
                vbo.write(rows.tobytes())
                self._streamed[buffer], self._streamed_rows[buffer] = seen, len(rows)
            if self._streamed_rows[buffer]:
                vao.render(moderngl.TRIANGLES, instances=self._streamed_rows[buffer])
                self.instances_drawn += self._streamed_rows[buffer]
            return
        if self._streamed[buffer] is not None:  # back from copied rows: the commands index the full set
            vbo.write(chunked.rows.tobytes())
            self._streamed[buffer] = None
        commands = chunked.commands(view_proj, self._index_count)
        if not len(commands):
            return
        data = commands.tobytes()
        if len(data) > self._commands.size:
            self._commands.orphan(len(data))
        self._commands.write(data)
        vao.render_indirect(self._commands, moderngl.TRIANGLES, count=len(commands))
        self.instances_drawn += int(commands[:, 1].sum())

    def _active_rotors(self) -> NDArray[np.float32]:
        """(tile x, tile y, angle, layer) of every rotator turning now; left turns counter-clockwise on screen."""
        rows = []
        for (x, y), phase in self._active.items():
            kind = int(self._info[y, x, 2]) & KIND_MASK
            if kind in (KIND_ROTATOR_LEFT, KIND_ROTATOR_RIGHT) and phase:
                sign = -1.0 if kind == KIND_ROTATOR_LEFT else 1.0
                rows.append((x, y, sign * phase / 255.0 * math.pi / 2, float(self._info[y, x, 0])))
        return np.array(rows, dtype=np.float32).reshape(-1, 4)

    def _shadow(self, robot: RobotVisual | None) -> tuple[float, float, float, float]:
        if robot is None:
            return (0.0, 0.0, 1.0, 0.0)
        x, _, z = coords.tile_center(robot.bx, robot.by)
        strength = (
            0.6 * robot.alpha * max(0.0, 1.0 - max(robot.height, 0.0) * 1.5) * (1.0 if robot.height >= -0.05 else 0.0)
        )
        return (x - 0.1, z - 0.06, 1.0 / ROBOT_SHADOW_RADIUS, strength)  # a little away from the key light

    def _draw_robot(self, robot: RobotVisual, common: tuple[tuple[str, object], ...], grow: float = 1.0) -> None:
        assert self.robot_vao is not None
        program = self.mesh_program
        for name, value in common:
            _set(program, name, value)
        _set(program, "u_model", np.ascontiguousarray(model_matrix(robot, grow).T).tobytes())
        _set(program, "u_alpha", float(robot.alpha))
        glow = max(0.0, min(robot.glow, 1.0))
        _set(program, "u_emissive_boost", (glow * 0.9, glow * 0.75, glow * 0.25))
        if robot.alpha < 1.0:
            # depth pre-pass (colour unchanged), then blend only the front-most surface once
            self.ctx.enable(moderngl.BLEND)
            self.ctx.blend_func = moderngl.ZERO, moderngl.ONE
            self.robot_vao.render(moderngl.TRIANGLES)
            self.ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        self.robot_vao.render(moderngl.TRIANGLES)
        self.ctx.disable(moderngl.BLEND)

    def release(self) -> None:
        for resource in (
            self.floor_vao,
            self.trail_floor_vao,
            self.trail_floor_program,
            self.props_vao,
            self.moving_vao,
            self._moving_vbo,
            self.moving_program,
            self.patterned_vao,
            self._patterned_vbo,
            self.patterned_program,
            self.glow_vao,
            self.pit_vao,
            self.rotor_vao,
            self.locator,
            self.ground_vao,
            self.ground_program,
            self._ground_vbo,
            self._ground_ibo,
            self.robot_vao,
            self._floor_vbo,
            self._commands,
            self.marker_vao,
            self._marker_vbo,
            self.pointer_vao,
            self._pointer_vbo,
            self._corner_vbo,
            self._hole_vbo,
            self._rotor_vbo,
            self._cube_vbo,
            self._cube_ibo,
            self._instance_vbo,
            self._glow_vbo,
            self._robot_vbo,
            self.info_texture,
            self.trail_texture,
            self.tile_textures,
            self.floor_program,
            self.props_program,
            self.mesh_program,
            self.glow_program,
            self.pit_program,
            self.rotor_program,
        ):
            if resource is not None:
                resource.release()
