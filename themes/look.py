"""The 3D settings a renderer needs, resolved: ``theme.json``'s ``"3d"`` values where given,
else derived from the pictures (walls the colour of the wall art, the robot the mean colour of
its picture), else the viewer's defaults. Colours are 0..1 floats, ready for a shader."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from PIL import Image

from themes.compose import WALL_OVERLAYS
from themes.keys import OVERLAY_KEYS
from themes.manifest import Look

FloatColour = tuple[float, float, float]
DEFAULT_WALL = (0.78, 0.48, 0.22)
DEFAULT_ROBOT = (0.24, 0.5, 0.9)
DEFAULT_WALL_HEIGHT = 0.42


@dataclass(frozen=True, slots=True)
class ResolvedLook:
    wall_colour: FloatColour
    robot_colour: FloatColour
    wall_height: float
    light: float


def _mean(pixels: np.ndarray) -> FloatColour | None:
    """The mean colour: a robot picture's body colour, ink lines and all."""
    if not len(pixels):
        return None
    mean = pixels[:, :3].astype(np.float64).mean(axis=0) / 255.0
    return (float(mean[0]), float(mean[1]), float(mean[2]))


def _typical(pixels: np.ndarray) -> FloatColour | None:
    """The per-channel median: the colour most of the pixels have (a wall's bar, not its stripe)."""
    if not len(pixels):
        return None
    mean = np.median(pixels[:, :3].astype(np.float64), axis=0) / 255.0
    return (float(mean[0]), float(mean[1]), float(mean[2]))


def _wall_pixels(pictures: Mapping[str, Image.Image], tiles: Mapping[str, Image.Image]) -> np.ndarray:
    """The pixels that show walls: the opaque ones of the overlays, or, for whole wall pictures,
    the ones that differ from the floor (the walls 'b'..'o'; 'p' is the crate)."""
    if all(key in pictures for key in OVERLAY_KEYS) and not any(key in pictures for key in WALL_OVERLAYS):
        stacked = np.concatenate([np.asarray(pictures[key]).reshape(-1, 4) for key in OVERLAY_KEYS])
        return stacked[stacked[:, 3] > 200]
    floor = np.asarray(tiles["floor"]).astype(np.int16)
    found = []
    for key in list(WALL_OVERLAYS)[:-1]:
        tile = np.asarray(tiles[key]).astype(np.int16)
        differs = np.abs(tile[..., :3] - floor[..., :3]).sum(axis=2) > 40
        found.append(tile[differs])
    return np.concatenate(found) if found else np.zeros((0, 4), np.int16)


def resolve_look(look: Look, pictures: Mapping[str, Image.Image], tiles: Mapping[str, Image.Image]) -> ResolvedLook:
    def scaled(colour: tuple[int, int, int] | None) -> FloatColour | None:
        return None if colour is None else (colour[0] / 255.0, colour[1] / 255.0, colour[2] / 255.0)

    robot = np.asarray(pictures["robot"]).reshape(-1, 4)
    return ResolvedLook(
        wall_colour=scaled(look.wall_colour) or _typical(_wall_pixels(pictures, tiles)) or DEFAULT_WALL,
        robot_colour=scaled(look.robot_colour) or _mean(robot[robot[:, 3] > 200]) or DEFAULT_ROBOT,
        wall_height=look.wall_height or DEFAULT_WALL_HEIGHT,
        light=look.light or 1.0,
    )
