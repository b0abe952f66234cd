"""Run one job in a child process of its own: ``python -m engine.batch.child`` (used on clusters).

A Dask worker runs many jobs in one long-lived process; an AI program that kills its parent
would kill that worker and Dask would retry the game elsewhere (and lose the worker's other
games).  So each job runs in a child: the pickled ``(function, job)`` comes on stdin, the pickled
row goes back on stdout (the child's own prints go to stderr), and a child that dies costs only
its job, with the same reason as in a local pool.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.ai.external import kill_running_ais, remove_tree
from engine.ai.supervise import become_subreaper, children, die_with_parent, kill_descendants
from engine.batch.pool import death_reason

Row = dict[str, Any]

_lock = threading.Lock()
#: The game processes running now, each with its batch's name (a worker may serve several contests).
_active: dict[int, str] = {}
#: The batches stopped on this worker: a task of theirs that starts late plays no game.
_stopped: set[str] = set()


def run_isolated(fn: Callable[[Any], Row], job: Any, batch: str = "") -> tuple[bool, Any]:
    """``(True, row)``, ``(False, why it crashed)`` or ``(False, why its process died)``."""
    with _lock:
        if batch and batch in _stopped:
            return False, "stopped"
    become_subreaper()
    before = children()
    # The child's temporary files (its AI's scratch folder) go here, removed even if it is killed.
    home = tempfile.mkdtemp(prefix="robots-worker-")
    process = subprocess.Popen(
        [sys.executable, "-m", "engine.batch.child"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    with _lock:
        _active[process.pid] = batch
    try:
        out, _ = process.communicate(pickle.dumps((fn, job, home)))
    finally:
        with _lock:
            _active.pop(process.pid, None)
            keep = before | set(_active)
        # Whatever its AI left running was re-parented to this (subreaper) process: end it.
        kill_descendants(None, keep)
        remove_tree(Path(home))
    if process.returncode != 0:
        return False, death_reason(process.returncode)
    ok, value = pickle.loads(out)
    return bool(ok), value


def stop_batch(batch: str) -> int:
    """Kill this worker's game processes of ``batch`` (a contest stopped by Ctrl-C: Dask cancels its
    tasks but cannot stop one that runs, which would play its game to the end for nobody); how many.
    Each one's ``run_isolated`` then ends what its AI left and returns."""
    with _lock:
        _stopped.add(batch)
        pids = [pid for pid, name in _active.items() if name == batch]
    for pid in pids:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)  # its own session: the group holds the game and its AI
    return len(pids)


_home: str | None = None


def _exit_on_sigterm(signum: int, frame: object) -> None:
    kill_running_ais()
    if _home is not None:
        remove_tree(Path(_home))
    os._exit(128 + signum)


def main() -> None:
    parent = os.getppid()
    # The worker killed (kill -9): this game stops too (SIGTERM stops its AI) instead of playing on
    # for nobody.  The thread that started it waits for it, so the signal never comes early.
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    die_with_parent()
    if os.getppid() != parent:
        _exit_on_sigterm(signal.SIGTERM, None)
    reply_to = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything the job prints goes to stderr, not into the reply
    fn, job, home = pickle.loads(sys.stdin.buffer.read())
    global _home
    _home = home
    tempfile.tempdir = home
    try:
        reply: tuple[bool, Any] = (True, fn(job))
    except Exception as exc:
        reply = (False, f"crashed: {type(exc).__name__}: {exc}")
    finally:
        remove_tree(Path(home))  # its parent does so too, unless it died first (a killed local cluster)
    with contextlib.suppress(BrokenPipeError):
        reply_to.write(pickle.dumps(reply))
        reply_to.close()


if __name__ == "__main__":
    main()
