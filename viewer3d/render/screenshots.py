"""Write the README screenshots: chop.dat in the four isometric views and a 100x100 board.

python3 -m viewer3d.render.screenshots [OUTPUT_FOLDER]   (default docs/img in the current folder, as
``editor.screenshots``: relative to this file it was ``site-packages/docs/img`` in an installed copy)
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pyrr

from engine.boardfile import load_board
from engine.model import Board, Direction
from gameboards import board_path
from viewer3d import coords
from viewer3d.export import export_static
from viewer3d.render.state import CameraMatrices, FrameState, RobotVisual

SIZE = (1024, 768)
ISO_CORNERS = ((1, 1), (-1, 1), (-1, -1), (1, -1))


def iso_camera(
    board: Board, corner: tuple[int, int], zoom: float = 0.6, size: tuple[int, int] = SIZE
) -> CameraMatrices:
    """The orthographic iso view from one diagonal corner (camera elevation about 35 degrees)."""
    centre = np.array([board.width / 2, 0.0, board.height / 2])
    distance = max(board.width, board.height) * 2.0 + 4.0
    eye = centre + np.array([corner[0] * distance, distance * 0.9899, corner[1] * distance])
    view = pyrr.matrix44.create_look_at(eye, centre, [0.0, 1.0, 0.0])
    aspect = size[0] / size[1]
    extent = max(board.width, board.height) * zoom
    projection = pyrr.matrix44.create_orthogonal_projection(
        -extent * aspect, extent * aspect, -extent, extent, 0.1, distance * 4
    )
    return CameraMatrices(view.astype("f4"), projection.astype("f4"), (float(eye[0]), float(eye[1]), float(eye[2])))


def perspective_camera(
    eye: tuple[float, float, float], target: tuple[float, float, float], fov: float = 50.0, size: tuple[int, int] = SIZE
) -> CameraMatrices:
    view = pyrr.matrix44.create_look_at(np.array(eye), np.array(target), [0.0, 1.0, 0.0])
    projection = pyrr.matrix44.create_perspective_projection(fov, size[0] / size[1], 0.1, 500.0)
    return CameraMatrices(view.astype("f4"), projection.astype("f4"), eye)


def demo_board(size: int = 100, seed: int = 2009) -> Board:
    """A structured big board: rooms of walls, conveyor lanes, rotators, holes, crates, one goal."""
    rng = np.random.default_rng(seed)
    grid = np.full((size, size), " ", dtype="<U1")
    for y in range(0, size, 10):
        grid[y, :] = rng.choice(list(">>>>>>  "))
    for x in range(5, size, 10):
        grid[:, x] = np.where(grid[:, x] == " ", "v", "R")
    walls = rng.random((size, size))
    grid[(walls < 0.12) & (grid == " ")] = rng.choice(
        list("bcdeijkp"), size=int(((walls < 0.12) & (grid == " ")).sum())
    )
    grid[(walls > 0.985) & (grid == " ")] = "H"
    grid[(walls > 0.975) & (walls <= 0.985) & (grid == " ")] = "O"
    for y in range(3, size, 10):
        grid[y, 2] = "D"
        grid[y, 8] = "M"
    grid[1, 1] = "T"
    grid[size - 2, size - 2] = "Z"
    return Board.from_strings(["".join(row) for row in grid])


def trail_for(board: Board, path: list[tuple[int, int]]) -> np.ndarray:
    trail = np.zeros((board.height, board.width), np.float32)
    for x, y in path:
        trail[y, x] = min(1.0, trail[y, x] + 0.5)
    return trail


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path("docs") / "img"
    out.mkdir(parents=True, exist_ok=True)
    chop = load_board(board_path("chop.dat"))
    robot = RobotVisual(3, 4, yaw=coords.facing_yaw(Direction.RIGHT))
    trail = trail_for(chop, [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (3, 3), (3, 4), (3, 4)])
    frame = FrameState(robot=robot, trail=trail, active={(3, 3): 0.0}, time=0.6)
    for number, corner in enumerate(ISO_CORNERS, start=1):
        export_static(out / f"view-chop-iso{number}.png", chop, None, iso_camera(chop, corner), frame)
    big = demo_board()
    big_frame = FrameState(robot=RobotVisual(14, 16, yaw=coords.facing_yaw(Direction.DOWN)), time=0.6)
    # from above the top-left corner, looking across the whole board to the far corner
    camera = perspective_camera((-6.0, 16.0, -6.0), (38.0, 0.0, 38.0), fov=55.0)
    export_static(out / "view-100x100.png", big, None, camera, big_frame)
    print(f"wrote 5 screenshots to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
