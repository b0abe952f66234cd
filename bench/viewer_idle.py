"""Idle cost of the viewer window: CPU used by a paused window over 10 seconds, and for
comparison while playing. Opens a real window (on $DISPLAY, or on an Xvfb it starts itself),
runs pyglet's event loop as robots-view does, and reads the process CPU time. Run from the repo
root:

    python3 bench/viewer_idle.py [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def start_xvfb() -> subprocess.Popen[bytes] | None:
    """An Xvfb on a free display when there is no display; None when one is set."""
    if os.environ.get("DISPLAY"):
        return None
    for number in range(120, 160):
        if Path(f"/tmp/.X11-unix/X{number}").exists() or Path(f"/tmp/.X{number}-lock").exists():
            continue
        server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"])
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                os.environ["DISPLAY"] = f":{number}"
                return server
            time.sleep(0.05)
        server.terminate()
    raise SystemExit("no display and no free Xvfb display number")


def measure(seconds: float, playing: bool) -> tuple[float, int]:
    """(CPU seconds used over ``seconds`` after a 2 s settling time, frames drawn meanwhile)."""
    import pyglet

    from engine.boardfile import load_board
    from engine.conformance import reference_chooser
    from engine.deck import generate_deck
    from engine.game import play_game
    from engine.model import Level
    from engine.outputs import format_globalseq
    from engine.replay import load_replay
    from viewer3d.app import ViewerApp
    from viewer3d.sources import timeline_from_replay
    from viewer3d.window import ViewerWindow

    board = load_board(ROOT / "gameboards" / "chop.dat")
    game = play_game(board, Level.EASY, generate_deck(22), reference_chooser)
    replay = load_replay(board, Level.EASY, game.start, format_globalseq(game))
    app = ViewerApp(board, timeline_from_replay(replay), "idle bench", (1024, 768))
    app.player.loop = playing
    if not playing:
        app.player.seek(app.timeline.duration)  # a finished game, paused at its end
        app.player.playing = False
    window = ViewerWindow(app, 1024, 768)
    marks: dict[str, tuple[float, int]] = {}

    def start(dt: float) -> None:
        marks["start"] = (time.process_time(), window.frames_drawn)

    def stop(dt: float) -> None:
        marks["stop"] = (time.process_time(), window.frames_drawn)
        window.close()
        pyglet.app.exit()

    pyglet.clock.schedule_once(start, 2.0)
    pyglet.clock.schedule_once(stop, 2.0 + seconds)
    pyglet.app.run(None)
    return marks["stop"][0] - marks["start"][0], marks["stop"][1] - marks["start"][1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--mode", choices=("paused", "playing", "both"), default="both")
    args = parser.parse_args()
    server = start_xvfb()
    try:
        for mode in ("paused", "playing") if args.mode == "both" else (args.mode,):
            # each mode in a fresh process: one pyglet event loop per process
            if args.mode == "both":
                subprocess.run([sys.executable, __file__, "--seconds", str(args.seconds), "--mode", mode], check=True)
                continue
            cpu, frames = measure(args.seconds, mode == "playing")
            print(
                f"{mode:>8}: {cpu:6.2f} s CPU in {args.seconds:g} s = {100 * cpu / args.seconds:5.1f} % of a core, "
                f"{frames} frames drawn ({frames / args.seconds:.1f} per second); load average {os.getloadavg()[0]:.1f}"
            )
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
