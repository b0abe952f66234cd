"""``robots-engine analyse``: every round against the best choice without foresight; the viewer
shows the best choice as a ghost robot and the lossy rounds on the timeline."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.roundlog import ROUNDS_FILE
from viewer3d.app import ViewerApp
from viewer3d.sources import from_game_dir

from .conftest import CHOP, Runner


def test_a_reference_game_has_lossy_rounds_and_a_planner_game_none(engine: Runner, tmp_path: Path) -> None:
    assert engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--out", "ref").code == 0
    result = engine("analyse", "ref")
    assert result.code == 0, result.err
    assert "lossy rounds: " in result.out and "round" in result.out.splitlines()[0]
    analysis = json.loads((tmp_path / "ref" / "analysis.json").read_text())
    assert 5 in analysis["lossy_rounds"]  # the reference AI drives into the hole in round 5
    last = analysis["rounds"][-1]
    assert last["chosen"]["goal_probability"] == 0.0 and last["best"]["goal_probability"] > 0.9
    assert "goal -" in result.out
    assert engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--ai", "planner", "--out", "pl").code == 0
    planner = engine("analyse", "pl")
    assert planner.code == 0, planner.err
    assert "no lossy round: every choice was as good as the best" in planner.out
    assert json.loads((tmp_path / "pl" / "analysis.json").read_text())["lossy_rounds"] == []


def test_analyse_needs_a_round_record(engine: Runner, tmp_path: Path) -> None:
    engine("play", str(CHOP), "--seed", "3", "--out", "g")
    (tmp_path / "g" / "rounds.jsonl").unlink()
    result = engine("analyse", "g")
    assert result.code == 2 and "no round record (rounds.jsonl)" in result.err and result.err.count("\n") == 1
    assert engine("analyse", "nowhere").code == 2


def test_an_empty_round_record_is_an_error_not_a_game_without_loss(engine: Runner, tmp_path: Path) -> None:
    """An emptied rounds.jsonl was judged "no lossy round: every choice was as good as the best
    (0 rounds)", and that written to analysis.json, for a game of 8 rounds."""
    engine("play", str(CHOP), "--seed", "3", "--out", "g")
    (tmp_path / "g" / "rounds.jsonl").write_text("")
    result = engine("analyse", "g")
    assert result.code == 2 and result.out == "" and not (tmp_path / "g" / "analysis.json").exists()
    assert (
        result.err
        == f"robots-engine: {Path('g', 'rounds.jsonl')}: the round record holds no round: play the game again to analyse it\n"
    )


@pytest.mark.parametrize("kind", ["fifo", "folder", "link loop"])
def test_a_round_record_that_is_no_file_is_named_not_taken_for_none(engine: Runner, tmp_path: Path, kind: str) -> None:
    """``analyse`` on a game whose rounds.jsonl was a FIFO, a folder or a link loop said "this game
    folder has no round record: play it again to analyse it"; it says what is there now."""
    assert engine("play", str(CHOP), "--seed", "3", "--out", "g").code == 0
    path = tmp_path / "g" / ROUNDS_FILE
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to(ROUNDS_FILE)
    result = engine("analyse", "g")
    expected = {
        "fifo": "is a FIFO (named pipe), not a regular file",
        "folder": "is a directory, not a file",
        "link loop": "cannot read: Too many levels of symbolic links",
    }[kind]
    assert result.code == 2 and result.err == f"robots-engine: g/{ROUNDS_FILE}: {expected}\n", result.err


@pytest.mark.parametrize(
    ("second_line", "message"),
    [
        ("[" * 10_000 + "]" * 10_000, "rounds.jsonl:2:33: not valid JSON here: nested more than 32 levels deep"),
        ('{"round": 2, "x": ' + "9" * 5000 + "}", "rounds.jsonl:2:19: not valid JSON here: a number of more than"),
        ('{"round": 2', "rounds.jsonl:2:12: not valid JSON: Expecting ',' delimiter"),
        (
            '{"round": 2, "before": "0 0 D", "hand": ["MB", "MB", "MB", "MB", "MB", "MB", "MB"]}',
            "rounds.jsonl:2:1: 'hand' has 7 cards, a hand has 8",
        ),
    ],
    ids=["deep", "5000-digits", "torn", "7-card-hand"],
)
def test_a_damaged_round_record_is_one_line_naming_line_and_column(
    engine: Runner, tmp_path: Path, second_line: str, message: str
) -> None:
    """JSON nested 10,000 deep in rounds.jsonl was a RecursionError traceback (analyse, round and
    the viewer), a hand of 7 cards a ValueError traceback from the planner (analyse), and a torn
    line read ``rounds.jsonl:2: not JSON: Expecting ...: line 1 column 12 (char 11)``."""
    engine("play", str(CHOP), "--seed", "3", "--out", "g")
    record = tmp_path / "g" / "rounds.jsonl"
    record.write_text(record.read_text().splitlines()[0] + "\n" + second_line + "\n")
    for command in (["analyse", "g"], ["round", "g", "1"]):
        result = engine(*command)
        assert result.code == 2 and result.err.count("\n") == 1, result.err
        assert result.err.startswith(f"robots-engine: {Path('g') / message}"), result.err
        assert len(result.err) < 160 and "Traceback" not in result.err


def test_the_viewer_shows_the_best_choice_as_a_ghost(engine: Runner, tmp_path: Path) -> None:
    engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--out", "ref")
    assert not from_game_dir(tmp_path / "ref").analysis  # not analysed yet: no ghost
    engine("analyse", "ref")
    source = from_game_dir(tmp_path / "ref")
    assert source.analysis[5].lossy
    app = ViewerApp(source.board, source.timeline, source.title)
    app.rounds, app.analysis = source.rounds, source.analysis
    app.player.jump_to_round(5)
    index = source.timeline.card_starts.index(source.timeline.round_starts[5])
    app.player.seek(source.timeline.card_ends[index + 1])
    assert app.round_and_cards_done() == (5, 2)
    ghost = app.frame().ghost
    expected = source.analysis[5].ghost[2]
    assert ghost is not None and (ghost.bx, ghost.by) == (expected.x, expected.y) and ghost.alpha < 1
    assert any(line.startswith("best:   ") and "loss: goal -" in line for line in app.round_lines())
    app.key("B")
    assert app.frame().ghost is None


def test_a_damaged_analysis_is_said_and_the_game_still_shown(
    engine: Runner, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """analysis.json nested 10,000 deep, or with a round number 1e400, was a traceback of
    robots-view (RecursionError, OverflowError); a FIFO of that name held it for ever."""
    import os

    from tests.fifo_guard import never_stuck_on

    engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--out", "ref")
    engine("analyse", "ref")
    analysis = tmp_path / "ref" / "analysis.json"
    good = json.loads(analysis.read_text())
    capsys.readouterr()
    analysis.write_text("[" * 10_000 + "]" * 10_000)
    source = from_game_dir(tmp_path / "ref")
    assert source.analysis == {} and source.timeline.steps
    err = capsys.readouterr().err
    assert err == (
        f"robots-view: the analysis is ignored: {analysis}:1:33: not valid JSON here: nested more than 32 levels deep\n"
    )
    numbers = {item["round"] for item in good["rounds"]}
    good["rounds"][0]["round"] = float("inf")  # written as Infinity, read back as a float
    analysis.write_text(json.dumps(good))
    assert set(from_game_dir(tmp_path / "ref").analysis) == numbers - {1}  # that round skipped, the others kept
    analysis.unlink()
    os.mkfifo(analysis)
    with never_stuck_on(analysis) as knocked:
        assert from_game_dir(tmp_path / "ref").analysis == {}
    assert not knocked, "the FIFO was opened for reading"
    assert capsys.readouterr().err.endswith("analysis.json: is a FIFO (named pipe), not a regular file\n")


def test_exports_draw_the_ghost_too(engine: Runner, tmp_path: Path) -> None:
    from viewer3d.movie import plan_frames, round_span

    engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--out", "ref")
    engine("analyse", "ref")
    source = from_game_dir(tmp_path / "ref")
    begin, end = round_span(source.timeline, 5)
    frames = plan_frames(source, (320, 240), 5, "iso1", None, span=(begin, end))
    ghosts = [frames.frame(i)[1].ghost for i in range(len(frames))]
    assert all(g is not None and g.alpha < 1 for g in ghosts)
    assert (ghosts[0].bx, ghosts[0].by) == (source.analysis[5].ghost[0].x, source.analysis[5].ghost[0].y)  # type: ignore[union-attr]


def test_a_new_game_in_the_folder_drops_the_earlier_games_analysis(engine: Runner, tmp_path: Path) -> None:
    """``play --out`` into an analysed game's folder kept its analysis.json, so the viewer showed
    the earlier game's best choices (ghosts, lossy rounds) on the new game's rounds."""
    assert engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--out", "g").code == 0
    assert engine("analyse", "g").code == 0
    assert from_game_dir(tmp_path / "g").analysis
    assert engine("play", str(CHOP), "--seed", "26", "--level", "hard", "--out", "g").code == 0
    assert not (tmp_path / "g" / "analysis.json").exists()
    assert not from_game_dir(tmp_path / "g").analysis
