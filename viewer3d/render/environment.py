"""The environment around the board: a ground plane under the floating board, lit in a soft pool
that fades (fog) into the background colour, with the board's soft shadow on it and a gentle
vignette towards the screen's corners.

It is ONE draw of a small fixed grid (under 2,000 vertices whatever the board's size), drawn after
everything opaque so the depth test throws away the pixels the board covers; its cells wholly
past the fog are left out (the clear colour is the same there, for free). The light is worked out
per vertex (the grid is dense where the shadow's edge is), only the screen-space vignette per
pixel: the cost depends on what is on screen, never on the board's size. The numbers live here
and reach ``ground.vert``/``ground.frag`` as ``#define``s, so Python (tests, docs) and the
shaders never disagree."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

BACKGROUND = (0.11, 0.12, 0.15)  # the clear colour, which the fog fades the ground into
GROUND_COLOUR = (0.2, 0.215, 0.255)  # the ground right next to the board, before its shadow
#: The ground lies below the deepest a falling robot sinks (playback's SINK_DEPTH 1.4) and below the
#: pits' bottoms (pit.frag's PIT_DEPTH 1.6, whose depth they write), so neither a robot that drives
#: off the edge nor a hole's picture ever disappears into it.
GROUND_Y = -2.2
RIM = 0.24  # the board's rim sticks out this far beyond its tiles (scene.py's rim boxes)
SHADOW_OFFSET = (-0.3, -0.2)  # the board's shadow is thrown away from the key light (+X, a little +Z)
SHADOW_STRENGTH = 0.6
# Fog: fraction of the board's larger side, measured from the board's centre, where the ground
# starts fading into the background and where it is gone (the board's side is at 0.5).
FOG_NEAR, FOG_FAR = 0.5, 1.1
VIGNETTE = 0.9  # how much the ground darkens towards the screen's corners
MARGIN = 1.2  # the grid reaches this many board sizes beyond the centre (past FOG_FAR)


def ground_defines() -> tuple[str, ...]:
    """The constants above as ``#define`` bodies for ``ground.frag``/``ground.vert``."""

    def vec(values: tuple[float, ...]) -> str:
        return f"vec{len(values)}({', '.join(f'{v:.4f}' for v in values)})"

    return (
        f"BACKGROUND_COLOUR {vec(BACKGROUND)}",
        f"GROUND_COLOUR {vec(GROUND_COLOUR)}",
        f"GROUND_Y {GROUND_Y:.4f}",
        f"RIM {RIM:.4f}",
        f"SHADOW_OFFSET {vec(SHADOW_OFFSET)}",
        f"SHADOW_STRENGTH {SHADOW_STRENGTH:.4f}",
        f"FOG_NEAR {FOG_NEAR:.4f}",
        f"FOG_FAR {FOG_FAR:.4f}",
        f"VIGNETTE {VIGNETTE:.4f}",
    )


def ground_extent(width: int, height: int) -> tuple[float, float, float, float]:
    """(min x, min z, max x, max z) of the ground: far enough out that its edge is fogged away."""
    reach = max(width, height) * MARGIN + 4.0
    cx, cz = width / 2, height / 2
    return (cx - reach, cz - reach, cx + reach, cz + reach)


def _axis(low: float, high: float, length: int, band: float) -> NDArray[np.float64]:
    """Grid lines along one axis: dense within ``band`` of the board's edges (0 and ``length``),
    where the shadow's soft edge is, sparse elsewhere."""
    parts = [
        np.linspace(low, -band, 12),
        np.linspace(-band, band, 10),
        np.linspace(band, max(band, length - band), 4),
        np.linspace(length - band, length + band, 10),
        np.linspace(length + band, high, 12),
    ]
    return np.unique(np.clip(np.concatenate(parts), low, high))


def ground_grid(width: int, height: int) -> tuple[NDArray[np.float32], NDArray[np.int32]]:
    """The ground's vertices (x, z) and triangle indices: a grid of at most 48 x 48 lines whatever
    the board's size, dense where the shadow changes fastest so lighting per vertex is smooth."""
    min_x, min_z, max_x, max_z = ground_extent(width, height)
    band = RIM + shadow_reach(width, height) + 1.0
    xs, zs = _axis(min_x, max_x, width, band), _axis(min_z, max_z, height, band)
    gx, gz = np.meshgrid(xs, zs)
    vertices = np.stack([gx.ravel(), gz.ravel()], axis=1).astype(np.float32)
    columns = len(xs)
    row, col = np.meshgrid(np.arange(len(zs) - 1), np.arange(columns - 1), indexing="ij")
    corner = (row * columns + col).ravel()
    quads = np.stack([corner, corner + 1, corner + columns + 1, corner, corner + columns + 1, corner + columns], axis=1)
    # quads wholly past FOG_FAR are the background colour anyway: left out, the clear shows there
    # for free (on llvmpipe each ground pixel costs about as much as a flat fill)
    radius = np.hypot(vertices[:, 0] - width / 2, vertices[:, 1] - height / 2) / max(width, height)
    quads = quads[~(radius[quads] >= FOG_FAR).all(axis=1)]
    # ... and so are the cells deep under the board (more than ``band`` in from its edges): the
    # board hides them from every view above it, and drawn they would cost a depth test for every
    # pixel of a close-up on a big board
    x, z = vertices[:, 0], vertices[:, 1]
    deep = (x >= band) & (x <= width - band) & (z >= band) & (z <= height - band)
    quads = quads[~deep[quads].all(axis=1)]
    return vertices, quads.astype(np.int32).ravel()


def shadow_reach(width: int, height: int) -> float:
    """How far (world units) the board's soft shadow spreads on the ground: wider for bigger boards
    so it still reads when zoomed out, but never more than a few tiles' worth at close range."""
    return min(max(max(width, height) * 0.1, 3.0), 24.0)
