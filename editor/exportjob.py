"""One export (PNG/SVG/PDF) from the editor's window, run in a thread of its own.

On the window's thread an export of a 512x512 arena at 16 px held the window for ~5 s: no
frames, no input. ``ExportJob`` runs ``export_board`` on the board as it was when the export was
asked for (boards are immutable, so later edits cannot reach it) and keeps how far it is, which
the controller shows in the status bar. The file is written by ``export_board`` atomically: while
the job runs, and when it fails, the target is untouched; when it ends, the whole file is there.

The window allows one job at a time (the controller refuses a second); closing the window waits
for a running job, so the process never ends half-way through writing. ``cancel`` (Esc in the
window) stops the job at the writer's next progress step: ``export_board`` reports its last step
before the file is written, so a cancelled job has written nothing (no temporary either).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from editor.export import ExportOptions, Progress, export_board
from editor.games.base import Grid

Writer = Callable[[Grid, Path, ExportOptions, str | None, Progress], Path]


def _write(board: Grid, target: Path, options: ExportOptions, title: str | None, progress: Progress) -> Path:
    return export_board(board, target, options, title=title, progress=progress)


class ExportCancelled(Exception):
    """Raised in the job's thread, from its progress callback, once the export is cancelled."""


class ExportJob:
    """An export running in a daemon thread: ``done`` is set when it has ended, well or not."""

    def __init__(
        self, board: Grid, target: Path, options: ExportOptions, title: str | None = None, write: Writer = _write
    ) -> None:
        self.target = target
        self.fraction = 0.0  # how far it is, 0.0 .. 1.0 (written by the job's thread only)
        self.written: Path | None = None
        self.error: str | None = None  # the one line to show when it failed
        self.cancelled = False  # it stopped on ``cancel`` before writing anything
        self.done = threading.Event()
        self._cancel = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(board, options, title, write), name="robots-edit export", daemon=True
        )

    def start(self) -> ExportJob:
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        return not self.done.is_set()

    def cancel(self) -> None:
        """Ask the job to stop at its writer's next progress step (any thread; returns at once)."""
        self._cancel.set()

    def _progress(self, fraction: float) -> None:
        # 1.0 is reported after the file is written: too late to cancel, and then it is not.
        if self._cancel.is_set() and fraction < 1.0:
            raise ExportCancelled
        self.fraction = min(1.0, max(self.fraction, fraction))

    def _run(self, board: Grid, options: ExportOptions, title: str | None, write: Writer) -> None:
        try:
            self.written = write(board, self.target, options, title, self._progress)
        except ExportCancelled:
            self.cancelled = True
        except (OSError, ValueError) as exc:
            self.error = f"could not export {self.target}: {getattr(exc, 'strerror', None) or exc}"
        except Exception as exc:  # a bug must not vanish with its thread: said in the status bar
            self.error = f"could not export {self.target}: {type(exc).__name__}: {exc}"
        finally:
            self.done.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the job has ended (True) or ``timeout`` seconds passed (False)."""
        return self.done.wait(timeout)
