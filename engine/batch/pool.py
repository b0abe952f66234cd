"""Jobs in worker processes on this machine, where a worker's death costs only its own job.

``concurrent.futures.ProcessPoolExecutor`` gives up on every job when one worker dies
(BrokenProcessPool): one AI program doing ``kill -9 $PPID`` ended a whole contest.  Here each
worker has its own pipe; when one dies, the job it held gets the row ``lost(job, reason)``, a
new worker takes its place, and the others never notice.  Even ``workers=1`` plays in a
worker, so the process keeping the journal is never the one an AI can kill.

The main process is a child subreaper: whatever a dead worker's AI left running is re-parented
here and killed.  Ctrl-C (or :class:`~engine.stopping.Stopped`) stops every worker, which kills
its AI and removes its folders, and is raised again once all are gone.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import tempfile
from collections.abc import Callable, Hashable, Iterable
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from engine.ai.external import kill_running_ais, remove_tree
from engine.ai.supervise import become_subreaper, children, die_with_parent, kill_descendants

Row = dict[str, Any]
#: Jobs sent to a worker at once: it starts the next game while the last one's row is journaled.
AHEAD = 2
#: How long stopped workers get to kill their AI and clean up before they are killed.
STOP_GRACE = 10.0
#: How often the busy workers are sent SIGCONT, when no answer comes (an AI may SIGSTOP its worker).
WAKE_EVERY = 1.0


def death_reason(exitcode: int | None) -> str:
    """Why a worker ended, in words that do not depend on which worker or machine it was."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"the process playing it died ({name})"
    return f"the process playing it died (exit status {exitcode})"


#: In a worker: the folder holding its temporary files (its AIs' scratch folders), made by the pool.
_home: str | None = None


def _worker_main(conn: Connection, fn: Callable[[Any], Row], parent: int, home: str | None = None) -> None:
    """A worker of the process ``parent``: play the jobs sent, one at a time, until told to stop (None).

    Its temporary files go into ``home``, which the pool removes when the worker is gone, also
    when it was killed (an AI's ``kill -9 $PPID``) with its AI's scratch folder still there.
    """
    global _home
    if home is not None:
        _home = tempfile.tempdir = home
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    die_with_parent()  # kill -9 of the contest: SIGTERM here, which stops the AI and leaves
    # The contest died before that was set (``parent`` is its pid, taken before the fork: read
    # here, it would be init's when the contest died first, and the worker waited for ever).
    if os.getppid() != parent:
        _exit_on_sigterm(signal.SIGTERM, None)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, job = message
        reply: tuple[Any, bool, Any]
        try:
            reply = (index, True, fn(job))
        except Exception as exc:  # the job function's own bug: this job's row says so, the worker goes on
            reply = (index, False, f"crashed: {type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


def _exit_on_sigterm(signum: int, frame: object) -> None:
    kill_running_ais()
    if _home is not None:
        remove_tree(Path(_home))
    os._exit(128 + signum)


class _Queue:
    """The jobs still to run, handed out in order or, with an affinity, by group."""

    def __init__(self, jobs: Iterable[tuple[int, Any]], affinity: Callable[[Any], Hashable] | None) -> None:
        self.jobs = list(jobs)
        self.affinity = affinity

    def __len__(self) -> int:
        return len(self.jobs)

    def take(self, worker: _Worker, pool: list[_Worker]) -> tuple[int, Any]:
        if self.affinity is None:
            return self.jobs.pop(0)
        group = self.affinity
        if worker.group is not None:
            for i, (_, job) in enumerate(self.jobs):
                if group(job) == worker.group:
                    return self._give(i, worker)
        busy = {w.group for w in pool if w is not worker and w.jobs}
        for i, (_, job) in enumerate(self.jobs):
            if group(job) not in busy:
                return self._give(i, worker)
        return self._give(0, worker)

    def _give(self, i: int, worker: _Worker) -> tuple[int, Any]:
        index, job = self.jobs.pop(i)
        assert self.affinity is not None
        worker.group = self.affinity(job)
        return index, job


class _Worker:
    def __init__(self, context: Any, fn: Callable[[Any], Row]) -> None:
        self.conn, child_end = multiprocessing.Pipe()
        self.home = Path(tempfile.mkdtemp(prefix="robots-worker-"))
        self.process: BaseProcess = context.Process(
            target=_worker_main, args=(child_end, fn, os.getpid(), str(self.home)), daemon=True
        )
        self.process.start()
        child_end.close()
        self.jobs: list[tuple[int, Any]] = []  # sent, not answered yet: the first is being played
        self.group: Hashable | None = None

    def give(self, index: int, job: Any) -> None:
        self.jobs.append((index, job))
        self.conn.send((index, job))

    def fill(self, pending: _Queue, pool: list[_Worker]) -> None:
        """Send jobs until it holds ``AHEAD``: it starts the next while we journal the last."""
        while pending and len(self.jobs) < AHEAD:
            self.give(*pending.take(self, pool))


def run_local(
    jobs: Iterable[tuple[int, Any]],
    fn: Callable[[Any], Row],
    lost: Callable[[Any, str], Row],
    workers: int,
    on_row: Callable[[int, Row], None],
    affinity: Callable[[Any], Hashable] | None = None,
) -> None:
    """Run ``fn`` on every ``(index, job)`` in ``workers`` processes; ``on_row(index, row)`` as each ends.

    With ``affinity`` a worker goes on with jobs of the same group as its last one while there
    are any, and otherwise starts the first group no other worker is busy with.
    """
    pending = _Queue(jobs, affinity)
    if not pending:
        return
    become_subreaper()
    before = children()
    context = multiprocessing.get_context("fork")
    pool: list[_Worker] = []
    try:
        for _ in range(min(workers, len(pending))):
            worker = _Worker(context, fn)
            pool.append(worker)
            worker.give(*pending.take(worker, pool))
        for worker in pool:
            worker.fill(pending, pool)
        while any(w.jobs for w in pool):
            busy = [w for w in pool if w.jobs]
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], WAKE_EVERY)
            if not ready:
                _wake(busy)
                continue
            for worker in busy:
                if worker.conn in ready or worker.process.sentinel in ready:
                    _serve(worker, ready, fn, lost, on_row, pending, pool, context, before)
    except BaseException:
        _stop(pool, before)
        raise
    for worker in pool:
        with contextlib.suppress(OSError):
            worker.conn.send(None)
    for worker in pool:
        worker.process.join()
    _sweep(before, pool)
    for worker in pool:
        remove_tree(worker.home)


def _serve(
    worker: _Worker,
    ready: list[Any],
    fn: Callable[[Any], Row],
    lost: Callable[[Any, str], Row],
    on_row: Callable[[int, Row], None],
    pending: _Queue,
    pool: list[_Worker],
    context: Any,
    before: set[int],
) -> None:
    """Take a worker's answer, or note its death; then give it (or its replacement) the next job."""
    reply = None
    if worker.conn in ready or worker.conn.poll():
        with contextlib.suppress(EOFError, OSError):
            reply = worker.conn.recv()
    if reply is not None:
        index, ok, value = reply
        position = next(i for i, (sent, _) in enumerate(worker.jobs) if sent == index)
        _, job = worker.jobs.pop(position)
        worker.fill(pending, pool)
        on_row(index, value if ok else lost(job, value))
        return
    # No answer: the worker died (an AI killed it, or the kernel did, out of memory).  The job it
    # was playing is lost; those queued behind it go back to the front of the queue.
    worker.process.join()
    (index, job), *queued = worker.jobs
    worker.jobs = []
    pending.jobs[0:0] = queued
    on_row(index, lost(job, death_reason(worker.process.exitcode)))
    worker.conn.close()
    pool.remove(worker)
    _sweep(before, pool)  # what its AI left running was re-parented to us
    remove_tree(worker.home)  # with the scratch folder of the AI it was running
    if pending:
        replacement = _Worker(context, fn)
        pool.append(replacement)
        replacement.fill(pending, pool)


def _wake(workers: list[_Worker]) -> None:
    """Continue workers an AI stopped (``kill -STOP $PPID``): stopped, a worker never timed its AI
    out and the contest waited for ever.  SIGCONT does nothing to a running process."""
    for worker in workers:
        if worker.process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker.process.pid, signal.SIGCONT)


def _sweep(before: set[int], pool: list[_Worker]) -> None:
    """Kill every child of ours that is neither a live worker nor older than the pool."""
    keep = before | {w.process.pid for w in pool if w.process.pid is not None and w.process.is_alive()}
    kill_descendants(None, keep)


def _stop(pool: list[_Worker], before: set[int]) -> None:
    """Stop every worker: each kills its AI and removes its folders, then exits."""
    for worker in pool:
        if worker.process.is_alive() and worker.process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker.process.pid, signal.SIGTERM)
    for worker in pool:
        worker.process.join(STOP_GRACE)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
    homes = [worker.home for worker in pool]
    pool.clear()
    _sweep(before, pool)
    for home in homes:
        remove_tree(home)
