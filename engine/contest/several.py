"""The report of a contest between several AIs on the same boards and decks.

On screen: one line per AI (goal rate with its 95% interval, mean rounds of the won games with
its interval, AI errors), ranked as the contest ranks (goal first, then rounds), then for every
pair of AIs the verdict and the paired differences.  Files: ``results.csv`` (every game, the AI
column holding the AI's label), ``summary.json``, ``comparison.json`` and ``comparison.png``.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.atomic import write_text_atomic
from engine.contest.chart import write_chart
from engine.contest.compare import AIFigures, PairComparison, ai_figures, compare_all, describe, ranked
from engine.contest.notable import watch_lines, watch_list
from engine.contest.report import write_reports
from engine.contest.runner import DeckSource, GameResult
from engine.model import Level
from engine.wording import counted

COMPARISON_FILE = "comparison.json"
CHART_FILE = "comparison.png"


def safe_name(label: str) -> str:
    """A label as a file name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", label).strip("_")[:60] or "ai"


def _interval(low: float | None, high: float | None, scale: float = 1.0, digits: int = 1) -> str:
    if low is None or high is None:
        return "[  -  ]"
    return f"[{low * scale:.{digits}f}, {high * scale:.{digits}f}]"


def figures_table(figures: Sequence[AIFigures]) -> str:
    """One line per AI, best first (goal rate, then mean rounds of won games)."""
    width = max(12, *(len(f.label) for f in figures))
    head = f"{'AI':<{width}}  games   goal %  95% interval    rounds (won)  95% interval   AI errors"
    lines = [head, "-" * len(head)]
    for f in ranked(figures):
        rounds = f.rounds_won
        mean = f"{rounds.mean:.2f}" if rounds.mean is not None else "-"
        lines.append(
            f"{f.label:<{width}}  {f.games:5d}  {100 * f.goal_rate:6.1f}  {_interval(f.goal_low, f.goal_high, 100):<14}"
            f"  {mean:>12}  {_interval(rounds.low, rounds.high, 1, 2):<14}  {f.ai_errors:9d}"
        )
    return "\n".join(lines) + "\n"


def error_lines(figures: Sequence[AIFigures]) -> list[str]:
    """One line per AI that failed, in the table's order: how often, and why it failed first."""
    return [
        f"{f.label}: {counted(f.ai_errors, 'AI error')}, the first: {f.first_error}"
        for f in ranked(figures)
        if f.first_error is not None
    ]


#: Up to this many pairs every pair is printed (four AIs); beyond, only neighbours in the ranking.
MOST_PAIRS_PRINTED = 6


def pairs_to_print(figures: Sequence[AIFigures], pairs: Sequence[PairComparison]) -> list[PairComparison]:
    """The pairs worth three lines each on screen: all of a few; of many AIs (13 printed 78 pairs,
    234 lines), each against the next in the ranking, which says whether each step of it is more
    than noise. The rest stay in comparison.json."""
    if len(pairs) <= MOST_PAIRS_PRINTED:
        return list(pairs)
    order = [f.label for f in ranked(figures)]
    neighbours = {frozenset(step) for step in itertools.pairwise(order)}
    return [pair for pair in pairs if frozenset((pair.a, pair.b)) in neighbours]


def report_several(
    out: Path,
    labels: Sequence[str],
    specs: Sequence[str],
    per_ai: Sequence[Sequence[GameResult]],
    *,
    level: Level,
    decks: Sequence[DeckSource],
    where: str,
    seconds: float,
    jobs: int,
    cluster: str | None = None,
) -> int:
    """Print and write the comparison; the exit status."""
    figures = [ai_figures(label, spec, results) for label, spec, results in zip(labels, specs, per_ai, strict=True)]
    pairs = compare_all(labels, per_ai)
    games = len(per_ai[0]) if per_ai else 0
    rows = [dataclasses.replace(r, ai=label) for label, results in zip(labels, per_ai, strict=True) for r in results]
    watch = watch_list(out, rows, labels)
    try:  # written before anything is printed: a reader that leaves early (| head) must not cost them
        csv_path, json_path = write_reports(
            out,
            rows,
            level=level.value,
            ai=list(labels),
            decks=[d.label for d in decks],
            jobs=jobs,
            cluster=cluster,
            seconds=seconds,
            ranking=[{"rank": rank, **f.as_json()} for rank, f in enumerate(ranked(figures), 1)],
            watch=watch,
        )
        comparison = {
            "level": level.value,
            "games_per_ai": games,
            "ais": [f.as_json() for f in figures],
            "pairs": [p.as_json() for p in pairs],
        }
        write_text_atomic(out / COMPARISON_FILE, json.dumps(comparison, indent=1) + "\n")
        write_chart(out / CHART_FILE, pairs)
    except OSError as exc:
        print(f"robots-contest: {out}: cannot write results: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(
        f"{counted(len(labels), 'AI')} x {counted(games, 'game')} (the same boards and decks), level {level.value}, {counted(len(decks), 'deck')}, {where}, {seconds:.2f} s"
    )
    print(figures_table(figures), end="")
    for line in error_lines(figures):
        print(line)
    shown = pairs_to_print(figures, pairs)
    for pair in shown:
        for line in describe(pair):
            print(line)
    if len(shown) < len(pairs):
        print(f"(each AI against the next in the ranking; all {len(pairs)} pairs are in {COMPARISON_FILE})")
    for line in watch_lines(watch, len(labels)):
        print(line)
    print(f"results: {csv_path}  summary: {json_path}  comparison: {out / COMPARISON_FILE}  chart: {out / CHART_FILE}")
    first_error = next((r for r in rows if r.error), None)
    if first_error is not None:
        print(
            f"first AI error: {first_error.ai} {first_error.board} {first_error.deck}: {first_error.error}",
            file=sys.stderr,
        )
    return 0
