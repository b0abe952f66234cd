"""Jobs on a Dask distributed cluster: ``tcp://HOST:8786`` (a running scheduler) or ``local:N``.

Each job is one Dask task that runs the job in a child process of its worker
(:func:`engine.batch.child.run_isolated`), so an AI that kills its parent costs only its game,
with the same row as on this machine.  Dask is told not to retry a task (a game is played once,
like in the local pool); a task lost with its worker gets ``lost(job, reason)``.  The journal
stays on this machine: rows come back here and are appended as they arrive.

Jobs must be picklable and everything they name (AI programs, log folders) must exist on the
workers at the same paths: docs/contest-cluster.md says how to set that up.
"""

from __future__ import annotations

import importlib
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from engine.batch.child import run_isolated
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


def run_cluster(
    address: str,
    jobs: Iterable[tuple[int, Any]],
    fn: Callable[[Any], Row],
    lost: Callable[[Any, str], Row],
    on_row: Callable[[int, Row], None],
    *,
    connect_timeout: float = 30.0,
) -> None:
    """Run every job on the cluster at ``address``; ``on_row(index, row)`` as each ends (any order)."""
    try:
        dask: Any = importlib.import_module("distributed")  # untyped: used through Any
    except ImportError:
        raise InputError(
            "--cluster needs the 'distributed' package: pip install 'robots[cluster]' (./run setup installs it)"
        ) from None
    target, count = parse_address(address)
    cluster = None
    try:
        if count is not None:
            cluster = dask.LocalCluster(
                n_workers=count, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
            )
            client = dask.Client(cluster)
        else:
            client = dask.Client(target, timeout=connect_timeout)
    except OSError as exc:
        raise InputError(f"--cluster {address}: cannot reach the scheduler: {exc}") from None
    batch = uuid.uuid4().hex[:12]
    try:
        futures = {}
        for index, job in jobs:
            future = client.submit(run_isolated, fn, job, key=f"robots-{batch}-{index}", pure=False, retries=0)
            futures[future] = (index, job)
        for future in dask.as_completed(futures):
            index, job = futures.pop(future)
            try:
                ok, value = future.result()
            except Exception as exc:  # the task was lost with its worker, or could not run there
                ok, value = False, f"the worker playing it was lost ({type(exc).__name__})"
            on_row(index, value if ok else lost(job, value))
    except BaseException:
        for future in list(futures):
            future.cancel()
        raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
