"""How many threads the planner's value iteration may use (a module of its own, without numpy or
numba, so the contest runner can set the limit without importing the solver)."""

from __future__ import annotations

import os

#: Environment variable that sets how many threads the value iteration uses.
THREADS_VARIABLE = "ROBOTS_PLANNER_THREADS"


def default_threads(lanes: int) -> int:
    """Threads for ``lanes`` lanes: ``ROBOTS_PLANNER_THREADS`` if set (say 1 where several games
    run side by side, as ``robots-contest --jobs`` does), else one per lane up to the cores this
    process may run on."""
    wanted = os.environ.get(THREADS_VARIABLE, "").strip()
    if wanted.isascii() and wanted.isdecimal() and int(wanted) > 0:
        return min(int(wanted), lanes)  # more threads than lanes would have nothing to do
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(lanes, cores))
