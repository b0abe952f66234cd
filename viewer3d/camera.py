"""The viewer's camera: orbit, zoom towards the cursor, pan, iso/top views, follow mode.

Plain maths on numpy, no GL, so it is unit-tested directly. The camera looks at
``target`` from ``distance`` away, turned ``yaw`` degrees about world +Y (0: the
eye is on the +Z side, i.e. below the board as seen on screen) and raised ``pitch``
degrees above the floor. Orthographic views keep the scale of the target plane of
the perspective view (half height ``distance * tan(fov / 2)``), so toggling P does
not jump. Matrices come out in pyrr's row-vector convention (``CameraMatrices``);
``view_proj_columns`` gives the column-vector product that ``viewer3d.coords`` uses.

Animated moves (iso views, top view, fit) run on the fixed clock through
``update(dt)`` with smoothstep easing and end exactly at their goal.

Framing: ``insets`` reserve screen strips for the HUD (top, right, bottom, left pixels); a fitted
view puts the whole board, walls included, inside what is left, in both projections (the
perspective fit is searched numerically, because the near corner looks bigger than the far one).
Zoom is limited to between ``MIN_SPAN`` tiles across and twice the fitted distance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray
from pyrr import matrix44

from viewer3d import coords
from viewer3d.render.state import CameraMatrices

#: True isometric elevation: atan(1 / sqrt(2)), about 35.264 degrees.
ISO_PITCH = math.degrees(math.atan(1.0 / math.sqrt(2.0)))
ISO_YAWS = (45.0, 135.0, 225.0, 315.0)
TOP_PITCH = 90.0
MIN_PITCH = 5.0
MAX_PITCH = 90.0
MIN_DISTANCE = 0.5
MIN_SPAN = 3.0  # zoomed in, at least this many tiles stay visible from top to bottom
MAX_ZOOM_OUT = 2.0  # zoomed out, at most this many times the distance of the fitted view
#: Tiles smaller than this (pixels) in the whole-board view: the robot is lost, so the window and
#: exports follow it (the locator ring still marks it in the whole view).
AUTO_FOLLOW_BELOW_PX = 4.0
FIT_MARGIN = 0.96  # the fitted board fills this much of the free rectangle
TRANSITION_SECONDS = 0.6
FOV_Y = 40.0

Viewport = tuple[int, int]
Insets = tuple[float, float, float, float]  # top, right, bottom, left (pixels)
Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class CameraPose:
    """Everything that places the camera; immutable so transitions interpolate two of them."""

    target: Vec3 = (0.0, 0.0, 0.0)
    yaw: float = ISO_YAWS[0]
    pitch: float = ISO_PITCH
    distance: float = 10.0
    orthographic: bool = True


def _smoothstep(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * (3.0 - 2.0 * u)


def _shortest_angle(start: float, end: float) -> float:
    """``end - start`` wrapped into (-180, 180] degrees."""
    delta = (end - start) % 360.0
    return delta - 360.0 if delta > 180.0 else delta


def interpolate(a: CameraPose, b: CameraPose, u: float) -> CameraPose:
    """The pose a fraction ``u`` of the way from ``a`` to ``b`` (yaw the short way round)."""
    if u >= 1.0:
        return b
    target = tuple(float(x + (y - x) * u) for x, y in zip(a.target, b.target, strict=True))
    # Distance interpolates geometrically so zooming feels even.
    distance = a.distance * (b.distance / a.distance) ** u
    return CameraPose(
        (target[0], target[1], target[2]),
        a.yaw + _shortest_angle(a.yaw, b.yaw) * u,
        a.pitch + (b.pitch - a.pitch) * u,
        distance,
        b.orthographic if u >= 0.5 else a.orthographic,
    )


class Camera:
    """Orbit camera over a board of ``board_size`` tiles; mutable, owned by the app."""

    def __init__(self, board_size: tuple[int, int], viewport: Viewport = (1024, 768)) -> None:
        self.board_size = board_size
        self.viewport = viewport
        self.pose = CameraPose()
        self.following = False
        self.follow_point: Vec3 | None = None
        self.insets: Insets = (0.0, 0.0, 0.0, 0.0)
        self.fitted = True  # the view shows the whole board (no zoom or pan since): refit on P and 1-4
        self._transition: tuple[CameraPose, CameraPose, float, float] | None = None  # from, to, elapsed, length
        self.pose = self.fitted_pose(self.pose)

    # -- geometry ---------------------------------------------------------------------------
    def eye(self, pose: CameraPose | None = None) -> Vec3:
        p = pose or self.pose
        yaw, pitch = math.radians(p.yaw), math.radians(p.pitch)
        tx, ty, tz = p.target
        return (
            tx + p.distance * math.cos(pitch) * math.sin(yaw),
            ty + p.distance * math.sin(pitch),
            tz + p.distance * math.cos(pitch) * math.cos(yaw),
        )

    def _axes(self, pose: CameraPose) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        """Right, up and forward unit vectors; right is horizontal, so looking straight down works."""
        yaw, pitch = math.radians(pose.yaw), math.radians(pose.pitch)
        forward = -np.array([math.cos(pitch) * math.sin(yaw), math.sin(pitch), math.cos(pitch) * math.cos(yaw)])
        right = np.array([math.cos(yaw), 0.0, -math.sin(yaw)])
        up = np.cross(right, forward)
        return right, up, forward

    def _scene_radius(self) -> float:
        width, height = self.board_size
        return 0.5 * math.hypot(width, height) + 4.0

    def view_matrix(self, pose: CameraPose | None = None) -> NDArray[np.float64]:
        """The view matrix in column-vector convention."""
        p = pose or self.pose
        right, up, forward = self._axes(p)
        eye = np.array(self.eye(p))
        view = np.identity(4)
        view[0, :3], view[1, :3], view[2, :3] = right, up, -forward
        view[:3, 3] = -view[:3, :3] @ eye
        return view

    def half_height(self, pose: CameraPose | None = None) -> float:
        """Half the visible height at the target plane (world units)."""
        p = pose or self.pose
        return p.distance * math.tan(math.radians(FOV_Y) / 2.0)

    def projection_matrix(self, pose: CameraPose | None = None) -> NDArray[np.float64]:
        """The projection matrix in column-vector convention."""
        p = pose or self.pose
        width, height = self.viewport
        aspect = width / max(1, height)
        radius = self._scene_radius()
        if p.orthographic:
            half_h = self.half_height(p)
            half_w = half_h * aspect
            near, far = p.distance - 2.0 * radius, p.distance + 2.0 * radius
            proj = matrix44.create_orthogonal_projection(-half_w, half_w, -half_h, half_h, near, far, dtype=np.float64)
        else:
            far = p.distance + 2.0 * radius
            near = max(0.05, min(p.distance - 2.0 * radius, far / 2000.0))
            near = max(near, far / 20000.0)
            proj = matrix44.create_perspective_projection(FOV_Y, aspect, near, far, dtype=np.float64)
        return np.asarray(proj, dtype=np.float64).T

    def view_proj_columns(self, pose: CameraPose | None = None) -> NDArray[np.float64]:
        """``projection @ view`` in column-vector convention, as ``viewer3d.coords`` expects."""
        return self.projection_matrix(pose) @ self.view_matrix(pose)

    def matrices(self) -> CameraMatrices:
        """The current matrices in pyrr's row-vector convention (transposed), as float32."""
        return CameraMatrices(
            self.view_matrix().T.astype(np.float32), self.projection_matrix().T.astype(np.float32), self.eye()
        )

    def project(self, point: Vec3) -> tuple[float, float, float]:
        return coords.project(point, self.view_proj_columns(), self.viewport)

    def pick_floor(self, px: float, py: float, pose: CameraPose | None = None) -> tuple[float, float] | None:
        """World (X, Z) on the floor under screen pixel (top-left origin)."""
        return coords.pick_floor(px, py, self.view_proj_columns(pose), self.viewport)

    # -- user actions -------------------------------------------------------------------------
    def resize(self, width: int, height: int) -> None:
        self.viewport = (max(1, width), max(1, height))

    def orbit(self, dx_px: float, dy_px: float) -> None:
        """Free rotation by a mouse drag (pixels); dragging right turns the board right."""
        self._settle()
        self.pose = replace(
            self.pose,
            yaw=(self.pose.yaw - dx_px * 0.4) % 360.0,
            pitch=min(MAX_PITCH, max(MIN_PITCH, self.pose.pitch - dy_px * 0.3)),
        )

    def zoom(self, factor: float, px: float | None = None, py: float | None = None) -> None:
        """Zoom in (factor > 1) or out, keeping the floor point under pixel (px, py) under it."""
        self._settle()
        before = self.pick_floor(px, py) if px is not None and py is not None else None
        low, high = self.distance_limits()
        distance = min(high, max(low, self.pose.distance / factor))
        if distance == self.pose.distance:
            return
        self.fitted = False
        self.pose = replace(self.pose, distance=distance)
        if before is not None and px is not None and py is not None:
            after = self.pick_floor(px, py)
            if after is not None:
                self._shift_target(before[0] - after[0], before[1] - after[1])

    def distance_limits(self, pose: CameraPose | None = None) -> tuple[float, float]:
        """The closest and farthest the camera may zoom: ``MIN_SPAN`` tiles visible from top to
        bottom, and ``MAX_ZOOM_OUT`` times the distance that shows the whole board."""
        p = pose or self.pose
        low = max(MIN_DISTANCE, MIN_SPAN / 2.0 / math.tan(math.radians(FOV_Y) / 2.0))
        return low, max(low, MAX_ZOOM_OUT * self.fitted_pose(p).distance)

    def tiles_across(self, pose: CameraPose | None = None) -> float:
        """World units (tiles) across the screen's width at the target plane."""
        width, height = self.viewport
        return 2.0 * self.half_height(pose) * width / max(1, height)

    def distance_for_span(self, tiles: float) -> float:
        """The distance at which ``tiles`` tiles fit across the screen's width (target plane)."""
        width, height = self.viewport
        half_h = tiles / 2.0 * max(1, height) / max(1, width)
        return half_h / math.tan(math.radians(FOV_Y) / 2.0)

    def tile_pixels(self, pose: CameraPose | None = None) -> float:
        """About how many pixels a tile spans at the target plane."""
        return self.viewport[0] / max(1e-9, self.tiles_across(pose))

    def zoom_to_span(self, tiles: float, animate: bool = True) -> None:
        """Zoom (keeping the target) so about ``tiles`` tiles fit across the screen."""
        low, high = self.distance_limits(self._goal())
        distance = min(high, max(low, self.distance_for_span(tiles)))
        self.fitted = False
        self.animate_to(replace(self._goal(), distance=distance), animate)

    def pan(self, from_px: tuple[float, float], to_px: tuple[float, float]) -> None:
        """Drag the floor: the point under ``from_px`` moves to ``to_px``."""
        self._settle()
        self.fitted = False
        start = self.pick_floor(*from_px)
        end = self.pick_floor(*to_px)
        if start is None or end is None:
            # Looking at the horizon: fall back to a screen-space pan at the target's scale.
            right, up, _ = self._axes(self.pose)
            scale = 2.0 * self.half_height() / self.viewport[1]
            dx, dy = to_px[0] - from_px[0], to_px[1] - from_px[1]
            move = (-right * dx + up * dy) * scale
            self._shift_target(float(move[0]), float(move[2]))
            return
        self._shift_target(start[0] - end[0], start[1] - end[1])
        self.following = False

    def _shift_target(self, dx: float, dz: float) -> None:
        tx, ty, tz = self.pose.target
        self.pose = replace(self.pose, target=(tx + dx, ty, tz + dz))

    def toggle_projection(self) -> None:
        """Orthographic <-> perspective. A fitted view is fitted again (the perspective view of the
        whole board needs more distance: its near corner looks bigger)."""
        self._settle()
        toggled = replace(self.pose, orthographic=not self.pose.orthographic)
        self.pose = self.fitted_pose(toggled) if self.fitted and not self.following else toggled

    def _refit_or_keep(self, goal: CameraPose) -> CameraPose:
        return self.fitted_pose(goal) if self.fitted and not self.following else goal

    def iso_view(self, number: int, animate: bool = True) -> None:
        """Standard isometric view 1-4: orthographic, yaw 45/135/225/315, true isometric pitch.
        From a fitted view the new view is fitted too; otherwise zoom and target are kept."""
        goal = replace(self._goal(), yaw=ISO_YAWS[number - 1], pitch=ISO_PITCH, orthographic=True)
        self.animate_to(self._refit_or_keep(goal), animate)

    def top_view(self, animate: bool = True) -> None:
        goal = replace(self._goal(), yaw=0.0, pitch=TOP_PITCH, orthographic=True)
        if self.following:
            self.animate_to(goal, animate)
            return
        self.fitted = True
        self.animate_to(self.fitted_pose(goal), animate)

    def fit(self, animate: bool = True) -> None:
        """Show the whole board (any size) centred in the free rectangle."""
        self.following = False
        self.fitted = True
        self.animate_to(self.fitted_pose(self._goal()), animate)

    def toggle_follow(self) -> None:
        self.following = not self.following
        if self.following:
            self.fitted = False

    def set_follow_point(self, point: Vec3 | None) -> None:
        self.follow_point = point

    # -- fitting --------------------------------------------------------------------------------
    def free_rect(self) -> tuple[float, float, float, float]:
        """The screen rectangle (left, top, right, bottom) not covered by the HUD insets."""
        top, right, bottom, left = self.insets
        width, height = self.viewport
        if width - left - right < width * 0.3:  # a tiny window: ignore the insets
            left = right = 0.0
        if height - top - bottom < height * 0.3:
            top = bottom = 0.0
        return left, top, width - right, height - bottom

    def _board_corners(self) -> list[Vec3]:
        width, height = self.board_size
        return [(x, y, z) for x in (0.0, float(width)) for z in (0.0, float(height)) for y in (-0.2, 0.9)]

    def _recentred(self, pose: CameraPose) -> CameraPose:
        """``pose`` moved along the floor so the board's outline on screen is centred in the free
        rectangle (the outline is not symmetric about the board's centre: walls stand up, and in
        perspective the near side looks bigger)."""
        left, top, right, bottom = self.free_rect()
        view_proj = self.view_proj_columns(pose)
        points = [coords.project(corner, view_proj, self.viewport) for corner in self._board_corners()]
        if any(not 0.0 < depth < 1.0 for _, _, depth in points):
            return pose
        middle_x = (min(p[0] for p in points) + max(p[0] for p in points)) / 2.0
        middle_y = (min(p[1] for p in points) + max(p[1] for p in points)) / 2.0
        want_x, want_y = (left + right) / 2.0, (top + bottom) / 2.0
        start = self.pick_floor(middle_x, middle_y, pose)
        end = self.pick_floor(want_x, want_y, pose)
        if start is None or end is None:
            return pose
        tx, ty, tz = pose.target
        return replace(pose, target=(tx + start[0] - end[0], ty, tz + start[1] - end[1]))

    def _fits(self, pose: CameraPose) -> bool:
        left, top, right, bottom = self.free_rect()
        margin_x = (right - left) * (1.0 - FIT_MARGIN) / 2.0
        margin_y = (bottom - top) * (1.0 - FIT_MARGIN) / 2.0
        view_proj = self.view_proj_columns(pose)
        for corner in self._board_corners():
            px, py, depth = coords.project(corner, view_proj, self.viewport)
            if not (0.0 < depth < 1.0):
                return False
            if not (left + margin_x <= px <= right - margin_x and top + margin_y <= py <= bottom - margin_y):
                return False
        return True

    def _fit_distance(self, pose: CameraPose) -> CameraPose:
        """Bisection on the distance (target kept): farther always shows more."""
        width, height = self.board_size
        low = 0.05
        high = max(4.0, 4.0 * math.hypot(width, height) / math.tan(math.radians(FOV_Y) / 2.0))
        if not self._fits(replace(pose, distance=high)):
            return replace(pose, distance=high)
        for _ in range(40):
            middle = math.sqrt(low * high)
            if self._fits(replace(pose, distance=middle)):
                high = middle
            else:
                low = middle
            if high / low < 1.001:
                break
        return replace(pose, distance=high)

    def fitted_pose(self, pose: CameraPose) -> CameraPose:
        """``pose`` at the distance and target that show the whole board (walls and rim included)
        centred in the free rectangle and filling it."""
        width, height = self.board_size
        fitted = replace(pose, target=coords.board_center(width, height))
        for _ in range(5):  # centring changes the best distance a little, and back
            fitted = self._recentred(self._fit_distance(fitted))
        return self._fit_distance(fitted)

    # -- animation (fixed clock) ------------------------------------------------------------------
    def _goal(self) -> CameraPose:
        return self._transition[1] if self._transition else self.pose

    def _settle(self) -> None:
        """A user action during a transition takes over from where the camera is now."""
        self._transition = None

    def animate_to(self, goal: CameraPose, animate: bool = True, seconds: float = TRANSITION_SECONDS) -> None:
        if not animate or seconds <= 0:
            self.pose, self._transition = goal, None
        else:
            self._transition = (self.pose, goal, 0.0, seconds)

    @property
    def animating(self) -> bool:
        return self._transition is not None

    def update(self, dt: float) -> None:
        """Advance transitions and follow mode by ``dt`` seconds of the fixed clock."""
        if self._transition is not None:
            start, goal, elapsed, length = self._transition
            elapsed += dt
            if elapsed >= length:
                self.pose, self._transition = goal, None
            else:
                self._transition = (start, goal, elapsed, length)
                self.pose = interpolate(start, goal, _smoothstep(elapsed / length))
        if self.following and self.follow_point is not None:
            tx, ty, tz = self.pose.target
            fx, _, fz = self.follow_point
            k = 1.0 - math.exp(-dt * 6.0)
            self.pose = replace(self.pose, target=(tx + (fx - tx) * k, ty, tz + (fz - tz) * k))
            if self._transition is not None:
                start, goal, elapsed, length = self._transition
                self._transition = (start, replace(goal, target=self.pose.target), elapsed, length)
