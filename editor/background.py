"""Validation in the background: one worker thread checks the newest board, cancelled by the next edit.

The reachability search (``editor.validate``) can take seconds on a big board. It runs
here in a single daemon thread (so it never takes more than one core), in small slices;
each edit hands the worker the new board and the search of the old one stops at its next
slice. The window reads ``state()`` every frame: the finished result for the board on
screen, or the instant checks and the levels still being searched.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from enum import Enum

from editor.games import game_of
from editor.games.base import Grid, Problem, Validation

SLICE_POSES = 48
#: Pause between slices: leaves the interpreter to the window so drawing stays smooth.
YIELD_S = 0.0005


class Checking(Enum):
    """Stands for every check of a board just submitted (its game's own pending names come later)."""

    ALL = "all checks"


@dataclass(frozen=True)
class ValidationState:
    board: Grid
    problems: tuple[Problem, ...]
    summary: tuple[str, ...]
    pending: tuple[Enum, ...]

    @property
    def done(self) -> bool:
        return not self.pending


class BackgroundValidation:
    """Keeps the validation of the latest board submitted, computed by one worker thread."""

    def __init__(self, board: Grid) -> None:
        self._lock = threading.Condition()
        self._board = board
        self._generation = 0
        self._state = self._partial(game_of(board).validation(board))
        self._closed = False
        self._paused = False
        self._thread = threading.Thread(target=self._work, name="robots-edit-validation", daemon=True)
        self._thread.start()

    @staticmethod
    def _partial(validation: Validation) -> ValidationState:
        shown = not validation.problems or game_of(validation.board).summary_with_problems
        summary = tuple(validation.summary()) if validation.done and shown else ()
        pending = tuple(p for p in validation.pending if isinstance(p, Enum))
        return ValidationState(validation.board, tuple(validation.problems), summary, pending)

    def submit(self, board: Grid) -> None:
        """A new board to check; the check of the previous one is abandoned."""
        with self._lock:
            if board is self._board:
                return
            self._board = board
            self._generation += 1
            # Even the instant checks scan the whole board: the worker does them too.
            game = game_of(board)
            self._state = ValidationState(board, (), (), tuple(game.levels) or (Checking.ALL,))
            self._lock.notify_all()

    def state(self) -> ValidationState:
        with self._lock:
            return self._state

    def wait(self, timeout: float | None = None) -> ValidationState:
        """Block until the latest board is checked (tests, screenshots, export)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while not (self._state.board is self._board and self._state.done):
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    break
                self._lock.wait(left)
            return self._state

    def pause(self, paused: bool = True) -> None:
        """Hold the worker between slices (benchmarks measure the window's own work with it)."""
        with self._lock:
            self._paused = paused
            self._lock.notify_all()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._lock.notify_all()

    def _work(self) -> None:
        checked = -1
        while True:
            with self._lock:
                while (self._generation == checked or self._paused) and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                board, generation = self._board, self._generation
            validation: Validation = game_of(board).validation(board)
            while True:
                done = validation.advance(0.004, SLICE_POSES)
                with self._lock:
                    while self._paused and not self._closed:
                        self._lock.wait()
                    if self._generation != generation or self._closed:
                        break  # cancelled by a newer board
                    self._state = self._partial(validation)
                    if done:
                        checked = generation
                        self._lock.notify_all()
                        break
                time.sleep(YIELD_S)
