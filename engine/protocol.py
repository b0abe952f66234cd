"""The contest's AI file protocol: ``board.txt``, ``cards.txt``, ``bot.txt`` in, ``ccards.txt`` out.

Readers and writers come in pairs so that the engine (which writes the inputs
and reads the answer) and our own AIs (which do the opposite) share one code path.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine.atomic import write_text_atomic
from engine.boardfile import load_board, write_board
from engine.bounds import MAX_BOARD_SIDE, parse_count, shown
from engine.cards import Card
from engine.deck import parse_cards, write_cards
from engine.errors import ProtocolError, read_text
from engine.model import Board, Direction, Pose

BOARD_FILE = "board.txt"
CARDS_FILE = "cards.txt"
BOT_FILE = "bot.txt"
CHOSEN_FILE = "ccards.txt"


def parse_pose(text: str, path: str | Path | None = None) -> Pose:
    """Parse ``x y F`` (the one line of ``bot.txt``)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != 1:
        raise ProtocolError(f"expected one line 'X Y FACING', found {len(lines)} lines", path, 1, 1)
    parts = lines[0].split()
    line_no = text.splitlines().index(lines[0]) + 1
    if len(parts) != 3:
        raise ProtocolError(f"expected 'X Y FACING' (e.g. '7 8 D'), not {shown(lines[0])}", path, line_no, 1)
    x_text, y_text, facing_text = parts
    if not all(t.lstrip("+-").isascii() and t.lstrip("+-").isdigit() for t in (x_text, y_text)):
        raise ProtocolError(
            f"position must be two whole numbers, not {shown(x_text, 20)} {shown(y_text, 20)}", path, line_no, 1
        )
    y_column = lines[0].index(y_text, lines[0].index(x_text) + len(x_text)) + 1
    x = parse_count(x_text, "x", -MAX_BOARD_SIDE, MAX_BOARD_SIDE, path, line_no, 1, signed=True)
    y = parse_count(y_text, "y", -MAX_BOARD_SIDE, MAX_BOARD_SIDE, path, line_no, y_column, signed=True)
    try:
        facing = Direction(facing_text)
    except ValueError:
        column = lines[0].index(facing_text, len(x_text) + len(y_text)) + 1
        raise ProtocolError(
            f"facing must be one of L R U D, not {shown(facing_text, 20)}", path, line_no, column
        ) from None
    return Pose(x, y, facing)


def write_pose(pose: Pose) -> str:
    return pose.to_bot_line() + "\n"


def write_ai_inputs(folder: str | Path, board: Board, hand: Sequence[Card], pose: Pose) -> None:
    """Write what an AI reads: ``board.txt``, ``cards.txt`` (the hand) and ``bot.txt``.

    The AI runs in ``folder`` and may have left symlinks there: they are replaced, not followed.
    """
    base = Path(folder)
    write_text_atomic(base / BOARD_FILE, write_board(board), follow_symlinks=False)
    write_text_atomic(base / CARDS_FILE, write_cards(hand), follow_symlinks=False)
    write_text_atomic(base / BOT_FILE, write_pose(pose), follow_symlinks=False)


def read_ai_inputs(folder: str | Path) -> tuple[Board, list[Card], Pose]:
    """What an AI reads, from the contest files in ``folder``."""
    base = Path(folder)
    board = load_board(base / BOARD_FILE)
    cards = parse_cards(read_text(base / CARDS_FILE, ProtocolError), base / CARDS_FILE, ProtocolError)
    pose = parse_pose(read_text(base / BOT_FILE, ProtocolError), base / BOT_FILE)
    return board, cards, pose


def write_chosen(folder: str | Path, cards: Sequence[Card]) -> None:
    write_text_atomic(Path(folder) / CHOSEN_FILE, write_cards(cards))


def read_chosen(folder: str | Path) -> list[Card]:
    path = Path(folder) / CHOSEN_FILE
    return parse_cards(read_text(path, ProtocolError), path, ProtocolError)
