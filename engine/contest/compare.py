"""Fair comparisons of several AIs played on the same boards and decks.

The contest ranks by goal first, then by rounds among the games that reach it, so that is what
we report: per AI the goal rate with a 95% Wilson interval and the mean rounds over *won* games
with a 95% t interval; per pair of AIs the paired differences, game by game on the same board
and deck (which removes most of the luck of the draw): the difference in goal rate and, over the
games both won, the difference in rounds, each with a 95% interval, the per-board tally of
better / equal / worse games, and a plain verdict: "no difference (within noise)" when both
intervals contain 0.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.contest.runner import GameResult
from engine.game import Outcome
from engine.wording import counted

Z95 = 1.959964
#: Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom (beyond: the normal's).
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
       2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)  # fmt: skip


def t95(df: int) -> float:
    return T95[df - 1] if 1 <= df <= len(T95) else Z95


def wilson(successes: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (well-behaved at 0% and 100%)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (min(low, p), max(high, p))


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval (``n`` values; ``None`` bounds when there are too few)."""

    mean: float | None
    low: float | None
    high: float | None
    n: int

    @property
    def excludes_zero(self) -> bool:
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    def as_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def mean_interval(values: Sequence[float], lowest: float | None = None) -> Estimate:
    """Mean and 95% t interval; with all values equal the interval is that value exactly.

    ``lowest`` is the least value there can be (a won game takes at least 1 round): the t interval
    of a few skewed values (won in 1 round on one board, 45 on another) reached below it, and the
    table printed "rounds (won) 4.57 [-2.67, 11.81]"."""
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0)
    mean = statistics.fmean(values)
    if n == 1:
        return Estimate(mean, None, None, 1)
    half = t95(n - 1) * statistics.stdev(values) / math.sqrt(n)
    low = mean - half if lowest is None else max(lowest, mean - half)
    return Estimate(mean, low, mean + half, n)


def paired_proportion_difference(a_only: int, b_only: int, n: int) -> Estimate:
    """Difference of two paired proportions (games only A won minus games only B won, over ``n``
    pairs) with the Agresti-Min 95% interval: half a game added to each cell, so a contest where
    the two never differ still gets an honest width (about +-2/n), not an interval of zero."""
    if n == 0:
        return Estimate(None, None, None, 0)
    b, c, m = a_only + 0.5, b_only + 0.5, n + 2
    centre = (b - c) / m
    half = Z95 * math.sqrt(max(0.0, (b + c) - (b - c) ** 2 / m)) / m
    return Estimate((a_only - b_only) / n, max(-1.0, centre - half), min(1.0, centre + half), n)


def won(result: GameResult) -> bool:
    return result.outcome == Outcome.FINISHED.value


@dataclass(frozen=True)
class AIFigures:
    """One AI over the whole contest."""

    label: str
    spec: str
    games: int
    goals: int
    goal_low: float
    goal_high: float
    rounds_won: Estimate
    ai_errors: int
    #: The reason of its first failed game (one line), so a table of errors can say why.
    first_error: str | None = None

    @property
    def goal_rate(self) -> float:
        return self.goals / self.games if self.games else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "ai": self.spec,
            "games": self.games,
            "goals": self.goals,
            "goal_rate": self.goal_rate,
            "goal_interval": [self.goal_low, self.goal_high],
            "mean_rounds_won": self.rounds_won.as_json(),
            "ai_errors": self.ai_errors,
            "first_error": self.first_error,
        }


def ai_figures(label: str, spec: str, results: Sequence[GameResult]) -> AIFigures:
    goals = sum(won(r) for r in results)
    low, high = wilson(goals, len(results))
    return AIFigures(
        label=label,
        spec=spec,
        games=len(results),
        goals=goals,
        goal_low=low,
        goal_high=high,
        rounds_won=mean_interval([r.rounds for r in results if won(r)], lowest=1.0),
        ai_errors=sum(r.outcome == Outcome.AI_ERROR.value for r in results),
        first_error=next((r.error for r in results if r.error), None),
    )


def ranked(figures: Sequence[AIFigures]) -> list[AIFigures]:
    """The AIs best first, as the contest ranks: goal rate, then fewer mean rounds of the won games."""
    return sorted(figures, key=lambda f: (-f.goal_rate, f.rounds_won.mean if f.rounds_won.mean is not None else 1e9))


def game_order(a: GameResult, b: GameResult) -> int:
    """+1 if game ``a`` ranks better than ``b`` on the contest's order (goal, then fewer rounds), -1 worse, 0 equal."""
    if won(a) != won(b):
        return 1 if won(a) else -1
    if won(a) and a.rounds != b.rounds:
        return 1 if a.rounds < b.rounds else -1
    return 0


@dataclass(frozen=True)
class BoardTally:
    board: str
    better: int
    equal: int
    worse: int

    @property
    def games(self) -> int:
        return self.better + self.equal + self.worse

    @property
    def net(self) -> float:
        """(better - worse) / games: from -1 (always worse) to +1 (always better)."""
        return (self.better - self.worse) / self.games if self.games else 0.0


@dataclass(frozen=True)
class PairComparison:
    """AI ``a`` against AI ``b`` on the same games."""

    a: str
    b: str
    games: int
    goal_difference: Estimate  # goal rate of a minus b, paired by game (Agresti-Min interval)
    rounds_difference: Estimate  # per game both won: rounds(a) - rounds(b)
    boards: list[BoardTally] = field(default_factory=list)

    @property
    def within_noise(self) -> bool:
        return not self.goal_difference.excludes_zero and not self.rounds_difference.excludes_zero

    def verdict(self) -> str:
        """One plain sentence."""
        if self.within_noise:
            return f"{self.a} vs {self.b}: no difference (within noise)"
        goal = self.goal_difference
        if goal.excludes_zero:
            assert goal.mean is not None
            better = self.a if goal.mean > 0 else self.b
            return f"{self.a} vs {self.b}: {better} reaches the goal more often ({_pp(goal)})"
        rounds = self.rounds_difference
        assert rounds.mean is not None
        faster = self.a if rounds.mean < 0 else self.b
        return f"{self.a} vs {self.b}: {faster} needs fewer rounds in the games both win ({_rounds(rounds)})"

    def as_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "goal_difference": self.goal_difference.as_json(),
            "rounds_difference": self.rounds_difference.as_json(),
            "within_noise": self.within_noise,
            "verdict": self.verdict(),
            "per_board": [
                {"board": t.board, "better": t.better, "equal": t.equal, "worse": t.worse} for t in self.boards
            ],
        }


def _signed(value: float | None, scale: float, digits: int) -> str:
    return "?" if value is None else f"{value * scale:+.{digits}f}"


def _pp(e: Estimate) -> str:
    return f"goal rate {_signed(e.mean, 100, 1)} pp, 95% interval [{_signed(e.low, 100, 1)}, {_signed(e.high, 100, 1)}]"


def _rounds(e: Estimate) -> str:
    return f"rounds {_signed(e.mean, 1, 2)}, 95% interval [{_signed(e.low, 1, 2)}, {_signed(e.high, 1, 2)}], {counted(e.n, 'game')}"


def describe(pair: PairComparison) -> list[str]:
    """The pair's lines for the screen: the verdict, both differences, the per-board tally."""
    lines = [pair.verdict()]
    lines.append(f"  {pair.a} - {pair.b}: {_pp(pair.goal_difference)}")
    if pair.rounds_difference.n:
        lines.append(f"  {pair.a} - {pair.b} (games both won): {_rounds(pair.rounds_difference)}")
    tally = ", ".join(f"{board_name(t.board)} {t.better}/{t.equal}/{t.worse}" for t in pair.boards)
    lines.append(f"  per board, {pair.a} better/equal/worse: {tally}")
    return lines


def board_name(label: str) -> str:
    """A board label shortened to its file name without .dat."""
    name = label.replace("\\", "/").rsplit("/", 1)[-1]
    return name[:-4] if name.endswith(".dat") else name


def compare_pair(a: str, b: str, results_a: Sequence[GameResult], results_b: Sequence[GameResult]) -> PairComparison:
    """Pair the games of ``a`` and ``b`` by (board, deck) and compare them."""
    by_key = {(r.board, r.deck): r for r in results_b}
    pairs = [(r, by_key[(r.board, r.deck)]) for r in results_a if (r.board, r.deck) in by_key]
    goal = paired_proportion_difference(
        sum(won(x) and not won(y) for x, y in pairs), sum(won(y) and not won(x) for x, y in pairs), len(pairs)
    )
    rounds = mean_interval([float(x.rounds - y.rounds) for x, y in pairs if won(x) and won(y)])
    tallies: dict[str, list[int]] = {}
    for x, y in pairs:
        tally = tallies.setdefault(x.board, [0, 0, 0])
        tally[1 - game_order(x, y)] += 1
    boards = [BoardTally(board, *counts) for board, counts in tallies.items()]
    return PairComparison(a, b, len(pairs), goal, rounds, boards)


def compare_all(labels: Sequence[str], results: Sequence[Sequence[GameResult]]) -> list[PairComparison]:
    """Every pair of AIs, in the order given."""
    return [
        compare_pair(labels[i], labels[j], results[i], results[j])
        for i in range(len(labels))
        for j in range(i + 1, len(labels))
    ]


def distinct_labels(specs: Sequence[str]) -> list[str]:
    """Short names that tell the AIs apart: ``bot.py`` twice becomes ``v1/bot.py`` and ``v2/bot.py``.

    The last path component first, then as many parent folders as it takes; the same spec given
    twice gets ``#1``, ``#2``.
    """
    parts = [spec.replace("\\", "/").rstrip("/").split("/") for spec in specs]
    labels = []
    for i, words in enumerate(parts):
        depth = 1
        while depth < len(words):
            mine = "/".join(words[-depth:])
            if all("/".join(other[-depth:]) != mine for j, other in enumerate(parts) if j != i and other != words):
                break
            depth += 1
        labels.append("/".join(words[-depth:]) or specs[i])
    counts: dict[str, int] = {}
    result = []
    for label in labels:
        if labels.count(label) > 1:
            counts[label] = counts.get(label, 0) + 1
            result.append(f"{label}#{counts[label]}")
        else:
            result.append(label)
    return result
