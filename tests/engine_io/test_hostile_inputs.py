"""Every reader, fed hostile input: one clean InputError (or a listed problem), never a crash.

``tests/data/hostile-inputs/`` keeps the inputs that crashed a reader once (5,000-digit numbers,
a ``10000 10000`` header, 701 rounds, JSON nested 5,000 deep); hypothesis adds fresh ones.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.boardfile import load_board, parse_board
from engine.bounds import MAX_FILE_BYTES, check_seconds, json_too_deep, parse_count, parse_seconds
from engine.contest.report import parse_csv
from engine.deck import load_deck, parse_cards, parse_deck
from engine.errors import InputError
from engine.gamedir import parse_game_info
from engine.model import Level
from engine.outputs import parse_stats
from engine.protocol import parse_pose
from engine.replay import load_replay, parse_globalseq
from engine.roundlog import parse_rounds
from engine.session import session_from_json
from engine.tron.arena import load_arena, parse_arena
from engine.tron.record import parse_game
from engine.tron.tournament import parse_results as parse_tron_results
from themes.manifest import read_manifest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "hostile-inputs"
CHOP_BOARD = load_board(ROOT / "gameboards" / "chop.dat")


def _manifest(text: str, path: str) -> None:
    """Theme manifests collect problems instead of raising: turn the first into an InputError."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "theme.json").write_text(text)
        problems: list[str] = []
        read_manifest(Path(folder), problems)
    if problems:
        raise InputError(problems[0].split(": ", 1)[-1], path)


def _journal(text: str, path: str) -> None:
    """A contest journal read back for --resume (fingerprint: an empty object)."""
    import tempfile

    from engine.batch import Journal

    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "journal.jsonl"
        target.write_text(text)
        try:
            Journal.open(target, {}, resume=True).close()
        except InputError as exc:
            raise InputError(exc.message, path, exc.line, exc.column) from None


def _replay(text: str, path: str) -> None:
    load_replay(CHOP_BOARD, Level.HARD, CHOP_BOARD.start, text, path)


def _analysis(text: str, path: str) -> None:
    """A game folder's ``analysis.json`` as robots-view reads it (``engine.analyse.parse_analysis``)."""
    import tempfile

    from viewer3d.roundview import load_analysis

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "analysis.json").write_text(text)
        try:
            load_analysis(Path(folder), {}, CHOP_BOARD, Level.HARD)
        except InputError as exc:
            raise InputError(exc.message, path, exc.line, exc.column) from None


def _rounds(text: str, path: str) -> None:
    """A game folder's round record (``rounds.jsonl``), read on chop's 12 x 12 board."""
    parse_rounds(text, path, CHOP_BOARD.width, CHOP_BOARD.height)


READERS: dict[str, Callable[[str, str], object]] = {
    "board": parse_board,
    "bot": parse_pose,
    "cards": parse_cards,
    "deck": parse_deck,
    "rounds": _rounds,
    "analysis": _analysis,
    "globalseq": parse_globalseq,
    "replay": _replay,
    "theme": _manifest,
    "game": parse_game_info,
    "state": session_from_json,
    "results": parse_csv,
    "journal": _journal,
    "arena": parse_arena,
    "stats": parse_stats,
    "trongame": parse_game,
    "tronresults": parse_tron_results,
}


def _assert_clean(error: InputError) -> None:
    text = str(error)
    assert "\n" not in text and len(text) < 300, text


@pytest.mark.parametrize("path", sorted(CORPUS.iterdir()), ids=lambda p: p.name)
def test_regression_corpus_is_refused_cleanly(path: Path) -> None:
    reader = READERS[path.name.split("-")[0]]
    text = path.read_text()
    with pytest.raises(InputError) as info:
        reader(text, str(path))
    _assert_clean(info.value)
    assert str(path) in str(info.value)


def test_corpus_covers_every_reader() -> None:
    kinds = {p.name.split("-")[0] for p in CORPUS.iterdir()}
    assert kinds >= set(READERS) - {"replay"}


def test_replay_of_701_rounds_names_the_line() -> None:
    text = (CORPUS / "globalseq-701-rounds.txt").read_text()
    with pytest.raises(InputError) as info:
        parse_globalseq(text, "g.txt")
    assert "more than 700 rounds" in str(info.value)
    assert info.value.line == 700 * 10 + 1  # the first line of round 701 (each round: 9 lines and a separator)
    parse_globalseq("--------\n".join(["MR\n----\n" * 4 + "MR\n"] * 700 + ["Y\n"]))  # 700 rounds, then Y: fine


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("board-10000x10000-header.dat", "board width 10000 is out of range 1..1000"),
        ("board-1000x1000-header.dat", "262144"),
    ],
)
def test_huge_header_is_refused_before_memory_is_used(name: str, message: str) -> None:
    """``check`` on a 10 KB board saying ``10000 10000`` used 10.9 GB; now one line, little memory."""
    # The command reports its own peak (VmHWM belongs to the process image after exec); rusage
    # figures would count the forked test process, which is large by the end of a full run.
    probe = (
        "import runpy, sys\n"
        "sys.argv = ['robots-engine', 'check', sys.argv[1]]\n"
        "try:\n"
        "    runpy.run_module('engine.cli', run_name='__main__')\n"
        "    code = 0\n"
        "except SystemExit as stop:\n"
        "    code = stop.code\n"
        "peak = next(line for line in open('/proc/self/status') if line.startswith('VmHWM'))\n"
        "print(peak.split()[1])\n"
        "sys.exit(code)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe, str(CORPUS / name)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    used_kb = int(result.stdout.split()[-1])
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    assert used_kb < 400_000, f"{used_kb} KB"


@pytest.mark.parametrize("reader", [load_board, load_deck, load_arena])
def test_an_endless_or_huge_input_file_is_refused_unread(reader: Callable[[Path], object], tmp_path: Path) -> None:
    """``/dev/zero`` named as a board (``robots-contest /dev/zero``) was read until memory ran out."""
    sparse = tmp_path / "huge.dat"
    with open(sparse, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # a hole: no disk used
    expected = {
        Path("/dev/zero"): "/dev/zero: is a device, not a regular file",  # refused before reading
        sparse: f"{sparse}: more than 64 MiB: far too large for any file read here",
    }
    for path, message in expected.items():
        with pytest.raises(InputError) as info:
            reader(path)
        assert str(info.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [("9" * 5000, "out of range"), ("-3", "whole number"), ("", "whole number"), ("٣", "whole number")],
)
def test_parse_count_checks_before_converting(text: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_count(text, "width", 1, 100, "f.txt", 1, 1)
    assert message in str(info.value) and len(str(info.value)) < 100


@pytest.mark.parametrize("text", ["0", "-1", "nan", "inf", "-inf", "1e300", "86401", "x" * 500])
def test_timeouts_must_be_finite_positive_and_sane(text: str) -> None:
    with pytest.raises(InputError) as info:
        parse_seconds(text, "--timeout")
    assert "--timeout" in str(info.value) and len(str(info.value)) < 120
    assert check_seconds(0.5) == 0.5 and parse_seconds("86400") == 86400.0


def test_json_depth_ignores_brackets_in_strings() -> None:
    assert json_too_deep('["[[[[[[[[[[[["]', 2) is None
    assert json_too_deep('{"a": "\\"[[[["}', 1) is None
    assert json_too_deep("[[[1]]]", 2) == (1, 3)


def test_json_depth_does_not_walk_a_text_with_few_brackets() -> None:
    """A 63 MiB game.json of one long string took 24 s to check a character at a time; a text
    with no more opening brackets than the limit cannot be too deep, and is not walked."""

    class Unwalkable(str):
        def __iter__(self) -> Iterator[str]:
            raise AssertionError("walked a character at a time")

    assert json_too_deep(Unwalkable('{"format": "' + "a" * 5000 + '", "x": [[1]]}'), 3) is None
    assert json_too_deep(Unwalkable("9" * 5000)) is None


@pytest.mark.parametrize("char", ["\x01", "\x7f", "\xad", "\u200b", "\U000e0001", "x", "'"])
def test_quoted_input_stays_short_whatever_its_characters(char: str) -> None:
    """An unprintable character's repr is 4 to 10 characters long, so a quote is cut by its repr's
    length, not by the characters of the input (a line of control characters quoted 540)."""
    from engine.bounds import shown
    from engine.tron.arena import parse_arena

    for length in (1, 20, 59, 60, 61, 500):
        quote = shown(char * length)
        assert len(quote) <= 60 and quote.startswith(repr(char * length)[:2]), quote
        if quote.endswith("..."):
            prefix = ast.literal_eval(quote[:-3])  # the whole repr of a prefix, not one cut inside an escape
            assert prefix == char * len(prefix)
    with pytest.raises(InputError) as board:
        parse_board(char * 500 + "\n", "b.dat")
    with pytest.raises(InputError) as arena:
        parse_arena(char * 500 + "\n", "a.txt")
    for error in (board.value, arena.value):
        assert len(str(error)) < 160, str(error)


# -- fuzzing: random and mutated inputs -----------------------------------------------------------------

SAMPLES = {
    "board": "5 3\nT  Z \n #|= \nOHP  \n",
    "bot": "7 8 D\n",
    "cards": "MF 1\nMB\nRL\n",
    "deck": "MF 1\nMB\nRL\n" * 3,
    "analysis": '{"format": 1, "rounds": [{"round": 1, "chosen": null, "best": {"cards": ["MF 1", "MB", "RL", "RR",'
    ' "RU"], "goal_probability": 0.5, "expected_rounds": 1.5, "destroyed": false, "reaches_goal": false}}]}',
    "rounds": '{"round": 1, "before": "0 0 D", "hand": ["MF 1", "MF 2", "MF 3", "MB", "RL", "RR", "RU", "MB"],'
    ' "chosen": ["MF 1", "MF 2", "MF 3", "MB", "RL"], "played": 5, "after": "0 5 D", "end": "alive"}\n',
    "globalseq": "ML\n----\nMU\n--------\nRL\n----\nX\n",
    "replay": "MR\n----\nMR\n----\nMR\n----\nMR\n----\nMR\n",
    "theme": '{"name": "x", "author": "me", "start_marker": true}',
    "game": '{"format": 1, "level": "hard", "ai": "reference"}',
    "state": '{"format": 1, "level": "easy", "status": "running", "board": "2 1\\nTZ\\n", "chosen": [], "deck": []}',
    "journal": '{"journal":1,"fingerprint":{}}\n{"key":"0:0:b:seed:1","row":{"outcome":"Z"}}\n',
    "results": '"board","deck","level","ai","outcome","rounds","cards","card_moves","board_moves","error"\n'
    '"b","seed:1","easy","reference","Z",3,15,9,2,""\n',
    "arena": "GAMEBOARDSTART 5,3\n.....\n.#.#.\n.....\nGAMEBOARDEND\n",
    "stats": "Cards: 84\nRounds: 17\nCard Moves: 73\nBoard Moves: 21\nDestroyed (X): 1\nCards Out (Y): 0\nFinished (Z): 0\n",
    "trongame": '{"format":"robots-tron-game","version":1,"arena":["GAMEBOARDSTART 4,2","....","....","GAMEBOARDEND"],'
    '"time_limit":1.0,"bots":[{"name":"a","command":["./a"],"survived":3,"points":1},{"name":"b","command":["./b"],'
    '"survived":3,"points":1}],"rounds":[{"answers":{"1":"RIGHT","2":"LEFT"},"out":[],"ms":{"1":7.9,"2":3.8}},'
    '{"answers":{"1":"RIGHT","2":"LEFT"},"out":[],"ms":{"1":0.3,"2":0.2}},{"answers":{"1":"RIGHT","2":"LEFT"},'
    '"out":[],"ms":{"1":0.2,"2":0.1}},{"answers":{"1":"AHEAD","2":"AHEAD"},"out":[1,2],"ms":{"1":0.2,"2":0.1}}]}',
    "tronresults": "key,arena,bot1,bot2,survived1,survived2,points1,points2,rounds,reason1,reason2\r\n"
    "0-1@0#0,a.txt,simple,random,70,37,3,0,71,round 71: trail,round 38: trail\r\n",
}
#: Pieces that broke readers before: huge numbers, deep nesting, separators, odd characters.
PIECES = ["9" * 4400, "-", "[" * 2000, "{" * 2000, '"', "\n", "\r", "\x00", "--------\n", "1000 1000", "é", " "]


@st.composite
def mutated(draw: st.DrawFn, sample: str) -> str:
    text = sample
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        piece = draw(st.sampled_from(PIECES) | st.text(max_size=8))
        cut = draw(st.integers(0, 3))
        text = text[:at] + piece + text[at + cut :]
    return text


@pytest.mark.parametrize("kind", sorted(READERS))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_reader_never_crashes(kind: str, data: st.DataObject) -> None:
    text = data.draw(mutated(SAMPLES[kind]) | st.text(max_size=200), label="input")
    try:
        READERS[kind](text, "fuzz.txt")
    except InputError as exc:
        _assert_clean(exc)


@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=300) | st.sampled_from(PIECES).map(str.encode), utf8=st.booleans())
def test_fuzz_file_bytes_are_text_or_one_located_error(
    data: bytes, utf8: bool, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The layer under every reader: any bytes at all (a BOM, bytes that are not UTF-8, NULs, a
    lone CR) are text or one clean InputError, which names the line and column where it can."""
    from engine.errors import read_text, read_utf8

    path = tmp_path_factory.mktemp("bytes") / "f.txt"
    path.write_bytes(data)
    try:
        text = (read_utf8 if utf8 else read_text)(path)
    except InputError as exc:
        _assert_clean(exc)
        assert exc.path == str(path) and exc.line is not None and exc.column is not None
    else:
        try:
            expected = data.decode("utf-8")
        except UnicodeDecodeError:
            assert not utf8, "read_utf8 returned text from bytes that are not UTF-8"
            expected = data.decode("latin-1")
        assert text == expected
