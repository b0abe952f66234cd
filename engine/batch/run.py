"""``run_batch``: the jobs not in the journal, run locally or on a cluster, each row journaled at once."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from engine.batch.journal import Journal
from engine.batch.pool import run_local

Row = dict[str, Any]


class BatchStopped(KeyboardInterrupt):
    """Ctrl-C or a stop signal during a batch; ``saved`` rows are in the journal, ``total`` asked for."""

    def __init__(self, saved: int, total: int, cause: KeyboardInterrupt) -> None:
        super().__init__(f"{saved} of {total} saved")
        self.saved = saved
        self.total = total
        self.cause = cause
        self.signum = getattr(cause, "signum", None)


class BatchLost(Exception):
    """The cluster's scheduler went away mid-batch; ``saved`` rows are in the journal, ``total`` asked for."""

    def __init__(self, saved: int, total: int, reason: str) -> None:
        super().__init__(reason)
        self.saved = saved
        self.total = total
        self.reason = reason


def run_batch(
    jobs: Sequence[Any],
    fn: Callable[[Any], Row],
    *,
    key: Callable[[Any], str],
    lost: Callable[[Any, str], Row],
    journal: Journal | None = None,
    workers: int = 1,
    cluster: str | None = None,
    on_row: Callable[[int, Row], None] | None = None,
    affinity: Callable[[Any], Hashable] | None = None,
    first: Callable[[Any], Any] | None = None,
    check: Callable[[], str | None] | None = None,
) -> list[Row]:
    """Every job's row, in the order of ``jobs``; the journal's rows are reused, the rest are run.

    ``fn`` and the jobs must be picklable (``fn`` a top-level function).  ``on_row(done, row)``
    is called for every row, journaled ones first, with the count so far.  Ctrl-C raises
    :class:`BatchStopped` once every worker is stopped; every finished row is in the journal.
    ``first`` orders the jobs to run (a sort key; stable); ``affinity`` groups them: a local
    worker keeps taking jobs of its last job's group, and a new group goes to an idle worker.
    ``check`` runs first on every cluster worker: what it returns (a problem) stops the batch with
    an InputError naming the worker.  A scheduler lost mid-batch raises :class:`BatchLost`.
    """
    rows: list[Row | None] = [None] * len(jobs)
    done = journal.done if journal is not None else {}
    todo: list[tuple[int, Any]] = []
    count = 0
    for index, job in enumerate(jobs):
        row = done.get(key(job))
        if row is None:
            todo.append((index, job))
        else:
            rows[index] = row
            count += 1
            if on_row is not None:
                on_row(count, row)

    def finished(index: int, row: Row) -> None:
        nonlocal count
        if journal is not None:
            journal.append(key(jobs[index]), row)
        rows[index] = row
        count += 1
        if on_row is not None:
            on_row(count, row)

    if first is not None:
        todo.sort(key=lambda pair: first(pair[1]))
    try:
        if cluster is not None:
            from engine.batch.cluster import ClusterLost, run_cluster

            try:
                run_cluster(cluster, todo, fn, lost, finished, check=check)
            except ClusterLost as gone:
                raise BatchLost(count, len(jobs), str(gone)) from None
        else:
            run_local(todo, fn, lost, max(1, workers), finished, affinity)
    except BatchStopped:
        raise
    except KeyboardInterrupt as stop:
        raise BatchStopped(count, len(jobs), stop) from None
    assert all(row is not None for row in rows)
    return [row for row in rows if row is not None]
