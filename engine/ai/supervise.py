"""Supervising AI programs like a contest judge: limits, and no process left behind.

An AI program runs in its own session (so it has its own process group) under resource limits
set just before it starts (:class:`AILimits`).  The process that runs AIs makes itself a *child
subreaper* (Linux ``prctl(PR_SET_CHILD_SUBREAPER)``): whatever an AI starts and abandons --
a ``setsid`` child, a double fork, a daemon -- is re-parented to us instead of to init, so
:func:`kill_descendants` finds and kills every one of them when the AI's turn ends, normally
or not.  Without the subreaper (other systems) the AI's process group is still killed.

The process limit is a pids cgroup of the turn's own where the system lets us make one
(:mod:`engine.ai.cgroup`; it holds for root too, and its list of processes is killed as well),
and ``RLIMIT_NPROC`` always, which counts every process of the user and which the kernel does
not enforce for root; the other limits hold for everyone.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields, replace

from engine.ai import landlock
from engine.ai.cgroup import PidsGroup
from engine.bounds import parse_count
from engine.errors import InputError

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
MB = 1024 * 1024


@dataclass(frozen=True)
class AILimits:
    """Resource limits of one AI program (and each process it starts); 0 means no limit."""

    #: Address space in MiB (``RLIMIT_AS``): enough for Python with numpy, or a JVM with a small heap.
    memory: int = 2048
    #: Processes of the user (``RLIMIT_NPROC``): stops a fork bomb (not enforced for root).
    processes: int = 4096
    #: Largest file it may write, in MiB (``RLIMIT_FSIZE``): ``ccards.txt`` takes a few bytes.
    file_size: int = 64
    #: CPU seconds per process (``RLIMIT_CPU``): a busy loop ends even when the wall clock is generous.
    cpu: int = 60
    #: 1: it may write only in its own folder (Landlock, :mod:`engine.ai.landlock`); 0: anywhere.
    #: Off by default for now: AIs that write elsewhere (``robots-ai``'s cold plan cache) would fail.
    sandbox: int = 0

    @classmethod
    def parse(cls, specs: Iterable[str], base: AILimits | None = None) -> AILimits:
        """Limits from ``KEY=VALUE`` words (``memory=512``, ``cpu=30``, ``file-size=8``, ``processes=64``)."""
        limits = base or cls()
        names = [f.name for f in fields(cls)]
        for spec in specs:
            key, sep, value = spec.partition("=")
            name = key.strip().replace("-", "_")
            if not sep or name not in names:
                raise InputError(
                    f"--ai-limit must be KEY=VALUE with KEY one of {', '.join(n.replace('_', '-') for n in names)}, "
                    f"not {spec[:40]!r}"
                )
            high = 1 if name == "sandbox" else 1_000_000  # on or off: sandbox=5 read as on was a guess
            number = parse_count(value.strip(), f"--ai-limit {key}", 0, high)
            limits = replace(limits, **{name: number})
        if limits.sandbox and not landlock.available():
            # Asked for, a sandbox that does nothing would let the organiser believe the AIs confined.
            raise InputError("--ai-limit sandbox=1: this system has no Landlock (Linux 5.13 or later) to keep AIs in")
        return limits

    def describe(self) -> str:
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            parts.append(f"{f.name.replace('_', '-')}={value if value else 'none'}")
        return " ".join(parts)

    def apply(self) -> None:
        """Set the limits on the calling process (run in the child between fork and exec)."""
        pairs = (
            (resource.RLIMIT_AS, self.memory * MB),
            (resource.RLIMIT_NPROC, self.processes),
            (resource.RLIMIT_FSIZE, self.file_size * MB),
            (resource.RLIMIT_CPU, self.cpu),
            (resource.RLIMIT_CORE, 0),  # a crashing AI must not fill the disk with core files
        )
        for which, value in pairs:
            if which == resource.RLIMIT_CORE or value > 0:
                _lower(which, value)


def _lower(which: int, value: int) -> None:
    """Lower a limit to ``value`` (never raise one the user already set lower)."""
    for current in resource.getrlimit(which):
        if current != resource.RLIM_INFINITY:
            value = min(value, current)
    # Soft and hard alike: the program cannot raise its own limit again.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(which, (value, value))


def child_setup(
    limits: AILimits, group: PidsGroup | None = None, folder: str | os.PathLike[str] | None = None
) -> Callable[[], None]:
    """The ``preexec_fn`` for an AI: its cgroup, limits, writes kept in ``folder``, default signal handling and mask.

    (The engine may ignore SIGINT; the program must not inherit that.)  Landlock's version is
    asked here, in the parent: the child, forked from a process that may have threads, does as
    little as it can.
    """
    sandboxed = bool(limits.sandbox)
    abi = landlock.abi_version() if sandboxed else 0
    if sandboxed and folder is None:
        raise ValueError("a sandboxed AI program needs its folder (cwd)")

    def setup() -> None:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
            signal.signal(signum, signal.SIG_DFL)
        # The engine blocks the stop signals while it starts the program; the program must get them.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, (signal.SIGINT, signal.SIGTERM, signal.SIGHUP))
        if group is not None:
            group.enter()
        limits.apply()
        if sandboxed:
            assert folder is not None
            if not landlock.confine_writes(folder, abi):
                # Fail closed: the program is not run unconfined. Its output (the AI's log) says why.
                os.write(2, b"robots: cannot keep this AI program's writes in its folder (Landlock); not run\n")
                os._exit(126)
            os.environ["TMPDIR"] = os.fspath(folder)  # mktemp and friends write where they may

    return setup


_subreaper_pid: int | None = None


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux); whether that worked."""
    global _subreaper_pid
    if _subreaper_pid == os.getpid():
        return True
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        ok = bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        ok = False
    if ok:
        _subreaper_pid = os.getpid()
    return ok


def die_with_parent(signum: int = signal.SIGTERM) -> bool:
    """Have the kernel send ``signum`` to this process when its parent dies (Linux); whether that worked.

    A contest worker whose contest was killed (``kill -9``) then stops its AI and ends too,
    instead of playing on for nobody.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def is_subreaper() -> bool:
    return _subreaper_pid == os.getpid()


def children(pid: int | None = None) -> set[int]:
    """The pids whose parent is ``pid`` (this process by default), zombies included."""
    parent = os.getpid() if pid is None else pid
    found: set[int] = set()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
        rest = stat[stat.rfind(b")") + 2 :].split()
        if len(rest) > 1 and int(rest[1]) == parent:
            found.add(int(entry))
    return found


def _kill(pid: int) -> None:
    if pid <= 1:  # never -1 ("every process") or 0 ("my group"), never init
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)  # its group too, when it leads one
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


def kill_descendants(group: int | None, spared: Sequence[int] | set[int] = (), rounds: int = 1000) -> int:
    """Kill the process group ``group`` (None: none) and every orphan re-parented to us; the count killed.

    ``spared`` are children of ours that are not the AI's (they existed before it started).
    Each killed orphan is reaped; its own children are re-parented to us in turn and killed
    in the next pass, until none is left (or ``rounds`` passes, against a fork bomb).
    """
    if group is not None and group > 0:
        _kill(group)
    if not is_subreaper():
        return 0
    keep = set(spared)
    if group is not None:
        keep.add(group)
    killed = 0
    for _ in range(rounds):
        strays = children() - keep
        if not strays:
            break
        for pid in strays:
            _kill(pid)
        for pid in strays:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            killed += 1
    return killed
