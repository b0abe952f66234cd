"""Fair comparisons: several ``--ai`` play the same boards and decks; the report gives intervals,
paired differences and a plain verdict."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from PIL import Image

from engine.contest import main as contest_main
from engine.contest.compare import (
    ai_figures,
    compare_pair,
    distinct_labels,
    game_order,
    mean_interval,
    paired_proportion_difference,
    wilson,
)
from engine.contest.report import parse_csv
from engine.contest.runner import GameResult

from .conftest import ROOT, python_bot

BOARDS = [str(ROOT / "gameboards" / name) for name in ("chop.dat", "oil-runs-12x8.dat")]


def contest(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = contest_main([*BOARDS, "--seeds", "12", "--level", "hard", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_two_copies_of_one_ai_show_no_difference(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = contest(capsys, "--ai", "reference", "--ai", "reference", "--out", str(tmp_path))
    assert code == 0, err
    assert "reference#1 vs reference#2: no difference (within noise)" in out
    comparison = json.loads((tmp_path / "comparison.json").read_text())
    [pair] = comparison["pairs"]
    assert pair["within_noise"] and pair["goal_difference"]["low"] < 0 < pair["goal_difference"]["high"]
    rows = parse_csv((tmp_path / "results.csv").read_text())
    assert len(rows) == 48 and {r.ai for r in rows} == {"reference#1", "reference#2"}
    # The same games: board and deck pairs identical for both.
    first = [(r.board, r.deck) for r in rows if r.ai == "reference#1"]
    assert first == [(r.board, r.deck) for r in rows if r.ai == "reference#2"]


def test_reference_against_planner_shows_a_difference_with_its_interval(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = contest(capsys, "--ai", "reference", "--ai", "planner", "--out", str(tmp_path), "--jobs", "2")
    assert code == 0, err
    assert "reference vs planner: planner reaches the goal more often (goal rate -" in out
    assert "95% interval [" in out
    comparison = json.loads((tmp_path / "comparison.json").read_text())
    [pair] = comparison["pairs"]
    assert not pair["within_noise"] and pair["goal_difference"]["high"] < 0
    planner = next(a for a in comparison["ais"] if a["label"] == "planner")
    assert planner["goal_interval"][0] <= planner["goal_rate"] <= planner["goal_interval"][1]
    assert planner["mean_rounds_won"]["n"] == planner["goals"]
    # The table ranks as the contest does: the planner first.
    table = out.split("\n")
    assert table[3].startswith("planner") and table[4].startswith("reference")
    with Image.open(tmp_path / "comparison.png") as chart:
        assert chart.size[0] > 300 and len(chart.convert("RGB").getcolors(100_000) or []) > 3


def test_same_named_programs_are_told_apart(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for version in ("v1", "v2"):
        (tmp_path / version).mkdir()
        python_bot(
            tmp_path / version / "bot.py", 'open("ccards.txt", "w").write("".join(open("cards.txt").readlines()[:5]))\n'
        )
    code, out, err = contest(
        capsys,
        "--ai",
        str(tmp_path / "v1" / "bot.py"),
        "--ai",
        str(tmp_path / "v2" / "bot.py"),
        "--out",
        str(tmp_path / "o"),
    )
    assert code == 0, err
    assert "v1/bot.py vs v2/bot.py: no difference (within noise)" in out
    assert sorted(p.name for p in (tmp_path / "o" / "ai-logs").iterdir()) == ["1-v1_bot.py", "2-v2_bot.py"]


def test_labels() -> None:
    assert distinct_labels(["a/x/bot.py", "b/x/bot.py", "planner"]) == ["a/x/bot.py", "b/x/bot.py", "planner"]
    assert distinct_labels(["v1/bot.py", "v2/bot.py"]) == ["v1/bot.py", "v2/bot.py"]
    assert distinct_labels(["planner", "planner", "/x/bot"]) == ["planner#1", "planner#2", "bot"]


def result(outcome: str, rounds: int, deck: str = "seed:1", board: str = "b.dat") -> GameResult:
    return GameResult(board, deck, "hard", "x", outcome, rounds, 0, 0, 0, "")


def test_statistics() -> None:
    low, high = wilson(0, 20)
    assert low == 0.0 and 0.1 < high < 0.2
    low, high = wilson(20, 20)
    assert high == 1.0 and 0.8 < low < 0.9
    same = mean_interval([3.0, 3.0, 3.0])
    assert (same.mean, same.low, same.high) == (3.0, 3.0, 3.0)
    spread = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert spread.low is not None and spread.high is not None and spread.low < 2.5 < spread.high
    none = paired_proportion_difference(0, 0, 100)
    assert none.low is not None and none.high is not None and none.low < 0 < none.high and none.high < 0.03
    clear = paired_proportion_difference(30, 2, 100)
    assert clear.mean == pytest.approx(0.28) and clear.low is not None and clear.low > 0.15
    assert game_order(result("Z", 5), result("X", 2)) == 1
    assert game_order(result("Z", 5), result("Z", 4)) == -1
    assert game_order(result("X", 5), result("Y", 700)) == 0


def test_the_interval_of_rounds_won_never_reaches_below_one_round() -> None:
    """Won in 1 round on a tiny board and in 40 on a big one: the t interval went to -2.67 rounds."""
    results = [result("Z", 1)] * 4 + [result("Z", 40)] * 3 + [result("X", 2)]
    rounds = ai_figures("x", "x", results).rounds_won
    assert rounds.mean is not None and rounds.low == 1.0 and rounds.high is not None and rounds.high > rounds.mean
    unbounded = mean_interval([1.0] * 4 + [40.0] * 3)  # a difference of rounds may be negative: no floor
    assert unbounded.low is not None and unbounded.low < 0


def test_rounds_decide_when_goals_are_equal() -> None:
    a = [result("Z", 4, f"seed:{i}") for i in range(30)]
    b = [result("Z", 5 + i % 2, f"seed:{i}") for i in range(30)]
    pair = compare_pair("fast", "slow", a, b)
    assert not pair.within_noise
    assert pair.verdict().startswith("fast vs slow: fast needs fewer rounds in the games both win (rounds -1.50")
    assert [(t.better, t.equal, t.worse) for t in pair.boards] == [(30, 0, 0)]


def test_many_ais_print_each_against_the_next_in_the_ranking() -> None:
    """13 AIs printed 78 pairs (234 lines) after the table; past four AIs only neighbours in the
    ranking are printed (every pair stays in comparison.json)."""
    from engine.contest.compare import ai_figures, compare_all, ranked
    from engine.contest.several import MOST_PAIRS_PRINTED, pairs_to_print

    def results(wins: int) -> list[GameResult]:
        return [GameResult("b", f"d{g}", "hard", "x", "Z" if g < wins else "X", 5, 25, 20, 3, "") for g in range(10)]

    labels = [f"ai{n}" for n in range(6)]
    per_ai = [results(wins) for wins in (3, 9, 5, 7, 1, 8)]
    figures = [ai_figures(label, label, games) for label, games in zip(labels, per_ai, strict=True)]
    pairs = compare_all(labels, per_ai)
    assert len(pairs) == 15 > MOST_PAIRS_PRINTED
    order = [f.label for f in ranked(figures)]
    assert order == ["ai1", "ai5", "ai3", "ai2", "ai0", "ai4"]
    shown = [{p.a, p.b} for p in pairs_to_print(figures, pairs)]
    assert sorted(map(sorted, shown)) == sorted(sorted(step) for step in itertools.pairwise(order))
    few = pairs[:MOST_PAIRS_PRINTED]
    assert pairs_to_print(figures, few) == few
