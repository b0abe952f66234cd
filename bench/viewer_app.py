"""Viewer application-side benchmark: playback/camera/trail cost per frame and start-up time.

Prints (1) how long building the timeline of a long game takes, (2) the per-frame cost of the
app side (fixed-clock update, interpolated state, trail strength, camera matrices) on chop.dat
and on a 512x512 board, and (3) wall time of ``robots-view ... --headless --out x.png`` from
process start to the written first frame. Run from the repo root:

    python3 bench/viewer_app.py
"""

from __future__ import annotations

import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.boardfile import load_board  # noqa: E402
from engine.conformance import reference_chooser  # noqa: E402
from engine.deck import generate_deck  # noqa: E402
from engine.game import play_game  # noqa: E402
from engine.model import Board, Level  # noqa: E402
from engine.outputs import format_globalseq  # noqa: E402
from engine.replay import load_replay  # noqa: E402
from viewer3d.app import ViewerApp  # noqa: E402
from viewer3d.playback import SPEEDS, Timeline  # noqa: E402

CHOP = ROOT / "gameboards" / "chop.dat"


def per_frame_ms(board: Board, timeline: Timeline, frames: int = 600) -> float:
    app = ViewerApp(board, timeline, "bench", (1024, 768))
    app.player.speed_index = SPEEDS.index(8.0)  # many visits per second
    start = time.perf_counter()
    for _ in range(frames):
        app.update(1 / 60)
        app.frame()
        app.camera.matrices()
    return (time.perf_counter() - start) * 1000 / frames


def main() -> None:
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    board = load_board(CHOP)
    game = play_game(board, Level.EASY, generate_deck(22), reference_chooser)
    text = format_globalseq(game)
    replay = load_replay(board, Level.EASY, game.start, text)
    start = time.perf_counter()
    timeline = Timeline.from_steps(replay.start, (board.width, board.height), replay.steps, replay.outcome)
    build = time.perf_counter() - start
    print(f"timeline of {len(replay.steps)} cards ({len(timeline.segments)} segments): {build * 1000:.1f} ms")
    print(f"app side per frame, chop.dat 12x12: {per_frame_ms(board, timeline):.3f} ms")
    big = Board.from_strings(["V" + " " * 511] + [" " * 512] * 511)
    big_timeline = Timeline.from_steps(replay.start, (512, 512), replay.steps, replay.outcome)
    print(f"app side per frame, 512x512 board (trail array 512x512): {per_frame_ms(big, big_timeline):.3f} ms")
    short = play_game(board, Level.NORMAL, generate_deck(16), reference_chooser)
    for name, sequence, level in (
        ("40-card game", format_globalseq(short), "normal"),
        (f"{len(replay.steps)}-card game", text, "easy"),
    ):
        with tempfile.TemporaryDirectory() as folder:
            seq = Path(folder) / "globalseq.txt"
            seq.write_text(sequence)
            out = Path(folder) / "x.png"
            start = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "viewer3d",
                    "--board",
                    str(CHOP),
                    "--sequence",
                    str(seq),
                    "--level",
                    level,
                    "--headless",
                    "--out",
                    str(out),
                ],
                cwd=ROOT,
                check=True,
                capture_output=True,
            )
            print(
                f"robots-view --headless --out x.png, chop.dat {name} (process start to PNG written, 1024x768): "
                f"{time.perf_counter() - start:.2f} s"
            )
    first_frame_512()


def first_frame_512() -> None:
    """A 512x512 game directory (random board, reference AI): from nothing to the window's first
    frame (reading the folder, replaying the sequence, the timeline, the renderer, one drawn frame
    in a headless pyglet window), in this process and as a whole robots-view process."""
    import numpy as np

    from engine.gamedir import write_game_dir

    rng = np.random.default_rng(7)
    grid = rng.choice(np.array(list("     abcdHO><^vpCM")), size=(512, 512))
    grid[300, 200] = "V"
    grid[50, 450] = "Z"
    board = Board.from_strings(["".join(row) for row in grid])
    game = play_game(board, Level.EASY, generate_deck(5), reference_chooser)
    with tempfile.TemporaryDirectory() as folder:
        gamedir = Path(folder) / "g512"
        write_game_dir(gamedir, game, ai="reference", deck=None, seed=5)
        code = (
            "import time; t = time.perf_counter()\n"
            "import pyglet; pyglet.options['headless'] = True\n"
            "from viewer3d.sources import from_game_dir\n"
            "from viewer3d.app import ViewerApp\n"
            "from viewer3d.window import ViewerWindow\n"
            f"source = from_game_dir({str(gamedir)!r}, background=True)\n"
            "app = ViewerApp(source.board, source.timeline, source.title, (1024, 768))\n"
            "window = ViewerWindow(app, 1024, 768, visible=False)\n"
            "window.draw_frame(); window.ctx.finish()\n"
            "print(f'{time.perf_counter() - t:.2f}')\n"
        )
        start = time.perf_counter()
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True)
        total = time.perf_counter() - start
        print(
            f"512x512 game ({len(game.rounds)} rounds): first window frame {result.stdout.strip()} s after "
            f"the imports began; {total:.2f} s from process start (Python and imports included)"
        )


if __name__ == "__main__":
    main()
