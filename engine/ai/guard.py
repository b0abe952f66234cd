"""A watcher that kills this process's AI programs when this process dies, even by ``kill -9``.

Killed with SIGKILL, a process runs no ``finally`` and no signal handler: ``robots-engine play``
killed so left its AI program (and what that started) running until its own end, in its own
session where no Ctrl-C of the terminal reaches it.  So the first AI program a process starts
also starts one small watcher (:mod:`engine.ai.guard_main`, a separate program run with
``python -I -S``: nothing of the engine is loaded there, and nothing is forked from a process
that may have threads).  The watcher is told the process group (and pids cgroup) of every AI
program started and ended; it holds the read end of a pipe whose only writer is this process,
so when this process dies, however it dies, the watcher reads end-of-file and kills every group
still on its list, and every process in their cgroups, removes the AIs' scratch folders still on
its list (a killed ``robots-engine play`` left one in the temporary folder), and exits itself.

Contest workers have their own net as well (``prctl(PR_SET_PDEATHSIG)``, engine.batch.pool);
this one holds for every command that runs AIs.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

_PROGRAM = Path(__file__).with_name("guard_main.py")

#: The watcher of this process: ``(this process's pid, the watcher)``; a forked child starts its own.
_watcher: tuple[int, subprocess.Popen[bytes]] | None = None


def ensure_watcher() -> bool:
    """Start this process's watcher unless it runs; whether one runs now.

    Called before the caller lists its children: the watcher is one of them, and must not be
    taken for an AI's stray.
    """
    global _watcher
    if _watcher is not None and _watcher[0] == os.getpid() and _watcher[1].poll() is None:
        return True
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-S", str(_PROGRAM)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd="/",
            start_new_session=True,  # the terminal's Ctrl-C is for the engine, which then ends its AIs itself
        )
    except OSError:
        _watcher = None
        return False
    _watcher = (os.getpid(), process)
    return True


def _tell(line: str) -> None:
    global _watcher
    if _watcher is None or _watcher[0] != os.getpid():
        return
    stdin = _watcher[1].stdin
    assert stdin is not None
    try:
        # One short line: a single write of it is atomic, never interleaved with another thread's.
        os.write(stdin.fileno(), line.encode())
    except OSError:  # the watcher is gone (killed by someone): the next program started starts another
        with contextlib.suppress(OSError):
            stdin.close()
        _watcher = None


def watch(group: int, cgroup: Path | None = None) -> None:
    """Have the watcher kill process group ``group`` (and the processes of ``cgroup``) if we die."""
    _tell(f"+{group} {cgroup or ''}\n")


def scratch(folder: Path) -> None:
    """Have the watcher remove ``folder`` (an AI's scratch folder) if we die before we do."""
    if "\n" not in str(folder):
        _tell(f"d{folder}\n")


def unscratch(folder: Path) -> None:
    """``folder`` is gone (removed by us): the watcher forgets it."""
    if "\n" not in str(folder):
        _tell(f"u{folder}\n")


def forget(group: int) -> None:
    """The group has ended (killed by us): the watcher forgets it."""
    _tell(f"-{group}\n")
