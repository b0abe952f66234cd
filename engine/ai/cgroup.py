"""A pids cgroup per AI turn, where the system lets us make one: a process limit that holds for root.

``RLIMIT_NPROC`` counts all of a user's processes and is not enforced for root, so on its own it
cannot stop a fork bomb in a contest run as root (a container, CI).  The kernel's *pids*
controller can: each AI turn gets a cgroup of its own below ours with ``pids.max`` set, the AI
joins it between fork and exec, and when the turn ends every process still listed in it is
killed -- a second net under the subreaper's, which catches even processes that escaped our
descendants.  (An ``ExternalAI`` keeps one such cgroup for its whole game, with a launcher in
it that forks each round's program there: :mod:`engine.ai.launcher`.)  It needs a cgroup
hierarchy we may write to (cgroup v1's ``pids``, or v2 with the ``pids`` controller delegated to
our cgroup); elsewhere :meth:`PidsGroup.create` gives None and the subreaper and rlimits do the
job alone.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import time
from collections.abc import Collection
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
_names = itertools.count()


def _own_pids_cgroup() -> Path | None:
    """The folder of this process's pids cgroup, if we can make cgroups below it."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        number, controllers, path = [*line.split(":", 2), "", ""][:3]
        if "pids" in controllers.split(","):
            folder = CGROUP_ROOT / "pids" / path.lstrip("/")
        elif number == "0" and controllers == "":
            folder = CGROUP_ROOT / path.lstrip("/")
            try:
                if "pids" not in (folder / "cgroup.subtree_control").read_text().split():
                    continue
            except OSError:
                continue
        else:
            continue
        if (folder / "cgroup.procs").exists() and os.access(folder, os.W_OK):
            return folder
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def reap_orphaned_groups(base: Path | None = None) -> int:
    """Remove the turn cgroups whose maker died without removing them (killed by its own AI, say).

    What still runs in one is killed first.  Called before each new group is made, so a leak
    never outlives the next AI turn on the machine.  The number of groups removed.
    """
    folder = base if base is not None else _own_pids_cgroup()
    if folder is None:
        return 0
    removed = 0
    try:
        entries = list(folder.iterdir())
    except OSError:
        return 0
    for entry in entries:
        parts = entry.name.split("-")
        if len(parts) != 4 or parts[:2] != ["robots", "ai"] or not parts[2].isdigit() or _alive(int(parts[2])):
            continue
        group = PidsGroup(entry)
        group.kill_all(patience=1.0)
        group.remove()
        removed += int(not entry.exists())
    return removed


class PidsGroup:
    """One turn's cgroup: :meth:`enter` in the child, :meth:`kill_all` and :meth:`remove` after."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def create(cls, limit: int) -> PidsGroup | None:
        """A new cgroup allowing ``limit`` processes (0: no limit), or None where none can be made."""
        base = _own_pids_cgroup()
        if base is None:
            return None
        reap_orphaned_groups(base)
        path = base / f"robots-ai-{os.getpid()}-{next(_names)}"
        try:
            path.mkdir()
        except OSError:
            return None
        try:
            (path / "pids.max").write_text(str(limit) if limit > 0 else "max")
        except OSError:
            with contextlib.suppress(OSError):
                path.rmdir()
            return None
        return cls(path)

    def enter(self) -> None:
        """Move the calling process into the group (run in the AI's child before exec); never fails."""
        with contextlib.suppress(OSError), open(self.path / "cgroup.procs", "w") as handle:
            handle.write(str(os.getpid()))

    def pids(self) -> list[int]:
        try:
            return [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def kill_all(self, patience: float = 5.0, spare: Collection[int] = ()) -> None:
        """Kill every process in the group but ``spare`` until none is left (or ``patience`` seconds have passed)."""
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            found = [pid for pid in self.pids() if pid not in spare]
            if not found:
                return
            for pid in found:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            # Killed processes leave the group as they die: look again in a moment.
            time.sleep(0.001)

    def remove(self) -> None:
        """Remove the (empty) group; a group still busy is left for the system, never an error."""
        with contextlib.suppress(OSError):
            self.path.rmdir()
