"""Big boards in the viewer as a watcher sees them: per-frame CPU of the real window (renderer, HUD
and card panel, a headless pyglet window) zoomed all the way in and fitted, on chop.dat and on a
random 512x512 board, early and late in a 700-round game; the culling's work; a long Tron game on a
512x512 arena (reading it, memory, frames as the light walls grow); the idle start screen.

Everything is CPU time (``time.process_time``: llvmpipe's threads run in this process), so the
figures hold on a shared machine; compare ratios (512x512 against chop, in against fit). Run from
the repo root (about a minute and a half):

    python3 bench/viewer_big.py [--frames 60] [--tron-rounds 60000]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyglet

pyglet.options["headless"] = True

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.boardfile import load_board  # noqa: E402
from engine.conformance import reference_chooser  # noqa: E402
from engine.deck import generate_deck  # noqa: E402
from engine.game import play_game  # noqa: E402
from engine.gamedir import write_game_dir  # noqa: E402
from engine.model import Board, Level  # noqa: E402

SIZE = (1024, 768)


def busy_board() -> Board:
    """A random 512x512 board of every kind of tile (as bench/viewer_app.py's)."""
    rng = np.random.default_rng(7)
    grid = rng.choice(np.array(list("     abcdHO><^vpCM")), size=(512, 512))
    grid[300, 200] = "V"
    grid[50, 450] = "Z"
    return Board.from_strings(["".join(row) for row in grid])


def game_dir(board: Board, folder: Path, seed: int) -> Path:
    game = play_game(board, Level.EASY, generate_deck(seed), reference_chooser)
    write_game_dir(folder, game, ai="reference", deck=None, seed=seed)
    return folder


def robot_frames(folder: Path, frames: int) -> None:
    from viewer3d.app import ViewerApp
    from viewer3d.sources import from_game_dir
    from viewer3d.window import ViewerWindow

    source = from_game_dir(folder)
    app = ViewerApp(source.board, source.timeline, source.title, SIZE)
    window = ViewerWindow(app, *SIZE, visible=False)
    rounds = max(source.timeline.round_starts)
    try:
        for view in ("in", "fit"):
            for number in (13, rounds - 10):
                camera = app.camera
                if view == "in":
                    camera.following = True
                    camera.animate_to(replace(camera.pose, distance=camera.distance_limits()[0]), animate=False)
                else:
                    camera.following = False
                    camera.fit(animate=False)
                app.player.jump_to_round(number)
                app.player.playing = True
                for _ in range(5):
                    app.update(1 / 60)
                    window.draw_frame()
                    window.ctx.finish()
                tested = 0
                start = time.process_time()
                for _ in range(frames):
                    app.update(1 / 60)
                    window.draw_frame()
                    window.ctx.finish()
                    if window.scene.props_drawn:  # (flat walls: no box pass, nothing culled)
                        tested += sum(getattr(c, "boxes_tested", len(c.ranges)) for c in window.scene.chunks)
                cpu = (time.process_time() - start) * 1000 / frames
                print(
                    f"  {source.board.width}x{source.board.height} {view:>3} (tiles across {camera.tiles_across():5.0f}), "
                    f"round {number:3d} of {rounds}: {cpu:5.1f} ms CPU/frame, boxes drawn "
                    f"{window.scene.instances_drawn}, chunk boxes tested {tested // frames}"
                )
    finally:
        window.close()


def card_panel(folder: Path) -> None:
    from viewer3d import cards
    from viewer3d.playback import Player
    from viewer3d.sources import from_game_dir

    source = from_game_dir(folder)
    player = Player(source.timeline)
    number = max(source.timeline.round_starts) - 10
    player.jump_to_round(number)
    player.step_forward()
    start = time.process_time()
    for _ in range(200):
        cards.round_hand(player)
    print(
        f"  card panel (round_hand, every frame) at round {number}, {len(source.timeline.steps)} cards: "
        f"{(time.process_time() - start) * 1000 / 200:.3f} ms"
    )


def spiral_game(side: int, rounds: int) -> Path:
    """One bot on an open side x side arena drives a square spiral inwards for ``rounds`` rounds,
    then straight on into its trail or the edge: a long game whose light walls fill the arena."""
    from engine.tron.arena import Arena, Start
    from engine.tron.record import BotInfo, GameRecord, RoundRecord, save_game
    from engine.tron.rules import Heading, Turn, initial_state, step

    arena = Arena(side, side, bytes(side * side), (Start(1, 1, Heading.EAST),))
    state = initial_state(arena, arena.starts)
    blocked = np.zeros(side * side, bool)
    blocked[0] = True
    records = []
    moves = {"EAST": (1, 0), "SOUTH": (0, 1), "WEST": (-1, 0), "NORTH": (0, -1)}
    while not state.over:
        cycle = state.cycles[0]
        dx, dy = moves[cycle.heading.name]
        x, y = cycle.x + dx, cycle.y + dy
        free = 1 <= x <= side and 1 <= y <= side and not blocked[(y - 1) * side + x - 1]
        word = "AHEAD" if free or len(records) >= rounds else "RIGHT"
        state, _ = step(state, {1: Turn(word)})
        if state.cycles[0].alive:
            blocked[(state.cycles[0].y - 1) * side + state.cycles[0].x - 1] = True
        records.append(RoundRecord({1: word}, {}, [1] if state.over else [], {}))
    path = Path(tempfile.mkdtemp(prefix="bench-tron-")) / "tron-game.json"
    save_game(GameRecord(arena, (BotInfo("spiral"),), tuple(records)), path)
    return path


def resident_mb() -> int:
    """This process's resident memory now, in MB."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * resource.getpagesize() // 2**20


def tron(rounds: int, frames: int) -> None:
    from viewer3d.gameapp import GameApp
    from viewer3d.games.tron.show import ROUND_SECONDS, TronShow
    from viewer3d.window import ViewerWindow

    path = spiral_game(512, rounds)
    before = resident_mb()
    start = time.process_time()
    show = TronShow.open(path)
    opened = time.process_time() - start
    grown = resident_mb() - before
    total = int(show.rounds.duration)
    print(f"  512x512 arena, {total} rounds: read and replayed in {opened:.1f} s CPU, memory +{grown} MB")
    app = GameApp(show, title="bench", viewport=SIZE)
    window = ViewerWindow(app, *SIZE, visible=False)
    try:
        for number in (100, 1000, 10000, total // 2, total - 5):
            app.player.seek(number * ROUND_SECONDS)
            app.player.playing = True
            for _ in range(3):
                app.update(1 / 60)
                window.draw_frame()
                window.ctx.finish()
            start = time.process_time()
            for _ in range(frames):
                app.update(1 / 60)
                window.draw_frame()
                window.ctx.finish()
            moment = show.rounds.at(app.player.time / ROUND_SECONDS)
            print(
                f"  round {number:6d}: {(time.process_time() - start) * 1000 / frames:5.1f} ms CPU/frame; "
                f"wall runs kept on the GPU {sum(w.count for w in moment.walls)}, built this frame {len(moment.fresh)}"
            )
    finally:
        window.close()
        path.unlink()
        path.parent.rmdir()


def start_screen() -> None:
    from gameboards import board_names
    from viewer3d.start import StartScreen
    from viewer3d.start_window import StartWindow

    start = time.process_time()
    window = StartWindow(StartScreen(board_names(), ["default"]), *SIZE, visible=False)
    window._enable_event_queue = False  # as pyglet's event loop does
    try:
        pyglet.clock.tick()
        opened = time.process_time() - start
        drawn = lambda: getattr(window, "frames_drawn", -1)  # noqa: E731 (-1: the window does not count)
        first, cpu = drawn(), time.process_time()
        end = time.monotonic() + 2.0
        while time.monotonic() < end:
            pyglet.clock.tick()
            time.sleep(0.005)
        print(
            f"  start screen: open {opened:.2f} s CPU; idle 2 s: {drawn() - first} frames, "
            f"{(time.process_time() - cpu) * 1000:.0f} ms CPU"
        )
    finally:
        window.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--tron-rounds", type=int, default=60000, help="spiral rounds of the Tron game (0: no Tron)")
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()} {os.cpu_count()} CPUs, python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    with tempfile.TemporaryDirectory() as folder:
        chop = game_dir(load_board(ROOT / "gameboards" / "chop.dat"), Path(folder) / "chop", 22)
        big = game_dir(busy_board(), Path(folder) / "busy512", 5)
        print("robot game, 1024x768 window, playing at x1:")
        robot_frames(chop, args.frames)
        robot_frames(big, args.frames)
        card_panel(big)
    if args.tron_rounds:
        print("Tron:")
        tron(args.tron_rounds, args.frames // 2)
    start_screen()
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
