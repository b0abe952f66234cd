"""A new Tron game chosen on the start screen: the engine's server plays it in a background thread
(each bot a program over the contest's protocol, as in ``robots-tron play``), then it is saved as a
game file and opened like any other, so a live game is a recent game too and can be watched again.

The window polls :attr:`LiveTronGame.round` to show progress and calls :meth:`cancel` on Esc: the
server then stops at the end of the round and every bot program is killed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path

from engine.errors import InputError
from engine.tron.arena import Arena, load_arena
from engine.tron.record import save_game
from engine.tron.rules import State
from engine.tron.server import play_game
from viewer3d.recent import state_folder

GAMES_FOLDER = "tron-games"


class _Cancelled(Exception):
    """Raised from the server's round callback to end a cancelled game."""


def games_folder() -> Path:
    """Where live games are kept: ``$XDG_STATE_HOME/robots-view/tron-games``."""
    return state_folder() / GAMES_FOLDER


def _free_name(folder: Path, stem: str) -> Path:
    """``stem.json`` in ``folder``, numbered when taken: a live game never replaces a file."""
    path = folder / f"{stem}.json"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}.json"
        number += 1
    return path


class LiveTronGame:
    """One game played in the background; ``finished`` is set when ``path`` (the saved game file)
    or ``error`` (one line) is known."""

    def __init__(
        self, arena_path: str | Path, bots: Sequence[str], folder: Path | None = None, target: Path | None = None
    ) -> None:
        """``folder``: where the game file gets a fresh name (the state folder's ``tron-games`` by
        default); ``target``: this exact file instead (the demo's own ``out/demo-tron.json``)."""
        from engine.tron.cli import bot_spec

        self.arena_path = Path(arena_path)
        self.arena: Arena = load_arena(arena_path)
        try:
            self.arena.starts_for(len(bots))
        except ValueError as exc:
            raise InputError(str(exc), arena_path) from None
        self.specs = [bot_spec(b) for b in bots]
        self.folder = folder or games_folder()
        self.target = target
        self.round = 0
        self.path: Path | None = None
        self.error: str | None = None
        self.finished = threading.Event()
        self._cancel = threading.Event()
        self._thread = threading.Thread(target=self._play, name="tron-live", daemon=True)

    def start(self) -> LiveTronGame:
        self._thread.start()
        return self

    def cancel(self) -> None:
        """Stop after the current round (its bots are killed); ``error`` then says so."""
        self._cancel.set()

    def _on_round(self, state: State) -> None:
        self.round = state.round
        if self._cancel.is_set():
            raise _Cancelled

    def _play(self) -> None:
        try:
            record, _ = play_game(self.arena, self.specs, on_round=self._on_round)
            if self.target is not None:
                path = self.target
            else:
                self.folder.mkdir(parents=True, exist_ok=True)
                path = _free_name(self.folder, f"{self.arena_path.stem}-{time.strftime('%Y%m%d-%H%M%S')}")
            save_game(record, path)
            self.path = path
        except _Cancelled:
            self.error = f"the game was cancelled in round {self.round + 1}"
        except (OSError, ValueError, InputError) as exc:
            self.error = f"the game could not be played or saved: {exc}"
        finally:
            self.finished.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the game is over and saved (tests, scripts); True when it finished."""
        return self.finished.wait(timeout)
