"""A new Tron game (the start screen's Tron tab, ``./run demo tron``): the engine's server plays it
in a background thread (each bot a program over the contest's protocol, as in ``robots-tron play``)
while the viewer shows it: every round the server decides is appended to :attr:`LiveTronGame.show`
(a growing ``TronShow``), so the window opens at once and follows the game.  At the end it is saved
as a game file (atomically) and the show says the result, so a live game is a recent game too and
can be watched again.

:meth:`cancel` (Esc, closing the window) kills every bot program at once: their answers fail, the
server ends the round and stops, and no game file is written.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.errors import InputError
from engine.tron.arena import Arena, load_arena
from engine.tron.bots import BUILTIN_NAMES
from engine.tron.process import BotProcess
from engine.tron.record import BotInfo, GameRecord, RoundRecord, save_game
from engine.tron.rules import Event, State
from engine.tron.server import DEFAULT_TIME_LIMIT, play_game
from viewer3d.games.tron.show import TronShow
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


def short_name(argv: Sequence[str], name: str) -> str:
    """A bot as a title names it: a built-in's name, a program's file name (a script's, not its
    interpreter's)."""
    if name in BUILTIN_NAMES or not argv:
        return name
    script = (
        argv[1]
        if len(argv) > 1 and Path(argv[0]).name.startswith(("python", "perl", "ruby", "sh", "bash"))
        else argv[0]
    )
    return Path(script).name


class LiveTronGame:
    """One game played in the background while ``show`` grows with its rounds; ``finished`` is set
    when ``path`` (the saved game file) or ``error`` (one line) is known."""

    def __init__(
        self,
        arena_path: str | Path,
        bots: Sequence[str],
        folder: Path | None = None,
        target: Path | None = None,
        time_limit: float = DEFAULT_TIME_LIMIT,
    ) -> None:
        """``folder``: where the game file gets a fresh name (the state folder's ``tron-games`` by
        default); ``target``: this exact file instead (the demo's own ``out/demo-tron.json``);
        ``time_limit``: seconds per answer, as ``robots-tron play --time-limit``."""
        from engine.tron.cli import bot_spec

        self.arena_path = Path(arena_path)
        self.arena: Arena = load_arena(arena_path)
        try:
            self.arena.starts_for(len(bots))
        except ValueError as exc:
            raise InputError(str(exc), arena_path) from None
        self.specs = [bot_spec(b) for b in bots]
        self.time_limit = time_limit
        names = " vs ".join(short_name(spec.argv, spec.name) for spec in self.specs)
        self.show = TronShow(
            GameRecord(self.arena, tuple(BotInfo(s.name, s.argv) for s in self.specs), (), time_limit),
            f"{self.arena_path.name}: {names} (being played)",
            live=self,
        )
        #: Called from the server's thread after each round and at the end (a window wakes up).
        self.listeners: list[Callable[[], None]] = []
        self._processes: Sequence[BotProcess] = ()
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
        """End the game now: every bot program is killed (the round ends, the server stops) and
        ``error`` says so; nothing is saved."""
        self._cancel.set()
        for process in self._processes:
            process.stop()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def bot_pids(self) -> list[int]:
        """The process ids of the bot programs started so far (tests check they are gone)."""
        return [p.process.pid for p in self._processes if p.process is not None]

    def _on_start(self, processes: Sequence[BotProcess]) -> None:
        self._processes = processes
        if self._cancel.is_set():
            raise _Cancelled

    def _on_record(self, record: RoundRecord, state: State, happened: Sequence[Event]) -> None:
        if self._cancel.is_set():  # the bots were killed: this round is not the game's
            raise _Cancelled
        self.show.add_round(state, happened)
        self.round = state.round
        self._tell()

    def _tell(self) -> None:
        for listener in list(self.listeners):
            listener()

    def _play(self) -> None:
        record: GameRecord | None = None
        try:
            record, _ = play_game(
                self.arena,
                self.specs,
                time_limit=self.time_limit,
                on_record=self._on_record,
                on_start=self._on_start,
            )
            if self.target is not None:
                path = self.target
            else:
                self.folder.mkdir(parents=True, exist_ok=True)
                path = _free_name(self.folder, f"{self.arena_path.stem}-{time.strftime('%Y%m%d-%H%M%S')}")
            save_game(record, path)
            self.path = path
            self.show.title = path.name
        except _Cancelled:
            self.error = f"the game was cancelled in round {self.round + 1}"
        except (OSError, ValueError, InputError) as exc:
            self.error = f"the game could not be played or saved: {exc}"
        finally:
            self.show.finish(record if self.error is None else None)
            self.finished.set()
            self._tell()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the game is over and saved (tests, scripts); True when it finished."""
        return self.finished.wait(timeout)
