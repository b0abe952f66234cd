"""``play``, ``save``, ``check`` and ``replay`` end to end in temporary directories."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.boardfile import load_board
from engine.conformance import reference_chooser
from engine.deck import deck_problems, generate_deck, load_deck
from engine.game import play_game
from engine.gamedir import read_game_dir
from engine.model import Level
from engine.outputs import Stats, format_globalseq
from engine.replay import load_replay

ROOT = Path(__file__).resolve().parents[2]
CHOP = ROOT / "gameboards" / "chop.dat"
STATS_KEYS = ["Cards", "Rounds", "Card Moves", "Board Moves", "Destroyed (X)", "Cards Out (Y)", "Finished (Z)"]


def read_stats(path: Path) -> dict[str, int]:
    pairs = [line.split(": ") for line in path.read_text().splitlines()]
    assert [key for key, _ in pairs] == STATS_KEYS
    return {key: int(value) for key, value in pairs}


@pytest.mark.parametrize("seed", [None, 1, 7, 8])
def test_play_chop_hard_writes_a_globalseq_that_replays_to_the_recorded_end(
    engine, tmp_path: Path, seed: int | None
) -> None:
    args = ["play", str(CHOP), "--level", "hard", "--out", "out"] + ([] if seed is None else ["--seed", str(seed)])
    result = engine(*args)
    assert result.code == 0 and result.err == ""
    assert result.out.count("\n") == 1 and "files in out" in result.out
    game = read_game_dir(tmp_path / "out")
    info = game.info
    assert game.level is Level.HARD and info["ai"] == "reference" and isinstance(info["seed"], int)
    if seed is not None:
        assert info["seed"] == seed
    replay = load_replay(game.board, game.level, game.start, game.globalseq)
    assert [replay.final_pose.x, replay.final_pose.y, replay.final_pose.facing.value] == info["final"]
    assert replay.outcome is not None and replay.outcome.value == info["outcome"]
    stats = read_stats(tmp_path / "out" / "stats.txt")
    assert stats["Rounds"] == replay.round_count == info["rounds"]
    assert stats["Cards"] == len(replay.steps) == info["cards"]
    moves = sum(
        len(step.result.sequence_lines) - (1 if step.result.sequence_lines[-1:] in (["X"], ["Z"]) else 0)
        for step in replay.steps
    )
    assert stats["Card Moves"] + stats["Board Moves"] == moves
    assert [stats["Destroyed (X)"], stats["Cards Out (Y)"], stats["Finished (Z)"]] == [
        int(info["outcome"] == letter) for letter in "XYZ"
    ]
    # The recorded seed reproduces the game.
    again = play_game(game.board, Level.HARD, generate_deck(info["seed"]), reference_chooser)
    assert format_globalseq(again) == game.globalseq


def test_play_with_a_deck_file_records_it(engine, tmp_path: Path) -> None:
    assert engine("save", "d.dat", "--seed", "8").code == 0
    result = engine("play", str(CHOP), "--deck", "d.dat", "--out", "g")
    assert result.code == 0 and "deck d.dat: Z (robot reached the goal) after 9 rounds" in result.out
    info = json.loads((tmp_path / "g" / "game.json").read_text())
    assert (info["deck"], info["seed"], info["level"], info["outcome"]) == ("d.dat", None, "normal", "Z")
    expected = Stats.of(play_game(load_board(CHOP), Level.NORMAL, generate_deck(8), reference_chooser)).format()
    assert (tmp_path / "g" / "stats.txt").read_text() == expected


def test_play_with_an_external_program(engine, write_bot, tmp_path: Path) -> None:
    program = write_bot(tmp_path)
    result = engine("play", str(CHOP), "--seed", "8", "--ai", str(program), "--out", "ext")
    assert result.code == 0, result.err
    engine("play", str(CHOP), "--seed", "8", "--out", "ref")
    for name in ("globalseq.txt", "stats.txt"):
        assert (tmp_path / "ext" / name).read_text() == (tmp_path / "ref" / name).read_text()
    assert json.loads((tmp_path / "ext" / "game.json").read_text())["ai"] == str(program)


def test_play_with_a_failing_program_reports_the_ai_error(engine, write_bot, tmp_path: Path) -> None:
    program = write_bot(tmp_path, "#!/bin/sh\necho oops\nexit 4\n")
    result = engine("play", str(CHOP), "--seed", "1", "--ai", str(program), "--out", "bad")
    assert result.code == 3 and ": E (AI error: round 1:" in result.out
    assert json.loads((tmp_path / "bad" / "game.json").read_text())["error"].startswith("round 1:")


def test_play_never_replaces_files_of_a_folder_that_is_not_a_game_folder(
    engine, one_line_error, tmp_path: Path
) -> None:
    """``play --out .`` beside your own stats.txt (or in a contest folder after ``load``) replaced
    them without a word; a folder a game was played into before (its game.json) is replaced as ever."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "stats.txt").write_text("my notes\n")
    (mine / "bot.py").write_text("print()\n")
    one_line_error(
        engine("play", str(CHOP), "--seed", "3", "--out", "mine"),
        "robots-engine: mine: holds stats.txt but no game.json: not a game folder",
    )
    assert sorted(p.name for p in mine.iterdir()) == ["bot.py", "stats.txt"]
    assert (mine / "stats.txt").read_text() == "my notes\n"
    (mine / "stats.txt").unlink()
    assert engine("play", str(CHOP), "--seed", "3", "--out", "mine").code == 0  # beside a bot: fine
    assert engine("play", str(CHOP), "--seed", "4", "--out", "mine").code == 0  # a game folder: replaced
    assert read_game_dir(mine).info["seed"] == 4


def test_save_writes_a_valid_deck_reproducible_by_seed(engine, tmp_path: Path) -> None:
    assert engine("save", "a.dat", "--seed", "5").code == 0
    assert engine("save", "b.dat", "--seed", "5").code == 0
    assert engine("save", "c.dat").code == 0
    a, b, c = (load_deck(tmp_path / name) for name in ("a.dat", "b.dat", "c.dat"))
    assert a == b == generate_deck(5) and deck_problems(c) == []


def test_check_reports_ok_boards_and_every_problem(engine, tmp_path: Path) -> None:
    (tmp_path / "two.dat").write_text("3 2\nT Z\n  S\n")
    (tmp_path / "nogoal.dat").write_text("2 1\nT \n")
    result = engine("check", str(CHOP), "two.dat", "nogoal.dat")
    assert result.code == 2
    assert result.out == f"{CHOP}: ok, 12x12, start 0 0 D, 1 goal(s)\n"
    assert result.err.splitlines() == [
        "robots-engine: two.dat:3:3: 2 start tiles (at 0 0, 2 1): a board needs exactly one",
        "robots-engine: nogoal.dat: no goal tile (Z): a board needs at least one",
    ]
    assert engine("check", str(CHOP)).code == 0


def test_check_reach_searches_every_level(engine) -> None:
    no_way = str(ROOT / "gameboards" / "no-way-to-goal.dat")
    assert engine("check", no_way).code == 0
    result = engine("check", "--reach", no_way, str(CHOP))
    assert result.code == 2 and result.out.startswith(f"{CHOP}: ok")
    assert result.err.splitlines() == [
        f"robots-engine: {no_way}: {level}: no goal can be reached from the start"
        for level in ("easy", "normal", "hard")
    ]


def test_replay_finds_the_levels_and_reports_the_outcome(engine, tmp_path: Path) -> None:
    engine("play", str(CHOP), "--seed", "9", "--level", "normal", "--out", "g")
    result = engine("replay", str(CHOP), "g/globalseq.txt")
    assert result.code == 0 and "X (robot destroyed) after 18 rounds" in result.out and "normal" in result.out
    assert engine("replay", str(CHOP), "g/globalseq.txt", "--level", "normal").code == 0


def test_replay_with_a_start_pose_and_a_contradiction(engine, one_line_error, tmp_path: Path) -> None:
    (tmp_path / "b.dat").write_text("3 1\nTbZ\n")
    (tmp_path / "seq.txt").write_text("RR\n----\nRL\n----\nMR\n----\nRR\n----\nRL\n")
    one_line_error(engine("replay", "b.dat", "seq.txt", "--level", "normal"), "seq.txt:5:1: round 1, card 3")
    one_line_error(engine("replay", "b.dat", "seq.txt"), "seq.txt:5:1:", "fits no level")
    (tmp_path / "ok.txt").write_text("MR\nZ\n")
    result = engine("replay", "b.dat", "ok.txt", "--start", "1 0 R", "--level", "easy")
    assert result.code == 0 and "Z (robot reached the goal) after 1 round, 1 card; robot at 2 0 R" in result.out
    partial = engine("replay", "b.dat", "seq.txt", "--start", "1 0 D", "--level", "easy")
    assert partial.code == 2  # 'MR' cannot happen facing down


def test_python_dash_m_runs_the_command_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.dat"
    bad.write_text("2 1\nTx\n")
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "check", str(bad)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"robots-engine: {bad}:2:2: unknown board character 'x'\n"


def test_save_creates_the_decks_folder_as_the_readme_shows(engine, tmp_path: Path) -> None:
    """README: 'robots-engine save decks/d0.dat --seed 1' in a fresh clone, where decks/ does not exist yet."""
    result = engine("save", "decks/d0.dat", "--seed", "1")
    assert result.code == 0, result.err
    assert load_deck(tmp_path / "decks" / "d0.dat") == generate_deck(1)


def test_play_stopped_by_ctrl_c_leaves_no_empty_out_folder(
    engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interrupted 'play --out new/g' left the empty folders behind (exit 130 as before)."""
    from engine import cli as engine_cli

    def interrupted(board: object, level: object, pose: object, hand: object) -> list[object]:
        assert (tmp_path / "new" / "g").is_dir()  # the folder exists while the game runs
        raise KeyboardInterrupt

    monkeypatch.setattr(engine_cli, "resolve_chooser", lambda *args, **kwargs: interrupted)
    result = engine("play", str(CHOP), "--out", "new/g")
    assert result.code == 130 and "interrupted" in result.err
    assert not (tmp_path / "new").exists()
