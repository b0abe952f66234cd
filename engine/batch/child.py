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
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.ai.external import remove_tree
from engine.ai.supervise import become_subreaper, children, kill_descendants
from engine.batch.pool import death_reason

Row = dict[str, Any]

_lock = threading.Lock()
_active: set[int] = set()


def run_isolated(fn: Callable[[Any], Row], job: Any) -> tuple[bool, Any]:
    """``(True, row)``, ``(False, why it crashed)`` or ``(False, why its process died)``."""
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
        _active.add(process.pid)
    try:
        out, _ = process.communicate(pickle.dumps((fn, job, home)))
    finally:
        with _lock:
            _active.discard(process.pid)
            keep = before | _active
        # Whatever its AI left running was re-parented to this (subreaper) process: end it.
        kill_descendants(None, keep)
        remove_tree(Path(home))
    if process.returncode != 0:
        return False, death_reason(process.returncode)
    ok, value = pickle.loads(out)
    return bool(ok), value


def main() -> None:
    reply_to = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything the job prints goes to stderr, not into the reply
    fn, job, home = pickle.loads(sys.stdin.buffer.read())
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
