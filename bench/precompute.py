"""Planner precomputation per board: transition table and value iteration, CPU time and peak memory.

Usage (from the repository root):

    python3 bench/precompute.py gameboards/big-100x100.dat bench/boards/moat-12x12.dat --levels hard
    python3 bench/precompute.py --random 7 256 256      # tests.planner.boards.random_board(7, 256, 256)
    python3 bench/precompute.py BOARD --reference       # the plain value iteration, for comparison
    python3 bench/precompute.py --random 7 256 256 --game 1   # a whole planner game instead
    python3 bench/precompute.py --tiled gameboards/big-100x100.dat 256 256 --game 1   # an open 256x256 board

Each board and level runs in a fresh process, so "peak MB" is that process's own peak resident
memory (Python, numpy, numba and LLVM included, ~170 MB of it before any board). Times are CPU
time of that process (``time.process_time``) and wall time, with the load average before and
after: the value iteration runs on up to two cores (``--threads N`` to choose), so its CPU time
is about twice its wall time on a quiet machine, and "total wall s" (table plus values) is what
a user of a new board waits for. The
value iteration solves the poses reachable from the board's start tiles (as ``plan_for`` does)
with a time limit of ``--limit`` seconds (wall). The numba kernel is compiled before timing.
``--game SEED`` times a whole planner game instead (``plan_for`` without disk cache, then
``play_game`` on that seed's deck): what a user of a new board waits for.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.boardfile import load_board  # noqa: E402
from engine.model import Board, Level  # noqa: E402


def _board(board_arg: str) -> Board:
    if board_arg.startswith("random:"):
        from tests.planner.boards import random_board

        seed, width, height = (int(part) for part in board_arg.split(":")[1:])
        return random_board(seed, width, height)
    if board_arg.startswith("tiled:"):
        path, tiled_width, tiled_height = board_arg[len("tiled:") :].rsplit(":", 2)
        return tiled_board(load_board(Path(path)), int(tiled_width), int(tiled_height))
    return load_board(Path(board_arg))


#: Rows and columns ``tiled_board`` leaves off each side of its source (big-100x100's border ring).
TILED_MARGIN = 2
_STARTS = "STUV"


def tiled_board(source: Board, width: int, height: int) -> Board:
    """An open board: ``source`` without its outer ``TILED_MARGIN`` rows and columns, repeated to
    ``width`` x ``height``, with only its first start (in reading order) kept; every goal stays.

    The stress case of the planner's memory and time: almost every pose is reachable.
    """
    rows = source.to_strings()[TILED_MARGIN : source.height - TILED_MARGIN]
    inner = [row[TILED_MARGIN : source.width - TILED_MARGIN] for row in rows]
    if not inner or not inner[0]:
        raise ValueError(f"a {source.width}x{source.height} board has no inside to tile")
    lines = []
    started = False
    for y in range(height):
        line = []
        for x in range(width):
            char = inner[y % len(inner)][x % len(inner[0])]
            if char in _STARTS:
                char, started = (" ", started) if started else (char, True)
            line.append(char)
        lines.append("".join(line))
    return Board.from_strings(lines)


def _name(board_arg: str) -> str:
    if board_arg.startswith("tiled:"):
        path, width, height = board_arg[len("tiled:") :].rsplit(":", 2)
        return f"{Path(path).stem} tiled {width}x{height}"
    return board_arg if board_arg.startswith("random:") else Path(board_arg).stem


def _game(board_arg: str, level_name: str, seed: int, limit: float) -> dict[str, object]:
    """Time one whole planner game in this process, precomputation included."""
    from engine.ai.planner import Planner
    from engine.deck import generate_deck
    from engine.game import play_game

    level = Level(level_name)
    board = _board(board_arg)
    for rows in (["T Z"], ["T   p", "   pZ", "    p"]):  # compile (or load) the kernel outside the timing
        play_game(Board.from_strings(rows), level, generate_deck(0)[:40], Planner(cache_dir=None))
    cpu, wall = time.process_time(), time.perf_counter()
    game = play_game(board, level, generate_deck(seed), Planner(cache_dir=None, time_limit=limit))
    return {
        "board": _name(board_arg),
        "level": level_name,
        "outcome": game.outcome.name.lower() if game.outcome is not None else "unfinished",
        "rounds": len(game.rounds),
        "cpu": time.process_time() - cpu,
        "wall": time.perf_counter() - wall,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _one(board_arg: str, level_name: str, limit: float, reference: bool, threads: int | None) -> dict[str, object]:
    """Measure one board and level in this process."""
    from engine.ai import plan_focus, plan_value
    from engine.ai.plan_table import build_table

    level = Level(level_name)
    board = _board(board_arg)
    for rows in (["T Z"], ["T   p", "   pZ", "    p"]):  # compile (or load) the kernel outside the timing
        plan_value.solve(build_table(Board.from_strings(rows), level), reference=reference)
    cpu, wall = time.process_time(), time.perf_counter()
    table = build_table(board, level)
    table_cpu, table_wall = time.process_time() - cpu, time.perf_counter() - wall
    starts = [table.state_of(start) for start in board.starts]
    cpu, wall = time.process_time(), time.perf_counter()
    if reference:
        values = plan_value.solve(table, starts, time_limit=limit, reference=True, threads=threads)
    else:  # what the planner runs: the whole reachable board, or focused on the start on a big one
        values = plan_focus.solve_planned(table, starts, time_limit=limit, threads=threads)
    solve_cpu, solve_wall = time.process_time() - cpu, time.perf_counter() - wall
    solved = int(values.solved[: table.poses].sum())
    return {
        "board": _name(board_arg),
        "level": level_name,
        "poses": solved,
        "table_cpu": table_cpu,
        "table_wall": table_wall,
        "total_wall": table_wall + solve_wall,
        "solve_cpu": solve_cpu,
        "solve_wall": solve_wall,
        "sweeps": values.sweeps,
        "updates": values.updates,
        "full_updates": values.full_updates,
        "converged": values.converged,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "start_goal": float(values.goal[starts[0]]) if starts else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="*", help="board files")
    parser.add_argument("--random", nargs=3, type=int, action="append", default=[], metavar=("SEED", "W", "H"))
    parser.add_argument(
        "--tiled",
        nargs=3,
        action="append",
        default=[],
        metavar=("BOARD", "W", "H"),
        help="BOARD's inside (without its outer two rows and columns) repeated to W x H, one start",
    )
    parser.add_argument("--levels", default="hard", help="comma-separated levels (default hard)")
    parser.add_argument("--limit", type=float, default=600.0, help="value iteration time limit, s (wall)")
    parser.add_argument("--reference", action="store_true", help="the plain value iteration instead")
    parser.add_argument("--game", type=int, metavar="SEED", help="time a whole planner game on this deck")
    parser.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="value iteration threads (default: the planner's, one per core up to 2)",
    )
    parser.add_argument("--one", nargs=2, metavar=("BOARD", "LEVEL"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        if args.game is not None:
            print(json.dumps(_game(args.one[0], args.one[1], args.game, args.limit)))
        else:
            print(json.dumps(_one(args.one[0], args.one[1], args.limit, args.reference, args.threads)))
        return 0
    for _board_path, *size in args.tiled:
        if not all(part.isdigit() and int(part) > 0 for part in size):
            parser.error(f"--tiled wants a board and a positive width and height, not {' '.join(size)!r}")
    targets = [
        *args.boards,
        *(f"random:{s}:{w}:{h}" for s, w, h in args.random),
        *(f"tiled:{b}:{w}:{h}" for b, w, h in args.tiled),
    ]
    if not targets:
        parser.error("name at least one board, --random or --tiled")
    print(f"# load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.game is not None:
        print(f"| board | level | whole game (deck seed {args.game}) | rounds | CPU s | wall s | peak MB |")
        print("|---|---|---|---:|---:|---:|---:|")
    else:
        print(
            "| board | level | poses solved | table CPU s | VI CPU s | VI wall s | total wall s | sweeps | updates"
            " | full updates | converged | peak MB |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for target in targets:
        for level in args.levels.split(","):
            command = [sys.executable, __file__, "--one", target, level, "--limit", str(args.limit)]
            if args.reference:
                command.append("--reference")
            if args.game is not None:
                command += ["--game", str(args.game)]
            if args.threads is not None:
                command += ["--threads", str(args.threads)]
            env = dict(os.environ)
            if args.threads is not None:  # whole games too: the planner reads it from there
                env["ROBOTS_PLANNER_THREADS"] = str(args.threads)
            done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
            if done.returncode:
                print(f"| {target} | {level} | failed: {done.stderr.strip().splitlines()[-1:]} |")
                continue
            r = json.loads(done.stdout.strip().splitlines()[-1])
            if args.game is not None:
                print(
                    f"| {r['board']} | {r['level']} | {r['outcome']} | {r['rounds']} | {r['cpu']:.2f} | "
                    f"{r['wall']:.2f} | {r['peak_mb']:.0f} |",
                    flush=True,
                )
                continue
            print(
                f"| {r['board']} | {r['level']} | {r['poses']:,} | {r['table_cpu']:.2f} | {r['solve_cpu']:.2f} | "
                f"{r['solve_wall']:.2f} | {r['total_wall']:.2f} | {r['sweeps']} | {r['updates']:,} | {r['full_updates']:,} | "
                f"{'yes' if r['converged'] else 'no'} | {r['peak_mb']:.0f} |",
                flush=True,
            )
    print(f"# load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
