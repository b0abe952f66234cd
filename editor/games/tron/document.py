"""A Tron arena being edited: blocked fields and start lines, with undo/redo and atomic saving.

Edits replace the whole (small) state, so undo is a list of earlier states: a 200x200 arena is
40 kB, and the history is capped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.errors import InputError
from engine.tron.arena import MAX_SIDE, Arena, Heading, Start, load_arena, save_arena

HISTORY = 200
#: Bots an arena can hold start lines for in the editor (keys 1-8).
MAX_BOTS = 8


@dataclass(frozen=True)
class Snapshot:
    width: int
    height: int
    blocked: bytes
    starts: tuple[Start, ...]


class TronDocument:
    """The arena in the editor; ``path`` is where it is saved (None for a new, unnamed arena)."""

    def __init__(self, arena: Arena, path: Path | None = None) -> None:
        self.state = Snapshot(arena.width, arena.height, arena.blocked, arena.starts)
        self.path = path
        self.undo_stack: list[Snapshot] = []
        self.redo_stack: list[Snapshot] = []
        self.saved = self.state

    @classmethod
    def new(cls, width: int, height: int, path: Path | None = None) -> TronDocument:
        if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
            raise InputError(f"arena size {width}x{height} is outside 1..{MAX_SIDE}")
        arena = Arena(width, height, bytes(width * height))
        return cls(arena.with_starts((Start(width // 4 + 1, (height + 1) // 2, Heading.EAST),)), path)

    @classmethod
    def open(cls, path: Path) -> TronDocument:
        return cls(load_arena(path), path)

    # -- reading ------------------------------------------------------------------------------
    @property
    def width(self) -> int:
        return self.state.width

    @property
    def height(self) -> int:
        return self.state.height

    @property
    def starts(self) -> tuple[Start, ...]:
        return self.state.starts

    @property
    def modified(self) -> bool:
        return self.state != self.saved

    def is_blocked(self, x: int, y: int) -> bool:
        return bool(self.state.blocked[(y - 1) * self.width + (x - 1)])

    def arena(self) -> Arena:
        return Arena(self.width, self.height, self.state.blocked, self.state.starts)

    def start_at(self, x: int, y: int) -> int | None:
        """The bot (1-based) starting on x,y, if any."""
        return next((i + 1 for i, s in enumerate(self.starts) if (s.x, s.y) == (x, y)), None)

    # -- editing ------------------------------------------------------------------------------
    def _commit(self, state: Snapshot) -> bool:
        if state == self.state:
            return False
        self.undo_stack.append(self.state)
        del self.undo_stack[:-HISTORY]
        self.redo_stack.clear()
        self.state = state
        return True

    def paint(self, cells: list[tuple[int, int]], blocked: bool) -> bool:
        """Block (or free) fields; blocking a start field moves nothing: validation reports it."""
        data = bytearray(self.state.blocked)
        for x, y in cells:
            if 1 <= x <= self.width and 1 <= y <= self.height:
                data[(y - 1) * self.width + (x - 1)] = 1 if blocked else 0
        return self._commit(Snapshot(self.width, self.height, bytes(data), self.starts))

    def place_start(self, bot: int, x: int, y: int) -> bool:
        """Put bot ``bot``'s start on x,y (a second click there turns it right); bots 1..n stay numbered
        without gaps, so placing bot 5 on an arena with two starts places bot 3."""
        if not (1 <= x <= self.width and 1 <= y <= self.height):
            return False
        starts = list(self.starts)
        bot = min(bot, len(starts) + 1, MAX_BOTS)
        other = self.start_at(x, y)
        if other is not None and other != bot:
            return False  # another bot starts here
        if bot <= len(starts):
            old = starts[bot - 1]
            heading = old.heading.right() if (old.x, old.y) == (x, y) else old.heading
            starts[bot - 1] = Start(x, y, heading, old.short)
        else:
            starts.append(Start(x, y, Heading.EAST if x <= self.width // 2 else Heading.WEST))
        data = bytearray(self.state.blocked)
        data[(y - 1) * self.width + (x - 1)] = 0  # a start is on a free field
        return self._commit(Snapshot(self.width, self.height, bytes(data), tuple(starts)))

    def remove_start(self, bot: int) -> bool:
        if not 1 <= bot <= len(self.starts):
            return False
        starts = self.starts[: bot - 1] + self.starts[bot:]
        return self._commit(Snapshot(self.width, self.height, self.state.blocked, starts))

    def resize(self, width: int, height: int) -> bool:
        """New size, keeping the top-left part; starts outside are dropped."""
        if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
            return False
        data = bytearray(width * height)
        for y in range(min(height, self.height)):
            for x in range(min(width, self.width)):
                data[y * width + x] = self.state.blocked[y * self.width + x]
        starts = tuple(s for s in self.starts if s.x <= width and s.y <= height)
        return self._commit(Snapshot(width, height, bytes(data), starts))

    def transform(self, kind: str) -> bool:
        """``mirror-x`` (left-right), ``mirror-y`` (top-bottom), ``rotate`` (180 degrees), ``symmetric``
        (block every field whose 180-degree image is blocked: a fair arena for two bots)."""
        w, h, old = self.width, self.height, self.state.blocked
        data = bytearray(old)
        starts = list(self.starts)

        def image(x: int, y: int) -> tuple[int, int]:
            if kind == "mirror-x":
                return w + 1 - x, y
            if kind == "mirror-y":
                return x, h + 1 - y
            return w + 1 - x, h + 1 - y

        if kind not in ("mirror-x", "mirror-y", "rotate", "symmetric"):
            raise ValueError(kind)
        for y in range(1, h + 1):
            for x in range(1, w + 1):
                ix, iy = image(x, y)
                source = old[(iy - 1) * w + (ix - 1)]
                index = (y - 1) * w + (x - 1)
                data[index] = (old[index] | source) if kind == "symmetric" else source
        if kind != "symmetric":
            flip = {
                "mirror-x": {Heading.EAST: Heading.WEST, Heading.WEST: Heading.EAST},
                "mirror-y": {Heading.NORTH: Heading.SOUTH, Heading.SOUTH: Heading.NORTH},
            }.get(kind)
            moved = []
            for s in starts:
                x, y = image(s.x, s.y)
                heading = flip.get(s.heading, s.heading) if flip is not None else s.heading.right().right()
                moved.append(Start(x, y, heading, s.short))
            starts = moved
        for s in starts:
            data[(s.y - 1) * w + (s.x - 1)] = 0
        return self._commit(Snapshot(w, h, bytes(data), tuple(starts)))

    def undo(self) -> bool:
        if not self.undo_stack:
            return False
        self.redo_stack.append(self.state)
        self.state = self.undo_stack.pop()
        return True

    def redo(self) -> bool:
        if not self.redo_stack:
            return False
        self.undo_stack.append(self.state)
        self.state = self.redo_stack.pop()
        return True

    def save(self, path: Path | None = None) -> Path:
        """Write the arena file atomically (the old file stays whole if anything fails)."""
        target = path or self.path
        if target is None:
            raise InputError("no file name: give one to save the arena")
        save_arena(self.arena(), target)
        self.path, self.saved = target, self.state
        return target
