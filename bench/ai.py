"""AI benchmark: boards x seeded decks x levels, the reference AI, the planner, external AIs and the optimum.

Usage (from the repository root):

    python3 bench/ai.py --boards gameboards/chop.dat --decks 100 --levels hard --jobs 2
    python3 bench/ai.py --ai path/to/contest-entry   # also play an external program

Decks are seeds 1..N, the same decks as ``robots-contest --seeds N``, so figures here and there are
about the same games.  To compare two versions of an AI with intervals and a verdict, use
``robots-contest ... --ai v1/bot --ai v2/bot``; this benchmark adds the yardsticks.

Prints a Markdown table (per board and level, and in total) and writes it to ``--out``, with a PNG
chart next to it (``--chart``). Games run in parallel worker processes; each process precomputes
the planner's tables once per board and level, and that time is reported separately from the
per-round decision time. "Optimum" is ``engine.oracle.optimum_rounds`` on the same deck (full
information); "no-foresight" is ``engine.oracle.no_foresight_optimum``, the best goal probability
and expected rounds of won games any AI that cannot see future hands can reach.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.ai.external import ExternalAI  # noqa: E402
from engine.boardfile import load_board  # noqa: E402
from engine.cards import Card  # noqa: E402
from engine.conformance import reference_chooser  # noqa: E402
from engine.contest.compare import distinct_labels  # noqa: E402
from engine.contest.runner import one_planner_thread_per_game  # noqa: E402
from engine.deck import generate_deck  # noqa: E402
from engine.game import Chooser, Outcome, play_game  # noqa: E402
from engine.model import Board, Level, Pose  # noqa: E402
from engine.oracle import optimum_rounds  # noqa: E402

OPTIMUM = "optimum"


@dataclass(frozen=True)
class Task:
    board: str
    level: str
    ai: str  # "reference", "planner", "optimum" or an external program path
    seed: int
    budget: float


@dataclass(frozen=True)
class GameResult:
    task: Task
    outcome: str  # "Z" goal, "X" destroyed, "Y" deck exhausted, "E" AI error
    rounds: int
    decision_seconds: float  # summed over the game's rounds
    decisions: int
    precompute_seconds: float  # paid in this task (0 if the process had the tables already)
    wall_seconds: float


_BOARDS: dict[str, Board] = {}
_CHOOSERS: dict[tuple[str, str], Chooser] = {}


def _board(path: str) -> Board:
    if path not in _BOARDS:
        _BOARDS[path] = load_board(path)
    return _BOARDS[path]


def _chooser(task: Task) -> tuple[Chooser, float]:
    """The task's AI (cached per process) and the precomputation time it cost now."""
    key = (task.ai, task.level)
    if task.ai == "planner":
        from engine.ai.planner import Planner

        planner = _CHOOSERS.get(key)
        if planner is None:
            planner = Planner(budget_seconds=task.budget)
            _CHOOSERS[key] = planner
        assert isinstance(planner, Planner)
        before = len(planner._plans)
        plan = planner.plan_for(_board(task.board), Level(task.level))
        # The plan's own build time, once per process (it may have been built for the bound).
        paid = plan.seconds if len(planner._plans) > before else 0.0
        return planner, paid
    if task.ai == "reference":
        return reference_chooser, 0.0
    from engine.ai.registry import resolve_ai

    # A program gets a fresh runner per game, closed after it (``run_task``): one kept per worker
    # process was never closed (Pool workers end without unwinding) and left its scratch folder.
    return resolve_ai(task.ai), 0.0


def run_task(task: Task) -> GameResult:
    begin = time.perf_counter()
    board = _board(task.board)
    level = Level(task.level)
    deck = generate_deck(task.seed)
    if task.ai == OPTIMUM:
        best = optimum_rounds(board, level, deck)
        wall = time.perf_counter() - begin
        return GameResult(task, "Z" if best is not None else "Y", best or 0, 0.0, 0, 0.0, wall)
    chooser, precompute = _chooser(task)
    spent = [0.0, 0.0]

    def timed(b: Board, lv: Level, pose: Pose, hand: tuple[Card, ...]) -> Sequence[Card]:
        start = time.perf_counter()
        try:
            return chooser(b, lv, pose, hand)
        finally:
            spent[0] += time.perf_counter() - start
            spent[1] += 1

    try:
        game = play_game(board, level, deck, timed)
    finally:
        if isinstance(chooser, ExternalAI):
            chooser.close()  # its scratch folder goes now, not never
    outcome = game.outcome.value if game.outcome is not None else Outcome.AI_ERROR.value
    return GameResult(task, outcome, len(game.rounds), spent[0], int(spent[1]), precompute, time.perf_counter() - begin)


@dataclass
class Row:
    label: str
    ai: str
    games: int
    goal: float
    destroyed: float
    exhausted: float
    goal_when_possible: float
    mean_rounds: float
    median_rounds: float
    over_optimum: float
    decision_ms: float
    precompute_s: float
    wall_s: float
    errors: float
    bound_goal: float = float("nan")  # no-foresight optimum's goal probability (mean over the games' boards)
    over_bound_rounds: float = float("nan")  # mean rounds of won games / what the no-foresight optimum predicts
    rounds_se: float = float("nan")  # standard error of the mean rounds of won games


@dataclass(frozen=True)
class Bound:
    """The no-foresight optimum of one board and level and what it cost to compute."""

    goal: float
    rounds: float
    seconds: float
    converged: bool
    peak_mb: float


def bound_task(key: tuple[str, str, float]) -> Bound:
    """``robots-oracle --no-foresight`` for one board and level, in a worker process."""
    import resource

    from engine.oracle import no_foresight_optimum

    best = no_foresight_optimum(_board(key[0]), Level(key[1]), time_limit=key[2])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return Bound(best.goal_probability, best.expected_rounds, best.seconds, best.converged, peak)


def summarise(
    label: str,
    ai: str,
    results: list[GameResult],
    optimum: dict[tuple[str, str, int], GameResult],
    bounds: dict[tuple[str, str], Bound] | None = None,
) -> Row:
    n = len(results)
    finished = [r for r in results if r.outcome == "Z"]
    rounds = [r.rounds for r in finished]
    # Without the optimum (--no-optimum) nothing says which games could be won: those columns stay empty.
    possible = [
        r for r in results if (best := optimum.get((r.task.board, r.task.level, r.task.seed))) and best.outcome == "Z"
    ]
    both = [r for r in possible if r.outcome == "Z"]
    ai_mean = statistics.mean([r.rounds for r in both]) if both else float("nan")
    opt_mean = (
        statistics.mean([optimum[(r.task.board, r.task.level, r.task.seed)].rounds for r in both])
        if both and optimum
        else float("nan")
    )
    decisions = sum(r.decisions for r in results)
    bound_goal = over_bound = float("nan")
    if bounds and results:
        bound_goal = statistics.mean(bounds[(r.task.board, r.task.level)].goal for r in results)
        predicted = sum(bounds[(r.task.board, r.task.level)].rounds for r in finished)
        over_bound = sum(rounds) / predicted if finished and predicted > 0 else float("nan")
    return Row(
        label,
        ai,
        n,
        len(finished) / n,
        sum(r.outcome == "X" for r in results) / n,
        sum(r.outcome == "Y" for r in results) / n,
        len(both) / len(possible) if possible else float("nan"),
        statistics.mean(rounds) if rounds else float("nan"),
        statistics.median(rounds) if rounds else float("nan"),
        ai_mean / opt_mean if both and optimum else float("nan"),
        1000 * sum(r.decision_seconds for r in results) / decisions if decisions else 0.0,
        max((r.precompute_seconds for r in results), default=0.0),
        sum(r.wall_seconds for r in results),
        sum(r.outcome == "E" for r in results) / n,
        bound_goal,
        over_bound,
        statistics.stdev(rounds) / len(rounds) ** 0.5 if len(rounds) > 1 else float("nan"),
    )


def _or_dash(value: float, spec: str) -> str:
    """A figure, or ``-`` where there is none (NaN: no optimum, no bound, no won game)."""
    return "-" if value != value else format(value, spec)


def markdown(rows: list[Row], header: str) -> str:
    lines = [
        header,
        "",
        "| board / level | AI | games | goal | destroyed | deck out | goal when optimum can | mean rounds | +- SE | median | rounds / optimum | no-foresight goal | goal - it (pp) | rounds / no-foresight | decision ms/round | precompute s | CPU s | AI errors |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.label} | {r.ai} | {r.games} | {r.goal:.1%} | {r.destroyed:.1%} | {r.exhausted:.1%} | {_or_dash(r.goal_when_possible, '.2%')} | "
            f"{r.mean_rounds:.2f} | {_or_dash(r.rounds_se, '.2f')} | {r.median_rounds:.1f} | {_or_dash(r.over_optimum, '.3f')} | {_or_dash(r.bound_goal, '.2%')} | "
            f"{_or_dash(100 * (r.goal - r.bound_goal), '+.2f')} | {_or_dash(r.over_bound_rounds, '.3f')} | "
            f"{r.decision_ms:.2f} | {r.precompute_s:.2f} | {r.wall_s:.1f} | {r.errors:.1%} |"
        )
    return "\n".join(lines) + "\n"


DEFAULT_OUT = ROOT / "docs" / "ai-bench.md"
DEFAULT_CHART = ROOT / "docs" / "img" / "ai-bench.png"


def chart(rows: list[Row], path: Path) -> None:
    """Grouped bars of mean rounds per board/level and AI, with goal rates written on them."""
    from PIL import Image, ImageDraw

    groups: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        groups[r.label].append(r)
    ais = list(dict.fromkeys(r.ai for r in rows))
    # Each AI keeps its colour whichever others run (reference grey, planner blue, optimum orange).
    fixed = {"reference": (120, 120, 120), "planner": (40, 110, 200), OPTIMUM: (220, 120, 30)}
    others = iter([(60, 160, 80), (170, 60, 160), (200, 60, 60), (90, 90, 200), (150, 120, 60)] * 4)
    colour_of = {ai: fixed[ai] if ai in fixed else next(others) for ai in ais}
    bar, gap, left, top, bottom = 34, 44, 70, 50, 110
    height = 420
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    # A group is as wide as its bars or its label, whichever is wider, so labels never overlap.
    slots = {
        label: max(len(members) * bar, int(measure.textlength(label[:26])) + 8) for label, members in groups.items()
    }
    width = left + sum(slot + gap for slot in slots.values()) + 40 + 170
    image = Image.new("RGB", (max(width, 520), height), "white")
    draw = ImageDraw.Draw(image)
    finite = [r.mean_rounds for r in rows if r.mean_rounds == r.mean_rounds]
    peak = max(finite, default=1.0) * 1.15 or 1.0
    plot_h = height - top - bottom
    draw.text((left, 12), "Mean rounds to the goal (bars) and goal rate (labels)", fill="black")
    draw.line((left, top, left, top + plot_h), fill="black")
    draw.line((left, top + plot_h, width - 170, top + plot_h), fill="black")
    for tick in range(6):
        value = peak * tick / 5
        y = top + plot_h - plot_h * tick / 5
        draw.line((left - 4, y, left, y), fill="black")
        draw.text((8, y - 6), f"{value:.1f}", fill="black")
    x = left + gap // 2
    for label, members in groups.items():
        start = x
        for r in members:
            value = r.mean_rounds if r.mean_rounds == r.mean_rounds else 0.0
            h = plot_h * value / peak
            draw.rectangle((x, top + plot_h - h, x + bar - 4, top + plot_h), fill=colour_of[r.ai])
            rate = f"{r.goal:.0%}" if r.goal in (0.0, 1.0) else f"{r.goal:.1%}"  # 99.6% is not 100%
            draw.text((x, top + plot_h - h - 14), rate, fill="black")
            x += bar
        draw.text((start, top + plot_h + 8), label[:26], fill="black")
        x = start + slots[label] + gap
    for i, ai in enumerate(ais):
        y = top + 10 + 18 * i
        draw.rectangle((width - 160, y, width - 148, y + 12), fill=colour_of[ai])
        draw.text((width - 142, y), ai[:24], fill="black")
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", nargs="+", default=[str(p) for p in sorted((ROOT / "gameboards").glob("*.dat"))])
    parser.add_argument(
        "--decks",
        type=int,
        default=100,
        help="seeded decks per board and level (seeds 1..N, as robots-contest --seeds N)",
    )
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--levels", nargs="+", default=["hard"], choices=[lv.value for lv in Level])
    parser.add_argument("--ai", nargs="*", default=[], help="external AI programs (contest entries) to play too")
    parser.add_argument("--no-reference", action="store_true")
    parser.add_argument("--no-optimum", action="store_true")
    parser.add_argument("--no-bound", action="store_true", help="skip the no-foresight optimum")
    parser.add_argument(
        "--bound-limit", type=float, default=300.0, help="seconds of value iteration for the bound (default 300)"
    )
    parser.add_argument("--budget", type=float, default=1.0, help="planner seconds per decision")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument(
        "--chart",
        type=Path,
        help="PNG chart (default: docs/img/ai-bench.png for the default --out, else --out with .png)",
    )
    args = parser.parse_args(argv)
    if args.chart is None:  # a run written elsewhere never touches the docs' chart
        args.chart = DEFAULT_CHART if args.out == DEFAULT_OUT else args.out.with_suffix(".png")
    ais = ([] if args.no_reference else ["reference"]) + ["planner"] + list(args.ai)
    if not args.no_optimum:
        ais.append(OPTIMUM)
    seeds = range(args.first_seed, args.first_seed + args.decks)
    tasks = [Task(b, lv, ai, s, args.budget) for b in args.boards for lv in args.levels for ai in ais for s in seeds]
    begin = time.perf_counter()
    per_ai_wall: dict[str, float] = defaultdict(float)
    results: list[GameResult] = []
    bounds: dict[tuple[str, str], Bound] = {}
    # Several games side by side already keep the cores busy: one planner thread each (as robots-contest).
    with one_planner_thread_per_game(args.jobs), Pool(args.jobs) as pool:
        if not args.no_bound:
            keys = [(b, lv) for b in args.boards for lv in args.levels]
            start = time.perf_counter()
            found = pool.map(bound_task, [(b, lv, args.bound_limit) for b, lv in keys], chunksize=1)
            bounds = dict(zip(keys, found, strict=True))
            per_ai_wall["no-foresight bound"] = time.perf_counter() - start
        for ai in ais:  # one AI at a time, so each one's wall time can be reported
            mine = [t for t in tasks if t.ai == ai]
            start = time.perf_counter()
            results.extend(pool.map(run_task, mine, chunksize=max(1, len(mine) // (4 * args.jobs))))
            per_ai_wall[ai] = time.perf_counter() - start
    wall = time.perf_counter() - begin
    optimum = {(r.task.board, r.task.level, r.task.seed): r for r in results if r.task.ai == OPTIMUM}
    rows: list[Row] = []
    grouped: dict[tuple[str, str, str], list[GameResult]] = defaultdict(list)
    for r in results:
        grouped[(r.task.board, r.task.level, r.task.ai)].append(r)
    # Labels that tell AIs apart: two bot.py from different folders are v1/bot.py and v2/bot.py.
    names = dict(zip(ais, distinct_labels(ais), strict=True))
    for b in args.boards:
        for lv in args.levels:
            for ai in ais:
                rows.append(summarise(f"{Path(b).stem} {lv}", names[ai], grouped[(b, lv, ai)], optimum, bounds))
    for ai in ais:
        rows.append(summarise("all", names[ai], [r for r in results if r.task.ai == ai], optimum, bounds))
    header = (
        f"AI benchmark: {len(args.boards)} board(s) x {args.decks} decks (seeds {seeds.start}..{seeds.stop - 1}) x "
        f"{', '.join(args.levels)}; {args.jobs} worker processes; {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}.\n\n"
        f"Wall time: {wall:.1f} s in total; "
        + ", ".join(f"{names.get(ai, ai)} {t:.1f} s" for ai, t in per_ai_wall.items())
        + ". "
        "CPU s sums the games' own times over all workers; precompute s is the slowest per-process table build."
    )
    text = markdown(rows, header)
    if bounds:
        text += "\n| board / level | no-foresight goal | expected rounds of won games | computed in s | converged | worker peak MB |\n"
        text += "|---|---:|---:|---:|---|---:|\n"
        for (b, lv), bound in bounds.items():
            text += (
                f"| {Path(b).stem} {lv} | {bound.goal:.4%} | {bound.rounds:.3f} | {bound.seconds:.2f} | "
                f"{'yes' if bound.converged else 'no (time limit)'} | {bound.peak_mb:.0f} |\n"
            )
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    chart(rows, args.chart)
    print(f"written {args.out} and {args.chart}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
