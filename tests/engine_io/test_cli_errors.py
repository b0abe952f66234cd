"""Every bad input: one line ``robots-engine: path:line:col: message`` on stderr, exit 2, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.deck import generate_deck, save_deck, write_cards

CHOP = str(Path(__file__).resolve().parents[2] / "gameboards" / "chop.dat")

FILES = {
    "badchar.dat": "3 2\nT Z\n ? \n",
    "long.dat": "2 1\nTZZ\n",
    "header.dat": "twelve 12\n",
    "empty.dat": "",
    "nostart.dat": "2 1\n Z\n",
    "twostarts.dat": "3 1\nTZS\n",
    "badcard.dat": "MF 1\nRR\nMF 4\n",
    "seq.txt": "MR\nMQ\n",
}


@pytest.fixture
def files(tmp_path: Path) -> Path:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    save_deck(generate_deck(1)[:-1], tmp_path / "short.dat")
    (tmp_path / "toomany.dat").write_text(write_cards(generate_deck(1) + generate_deck(2)[:1]))
    (tmp_path / "afile").write_text("")
    return tmp_path


CASES = [
    (["play", "missing.dat"], ["missing.dat: no such file"]),
    (["play", "badchar.dat"], ["badchar.dat:3:2: unknown board character '?'"]),
    (["play", "long.dat"], ["long.dat:2:3: row is 3 characters long"]),
    (["play", "header.dat"], ["header.dat:1:1: first line must be 'WIDTH HEIGHT'"]),
    (["play", "empty.dat"], ["empty.dat:1:1: empty file"]),
    (["play", "nostart.dat"], ["nostart.dat: no start tile"]),
    (["play", "twostarts.dat"], ["twostarts.dat:2:3: 2 start tiles (at 0 0, 2 0): a board needs exactly one"]),
    (["play", CHOP, "--deck", "badcard.dat"], ["badcard.dat:3:1: unknown card 'MF 4'"]),
    (["play", CHOP, "--deck", "short.dat"], ["short.dat: not a valid deck: has 5599 cards"]),
    (["play", CHOP, "--deck", "toomany.dat"], ["toomany.dat:5601:1: not a valid deck: has 5601 cards"]),
    (["play", CHOP, "--deck", "empty.dat"], ["empty.dat:1:1: no cards: expected a deck of 5600 cards, one per line"]),
    (["play", CHOP, "--deck", "badchar.dat"], ["badchar.dat:1:1: unknown card '3 2'"]),
    (["play", CHOP, "--deck", "nodeck.dat"], ["nodeck.dat: no such file"]),
    (["play", CHOP, "--deck", ""], ["'': no such file"]),  # an empty name: it said "no such file" alone
    (["load", CHOP, "", "normal"], ["'': no such file"]),
    (["play", ""], ["'': no such file"]),
    (["play", CHOP, "--level", "hardd"], ["unknown level 'hardd' (expected easy, normal, hard)"]),
    (["play", CHOP, "--seed", "1", "--deck", "short.dat"], ["not allowed with argument"]),
    (["play", CHOP, "--seed", "one"], ["argument --seed: seed must be a whole number, not 'one'"]),
    (["play", CHOP, "--ai", "nosuchbot"], ["unknown AI 'nosuchbot'"]),
    (["play", CHOP, "--ai", "afile"], ["afile: AI program is not executable"]),
    (["start", "--timeout", "0"], ["timeout must be a positive number"]),
    (["play", CHOP, "--timeout", "nan"], ["timeout must be a positive number"]),
    (["play", CHOP, "--out", "afile"], ["afile: is a file, not a folder (for --out)"]),
    (["play", CHOP, "--out", "afile/game"], ["afile: is a file, not a folder (for --out)"]),
    (["load", CHOP, "short.dat", "hard"], ["short.dat: not a valid deck"]),
    (["load", CHOP, "badcard.dat"], ["badcard.dat:3:1: unknown card"]),
    (["load", CHOP, "hardd"], ["hardd: no such file (and not a level: easy, normal, hard)"]),
    (["load", CHOP, "short.dat", "hardd"], ["unknown level 'hardd'"]),
    (["load", CHOP, "a", "b", "c"], ["too many arguments"]),
    (["load", "badchar.dat"], ["badchar.dat:3:2: unknown board character"]),
    (["start", "extreme"], ["unknown level 'extreme'"]),
    (["save", "afile/deck.dat"], ["afile: is a file, not a folder (for the deck)"]),
    (["save"], ["the following arguments are required: DECK"]),
    (["check"], ["the following arguments are required: BOARD"]),
    (["replay", CHOP, "seq.txt", "--level", "hard"], ["seq.txt:2:1: unknown sequence line 'MQ'"]),
    (["replay", CHOP, "seq.txt"], ["seq.txt:2:1: unknown sequence line 'MQ'"]),
    (["replay", CHOP, "seq.txt", "--start", "1 2"], ["--start: expected 'X Y FACING'"]),
    (["replay", CHOP, "seq.txt", "--start", "99 2 L"], ["--start 99 2 L lies outside the 12x12 board"]),
    (["replay", CHOP, "nothere.txt"], ["nothere.txt: no such file"]),
    (["fly"], ["invalid choice: 'fly'"]),
    ([], ["the following arguments are required"]),
]


@pytest.mark.parametrize(("argv", "fragments"), CASES, ids=[" ".join(a)[-40:] or "(none)" for a, _ in CASES])
def test_bad_input_is_one_line_and_exit_2(
    engine, one_line_error, files: Path, argv: list[str], fragments: list[str]
) -> None:
    result = engine(*argv)
    one_line_error(result, *fragments)
    assert result.out == ""


def test_a_file_name_with_a_newline_or_bytes_that_are_not_utf8_stays_on_one_line(
    engine, one_line_error, tmp_path: Path
) -> None:
    """A board named ``new<newline>line.dat`` made its error two lines; a name holding the byte FF
    was quoted as ``\\udcff`` (Python's escape), not as the byte."""
    import os

    (tmp_path / "new\nline.dat").write_text("2 2\n")
    one_line_error(engine("check", "new\nline.dat"), "robots-engine: new\\nline.dat:2:1: missing row 1 of 2")
    (tmp_path / os.fsdecode(b"bad\xff.dat")).write_text("2 2\n")
    one_line_error(engine("check", os.fsdecode(b"bad\xff.dat")), "robots-engine: bad\\xff.dat:2:1: missing row 1 of 2")
    one_line_error(engine("check", "\x1b[31mred\r.dat"), "robots-engine: \\x1b[31mred\\r.dat: no such file")
    (tmp_path / "a\nb").write_text("")
    one_line_error(engine("save", "a\nb/deck.dat"), "robots-engine: a\\nb: is a file, not a folder")


def test_a_failed_load_keeps_the_previous_game(engine, write_bot, files: Path) -> None:
    assert engine("load", CHOP, "hard").code == 0
    before = {p.name: p.read_bytes() for p in files.iterdir() if p.is_file()}
    assert engine("load", CHOP, "badcard.dat", "easy").code == 2
    assert engine("load", "badchar.dat").code == 2
    assert {p.name: p.read_bytes() for p in files.iterdir() if p.is_file()} == before
    assert not [p for p in files.iterdir() if p.name.endswith(".tmp")]


def test_help_exits_zero(engine) -> None:
    assert engine("--help").code == 0
    assert engine("play", "--help").code == 0


def test_an_unknown_ai_leaves_no_output_directory(engine, files: Path) -> None:
    assert engine("play", CHOP, "--ai", "nosuchbot", "--out", "never").code == 2
    assert not (files / "never").exists()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=120) | st.text(alphabet="0123456789 \nTZSHOv<>^MNCDEFabcp?\r", max_size=60))
def test_check_on_random_board_files_prints_only_one_line_errors(engine, tmp_path: Path, data: bytes | str) -> None:
    path = tmp_path / "fuzz.dat"
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data)
    result = engine("check", "fuzz.dat")
    assert result.code in (0, 2) and "Traceback" not in result.err
    if result.code == 0:
        assert result.out.startswith("fuzz.dat: ok") and result.err == ""
    else:
        assert result.err and all(line.startswith("robots-engine: fuzz.dat") for line in result.err.splitlines())
