"""Read and write the contest's ASCII board files (``W H`` then ``H`` rows of ``W`` characters).

The writer produces the canonical form, so ``write_board(parse_board(text)) == text``
for every canonical file (and for any file after padding short rows and
normalising line ends).
"""

from __future__ import annotations

from pathlib import Path

from engine.bounds import MAX_BOARD_SIDE, check_board_size, parse_count, shown
from engine.errors import BoardError, read_text, refuse_lone_carriage_return
from engine.model import BOARD_CHARS, Board, Tile

NO_BREAK_SPACE = "\u00a0"
#: Larger boards are refused (see engine.bounds): they would not fit any screen or AI time
#: budget, and refusing early keeps a corrupt header from allocating gigabytes.
MAX_SIDE = MAX_BOARD_SIDE


def parse_board(text: str, path: str | Path | None = None) -> Board:
    """Parse board-file text; raises InputError with line and column on bad input."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if not lines:
        raise BoardError("empty file: expected a first line 'WIDTH HEIGHT'", path, 1, 1)
    width, height = _parse_header(lines[0], path)
    rows: list[tuple[Tile, ...]] = []
    for y in range(height):
        line_no = y + 2
        if line_no > len(lines):
            raise BoardError(f"missing row {y + 1} of {height}: the file ends early", path, line_no, 1)
        line = lines[line_no - 1]
        if len(line) > width:
            raise BoardError(f"row is {len(line)} characters long, the board is {width} wide", path, line_no, width + 1)
        row = []
        for x, char in enumerate(line):
            if char == NO_BREAK_SPACE:
                char = " "
            try:
                row.append(Tile.from_char(char))
            except ValueError:
                raise BoardError(f"unknown board character {char!r}", path, line_no, x + 1) from None
        row.extend([Tile.from_char(" ")] * (width - len(line)))
        rows.append(tuple(row))
    for extra, line in enumerate(lines[height + 1 :], start=height + 2):
        if line.strip():
            raise BoardError(f"unexpected text after the board's {height} rows", path, extra, 1)
    return Board(tuple(rows))


def _parse_header(line: str, path: str | Path | None) -> tuple[int, int]:
    refuse_lone_carriage_return(line, path, 1, BoardError)
    parts = line.split()
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise BoardError(f"first line must be 'WIDTH HEIGHT' (two whole numbers), not {shown(line)}", path, 1, 1)
    width = parse_count(parts[0], "board width", 1, MAX_SIDE, path, 1, 1)
    height = parse_count(parts[1], "board height", 1, MAX_SIDE, path, 1, line.index(parts[1], len(parts[0])) + 1)
    check_board_size(width, height, path)
    return width, height


def write_board(board: Board) -> str:
    """The canonical board-file text: header, then one row per line, each ending in ``\\n``."""
    return f"{board.width} {board.height}\n" + "".join(row + "\n" for row in board.to_strings())


def load_board(path: str | Path) -> Board:
    """Read and parse a board file; every problem is an InputError naming the file."""
    return parse_board(read_text(path, BoardError), path)


def save_board(board: Board, path: str | Path) -> None:
    """Write a board file atomically (temporary file, then rename)."""
    from engine.atomic import write_text_atomic

    write_text_atomic(path, write_board(board))


assert len(BOARD_CHARS) == 36
