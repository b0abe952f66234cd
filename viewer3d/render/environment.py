"""The environment around the board: a ground plane under the floating board, lit in a soft pool
that fades (fog) into the background colour, with the board's soft shadow on it and a gentle
vignette towards the screen's corners.

It is ONE quad drawn after everything opaque, so the depth test throws away the pixels the board
covers and the cost is a few instructions per visible ground pixel: it depends on what is on
screen, never on the board's size. The numbers live here and reach ``ground.frag`` as
``#define``s, so Python (tests, docs) and the shader never disagree."""

from __future__ import annotations

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
FOG_NEAR, FOG_FAR = 0.55, 1.45
VIGNETTE = 0.9  # how much the ground darkens towards the screen's corners
MARGIN = 1.7  # the quad reaches this many board sizes beyond the centre (past FOG_FAR)


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
    """(min x, min z, max x, max z) of the ground quad: far enough out that its edge is fogged away."""
    reach = max(width, height) * MARGIN + 4.0
    cx, cz = width / 2, height / 2
    return (cx - reach, cz - reach, cx + reach, cz + reach)


def shadow_reach(width: int, height: int) -> float:
    """How far (world units) the board's soft shadow spreads on the ground: wider for bigger boards
    so it still reads when zoomed out, but never more than a few tiles' worth at close range."""
    return min(max(max(width, height) * 0.1, 3.0), 24.0)
