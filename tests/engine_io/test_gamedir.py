"""The game directory: write_game_dir and read_game_dir are a pair; bad files are one-line InputErrors."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.boardfile import load_board, write_board
from engine.conformance import reference_chooser
from engine.deck import generate_deck
from engine.errors import InputError
from engine.game import AIError, Outcome, play_game
from engine.gamedir import (
    ASCII_FILE,
    BOARD_FILE,
    GLOBALSEQ_FILE,
    INFO_FILE,
    SEQUENCE_FILE,
    START_FILE,
    STATS_FILE,
    parse_game_info,
    read_game_dir,
    write_game_dir,
    write_game_info,
)
from engine.model import Level
from engine.outputs import format_globalseq, format_stats, last_sequence
from engine.replay import load_replay
from engine.roundlog import ROUNDS_FILE, parse_rounds, write_rounds
from tests.engine_io.conftest import Result

CHOP = Path(__file__).resolve().parents[2] / "gameboards" / "chop.dat"
ALL_FILES = {BOARD_FILE, START_FILE, GLOBALSEQ_FILE, SEQUENCE_FILE, STATS_FILE, ASCII_FILE, INFO_FILE, ROUNDS_FILE}


@pytest.mark.parametrize("level", list(Level))
def test_written_game_reads_back_and_replays_to_its_final_pose(tmp_path: Path, level: Level) -> None:
    board = load_board(CHOP)
    game = play_game(board, level, generate_deck(11), reference_chooser)
    write_game_dir(tmp_path / "g", game, ai="reference", deck=None, seed=11)
    assert {p.name for p in (tmp_path / "g").iterdir()} == ALL_FILES
    back = read_game_dir(tmp_path / "g")
    assert back.board == board and back.start == board.start and back.level is level
    assert back.globalseq == format_globalseq(game)
    assert (tmp_path / "g" / STATS_FILE).read_text() == format_stats(game)
    assert (tmp_path / "g" / SEQUENCE_FILE).read_text() == last_sequence(game)
    assert (tmp_path / "g" / BOARD_FILE).read_text() == write_board(board)
    assert game.outcome is not None
    info = back.info
    assert (info["ai"], info["seed"], info["deck"]) == ("reference", 11, None)
    assert (info["outcome"], info["rounds"], info["cards"]) == (game.outcome.value, len(game.rounds), game.cards_played)
    assert info["final"] == [game.pose.x, game.pose.y, game.pose.facing.value]
    replay = load_replay(back.board, back.level, back.start, back.globalseq)
    assert replay.outcome is game.outcome and replay.final_pose == game.pose
    info_text = (tmp_path / "g" / INFO_FILE).read_text()
    assert write_game_info(parse_game_info(info_text)) == info_text  # game.json: written again exactly
    rounds_text = (tmp_path / "g" / ROUNDS_FILE).read_text()
    assert write_rounds(parse_rounds(rounds_text, ROUNDS_FILE, board.width, board.height)) == rounds_text


def test_an_ai_error_is_recorded_with_its_message(tmp_path: Path) -> None:
    def broken(*_: object) -> list[object]:
        raise AIError("crashed with exit status 1")

    game = play_game(load_board(CHOP), Level.HARD, generate_deck(1), broken)  # type: ignore[arg-type]
    write_game_dir(tmp_path, game, ai="./mybot", deck="decks/d.dat", seed=None)
    info = read_game_dir(tmp_path).info
    assert info["outcome"] == Outcome.AI_ERROR.value and info["outcome_name"] == "ai_error"
    assert info["error"] == "round 1: crashed with exit status 1"
    assert (info["deck"], info["seed"], info["ai"]) == ("decks/d.dat", None, "./mybot")


def test_a_failed_rewrite_leaves_the_earlier_game_whole(tmp_path: Path) -> None:
    """'robots-engine play --out g' on a full disk replaced globalseq.txt, rounds.jsonl and stats.txt
    with the new game's and kept the old game.json and deck.txt: a folder of two games."""
    board = load_board(CHOP)
    first = play_game(board, Level.EASY, generate_deck(1), reference_chooser)
    second = play_game(board, Level.EASY, generate_deck(2), reference_chooser)
    write_game_dir(tmp_path, first, ai="reference", deck=None, seed=1, cards=generate_deck(1))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    (tmp_path / INFO_FILE).unlink()
    (tmp_path / INFO_FILE).mkdir()  # in the way of the last file written
    with pytest.raises(IsADirectoryError):
        write_game_dir(tmp_path, second, ai="reference", deck=None, seed=2, cards=generate_deck(2))
    (tmp_path / INFO_FILE).rmdir()
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert after == {name: data for name, data in before.items() if name != INFO_FILE}
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_rewriting_a_game_dir_replaces_every_file(tmp_path: Path) -> None:
    board = load_board(CHOP)
    first = play_game(board, Level.HARD, generate_deck(1), reference_chooser)
    second = play_game(board, Level.EASY, generate_deck(2), reference_chooser)
    write_game_dir(tmp_path, first, ai="reference", deck=None, seed=1)
    write_game_dir(tmp_path, second, ai="reference", deck=None, seed=2)
    back = read_game_dir(tmp_path)
    assert back.level is Level.EASY and back.globalseq == format_globalseq(second)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.fixture
def game_dir(tmp_path: Path) -> Path:
    game = play_game(load_board(CHOP), Level.NORMAL, generate_deck(5), reference_chooser)
    write_game_dir(tmp_path / "g", game, ai="reference", deck=None, seed=5)
    return tmp_path / "g"


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        (INFO_FILE, '{"format": 1,\n "level": }', "game.json:2:11: not valid JSON: Expecting value"),
        (INFO_FILE, "[1, 2]", "game.json:1:1: expected a JSON object"),
        (INFO_FILE, '{"format": 2, "level": "hard"}', "game.json:1:12: unsupported format 2"),
        (INFO_FILE, '{"format": 1, "level": "extreme"}', "game.json:1:24: 'level' must be one of easy, normal, hard"),
        (START_FILE, "0 0 Q\n", "start.txt:1:5: facing must be one of L R U D"),
        (START_FILE, "40 0 D\n", "start.txt:1:1: start 40 0 D lies outside the 12x12 board"),
        (BOARD_FILE, "2 1\nT?\n", "board.txt:2:2: unknown board character '?'"),
        # An emptied sequence was shown as the robot standing at its start beside "game over".
        (GLOBALSEQ_FILE, "", "globalseq.txt: is empty, but game.json says the game played "),
        (GLOBALSEQ_FILE, "\n\n", "globalseq.txt: is empty, but game.json says the game played "),
    ],
)
def test_malformed_files_give_one_line_errors(game_dir: Path, name: str, content: str, expected: str) -> None:
    (game_dir / name).write_text(content)
    with pytest.raises(InputError) as info:
        read_game_dir(game_dir)
    message = str(info.value)
    assert expected in message and "\n" not in message
    assert message.startswith(str(game_dir / name))


@pytest.mark.parametrize("name", [INFO_FILE, BOARD_FILE, START_FILE, GLOBALSEQ_FILE])
def test_a_missing_file_is_named(game_dir: Path, name: str) -> None:
    (game_dir / name).unlink()
    with pytest.raises(InputError, match="no such file") as info:
        read_game_dir(game_dir)
    assert str(info.value).startswith(str(game_dir / name))


def test_a_missing_directory_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"not a game directory \(no such directory\)"):
        read_game_dir(tmp_path / "nowhere")
    (tmp_path / "a-file").write_text("2 1\nSZ\n")
    with pytest.raises(InputError, match=r"not a game directory \(a file, not a directory\)"):
        read_game_dir(tmp_path / "a-file")
    os.mkfifo(tmp_path / "a-fifo")  # robots-view a-fifo: it was called "a file"
    with pytest.raises(InputError, match=r"not a game directory \(a FIFO \(named pipe\), not a directory\)"):
        read_game_dir(tmp_path / "a-fifo")
    (tmp_path / "a-loop").symlink_to("a-loop")  # robots-engine analyse a-loop: it was "no such directory"
    with pytest.raises(InputError, match=r"not a game directory \(Too many levels of symbolic links\)"):
        read_game_dir(tmp_path / "a-loop")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from([INFO_FILE, START_FILE]), data=st.binary(max_size=200))
def test_random_bytes_give_only_input_errors(game_dir: Path, name: str, data: bytes) -> None:
    (game_dir / name).write_bytes(data)
    try:
        read_game_dir(game_dir)
    except InputError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
        max_leaves=8,
    ),
    level=st.sampled_from(["easy", "normal", "hard", "x", 1]),
    fmt=st.sampled_from([1, 2, True, "1", None]),
)
def test_any_json_value_gives_a_game_or_an_input_error(
    game_dir: Path, value: object, level: object, fmt: object
) -> None:
    (game_dir / INFO_FILE).write_text(json.dumps({"format": fmt, "level": level, "extra": value}))
    try:
        back = read_game_dir(game_dir)
    except InputError:
        assert type(fmt) is not int or fmt != 1 or level not in ("easy", "normal", "hard")
    else:
        assert back.level.value == level and back.info["extra"] == value


def test_deeply_nested_json_is_an_input_error(game_dir: Path) -> None:
    (game_dir / INFO_FILE).write_text("[" * 100_000)
    with pytest.raises(InputError):
        read_game_dir(game_dir)


def _bytes_at_line_2(path: Path) -> tuple[int, int]:
    """Put the bytes FF FE after the first two characters of ``path``'s second line (no longer
    UTF-8 there); returns that line and column."""
    lines = path.read_bytes().split(b"\n")
    lines[1] = lines[1][:2] + b"\xff\xfe" + lines[1][2:]
    path.write_bytes(b"\n".join(lines))
    return 2, 3


@pytest.mark.parametrize(
    ("name", "command"),
    [(INFO_FILE, "analyse"), (ROUNDS_FILE, "analyse"), (INFO_FILE, "round"), (".robots-state.json", "start")],
)
def test_a_json_file_that_is_not_utf8_is_refused_where_the_bytes_are(
    engine: Callable[..., Result], tmp_path: Path, name: str, command: str
) -> None:
    """JSON is UTF-8; read as Latin-1 the bytes became part of a key, and the message blamed what
    was then missing (``game.json:1:1: unsupported format None``) instead of naming the bytes."""
    if name == ".robots-state.json":
        folder = tmp_path
        assert engine("load", str(CHOP)).code == 0
        argv = ["start"]
    else:
        folder = tmp_path / "g"
        assert engine("play", str(CHOP), "--seed", "3", "--out", "g").code == 0
        argv = [command, "g"] if command == "analyse" else [command, "g", "1", "--write-only", "--out", "r"]
    line, column = _bytes_at_line_2(folder / name)
    result = engine(*argv)
    shown = name if name == ".robots-state.json" else f"g/{name}"
    assert result.code == 2 and result.err.count("\n") == 1, result
    assert f"{shown}:{line}:{column}: not UTF-8 text (byte 0xff): save it as UTF-8" in result.err, result.err


def test_a_state_file_that_is_a_link_loop_is_named_not_taken_for_no_game(
    engine: Callable[..., Result], tmp_path: Path
) -> None:
    """``start`` where .robots-state.json was a link loop said "no game loaded here"."""
    (tmp_path / ".robots-state.json").symlink_to(".robots-state.json")
    result = engine("start")
    assert result.code == 2
    assert (
        result.err == f"robots-engine: {tmp_path}/.robots-state.json: cannot read: Too many levels of symbolic links\n"
    )
