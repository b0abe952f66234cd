"""``robots-engine round GAMEDIR N`` sets a played round up again and reruns an AI on it;
``robots-oracle`` answers for a start pose or a played game's round."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.boardfile import load_board
from engine.deck import generate_deck, save_deck
from engine.model import Level
from engine.oracle import optimum_rounds
from engine.protocol import read_ai_inputs, read_chosen

from .conftest import CHOP, ROOT, Runner, python_bot

#: A deterministic external AI: the hand sorted by name, so its choice is not the reference's.
SORTER = 'cards = sorted(open("cards.txt").read().splitlines())\nopen("ccards.txt", "w").write("\\n".join(cards[:5]) + "\\n")\nprint("sorted", cards[:5])\n'


def test_round_on_a_lost_game_reproduces_the_ais_choice(engine: Runner, tmp_path: Path) -> None:
    played = engine("play", str(CHOP), "--seed", "3", "--level", "hard", "--out", "g")
    info = json.loads((tmp_path / "g" / "game.json").read_text())
    assert played.code == 0 and info["outcome"] == "X"  # the reference AI drives into a hole in round 3
    result = engine("round", "g", "3")
    assert result.code == 0, result.err
    assert "the same choice as in the game" in result.out
    board, hand, pose = read_ai_inputs(tmp_path / "g" / "round-3")
    record = json.loads((tmp_path / "g" / "rounds.jsonl").read_text().splitlines()[2])
    assert pose.to_bot_line() == record["before"] and [c.value for c in hand] == record["hand"]
    assert board == load_board(CHOP)
    assert [c.value for c in read_chosen(tmp_path / "g" / "round-3")] == record["chosen"]


def test_round_reruns_the_external_ai_the_game_was_played_with_from_anywhere(
    engine: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python_bot(tmp_path / "sorter.py", SORTER)
    assert engine("play", str(CHOP), "--seed", "4", "--ai", "./sorter.py", "--out", "g").code == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = engine("round", "../g", "2", "--out", "r2")
    assert result.code == 0, result.err
    assert "the same choice as in the game" in result.out
    assert "sorted [" in result.out  # the AI's output is shown
    assert "--- round 1:" in (elsewhere / "r2" / "ai.log").read_text()


def test_round_with_another_ai_says_how_its_choice_differs(engine: Runner, tmp_path: Path) -> None:
    python_bot(tmp_path / "sorter.py", SORTER)
    engine("play", str(CHOP), "--seed", "3", "--level", "hard", "--out", "g")
    result = engine("round", "g", "1", "--ai", "./sorter.py", "--out", "r")
    assert result.code == 0, result.err
    assert "a different choice from the game (" in result.out
    result = engine("round", "g", "1", "--ai", "planner", "--out", "p")
    assert result.code == 0, result.err
    assert len(read_chosen(tmp_path / "p")) == 5


def test_round_of_a_folder_without_record_rebuilds_it_from_the_seed(engine: Runner, tmp_path: Path) -> None:
    engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--out", "g")
    first = engine("round", "g", "2", "--write-only", "--out", "a")
    (tmp_path / "g" / "rounds.jsonl").unlink()
    (tmp_path / "g" / "deck.txt").unlink()
    second = engine("round", "g", "2", "--write-only", "--out", "b")
    assert first.code == second.code == 0
    assert read_ai_inputs(tmp_path / "a") == read_ai_inputs(tmp_path / "b")
    assert not (tmp_path / "b" / "ccards.txt").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["g", "9"], "the game has 3 rounds; there is no round 9"),
        (["g", "0"], "rounds are numbered from 1"),
        (["g", "x"], "a round number must be a whole number"),
        (["nowhere", "1"], "not a game directory"),
    ],
)
def test_round_bad_input_is_one_line(engine: Runner, args: list[str], message: str) -> None:
    engine("play", str(CHOP), "--seed", "3", "--level", "hard", "--out", "g")
    result = engine("round", *args)
    assert result.code == 2
    assert message in result.err and result.err.count("\n") == 1


@pytest.mark.parametrize("ai", ["A" * 100_000, "/no/such/" + "x" * 300, "y" * 300], ids=["100000", "path", "name"])
def test_round_with_an_ai_name_of_any_length_in_game_json_is_one_short_line(
    engine: Runner, tmp_path: Path, ai: str
) -> None:
    """``round`` runs the AI game.json names again: a name of 100,000 characters was printed whole
    (``robots-engine: AAAA...: File name too long``, one line of 100,035 characters)."""
    import json

    engine("play", str(CHOP), "--seed", "3", "--level", "hard", "--out", "g")
    info = tmp_path / "g" / "game.json"
    info.write_text(json.dumps({**json.loads(info.read_text()), "ai": ai}))
    result = engine("round", "g", "1")
    assert result.code == 2 and result.err.count("\n") == 1, result.err[:300]
    assert len(result.err) < 260 and "..." in result.err, result.err[:300]


def test_a_deck_name_too_long_for_the_system_is_no_deck(
    engine: Runner, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """game.json naming a deck file of 5,000 characters: robots-view printed the OSError whole
    (``the deck is ignored ...: [Errno 36] File name too long: 'xxx...'``, 5,099 characters)."""
    import json

    from engine.gamedir import read_game_dir
    from engine.rerun import game_deck
    from viewer3d.sources import from_game_dir

    engine("play", str(CHOP), "--seed", "3", "--level", "hard", "--out", "g")
    (tmp_path / "g" / "deck.txt").unlink()
    info = tmp_path / "g" / "game.json"
    info.write_text(json.dumps({**json.loads(info.read_text()), "seed": None, "deck": "x" * 5000}))
    assert game_deck(read_game_dir(tmp_path / "g")) is None
    capsys.readouterr()
    assert from_game_dir(tmp_path / "g").timeline.deck is None
    assert capsys.readouterr().err == ""


def test_round_with_a_failing_ai_exits_3_and_shows_its_last_output(engine: Runner, tmp_path: Path) -> None:
    engine("play", str(CHOP), "--seed", "3", "--out", "g")
    python_bot(tmp_path / "bad.py", 'print("thinking")\nraise SystemExit("no idea")\n')
    result = engine("round", "g", "1", "--ai", "./bad.py")
    assert result.code == 3
    assert "exited with status 1; last output: no idea" in result.err


def test_oracle_from_a_game_round_equals_the_oracle_from_that_pose_and_deck(
    oracle: Runner, engine: Runner, tmp_path: Path
) -> None:
    engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--out", "g")
    record = json.loads((tmp_path / "g" / "rounds.jsonl").read_text().splitlines()[1])
    deck = generate_deck(25)
    save_deck(deck[8:], tmp_path / "rest.dat")
    from_game = oracle("--from", "g", "--round", "2")
    by_hand = oracle(str(CHOP), "rest.dat", "--level", "hard", "--start", record["before"])
    assert from_game.code == by_hand.code == 0, from_game.err + by_hand.err
    assert from_game.out == by_hand.out
    board = load_board(CHOP)
    from engine.protocol import parse_pose

    expected = optimum_rounds(board, Level.HARD, deck[8:], parse_pose(record["before"]))
    assert from_game.out.strip() == ("unreachable" if expected is None else str(expected))
    whole = oracle("--from", "g", "--round", "1")
    assert whole.out.strip() == str(optimum_rounds(board, Level.HARD, deck))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "g"], "--from GAMEDIR needs --round N"),
        ([str(CHOP)], "give BOARD and DECK, or --from GAMEDIR --round N"),
        ([str(CHOP), str(ROOT / "tests" / "data" / "README.md")], "unknown card"),
        ([str(CHOP), "deck.dat", "--start", "99 0 D"], "lies outside the 12x12 board"),
        ([str(CHOP), "deck.dat", "--start", "1 1 Q"], "facing must be one of L R U D"),
        (["--from", "g", "--round", "1", str(CHOP)], "give no BOARD, DECK or --start"),
    ],
)
def test_oracle_bad_input_is_one_line(
    oracle: Runner, engine: Runner, tmp_path: Path, args: list[str], message: str
) -> None:
    engine("play", str(CHOP), "--seed", "3", "--out", "g")
    save_deck(generate_deck(1), tmp_path / "deck.dat")
    result = oracle(*args)
    assert result.code == 2
    assert message in result.err and result.err.count("\n") == 1
