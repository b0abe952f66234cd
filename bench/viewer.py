"""Viewer rendering benchmark (offscreen over EGL, no display needed).

Prints, per board size, the time from nothing to the first finished frame (context, scene
build, textures, shaders, one frame) and the frames per second of a running replay (robot
moving, elements animating, trail on), wall-clock and CPU time per frame (llvmpipe's threads
run in this process, so CPU time shows the work independent of how busy the machine is) in four views: the whole board in an orthographic iso
view, a mid zoom (about 200 tiles across, or the whole board if smaller) following the moving
robot as the window's follow mode does, a close perspective view, and top-down. Run from the repo root:

    python3 bench/viewer.py [--size 1024x768] [--seconds 2] [--samples 4,0] [--boards 12,64,256,512]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import numpy as np
import pyrr

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.boardfile import load_board
from engine.model import Board
from viewer3d.camera import Camera
from viewer3d.render.offscreen import OffscreenTarget, create_headless_context
from viewer3d.render.renderer import SceneRenderer
from viewer3d.render.state import CameraMatrices, FrameState, RobotVisual

CHOP = Path(__file__).resolve().parents[1] / "gameboards" / "chop.dat"
MIX = " " * 30 + "abcdefghijklmnop" + "HHOLR<<>>^^vvCDEFMN"


def random_board(size: int, seed: int = 1) -> Board:
    rng = np.random.default_rng(seed)
    chars = np.array(list(MIX))
    grid = rng.choice(chars, size=(size, size))
    grid[0, 0] = "V"
    grid[grid == "Z"] = " "
    grid[size - 1, size - 1] = "Z"  # one goal, as on contest boards
    return Board.from_strings(["".join(row) for row in grid])


def camera(board: Board, kind: str, size: tuple[int, int]) -> CameraMatrices:
    centre = np.array([board.width / 2, 0.0, board.height / 2])
    aspect = size[0] / size[1]
    span = max(board.width, board.height)
    if kind == "iso-whole":
        eye = centre + np.array([1.0, 1.15, 1.0]) * (span + 4)
        extent = span * 0.62 + 0.5
        projection = pyrr.matrix44.create_orthogonal_projection(
            -extent * aspect, extent * aspect, -extent, extent, 0.1, span * 6 + 20
        )
    elif kind == "top-whole":
        eye = centre + np.array([0.0, span + 4, 0.001])
        extent = span * 0.55
        projection = pyrr.matrix44.create_orthogonal_projection(
            -extent * aspect, extent * aspect, -extent, extent, 0.1, span * 6 + 20
        )
    else:  # a close perspective view over the middle of the board (about 16 tiles across)
        eye = centre + np.array([3.0, 9.0, 9.0])
        projection = pyrr.matrix44.create_perspective_projection(45.0, aspect, 0.1, 300.0)
    view = pyrr.matrix44.create_look_at(eye, centre, [0.0, 1.0, 0.0])
    return CameraMatrices(view.astype("f4"), projection.astype("f4"), (float(eye[0]), float(eye[1]), float(eye[2])))


MID_SPAN = 200.0  # tiles across the screen in the mid-zoom case


def follow_camera(board: Board, size: tuple[int, int]) -> Camera:
    """The window's iso view at mid zoom in follow mode (the frame loop feeds it the robot)."""
    view = Camera((board.width, board.height), size)
    view.zoom_to_span(min(MID_SPAN, max(board.width, board.height)), animate=False)
    view.following = True
    return view


def frames(board: Board, count: int) -> list[FrameState]:
    trail = np.zeros((board.height, board.width), np.float32)
    cx, cy = board.width // 2, board.height // 2
    trail[cy, max(0, cx - 5) : cx + 5] = 0.5
    states = []
    for i in range(count):
        phase = (i % 30) / 30
        active = {(x, y): phase for x in range(max(0, cx - 3), min(board.width, cx + 3)) for y in (cy,)}
        robot = RobotVisual(cx + math.sin(i / 20), cy, yaw=i / 30)
        states.append(FrameState(robot=robot, trail=trail, active=active, time=i / 60))
    return states


def measure(board: Board, name: str, size: tuple[int, int], seconds: float, samples: int) -> None:
    start = time.perf_counter()
    ctx = create_headless_context()
    renderer = SceneRenderer(ctx, board)
    target = OffscreenTarget(ctx, size, samples)
    states = frames(board, 240)
    target.render(lambda: renderer.render(camera(board, "iso-whole", size), states[0], size))
    first = time.perf_counter() - start
    boxes = sum(len(chunked.rows) for chunked in renderer.chunks)
    print(f"{name:>8}  first frame {first * 1000:7.0f} ms   ({boxes} boxes, {renderer.scene.wall_edges} wall edges)")
    for kind in ("iso-whole", "mid-follow", "perspective-close", "top-whole"):
        follow = follow_camera(board, size) if kind == "mid-follow" else None
        view = camera(board, "iso-whole" if follow else kind, size)
        target.framebuffer.use()
        renderer.render(view, states[1], size)
        ctx.finish()
        count, began, cpu_began = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - began < seconds:
            state = states[count % len(states)]
            if follow is not None:  # as the window does every frame: follow the robot, new matrices
                assert state.robot is not None
                follow.set_follow_point((state.robot.bx + 0.5, 0.0, state.robot.by + 0.5))
                follow.update(1 / 60)
                view = follow.matrices()
            renderer.render(view, state, size)
            ctx.finish()
            count += 1
        elapsed = time.perf_counter() - began
        cpu = (time.process_time() - cpu_began) / count  # all llvmpipe threads run in this process
        print(
            f"{'':>8}  {kind:<18} {count / elapsed:7.1f} fps  {elapsed / count * 1000:6.1f} ms/frame  "
            f"cpu {cpu * 1000:6.1f} ms/frame  boxes {'drawn' if renderer.props_drawn else 'flat'} ({renderer.instances_drawn})"
        )
    target.release()
    renderer.release()
    ctx.release()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="1024x768")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--samples", default="4,0", help="comma-separated MSAA sample counts to measure")
    parser.add_argument("--boards", default="12,64,256,512", help="comma-separated sizes; 12 is chop.dat")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    ctx = create_headless_context()
    renderer = f"{ctx.info['GL_RENDERER']}, OpenGL {ctx.version_code / 100:.1f}"
    renderer += "" if ctx.version_code >= 430 else " (no indirect draws: visible boxes copied per view)"
    ctx.release()
    for samples in (int(v) for v in args.samples.split(",")):
        print(
            f"renderer: {renderer}, {width}x{height}, MSAA {samples}x, {os.cpu_count()} CPUs, "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        for size in (int(v) for v in args.boards.split(",")):
            board = load_board(CHOP) if size == 12 else random_board(size)
            measure(board, "chop" if size == 12 else f"{size}x{size}", (width, height), args.seconds, samples)


if __name__ == "__main__":
    main()
