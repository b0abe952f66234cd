"""Keys and mouse to arena edits (no GL, so it is tested directly).

left drag  block fields (in wall mode) or place the selected bot's start (click again: turn it)
right drag free fields                1-8  select bot N's start    W  back to walls
Delete     remove the selected start  M / Shift+M  mirror left-right / top-bottom
R          turn by 180 degrees        Y  make point-symmetric (fair for two bots)
Ctrl+Z / Ctrl+Y  undo / redo          Ctrl+S  save    P  test-play (strong against simple)
"""

from __future__ import annotations

from collections.abc import Callable

from editor.games.tron.document import MAX_BOTS, TronDocument
from editor.games.tron.validate import Problem, validate
from engine.errors import InputError
from engine.tron.record import GameRecord

HELP = "drag: walls (right: free)  1-8: place bot  W: walls  Del: remove bot  M/R/Y: mirror/turn/symmetric  ^Z ^Y ^S  P: test-play"


class TronController:
    def __init__(self, document: TronDocument, play: Callable[[TronDocument], GameRecord] | None = None) -> None:
        self.document = document
        self.bot: int | None = None  # selected start, None = wall mode
        self.status = "arena " + (str(document.path) if document.path else "(new)")
        self.play = play
        self.last_game: GameRecord | None = None
        self._painting: bool | None = None

    @property
    def problems(self) -> list[Problem]:
        return validate(self.document.arena())

    def press(self, x: int, y: int, right: bool = False) -> None:
        """A mouse button went down on field x,y (1-based)."""
        if self.bot is not None and not right:
            if not self.document.place_start(self.bot, x, y):
                self.status = f"cannot place bot {self.bot} on {x},{y}"
            else:
                self.bot = min(self.bot, len(self.document.starts))
            return
        self._painting = not right
        self.document.paint([(x, y)], self._painting)

    def drag(self, x: int, y: int) -> None:
        if self._painting is not None:
            self.document.paint([(x, y)], self._painting)

    def release(self) -> None:
        self._painting = None

    def key(self, name: str, ctrl: bool = False, shift: bool = False) -> bool:
        doc = self.document
        if ctrl and name == "Z":
            self.status = "undone" if doc.undo() else "nothing to undo"
        elif ctrl and (name == "Y" or (name == "Z" and shift)):
            self.status = "redone" if doc.redo() else "nothing to redo"
        elif ctrl and name == "S":
            try:
                self.status = f"saved {doc.save()}"
            except (InputError, OSError) as exc:
                self.status = f"not saved: {exc}"
        elif name.startswith("_") and name[1:].isdigit() and 1 <= int(name[1:]) <= MAX_BOTS:
            self.bot = min(int(name[1:]), len(doc.starts) + 1)
            self.status = f"placing bot {self.bot}: click a field (again: turn it)"
        elif name == "W":
            self.bot, self.status = None, "drawing walls"
        elif name in ("DELETE", "BACKSPACE") and self.bot is not None:
            doc.remove_start(self.bot)
            self.bot, self.status = None, "start removed"
        elif name == "M":
            doc.transform("mirror-y" if shift else "mirror-x")
        elif name == "R":
            doc.transform("rotate")
        elif name == "Y":
            doc.transform("symmetric")
        elif name == "P" and self.play is not None:
            errors = [p.message for p in self.problems if p.level == "error"]
            if errors:
                self.status = f"cannot play: {errors[0]}"
            else:
                self.last_game = self.play(doc)
                names = [b.name for b in self.last_game.bots]
                points = self.last_game.points()
                self.status = f"test game: {len(self.last_game.rounds)} rounds, " + ", ".join(
                    f"{n} {p}" for n, p in zip(names, points, strict=True)
                )
        else:
            return False
        return True
