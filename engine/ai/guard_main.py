"""The watcher program of :mod:`engine.ai.guard`: kills the AI programs of a process that died.

Run as ``python -I -S guard_main.py`` with a pipe on stdin whose only writer is the process it
watches.  Lines ``+GROUP [CGROUP]`` and ``-GROUP`` say which AI process groups (and pids cgroups)
are running, lines ``dFOLDER`` and ``uFOLDER`` which scratch folders the AIs run in; end-of-file
means that process ended, and every group still listed is killed with SIGKILL, as is every
process left in its cgroup (a ``setsid`` child has left the group), and then every scratch folder
still listed is removed (symlinks in it removed, never followed).  A process that ended normally
has ended its AIs and removed their folders already, so the lists are then empty.

Only the standard library, nothing of the engine: it starts in a few milliseconds.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal


def parse(data: bytes, groups: dict[int, str], folders: set[str] | None = None) -> bytes:
    """Apply every complete line of ``data`` to ``groups`` (and ``folders``); the incomplete rest."""
    *lines, rest = data.split(b"\n")
    for raw in lines:
        line = os.fsdecode(raw)
        sign = line[:1]
        if sign in ("d", "u"):
            if folders is not None and os.path.isabs(line[1:]):
                (folders.add if sign == "d" else folders.discard)(line[1:])
            continue
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


def remove(folders: set[str]) -> None:
    """Remove the scratch folders: what a killed AI made unreadable is opened up first."""

    def open_up(_function: object, path: str, _exc: object) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(path), 0o700)
            if os.path.isdir(path) and not os.path.islink(path):
                os.chmod(path, 0o700)
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)

    for folder in folders:
        if os.path.isdir(folder) and not os.path.islink(folder):
            with contextlib.suppress(OSError):
                os.chmod(folder, 0o700)
            shutil.rmtree(folder, onerror=open_up)


def main() -> None:
    for signum in (signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    groups: dict[int, str] = {}
    folders: set[str] = set()
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
        rest = parse(rest + chunk, groups, folders)
    kill(groups)
    remove(folders)


if __name__ == "__main__":
    main()
