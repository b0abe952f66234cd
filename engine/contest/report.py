"""Contest results as a table on screen, ``results.csv`` (one row per game) and ``summary.json``."""

from __future__ import annotations

import csv
import io
import json
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from engine.atomic import write_text_atomic
from engine.batch.table import read_rows
from engine.bounds import shown
from engine.contest.runner import GameResult
from engine.errors import InputError
from engine.game import Outcome
from engine.textout import escape_bytes

RESULTS_FILE = "results.csv"
SUMMARY_FILE = "summary.json"
CSV_COLUMNS = [f.name for f in fields(GameResult)]


@dataclass(frozen=True)
class BoardSummary:
    """Figures over a group of games (one board, or all of them)."""

    board: str
    games: int
    finished: int
    destroyed: int
    cards_out: int
    ai_errors: int
    mean_rounds: float
    median_rounds: float
    mean_cards: float

    def percent(self, count: int) -> float:
        return 100.0 * count / self.games if self.games else 0.0

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["goal_percent"] = round(self.percent(self.finished), 3)
        data["destroyed_percent"] = round(self.percent(self.destroyed), 3)
        data["cards_out_percent"] = round(self.percent(self.cards_out), 3)
        return data


def summarize(board: str, results: Sequence[GameResult]) -> BoardSummary:
    """Outcome counts and round/card averages; AI-error games count in games, not in the averages."""
    played = [r for r in results if r.outcome != Outcome.AI_ERROR.value]
    rounds = [r.rounds for r in played]
    return BoardSummary(
        board=board,
        games=len(results),
        finished=sum(r.outcome == Outcome.FINISHED.value for r in results),
        destroyed=sum(r.outcome == Outcome.DESTROYED.value for r in results),
        cards_out=sum(r.outcome == Outcome.CARDS_OUT.value for r in results),
        ai_errors=sum(r.outcome == Outcome.AI_ERROR.value for r in results),
        mean_rounds=statistics.fmean(rounds) if rounds else 0.0,
        median_rounds=float(statistics.median(rounds)) if rounds else 0.0,
        mean_cards=statistics.fmean(r.cards for r in played) if played else 0.0,
    )


def summaries(results: Sequence[GameResult]) -> tuple[list[BoardSummary], BoardSummary]:
    """One summary per board, in the order boards were given, and one over all games."""
    by_board: dict[str, list[GameResult]] = {}
    for result in results:
        by_board.setdefault(result.board, []).append(result)
    return [summarize(board, group) for board, group in by_board.items()], summarize("all", results)


def format_table(per_board: Sequence[BoardSummary], total: BoardSummary) -> str:
    """The summary as an aligned plain-text table."""
    header = [
        "board",
        "games",
        "goal %",
        "destroyed %",
        "cards-out %",
        "AI errors",
        "rounds mean",
        "rounds median",
        "cards mean",
    ]
    rows = [
        [
            s.board,
            str(s.games),
            f"{s.percent(s.finished):.1f}",
            f"{s.percent(s.destroyed):.1f}",
            f"{s.percent(s.cards_out):.1f}",
            str(s.ai_errors),
            f"{s.mean_rounds:.1f}",
            f"{s.median_rounds:.1f}",
            f"{s.mean_cards:.1f}",
        ]
        for s in [*per_board, total]
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        )

    rule = "-" * len(line(header))
    body = [line(row) for row in rows]
    return "\n".join([line(header), rule, *body[:-1], rule, body[-1]]) + "\n"


def format_csv(results: Sequence[GameResult]) -> str:
    """The text of ``results.csv``; a board or AI named by a path that is not UTF-8 is written with
    its bytes as ``\\xNN`` (the report could not be written at all: a traceback after the last game)."""
    buffer = io.StringIO()
    # Every text field quoted: Python 3.11 leaves a lone "\r" unquoted, which would split a row.
    writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(CSV_COLUMNS)
    for result in results:
        cells = [getattr(result, name) for name in CSV_COLUMNS]
        writer.writerow([escape_bytes(cell) if isinstance(cell, str) else cell for cell in cells])
    return buffer.getvalue()


#: No game plays more cards than a deck holds; round and move counts stay far below this.
MAX_COUNT = 1_000_000
INT_COLUMNS = ("rounds", "cards", "card_moves", "board_moves")
OUTCOMES = {outcome.value for outcome in Outcome}


def parse_csv(text: str, path: str | Path | None = None) -> list[GameResult]:
    """Read ``results.csv`` back (the pair of :func:`format_csv`); InputError naming the line when bad."""
    results = []
    for line, values in read_rows(text, CSV_COLUMNS, INT_COLUMNS, MAX_COUNT, path):
        if values["outcome"] not in OUTCOMES:
            raise InputError(
                f"outcome must be one of {', '.join(sorted(OUTCOMES))}, not {shown(str(values['outcome']), 20)}",
                path,
                line,
                1,
            )
        results.append(GameResult(**values))  # type: ignore[arg-type]
    return results


def summary_json(
    results: Sequence[GameResult],
    *,
    level: str,
    ai: str | Sequence[str],
    decks: Sequence[str],
    jobs: int,
    seconds: float,
    ranking: Sequence[dict[str, Any]] | None = None,
    cluster: str | None = None,
    watch: Sequence[dict[str, Any]] = (),
) -> str:
    """The contest in one JSON object; with several AIs, ``ranking`` (best first) holds each AI's figures.
    Played on a cluster, ``cluster`` is its address and ``jobs`` is null (``--jobs`` played no part).

    ``per_board`` and ``total`` count every game of every AI together: an organiser ranking
    entries reads ``ranking``, which ``comparison.json`` also holds beside the pairwise figures.
    ``watch`` names the games worth watching, each with its ``--replay`` command (``engine.contest.notable``).
    """
    per_board, total = summaries(results)
    data = {
        "level": level,
        "ai": ai,
        "boards": [s.board for s in per_board],
        "decks": list(decks),
        "games": len(results),
        "jobs": None if cluster else jobs,
        **({"cluster": cluster} if cluster else {}),
        "seconds": round(seconds, 3),
        "per_board": [s.as_json() for s in per_board],
        "total": total.as_json(),
    }
    if ranking is not None:
        data["ranking"] = list(ranking)
    data["watch"] = list(watch)
    return json.dumps(data, indent=2) + "\n"


def write_reports(out: Path, results: Sequence[GameResult], **meta: Any) -> tuple[Path, Path]:
    """Write ``results.csv`` and ``summary.json`` atomically into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    csv_path, json_path = out / RESULTS_FILE, out / SUMMARY_FILE
    write_text_atomic(csv_path, format_csv(results))
    write_text_atomic(json_path, summary_json(results, **meta))
    return csv_path, json_path
