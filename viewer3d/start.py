"""The start screen's model (no GL): which shipped board, AI, level, deck and theme a new
game uses, the clickable boxes that change them, and what Start opens.

The deck is a seed (chosen with - and +), a deck file (chosen in the file browser and checked
at once, so a bad file is reported here, not by an exit), or random: a fresh seed drawn at Start
and carried in the ``Choice``, so the game's title names it and the game can be played again.

``StartScreen.click(px, py)`` (top-left pixels) changes a choice or, on Start, sets ``chosen``;
``key`` does the same from the keyboard: Tab and the arrows move a focus (``viewer3d.start_keys``),
Enter or Space press the focused box as a click would, Ctrl+Enter starts;
a recent game, or the file browser (Open..., ``viewer3d.start_open``), sets ``opened``;
``layout`` places every box for a window size, so the pyglet window (``start_window.py``) only
draws boxes and forwards clicks, and tests choose and start a game with clicks alone.

With a ``tron`` tab (``viewer3d.start_tron``) the screen offers both games behind two tabs; the
robot tab is unchanged. A Tron Start plays the game in the background (``live``) and, once it is
saved, sets ``opened`` to its game file; ``poll`` notices that.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from engine.deck import load_deck
from engine.errors import InputError
from engine.model import Board, Level
from viewer3d.recent import Recent, distinct_labels
from viewer3d.start_keys import ARROWS, ENTER, arrow, tab
from viewer3d.start_open import Box, OpenBrowser, Opened, action_column
from viewer3d.start_open_tron import TronBrowser
from viewer3d.start_tron import TronChoice, TronPanel, is_arena

if TYPE_CHECKING:
    from viewer3d.games.tron.live import LiveTronGame

AIS = ("reference", "planner")
LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)
THUMB = 72.0  # board thumbnail size, pixels
COLUMNS = 5
RANDOM_SEEDS = 1_000_000  # a random deck's seed is below this: short enough to read and type

#: What each kind of box does, shown when the mouse rests on it.
TOOLTIPS = {
    "board": "play a new game on this board",
    "ai": "the AI that plays the new game",
    "level": "the level: how many cards the AI plays per round, and what happens on a hole",
    "deck:seed": "the deck shuffled from this seed (- and + change it): the same seed, the same game",
    "seed": "change the deck's seed",
    "deck:file": "choose a deck file (5,600 cards, one per line) in the file browser",
    "deck:random": "a fresh random seed at Start; the game's title shows it, to play it again",
    "theme": "the theme the board is drawn with (click for the next one)",
    "window": "watch in a window or fullscreen",
    "start": "start the new game (Enter; Ctrl+Enter while a control has the focus)",
    "open": "open a game folder, a board, or a board with its globalseq.txt (O)",
    "recent": "open this recent game again",
    "game": "the game to play or watch",
}
GAME_TABS = (("robots", "robots (2009)"), ("tron", "Tron (2014)"))


def play_live_tron(choice: TronChoice) -> LiveTronGame:
    """The engine's Tron server playing ``choice`` in the background."""
    from viewer3d.games.tron.live import LiveTronGame

    return LiveTronGame(choice.arena, choice.bots).start()


@dataclass(frozen=True)
class Choice:
    """What Start opens: a new game on a shipped board, dealt from ``deck`` (a deck file) if it
    is given, else from the deck shuffled by ``seed`` (drawn at Start for a random deck)."""

    board: str
    ai: str
    level: Level
    seed: int | None
    theme: str | None
    fullscreen: bool
    deck: str | None = None


@dataclass
class StartScreen:
    boards: list[str]
    themes: list[str] = field(default_factory=lambda: ["default"])
    board: str = "chop.dat"
    ai: str = "reference"
    level: Level = Level.HARD
    seed: int = 1
    deck: str = "seed"  # where the new game's cards come from: "seed", "file" or "random"
    deck_file: str | None = None  # the chosen deck file (checked when chosen)
    rng: random.Random = field(default_factory=random.SystemRandom, repr=False)  # random decks' seeds
    theme: str = "default"
    fullscreen: bool = False
    chosen: Choice | None = None
    dropped: str | None = None  # a game folder or board file dropped on the window: open that
    recent: list[Recent] = field(default_factory=list)
    opened: Opened | None = None  # a recent game or what the file browser chose
    browser: OpenBrowser | None = None  # the file browser, while it is shown
    message: str = ""  # why the last choice could not be opened (shown under the title)
    #: The text event of the key that opened the browser (a window sends both): not typed into it.
    _pending_text: str = field(default="", repr=False)
    game: str = "robots"  # the tab shown: "robots" or "tron" (only with a ``tron`` tab)
    tron: TronPanel | None = None  # the Tron tab; None: the robot game alone, no tabs
    live: LiveTronGame | None = None  # a Tron game being played in the background
    played_arena: str | None = None  # the arena of the live game ``opened`` holds (remembered)
    play_tron: Callable[[TronChoice], LiveTronGame] = field(default=play_live_tron, repr=False)
    #: Whether a started Tron game is watched while it is played (``robots-view``: the screen then
    #: closes at Start and the viewer follows ``live``); else the screen waits for its file.
    watch_live: bool = False
    #: The live game the window handed to the viewer as it closed (``hand_over``); a live game
    #: not handed over (the window closed by its user) is cancelled.
    watched: LiveTronGame | None = None
    #: The action of the box with the keyboard focus (drawn with a ring); None: no focus, as after
    #: a click, and Enter starts the game.
    focus: str | None = None

    @property
    def on_tron(self) -> bool:
        return self.game == "tron" and self.tron is not None

    def shown_message(self) -> str:
        """The line under the title: why something could not be opened, or the live game's progress."""
        if self.live is not None:
            return f"playing Tron on {self.live.arena_path.name}: round {self.live.round + 1}... (Esc cancels)"
        if self.on_tron and self.tron is not None and self.tron.message:
            return self.tron.message
        return self.message

    def start_tron(self) -> None:
        """Play the Tron tab's choice in the background; a bad arena or bot is said in one line."""
        assert self.tron is not None
        if self.live is not None:
            return
        try:
            self.live = self.play_tron(self.tron.choice())
        except InputError as error:
            self.tron.message = str(error).splitlines()[0]

    def cancel_live(self) -> None:
        if self.live is not None:
            self.live.cancel()

    def poll(self) -> bool:
        """Take a finished live game: open its file, or say why there is none; True on a change."""
        live = self.live
        if live is None or not live.finished.is_set():
            return False
        self.live = None
        if live.path is not None:
            self.opened, self.played_arena = Opened(str(live.path)), str(live.arena_path)
        elif self.tron is not None:
            self.tron.message = live.error or "the game ended without a game file"
        return True

    def hand_over(self) -> None:
        """The window closes because it is done: a live game started for watching goes to the viewer."""
        if self.watch_live and self.live is not None and not self.live.cancelled:
            self.watched = self.live

    @property
    def done(self) -> bool:
        """Whether the start screen has what to open next (the window then closes)."""
        watching = self.watch_live and self.live is not None
        return self.chosen is not None or self.opened is not None or self.dropped is not None or watching

    def open_browser(self) -> None:
        """Show the file browser (Open... or O), starting in the folder of the newest recent game."""
        if self.on_tron and self.tron is not None:
            recent = [Path(r.path) for r in self.tron.recent if Path(r.path).is_file()]
            folder = str(recent[0].parent).rstrip("/") + "/" if recent else ""
            self.browser = TronBrowser(folder, recent)
            return
        start = str(Path(self.recent[0].path).parent).rstrip("/") + "/" if self.recent else ""
        files = [Path(r.path) for r in self.recent if r.sequence is None and Path(r.path).is_file()]
        self.browser = OpenBrowser(start, files)

    def open_deck_browser(self) -> None:
        """Show the file browser to choose a deck file, starting in the last deck file's folder."""
        start = str(Path(self.deck_file).parent).rstrip("/") + "/" if self.deck_file else ""
        self.browser = OpenBrowser(start, deck=True)

    def choice(self) -> Choice:
        """What Start opens now; a random deck draws its seed here, once per Start."""
        if self.deck == "file" and self.deck_file is not None:
            seed, deck = None, self.deck_file
        elif self.deck == "random":
            seed, deck = self.rng.randrange(RANDOM_SEEDS), None
        else:
            seed, deck = self.seed, None
        return Choice(self.board, self.ai, self.level, seed, self.theme, self.fullscreen, deck)

    def key(self, name: str, ctrl: bool = False, shift: bool = False, viewport: tuple[int, int] = (1024, 768)) -> None:
        """A key on the start screen (``viewport``: the window's size, where the boxes are): the
        browser's keys while it is shown; else Tab, Shift+Tab and the arrows move the focus, Enter
        or Space press the focused box, Ctrl+Enter (or Enter with no focus) starts, O opens the
        browser."""
        self._pending_text = ""
        browser = self.browser
        if browser is not None:
            browser.key(name, ctrl)
            self._settle()
            return
        if self.live is not None:
            if name == "ESCAPE":
                self.cancel_live()
            return
        boxes = self.layout(viewport)
        focused = next((b for b in boxes if b.action == self.focus), None)
        if name == "TAB":
            self.focus = tab(boxes, self.focus, self._home(), back=shift)
        elif name in ARROWS:
            self.focus = arrow(boxes, self.focus, name, self._home())
        elif name == "O":
            self.open_browser()
        elif name in ENTER and (ctrl or focused is None):
            self._start()
        elif name in (*ENTER, "SPACE") and focused is not None:
            self._press(focused)
        if self.browser is not None:  # the window sends this key's text too: not typed into the browser
            self._pending_text = {"O": "" if ctrl else "o", "SPACE": " "}.get(name, "")

    def _home(self) -> str | None:
        """The chosen thumbnail's action: where the focus enters the grid."""
        if self.on_tron and self.tron is not None:
            index = next((i for i, a in enumerate(self.tron.arenas) if a.path == self.tron.arena), None)
            return None if index is None else f"arena:{index}"
        return f"board:{self.board}"

    def _start(self) -> None:
        if self.on_tron:
            self.start_tron()
        else:
            self.chosen = self.choice()

    def type(self, text: str) -> None:
        pending, self._pending_text = self._pending_text, ""
        if pending and text.lower() == pending:
            return
        if self.browser is not None:
            self.browser.type(text)
            self._settle()

    def _settle(self) -> None:
        browser = self.browser
        if isinstance(browser, TronBrowser) and browser.result is not None and self.tron is not None:
            self.browser, path = None, browser.result.path
            if browser.slot is not None:
                self.tron.take_program(browser.slot, path)
            elif is_arena(path):
                self.tron.take_arena(path)
            else:
                self.opened = browser.result
        elif browser is not None and browser.result is not None and browser.deck:
            self.browser = None
            self._take_deck(browser.result.path)
        elif browser is not None and browser.result is not None:
            self.opened, self.browser = browser.result, None
        elif browser is not None and browser.closed:
            self.browser = None

    def _take_deck(self, path: str) -> None:
        """Use a deck file if it is a full deck; else say why in one line and keep the old deck."""
        try:
            load_deck(path)
        except InputError as error:
            self.message = str(error).splitlines()[0]
            return
        self.deck_file, self.deck, self.message = path, "file", ""

    def deck_file_label(self) -> str:
        return Path(self.deck_file).name if self.deck_file else "file..."

    def tooltip(self, box: Box) -> str:
        """What a box does, in words (its action's kind, or the whole action for the deck row)."""
        if self.on_tron and self.tron is not None and not box.action.startswith("game:"):
            return self.tron.tooltip(box)
        if box.action.startswith("board:"):  # the box shows the name cut to its width: here it is whole
            return f"{box.action[6:]}: {TOOLTIPS['board']}"
        return TOOLTIPS.get(box.action, TOOLTIPS.get(box.action.partition(":")[0], ""))

    def layout(self, viewport: tuple[int, int]) -> list[Box]:
        """Every clickable box: the boards as a grid of thumbnails, then the option rows and Start;
        the recent games and Open... at the right. While the file browser is shown: only its boxes."""
        if self.browser is not None:
            return self.browser.layout(viewport)
        if self.on_tron and self.tron is not None:
            boxes = self.tron.layout(viewport)
            top = max(b.top for b in boxes if b.action.startswith("bots:")) + 40
            return [*boxes, *self._look_row(top), *self._tabs(viewport)]
        return [*self._robot_layout(viewport), *self._tabs(viewport)]

    def _look_row(self, top: float) -> list[Box]:
        """The theme and window/fullscreen choices, shared by both tabs."""
        shown = [("theme", self.theme), ("window", "fullscreen" if self.fullscreen else "window")]
        return [Box(140 + number * 104, top, 96, 28, action, text) for number, (action, text) in enumerate(shown)]

    def _tabs(self, viewport: tuple[int, int]) -> list[Box]:
        """The game tabs, right of the title (none without a Tron tab); in an 800 px window moved
        left as far as the title lets them, so the last one is not cut off."""
        if self.tron is None:
            return []
        left = max(510.0, min(540.0, viewport[0] - 138.0 * len(GAME_TABS) - 4))
        return [
            Box(left + number * 138, 16, 130, 32, f"game:{name}", text) for number, (name, text) in enumerate(GAME_TABS)
        ]

    def _robot_layout(self, viewport: tuple[int, int]) -> list[Box]:
        boxes: list[Box] = []
        cell_w, cell_h = THUMB + 48.0, THUMB + 26.0
        for index, name in enumerate(self.boards):
            row, column = divmod(index, COLUMNS)
            boxes.append(Box(24 + column * cell_w, 64 + row * cell_h, cell_w - 8, cell_h - 6, f"board:{name}", name))
        top = 64 + ((len(self.boards) + COLUMNS - 1) // COLUMNS) * cell_h + 16

        def row_of(label_y: float, items: list[tuple[str, str]], width: float = 96.0) -> None:
            for number, (action, text) in enumerate(items):
                boxes.append(Box(140 + number * (width + 8), label_y, width, 28, action, text))

        row_of(top, [(f"ai:{name}", name) for name in AIS])
        row_of(top + 40, [(f"level:{level.value}", level.value) for level in LEVELS])
        deck_row = [
            ("deck:seed", f"seed {self.seed}", 96.0),
            ("seed:-1", "-", 40.0),
            ("seed:+1", "+", 40.0),
            ("deck:file", self.deck_file_label(), 140.0),
            ("deck:random", "random", 96.0),
        ]
        left = 140.0
        for action, text, width in deck_row:
            boxes.append(Box(left, top + 80, width, 28, action, text))
            left += width + 8
        boxes += self._look_row(top + 120)
        labels = distinct_labels(self.recent)
        return boxes + action_column(viewport, 24 + COLUMNS * cell_w + 16, "Open a file or folder... (O)", labels)

    def selected(self, box: Box) -> bool:
        """Whether a box shows the current choice (drawn highlighted)."""
        kind, _, value = box.action.partition(":")
        if kind == "game":
            return value == self.game
        if self.on_tron and self.tron is not None:
            return self.tron.selected(box)
        return (
            (kind == "board" and value == self.board)
            or (kind == "ai" and value == self.ai)
            or (kind == "level" and value == self.level.value)
            or (kind == "deck" and value == self.deck)
        )

    def click(self, viewport: tuple[int, int], px: float, py: float) -> bool:
        """Apply a click; True if it hit a box."""
        if self.browser is not None:
            hit = self.browser.click(viewport, px, py)
            self._settle()
            return hit
        box = next((b for b in self.layout(viewport) if b.contains(px, py)), None)
        if box is None or self.live is not None:
            return box is not None
        self.focus = None  # the mouse is in use: no focus ring, and Enter starts again
        self._press(box)
        return True

    def _press(self, box: Box) -> None:
        """What a click on ``box`` (or Enter or Space on it) does."""
        kind, _, value = box.action.partition(":")
        if kind == "game":
            self.game = value
        elif self.on_tron and kind not in ("theme", "window"):
            self._tron_click(box)
        elif kind == "board":
            self.board = value
        elif kind == "ai":
            self.ai = value
        elif kind == "level":
            self.level = Level(value)
        elif kind == "seed":
            self.seed, self.deck = max(0, self.seed + int(value)), "seed"
        elif box.action == "deck:file":
            self.open_deck_browser()
        elif kind == "deck":
            self.deck = value
        elif kind == "theme":
            at = self.themes.index(self.theme) if self.theme in self.themes else -1
            self.theme = self.themes[(at + 1) % len(self.themes)]
        elif kind == "window":
            self.fullscreen = not self.fullscreen
        elif kind == "open":
            self.open_browser()
        elif kind == "recent":
            entry = self.recent[int(value)]
            self.opened = Opened(entry.path, entry.sequence)
        elif kind == "start":
            self.chosen = self.choice()

    def _tron_click(self, box: Box) -> None:
        assert self.tron is not None
        then = self.tron.click(box)
        if then == "start":
            self.start_tron()
        elif then == "open":
            self.open_browser()
        elif then is not None and then.startswith("program:"):
            slot = int(then.partition(":")[2])
            self.browser = TronBrowser(recent=[], slot=slot)
        elif then is not None and then.startswith("recent:"):
            self.opened = Opened(then.partition(":")[2])


#: Thumbnail colours by tile kind code (viewer3d.render.scene KIND_*) and for walls.
_KIND_RGB = np.array(
    [
        (205, 208, 214),  # floor
        (20, 20, 26),  # hole
        (70, 70, 80),  # conveyor
        (60, 170, 190),  # rotator left
        (230, 140, 50),  # rotator right
        (200, 60, 50),  # pusher
        (150, 150, 40),  # crusher
        (60, 210, 110),  # goal
        (40, 50, 110),  # oil
    ],
    dtype=np.uint8,
)


def board_thumbnail(board: Board, size: int = int(THUMB)) -> NDArray[np.uint8]:
    """A top-down picture of a board, ``size`` pixels on its long side (RGB, top row first):
    one colour per tile kind, walls dark; cheap enough for every shipped board at start-up."""
    from viewer3d.render.scene import build_scene

    info = build_scene(board).info
    kinds = np.minimum(info[..., 2] & 15, len(_KIND_RGB) - 1)
    picture = _KIND_RGB[kinds].copy()
    picture[info[..., 1] > 0] = (picture[info[..., 1] > 0] * 0.55).astype(np.uint8)  # tiles with walls
    scale = max(1, size // max(board.width, board.height))
    return np.ascontiguousarray(np.repeat(np.repeat(picture, scale, axis=0), scale, axis=1))
