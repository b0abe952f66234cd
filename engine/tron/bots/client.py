"""The client side of the contest's protocol, and the board as a bot sees it.

A bot reads the board once, learns its number from ``SET``, and each round gets every live bot's
``POS``.  It blocks every field it is told a bot stands on, so trails build up in its view exactly
as on the server.  The board is kept flat with a border of blocked fields, which makes neighbour
arithmetic cheap (``index + offset``) for the search in ``strong``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

HEADINGS = ("NORTH", "EAST", "SOUTH", "WEST")


class View:
    """What a bot knows: free fields (1 = free, border included), every live bot's head and heading."""

    def __init__(self, width: int, height: int, rows: list[str]) -> None:
        self.width, self.height = width, height
        self.stride = width + 2
        self.free = bytearray((width + 2) * (height + 2))
        for y, row in enumerate(rows, 1):
            for x, char in enumerate(row, 1):
                if char == ".":
                    self.free[y * self.stride + x] = 1
        #: offsets of NORTH, EAST, SOUTH, WEST
        self.offsets = (-self.stride, 1, self.stride, -1)
        self.me = 0
        self.heads: dict[int, tuple[int, int]] = {}  # bot -> (cell index, heading index)
        self.round = 0

    def cell(self, x: int, y: int) -> int:
        return y * self.stride + x

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.stride, cell // self.stride

    def place(self, bot: int, x: int, y: int, heading: int) -> None:
        cell = self.cell(x, y)
        self.heads[bot] = (cell, heading)
        if 0 <= cell < len(self.free):
            self.free[cell] = 0

    def move_target(self, answer: str) -> int:
        """The field my answer would drive onto."""
        cell, heading = self.heads[self.me]
        turn = {"LEFT": -1, "RIGHT": 1, "AHEAD": 0}[answer]
        return cell + self.offsets[(heading + turn) % 4]


def run(
    choose_factory: Callable[[], Callable[[View], str]], stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout
) -> int:
    """Play games on ``stdin``/``stdout`` until ``END`` (or the input ends); 0 on a clean end."""
    view: View | None = None
    choose = choose_factory()
    rows: list[str] = []
    size = (0, 0)
    reading_board = False
    fresh_round = True
    for raw in stdin:
        line = raw.strip()
        if reading_board:
            if line == "GAMEBOARDEND":
                reading_board = False
                view = View(size[0], size[1], rows)
            else:
                rows.append(line)
            continue
        word, _, rest = line.partition(" ")
        if word == "GAMEBOARDSTART":
            width, height = rest.split(",")
            size, rows, reading_board = (int(width), int(height)), [], True
        elif word == "SET" and view is not None:
            view.me = int(rest)
        elif word == "POS" and view is not None:
            if fresh_round:
                view.heads = {}
                fresh_round = False
            bot, where, heading = rest.split(" ")
            x, y = where.split(",")
            view.place(int(bot), int(x), int(y), HEADINGS.index(heading))
        elif word == "ROUND" and view is not None:
            view.round = int(rest)
            fresh_round = True
            stdout.write(choose(view) + "\n")
            stdout.flush()
        elif word == "END":
            return 0
    return 0


def view_of(rows: list[str], heads: dict[int, tuple[int, int, str]], me: int, round_no: int = 1) -> View:
    """A View from board rows ('.'/'#', trails drawn as '#') and ``{bot: (x, y, HEADING)}``: for tests and analysis."""
    view = View(len(rows[0]), len(rows), rows)
    view.me, view.round = me, round_no
    for bot, (x, y, heading) in sorted(heads.items()):
        view.place(bot, x, y, HEADINGS.index(heading))
    return view
