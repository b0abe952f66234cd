"""The watcher program of :mod:`engine.ai.guard`: kills the AI programs of a process that died.

Run as ``python -I -S guard_main.py`` with a pipe on stdin whose only writer is the process it
watches.  Lines ``+GROUP [CGROUP]`` and ``-GROUP`` say which AI process groups (and pids cgroups)
are running; end-of-file means that process ended, and every group still listed is killed with
SIGKILL, as is every process left in its cgroup (a ``setsid`` child has left the group).  A
process that ended normally has ended its AIs already, so the list is then empty.

Only the standard library, nothing of the engine: it starts in a few milliseconds.
"""

from __future__ import annotations

import contextlib
import os
import signal


def parse(data: bytes, groups: dict[int, str]) -> bytes:
    """Apply every complete line of ``data`` to ``groups``; the incomplete rest."""
    *lines, rest = data.split(b"\n")
    for raw in lines:
        line = raw.decode(errors="replace")
        sign = line[:1]
        number, _, cgroup = line[1:].partition(" ")
        if not number.isdigit() or int(number) <= 1:  # never 0 (our group) or 1 (init)
            continue
        if sign == "+":
            groups[int(number)] = cgroup
        elif sign == "-":
            groups.pop(int(number), None)
    return rest


def kill(groups: dict[int, str]) -> None:
    for group, cgroup in groups.items():
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
        if cgroup:
            with contextlib.suppress(OSError), open(os.path.join(cgroup, "cgroup.procs")) as handle:
                for pid in handle.read().split():
                    if int(pid) > 1:
                        with contextlib.suppress(OSError):
                            os.kill(int(pid), signal.SIGKILL)


def main() -> None:
    for signum in (signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    groups: dict[int, str] = {}
    rest = b""
    while True:
        try:
            chunk = os.read(0, 65536)
        except InterruptedError:
            continue
        except OSError:
            break
        if not chunk:
            break
        rest = parse(rest + chunk, groups)
    kill(groups)


if __name__ == "__main__":
    main()
