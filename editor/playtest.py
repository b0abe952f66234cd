"""Test-play: play the board with the built-in AI at a level, write a game directory, open the viewer.

:class:`PlaytestRunner` serves every game: it runs the game's ``play`` (``editor.games``); the
robot game's is :func:`play` here.

The game is played by the engine (``engine.game.play_game``) with the best built-in AI
that is installed (the planner, else the contest's reference AI) on a fresh deck, and
written with the engine's game-directory writer, which the 3D viewer reads.

:class:`PlaytestRunner` runs that in a thread (an AI may think a while), starts the
viewer on the result, reaps viewer processes that have finished and removes their
play folders, and removes every remaining one when the editor closes.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from editor.games.base import EditorGame, Grid, PlayCancelled, Played, PlayWatch
from engine.ai.registry import resolve_ai
from engine.deck import generate_deck
from engine.game import Chooser, GameRecord, play_game
from engine.gamedir import write_game_dir
from engine.model import Board, Level

BEST_AI = "planner"
VIEWER_MODULE = "viewer3d.cli"


def builtin_ai() -> tuple[str, Chooser]:
    """The best built-in AI (the planner) and its name."""
    return BEST_AI, resolve_ai(BEST_AI)


def play(
    board: Board, level: Level, folder: Path | None = None, seed: int | None = None, name: str = "board"
) -> tuple[Path, GameRecord]:
    """Play one game and write its game directory (a new temporary folder unless given).

    The game directory is named after the board (``name``): the viewer titles its window with it."""
    target = folder if folder is not None else Path(tempfile.mkdtemp(prefix="robots-edit-play-")) / name
    name, chooser = builtin_ai()
    deck = generate_deck(seed)
    game = play_game(board, level, deck, chooser)
    write_game_dir(target, game, ai=name, deck=None, seed=seed)
    return target, game


def open_viewer(game_dir: Path) -> subprocess.Popen[bytes]:
    """Start the 3D viewer on a game directory as its own process (the editor keeps running)."""
    return subprocess.Popen([sys.executable, "-m", VIEWER_MODULE, str(game_dir)])


def remove_play_folder(game_dir: Path) -> None:
    """Remove a test-play's folder (the temporary parent ``play`` made, when it made one)."""
    parent = game_dir.parent
    target = parent if parent.name.startswith("robots-edit-play-") else game_dir
    shutil.rmtree(target, ignore_errors=True)


@dataclass
class Viewer:
    process: subprocess.Popen[bytes]
    game_dir: Path


@dataclass
class PlaytestRunner:
    """One test-play at a time in a thread; the viewers it opened, reaped and cleaned up."""

    say: Callable[[str], None]
    open_viewer: Callable[[Path], subprocess.Popen[bytes] | None] = open_viewer
    viewers: list[Viewer] = field(default_factory=list)
    folders: list[Path] = field(default_factory=list)
    _thread: threading.Thread | None = None
    _result: list[object] = field(default_factory=list)
    #: The running game's progress and its cancel switch (``cancel``).
    watch: PlayWatch = field(default_factory=PlayWatch)
    _told: str = ""

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, game: EditorGame, board: Grid, level: Enum | None, name: str) -> None:
        """Play ``board`` with ``game``'s built-in AIs in a thread; ``poll`` reports it."""
        box: list[object] = []
        watch = self.watch = PlayWatch()
        self._told = ""

        def run() -> None:
            try:
                box.append(game.play(board, level, name, watch))
            except Exception as exc:  # reported in the status bar, never a crash of the editor
                box.append(exc)

        self._result = box
        self._thread = threading.Thread(target=run, name="robots-edit-playtest", daemon=True)
        self._thread.start()

    def wait(self, timeout: float | None = None) -> None:
        """Block until a running test-play has finished and been reported (tests, scripts)."""
        if self._thread is not None:
            self._thread.join(timeout)
        self.poll()

    def cancel(self) -> None:
        """Stop the running game at its next step (``poll`` then says where it stopped)."""
        self.watch.cancel.set()

    def poll(self) -> None:
        """Report a running game's progress, a finished game (opening the viewer), a stopped one,
        and reap finished viewers."""
        self.reap()
        if self._thread is None:
            return
        if self._thread.is_alive():
            progress = self.watch.progress
            if progress and progress != self._told and not self.watch.cancel.is_set():
                self._told = progress
                self.say(f"test-play: the AI is playing … {progress} (F5 stops it)")
            return
        self._thread = None
        result = self._result[0] if self._result else None
        if isinstance(result, PlayCancelled):
            self.say(f"test-play {result}; nothing to show")
            return
        if not isinstance(result, Played):
            self.say(f"test-play failed: {result}")
            return
        game_dir = result.path
        self.folders.append(game_dir)
        process = self.open_viewer(game_dir)
        if process is not None:
            self.viewers.append(Viewer(process, game_dir))
        self.say(f"{result.summary}; opening the viewer on {game_dir}")

    def reap(self) -> None:
        """Collect viewers that have exited and remove their play folders."""
        for viewer in [v for v in self.viewers if v.process.poll() is not None]:
            self.viewers.remove(viewer)
            if viewer.game_dir in self.folders:
                self.folders.remove(viewer.game_dir)
            remove_play_folder(viewer.game_dir)

    def close(self) -> None:
        """The editor is closing: running viewers stay open (they have read their game already);
        every play folder is removed."""
        self.reap()
        for folder in self.folders:
            remove_play_folder(folder)
        self.folders.clear()
