"""Jobs on a Dask distributed cluster: ``tcp://HOST:8786`` (a running scheduler) or ``local:N``.

Each job is one Dask task that runs the job in a child process of its worker
(:func:`engine.batch.child.run_isolated`), so an AI that kills its parent costs only its game,
with the same row as on this machine.  Dask is told not to retry a task that fails, but one
whose worker dies it plays again elsewhere (a game is deterministic: the same row), up to its
``allowed-failures``; after that the job gets ``lost(job, reason)``.  A lost *scheduler* is no
job's fault: :class:`ClusterLost`, and those jobs get no row, so a resumed batch plays them.
The journal stays on this machine: rows come back here and are appended as they arrive.

Jobs must be picklable and everything they name (AI programs, log folders) must exist on the
workers at the same paths: docs/contest-cluster.md says how to set that up.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from engine.batch.child import run_isolated, stop_batch
from engine.errors import InputError

Row = dict[str, Any]


def parse_address(address: str) -> tuple[str, int | None]:
    """``("tcp://host:8786", None)`` or ``("local", N)``; InputError for anything else."""
    if address.startswith("local:"):
        count = address.removeprefix("local:")
        if not (count.isascii() and count.isdigit()) or not 1 <= int(count[:6]) <= 256:
            raise InputError(f"--cluster local:N needs N from 1 to 256, not {address[:40]!r}")
        return "local", int(count)
    if "://" in address or ":" in address:
        return address, None
    raise InputError(f"--cluster must be a scheduler address like tcp://HOST:8786, or local:N, not {address[:40]!r}")


class ClusterLost(RuntimeError):
    """The scheduler went away mid-batch: the jobs it held were not played and get no row."""


@contextlib.contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's own log lines (a traceback for each failed reconnect) off while a batch runs: what
    matters reaches the user as one line of ours."""
    names = ["distributed"] + [name for name in logging.root.manager.loggerDict if name.startswith("distributed.")]
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


#: Seconds to wait for the scheduler's answer, and for a first worker.
CONNECT_TIMEOUT = 30.0


def _probe(address: str, target: str, timeout: float) -> None:
    """Connect and shake hands once, all within ``timeout``: Dask's client waits for ever on a port
    that accepts and never answers, and dies of a MemoryError on one that answers garbage."""
    comm_module: Any = importlib.import_module("distributed.comm")

    async def attempt() -> None:
        comm = await comm_module.connect(target, timeout=timeout)
        await comm.close()

    try:
        asyncio.run(asyncio.wait_for(attempt(), timeout))
    except TimeoutError:
        raise InputError(f"--cluster {address}: cannot reach the scheduler: no answer in {timeout:g} s") from None
    except OSError as exc:  # refused, no such host
        raise InputError(f"--cluster {address}: cannot reach the scheduler: {shown_reason(str(exc))}") from None
    except Exception as exc:  # it answered, but not as a Dask scheduler does (or a malformed address)
        raise InputError(
            f"--cluster {address}: no Dask scheduler answers there ({type(exc).__name__}: {shown_reason(str(exc))})"
        ) from None


def _connect(dask: Any, address: str, connect_timeout: float) -> tuple[Any, Any]:
    """``(client, local cluster or None)``; InputError for a scheduler that is not there, or no worker."""
    target, count = parse_address(address)
    cluster = None
    if count is None:
        _probe(address, target, connect_timeout)
    try:
        if count is not None:
            cluster = dask.LocalCluster(
                n_workers=count, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
            )
            client = dask.Client(cluster)
        else:
            client = dask.Client(target, timeout=connect_timeout)
    except (OSError, ValueError, TypeError) as exc:  # TimeoutError is an OSError; a bad address a ValueError
        reason = (
            f"no answer in {connect_timeout:g} s" if isinstance(exc, TimeoutError) else str(exc) or type(exc).__name__
        )
        raise InputError(f"--cluster {address}: cannot reach the scheduler: {shown_reason(reason)}") from None
    try:
        client.wait_for_workers(1, timeout=connect_timeout)
    except (OSError, ValueError) as exc:
        client.close()
        if cluster is not None:
            cluster.close()
        raise InputError(
            f"--cluster {address}: no worker joined the scheduler in {connect_timeout:g} s"
            f" (start some: dask worker {target})"
        ) from exc
    return client, cluster


def shown_reason(text: str) -> str:
    """A library's message on one line, at most ~120 characters."""
    line = " ".join(text.split())
    return line if len(line) <= 120 else line[:117] + "..."


def _check_workers(client: Any, address: str, check: Callable[[], str | None]) -> None:
    """Run ``check`` on every worker first: one that cannot play (no numba, no AI program at that
    path) is named in a one-line InputError, instead of every game it takes ending in E."""
    answers = client.run(check, on_error="return")
    for worker, answer in sorted(answers.items()):
        if isinstance(answer, BaseException):
            answer = f"{type(answer).__name__}: {answer}"
        if answer:
            raise InputError(f"--cluster {address}: worker {worker} cannot play: {shown_reason(str(answer))}")


#: Per batch, what ``check`` said on this worker (a worker that joined after the first check).
_checked: dict[str, str | None] = {}


def play_on_worker(
    fn: Callable[[Any], Row], job: Any, batch: str, check: Callable[[], str | None] | None
) -> tuple[bool, Any]:
    """One task: the job in a child process (``run_isolated``), once ``check`` passed on this worker.

    A worker that joined after :func:`_check_workers` is checked at its first game, and a
    problem is each of its games' reason, naming the worker (it was 'crashed: ImportError')."""
    if check is not None:
        if batch not in _checked:
            try:
                _checked[batch] = check()
            except Exception as exc:
                _checked[batch] = f"{type(exc).__name__}: {exc}"
        problem = _checked[batch]
        if problem:
            where = importlib.import_module("distributed").get_worker().address
            return False, f"worker {where} cannot play: {shown_reason(problem)}"
    return run_isolated(fn, job, batch)


def run_cluster(
    address: str,
    jobs: Iterable[tuple[int, Any]],
    fn: Callable[[Any], Row],
    lost: Callable[[Any, str], Row],
    on_row: Callable[[int, Row], None],
    *,
    connect_timeout: float | None = None,
    check: Callable[[], str | None] | None = None,
) -> None:
    """Run every job on the cluster at ``address``; ``on_row(index, row)`` as each ends (any order).

    InputError if the scheduler cannot be reached (within ``connect_timeout``), has no worker, or
    a worker fails ``check``; :class:`ClusterLost` if the scheduler goes away mid-batch.
    """
    try:
        dask: Any = importlib.import_module("distributed")  # untyped: used through Any
    except ImportError:
        raise InputError(
            "--cluster needs the 'distributed' package: pip install 'robots[cluster]' (./run setup installs it)"
        ) from None
    with _quiet_dask():
        client, cluster = _connect(dask, address, CONNECT_TIMEOUT if connect_timeout is None else connect_timeout)
        try:
            if check is not None:
                _check_workers(client, address, check)
            _run(dask, client, address, jobs, fn, lost, on_row, check)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def _run(
    dask: Any,
    client: Any,
    address: str,
    jobs: Iterable[tuple[int, Any]],
    fn: Callable[[Any], Row],
    lost: Callable[[Any, str], Row],
    on_row: Callable[[int, Row], None],
    check: Callable[[], str | None] | None,
) -> None:
    batch = f"robots-{uuid.uuid4().hex[:12]}"
    futures = {}
    try:
        for index, job in jobs:
            future = client.submit(play_on_worker, fn, job, batch, check, key=f"{batch}-{index}", pure=False, retries=0)
            futures[future] = (index, job)
        for future in dask.as_completed(futures):
            index, job = futures.pop(future)
            if future.cancelled():  # the client lost the scheduler: nobody cancels but us
                raise ClusterLost(f"lost the scheduler {address}")
            try:
                ok, value = future.result()
            except Exception as exc:  # lost with its worker too often (Dask re-runs it on another first)
                ok, value = False, f"the worker playing it was lost ({type(exc).__name__})"
            on_row(index, value if ok else lost(job, value))
    except BaseException:
        if futures and client.status == "running":
            client.cancel(list(futures))
            # A cancelled task still runs its game to the end: stop this batch's game processes.
            with contextlib.suppress(Exception):
                client.run(stop_batch, batch, on_error="ignore")
        raise
