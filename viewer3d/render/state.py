"""Plain value types passed from playback/camera to the renderer (no GL here).

The app side fills them every frame; the renderer only reads them, so the two halves of the
viewer can be developed and tested separately."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class RobotVisual:
    """Where and how the robot is drawn this frame.

    ``bx, by`` are board coordinates of the tile the robot stands on (tile (x, y) -> bx=x,
    by=y), fractional while it moves; the robot is drawn at ``viewer3d.coords.tile_center``."""

    bx: float
    by: float
    height: float = 0.0  # world Y offset (negative while falling into a hole / off the edge)
    yaw: float = 0.0  # radians as viewer3d.coords.facing_yaw gives (interpolated)
    squash: float = 1.0  # vertical scale (crusher: goes to ~0.2)
    alpha: float = 1.0  # fades on destruction
    glow: float = 0.0  # goal reached celebration 0..1
    tilt: float = 0.0  # small lean (radians) for oil slides / pushes


@dataclass(frozen=True)
class FrameState:
    """Everything that changes over time in the scene."""

    robot: RobotVisual | None = None
    trail: NDArray[np.float32] | None = None  # (height, width) visit strength 0..1, None = trail off
    active: Mapping[tuple[int, int], float] = field(default_factory=dict)  # tile -> animation phase 0..1
    time: float = 0.0  # seconds, for idle animation
    pointer: tuple[int, int] | None = None  # the tile under the mouse: the theme's cursor marks it
    ghost: RobotVisual | None = None  # where the best choice of the round would have the robot (translucent)


@dataclass(frozen=True)
class CameraMatrices:
    """4x4 float32 matrices as pyrr produces them (row-vector convention). Uploaded with
    ``.astype('f4').tobytes()`` they read in GLSL as column-major, so shaders compute
    ``projection * view * model * pos``."""

    view: NDArray[np.float32]
    projection: NDArray[np.float32]
    eye: tuple[float, float, float]

    def view_proj_columns(self) -> NDArray[np.float64]:
        """The view-projection in column-vector convention, as ``viewer3d.coords.project`` wants it."""
        return (np.asarray(self.view, dtype=np.float64) @ np.asarray(self.projection, dtype=np.float64)).T

    @property
    def is_orthographic(self) -> bool:
        return bool(abs(float(self.projection[3][3]) - 1.0) < 1e-6)

    def forward(self) -> NDArray[np.float64]:
        """Unit world direction the camera looks along."""
        rotation = np.asarray(self.view, dtype=np.float64)[:3, :3]
        forward = -rotation[:, 2]
        return forward / np.linalg.norm(forward)
