"""Each kind of input has its own InputError subclass, located by file, line and column, and a
message that quotes at most about 80 characters of the input (a binary file gives a short line)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from engine.boardfile import load_board
from engine.deck import load_deck
from engine.errors import BoardError, DeckError, InputError, ProtocolError, SequenceError, read_text
from engine.model import Level
from engine.protocol import read_ai_inputs, read_chosen
from engine.replay import fit_levels, load_replay, parse_globalseq
from engine.session import STATE_FILE, load_session
from tests.fifo_guard import never_stuck_on
from themes import ThemeError, check_theme, load_theme

LONGEST = 200  # path + location + message; the input quoted in it is cut far shorter
BINARY = bytes(random.Random(9).randrange(256) for _ in range(3000))
LONG_LINE = b"x" * 3000 + b"\n"


def _board(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "b.dat").write_bytes(content)
    load_board(tmp_path / "b.dat")


def _deck(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "d.dat").write_bytes(content)
    load_deck(tmp_path / "d.dat")


def _sequence(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "s.txt").write_bytes(content)
    parse_globalseq(read_text(tmp_path / "s.txt", SequenceError), tmp_path / "s.txt")


def _cards(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "board.txt").write_text("2 1\nSZ\n")
    (tmp_path / "bot.txt").write_text("0 0 R\n")
    (tmp_path / "cards.txt").write_bytes(content)
    read_ai_inputs(tmp_path)


def _bot(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "board.txt").write_text("2 1\nSZ\n")
    (tmp_path / "cards.txt").write_text("MF 1\n" * 8)
    (tmp_path / "bot.txt").write_bytes(content)
    read_ai_inputs(tmp_path)


def _chosen(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "ccards.txt").write_bytes(content)
    read_chosen(tmp_path)


def _state(tmp_path: Path, content: bytes) -> None:
    (tmp_path / STATE_FILE).write_bytes(content)
    load_session(tmp_path)


def _theme(tmp_path: Path, content: bytes) -> None:
    """A theme with a broken manifest still loads (with warnings); its check reports the problems."""
    folder = tmp_path / "mytheme"
    folder.mkdir()
    (folder / "theme.json").write_bytes(content)
    problems = check_theme(folder)
    assert problems
    raise ThemeError(folder, problems)


READERS = {
    "board": (_board, BoardError),
    "deck": (_deck, DeckError),
    "sequence": (_sequence, SequenceError),
    "cards.txt": (_cards, ProtocolError),
    "bot.txt": (_bot, ProtocolError),
    "ccards.txt": (_chosen, ProtocolError),
    "state": (_state, InputError),
    "theme": (_theme, ThemeError),
}


@pytest.mark.parametrize("content", [BINARY, LONG_LINE], ids=["binary", "long line"])
@pytest.mark.parametrize("reader", list(READERS))
def test_hostile_input_is_a_short_located_error_of_its_kind(reader: str, content: bytes, tmp_path: Path) -> None:
    read, kind = READERS[reader]
    with pytest.raises(kind) as info:
        read(tmp_path, content)
    error = info.value
    assert isinstance(error, InputError) and error.path is not None and str(tmp_path) in error.path
    lines = error.problems if isinstance(error, ThemeError) else [str(error)]
    for line in lines:
        assert "\n" not in line and len(line) - len(str(tmp_path)) <= LONGEST, line
    assert "x" * 100 not in str(error)


def _protocol_inputs(folder: Path, special: str) -> None:
    """The AI's input files in ``folder``, each a good one unless it is ``special`` (left alone)."""
    good = {"board.txt": "2 1\nSZ\n", "bot.txt": "0 0 R\n", "cards.txt": "MF 1\n" * 8}
    for name, text in good.items():
        if name != special:
            (folder / name).write_text(text)


#: Per reader: the file it opens and how to make it read that file (nothing else is written there).
SPECIAL_READERS = {
    "board": ("b.dat", lambda folder: load_board(folder / "b.dat"), BoardError),
    "deck": ("d.dat", lambda folder: load_deck(folder / "d.dat"), DeckError),
    "sequence": ("s.txt", lambda folder: read_text(folder / "s.txt", SequenceError), SequenceError),
    "cards.txt": (
        "cards.txt",
        lambda folder: (_protocol_inputs(folder, "cards.txt"), read_ai_inputs(folder)),
        ProtocolError,
    ),
    "bot.txt": ("bot.txt", lambda folder: (_protocol_inputs(folder, "bot.txt"), read_ai_inputs(folder)), ProtocolError),
    "ccards.txt": ("ccards.txt", read_chosen, ProtocolError),
    "state": (STATE_FILE, load_session, InputError),
}


@pytest.mark.parametrize("reader", list(SPECIAL_READERS))
def test_a_fifo_or_a_device_instead_of_a_file_is_refused_at_once(reader: str, tmp_path: Path) -> None:
    """Opening a FIFO waits for a writer for ever and /dev/zero never ends: only regular files are read."""
    name, read, kind = SPECIAL_READERS[reader]
    target = tmp_path / name
    os.mkfifo(target)
    with never_stuck_on(target), pytest.raises(kind, match=r"is a FIFO \(named pipe\), not a regular file") as fifo:
        read(tmp_path)
    assert fifo.value.path == str(target)
    target.unlink()
    target.symlink_to(os.devnull)
    with pytest.raises(kind, match="is a device, not a regular file") as device:
        read(tmp_path)
    assert device.value.path == str(target)


def test_kinds_are_input_errors_with_their_location(tmp_path: Path) -> None:
    (tmp_path / "b.dat").write_text("3 1\nS?Z\n")
    with pytest.raises(BoardError) as board:
        load_board(tmp_path / "b.dat")
    assert (board.value.line, board.value.column) == (2, 2)
    (tmp_path / "d.dat").write_text("MF 1\nMF 4\n")
    with pytest.raises(DeckError) as deck:
        load_deck(tmp_path / "d.dat")
    assert (deck.value.line, deck.value.column) == (2, 1)
    with pytest.raises(SequenceError) as contradiction:
        load_replay(load_board_text("3 1\nTbZ\n"), Level.NORMAL, load_board_text("3 1\nTbZ\n").start, "MR\nZ\n", "s")
    assert contradiction.value.line == 1
    board = load_board_text("2 1\nSZ\n")
    with pytest.raises(SequenceError, match="fits no level"):
        fit_levels(board, board.start, parse_globalseq("MU\nZ\n"), "s")
    with pytest.raises(BoardError, match="no such file"):
        load_board(tmp_path / "missing.dat")
    with pytest.raises(ProtocolError, match="no such file"):
        read_chosen(tmp_path)


def test_a_theme_error_names_its_folder_or_the_one_located_problem(tmp_path: Path) -> None:
    with pytest.raises(ThemeError) as unknown:
        load_theme("no-such-theme-anywhere")
    assert isinstance(unknown.value, InputError) and unknown.value.path == "no-such-theme-anywhere"
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "theme.json").write_text('{"name": "x",\n  "oops"\n}')
    problems = check_theme(folder)[:1]
    assert problems[0].startswith("theme.json:3:1: ")
    error = ThemeError(folder, problems)
    assert (error.path, error.line, error.column) == (str(folder / "theme.json"), 3, 1)
    assert str(error) == f"theme {folder} has 1 problem:\n  {problems[0]}"
    several = ThemeError(folder, [*problems, "floor.png: not a PNG"])
    assert (several.path, several.line) == (str(folder), None)


def load_board_text(text: str):
    from engine.boardfile import parse_board

    return parse_board(text)


@pytest.mark.parametrize("reader", [name for name in READERS if name != "theme"])
def test_a_byte_order_mark_is_named_as_such(reader: str, tmp_path: Path) -> None:
    """Some Windows editors start UTF-8 text with EF BB BF; the error says so at 1:1 instead of
    quoting an 'unknown card' with an invisible character in front."""
    read, kind = READERS[reader]
    with pytest.raises(kind) as info:
        read(tmp_path, b"\xef\xbb\xbfMF 1\n")
    error = info.value
    assert (error.line, error.column) == (1, 1)
    assert "byte-order mark" in error.message and "\\ufeff" not in str(error)
