"""Geometry built on the CPU with numpy: the unit cube used for every instanced box and the
robot model (boxes plus a wedge "nose" so its front is obvious from any view)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Colour = tuple[float, float, float]
MATERIAL_DECAL = 5.0  # lit.frag: the theme's robot picture, transparent where the picture is

# (normal, the two in-face axes) of the six faces of the cube [-1, 1]^3
_FACES = (
    ((1, 0, 0), (0, 0, -1), (0, 1, 0)),
    ((-1, 0, 0), (0, 0, 1), (0, 1, 0)),
    ((0, 1, 0), (1, 0, 0), (0, 0, -1)),
    ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    ((0, 0, -1), (-1, 0, 0), (0, 1, 0)),
)


def unit_cube(bottom: bool = True) -> tuple[NDArray[np.float32], NDArray[np.int32]]:
    """Vertices (pos3, normal3, uv2) and triangle indices of the cube [-1, 1]^3, counter-clockwise outside.

    Without ``bottom`` the -Y face is left out: boxes standing on the floor never show it, and on
    a software rasteriser vertices are processed on one thread, so every one counts."""
    vertices: list[list[float]] = []
    indices: list[int] = []
    for normal, u_axis, v_axis in _FACES:
        if not bottom and normal == (0, -1, 0):
            continue
        n, u, v = (np.array(a, dtype=np.float64) for a in (normal, u_axis, v_axis))
        base = len(vertices)
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            position = n + su * u + sv * v
            vertices.append([*position, *n, (su + 1) / 2, (sv + 1) / 2])
        indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    return np.array(vertices, dtype=np.float32), np.array(indices, dtype=np.int32)


class MeshBuilder:
    """Accumulates flat-shaded triangles with per-vertex colour and material (pos, normal, uv, colour, material)."""

    def __init__(self) -> None:
        self._rows: list[list[float]] = []

    def box(
        self,
        center: tuple[float, float, float],
        half: tuple[float, float, float],
        colour: Colour,
        material: float = 0.0,
    ) -> None:
        cube, indices = unit_cube()
        scaled = cube.copy()
        scaled[:, :3] = cube[:, :3] * np.array(half) + np.array(center)
        for index in indices:
            row = scaled[index]
            self._rows.append([*row[:8], *colour, material])

    def prism(
        self, outline: list[tuple[float, float]], y0: float, y1: float, colour: Colour, material: float = 0.0
    ) -> None:
        """A vertical prism over a convex outline of (X, Z) points; normals are oriented outwards."""
        points = [np.array(p, dtype=np.float64) for p in outline]
        centre = np.mean(np.array(points), axis=0)
        bottom = [np.array([p[0], y0, p[1]]) for p in points]
        top = [np.array([p[0], y1, p[1]]) for p in points]
        c_bottom = np.array([centre[0], y0, centre[1]])
        c_top = np.array([centre[0], y1, centre[1]])
        middle = np.array([centre[0], (y0 + y1) / 2, centre[1]])
        for i in range(len(points)):
            j = (i + 1) % len(points)
            self._triangle(c_top, top[i], top[j], colour, material, middle)
            self._triangle(c_bottom, bottom[j], bottom[i], colour, material, middle)
            self._triangle(bottom[i], bottom[j], top[j], colour, material, middle)
            self._triangle(bottom[i], top[j], top[i], colour, material, middle)

    def decal(self, x0: float, x1: float, z0: float, z1: float, y: float, material: float) -> None:
        """A flat picture facing up over x0..x1, z0..z1: the image's top row at z0 (the front)."""
        corners = [(x0, z0, 0.0, 0.0), (x1, z0, 1.0, 0.0), (x1, z1, 1.0, 1.0), (x0, z1, 0.0, 1.0)]
        for index in (0, 2, 1, 0, 3, 2):  # counter-clockwise seen from above
            x, z, u, v = corners[index]
            self._rows.append([x, y, z, 0.0, 1.0, 0.0, u, v, 1.0, 1.0, 1.0, material])

    def _triangle(
        self,
        a: NDArray[np.float64],
        b: NDArray[np.float64],
        c: NDArray[np.float64],
        colour: Colour,
        material: float,
        inside: NDArray[np.float64],
    ) -> None:
        normal = np.cross(b - a, c - a)
        length = np.linalg.norm(normal)
        if length < 1e-12:
            return
        normal /= length
        if np.dot(normal, (a + b + c) / 3 - inside) < 0:
            normal = -normal
        for point in (a, b, c):
            self._rows.append([*point, *normal, 0.5, 0.5, *colour, material])

    def array(self) -> NDArray[np.float32]:
        return np.array(self._rows, dtype=np.float32)


def _scaled(colour: Colour, factor: float) -> Colour:
    r, g, b = (min(1.0, c * factor) for c in colour)
    return (r, g, b)


def robot_mesh(body: Colour) -> NDArray[np.float32]:
    """The robot in model space: forward is -Z, up is +Y, it fits in about 0.6 x 0.7 x 0.6 of a tile.

    A wedge-shaped yellow nose, a visor with glowing eyes and an antenna at the back make the
    facing readable from above, from the side and from behind."""
    dark = (0.16, 0.17, 0.2)
    steel = (0.72, 0.74, 0.78)
    builder = MeshBuilder()
    for side in (-1, 1):  # treads and wheel hubs
        builder.box((side * 0.215, 0.075, 0.0), (0.07, 0.075, 0.27), dark)
        for z in (-0.17, 0.0, 0.17):
            builder.box((side * 0.29, 0.075, z), (0.012, 0.045, 0.045), steel)
    builder.box((0.0, 0.25, 0.03), (0.19, 0.11, 0.22), body)  # body
    builder.box((0.0, 0.365, 0.03), (0.2, 0.012, 0.23), _scaled(body, 0.75))  # body lid
    builder.box((0.0, 0.47, 0.06), (0.14, 0.095, 0.13), _scaled(body, 1.15))  # head
    builder.decal(-0.14, 0.14, -0.07, 0.19, 0.5665, MATERIAL_DECAL)  # the theme's robot picture on its head
    builder.box((0.0, 0.48, -0.073), (0.115, 0.045, 0.006), (0.05, 0.07, 0.1))  # visor glass
    for side in (-1, 1):  # eyes
        builder.box((side * 0.05, 0.485, -0.081), (0.028, 0.022, 0.004), (0.35, 0.95, 1.0), 4.0)
    builder.box((0.09, 0.63, 0.14), (0.01, 0.07, 0.01), steel)  # antenna
    builder.box((0.09, 0.71, 0.14), (0.022, 0.022, 0.022), (1.0, 0.25, 0.2), 4.0)
    # the nose: a yellow arrow head pointing forward, ahead of the body
    builder.prism([(-0.19, -0.19), (0.0, -0.42), (0.19, -0.19)], 0.14, 0.3, (0.98, 0.78, 0.12))
    builder.prism([(-0.08, -0.19), (-0.08, -0.05), (0.08, -0.05), (0.08, -0.19)], 0.16, 0.28, (0.98, 0.78, 0.12))
    return builder.array()
