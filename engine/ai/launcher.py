"""A launcher inside an AI's pids cgroup, so that each round's program starts there without a move.

Each round of the file protocol starts the AI program afresh, and each start used to move the
new process into a fresh pids cgroup (:mod:`engine.ai.cgroup`) before its exec.  That move waits
for an RCU grace period of the kernel unless another move happened a moment before: measured
here (Linux 6.18, cgroup v1 pids) 10-25 ms a round, a fifth of what a warm ``robots-ai`` round
takes in all.  A process forked inside a cgroup is born there at no such cost.

So an :class:`~engine.ai.external.ExternalAI` keeps one small launcher for its game
(:mod:`engine.ai.launcher_main`, a separate ``python -I -S`` program with only the standard
library), started once inside one pids cgroup and under the AI's resource limits.  Each round it
forks the program, which inherits both, and hands it over to the engine: the launcher's short-lived
child forks the program and exits, so the program is re-parented to the engine (a child
subreaper), which waits for it, reads its output and kills it exactly as a program it started
itself (:class:`LaunchedProgram` is the part of ``subprocess.Popen`` the engine uses).  After
each round everything in the cgroup but the launcher is killed; the cgroup allows the
launcher itself on top of the program's limit (the program waits for the short-lived child to
be gone before its exec, so it never counts against the program).

The launcher is only an accelerator: where no cgroup can be made, with the Landlock sandbox
(its rules are per round's folder), when this process is not a subreaper, or once the launcher
stopped answering (an AI can kill or stop any process of its user), programs are started as
before, by the engine itself.  A launcher that fails is killed and not started again in that game.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import socket
import struct
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.ai import guard
from engine.ai.cgroup import PidsGroup
from engine.ai.supervise import AILimits, child_setup, is_subreaper

_PROGRAM = Path(__file__).with_name("launcher_main.py")
#: Seconds the launcher may take to answer a request before it is given up for the game.
ANSWER_TIMEOUT = 5.0
#: The launcher's own processes in the cgroup besides the program's (its short-lived child is gone
#: before the program runs, but needs room while it forks it: so at least two processes for the program).
OWN_PROCESSES = 1

#: The running launchers of this process, by pid: never killed as an AI's strays.
_LAUNCHERS: dict[int, Launcher] = {}


class LauncherGone(Exception):
    """The launcher cannot start this program (it is gone or does not answer): start it directly."""


def launcher_pids() -> set[int]:
    """The pids of this process's running launchers."""
    return {pid for pid, launcher in _LAUNCHERS.items() if launcher.running}


def close_all() -> None:
    """End every launcher of this process (for exits that do not unwind)."""
    for launcher in list(_LAUNCHERS.values()):
        launcher.close()


class LaunchedProgram:
    """A program a launcher started, now a child of this process: the part of ``Popen`` the engine uses."""

    def __init__(self, pid: int, stdout_fd: int, args: Sequence[str]) -> None:
        self.pid = pid
        self.args = list(args)
        self.stdout: io.FileIO = io.FileIO(stdout_fd, "rb")
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self._reap(os.WNOHANG)
        return self.returncode

    def wait(self) -> int:
        while self.returncode is None:
            self._reap(0)
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)

    def _reap(self, flags: int) -> None:
        try:
            pid, status = os.waitpid(self.pid, flags)
        except ChildProcessError:  # reaped by someone else: its status is lost, count it as killed
            self.returncode = -signal.SIGKILL
            return
        if pid == self.pid:
            self.returncode = os.waitstatus_to_exitcode(status)


class Launcher:
    """One game's launcher: :meth:`start` once, :meth:`launch` each round, :meth:`clear` after it,
    :meth:`close` at the end."""

    def __init__(self, limits: AILimits) -> None:
        self.limits = limits
        self.group: PidsGroup | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.channel: socket.socket | None = None
        #: Set once it failed: not started again.
        self.failed = False
        #: The process that started it: a forked child must not use it (the programs would be
        #: re-parented to that process, not to the child) nor end it.
        self.owner = 0
        #: Whether it said ``ready`` (it does once, when its Python has started).
        self.ready = False

    @property
    def running(self) -> bool:
        return self.channel is not None and self.owner == os.getpid()

    def start(self) -> bool:
        """Start the launcher in a new cgroup; whether it runs now (it never raises)."""
        if self.running:
            return True
        if self.failed or self.limits.sandbox or not is_subreaper():
            return False
        limit = self.limits.processes
        if 0 < limit < 2:  # no room for the launcher's short-lived child: started directly
            return False
        group = PidsGroup.create(limit + OWN_PROCESSES if limit > 0 else 0)
        if group is None:
            self.failed = True
            return False
        try:
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        except OSError:
            group.remove()
            self.failed = True
            return False
        try:
            guard.ensure_watcher()
            process = subprocess.Popen(
                [sys.executable, "-I", "-S", str(_PROGRAM)],
                stdin=theirs.fileno(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd="/",
                start_new_session=True,
                preexec_fn=child_setup(self.limits, group),
            )
        except OSError:
            ours.close()
            group.remove()
            self.failed = True
            return False
        finally:
            theirs.close()
        ours.settimeout(ANSWER_TIMEOUT)
        guard.watch(process.pid, group.path)  # killed with its cgroup even if we are (kill -9)
        self.group, self.process, self.channel = group, process, ours
        self.owner = os.getpid()
        self.ready = False
        _LAUNCHERS[process.pid] = self
        return True

    def wait_ready(self) -> bool:
        """Wait until the launcher has started (its ``ready``); whether it runs.

        Starting Python takes it ~15-30 ms. Waited for here, before a game, that start is not
        part of the first round's time (``launch`` waits for it otherwise). A launcher that does
        not say ``ready`` within ``ANSWER_TIMEOUT`` is given up, like one that does not answer.
        """
        channel = self.channel
        if channel is None or not self.running:
            return False
        if self.ready:
            return True
        try:
            said = channel.recv(64)
        except OSError:  # gone (EOF, a closed socket) or stopped (no answer in time)
            said = b""
        if said != b"ready":
            self.failed = True
            self.close()
            return False
        self.ready = True
        return True

    def launch(self, argv: Sequence[str], cwd: str | os.PathLike[str]) -> LaunchedProgram:
        """Start ``argv`` in ``cwd`` (stdin ``/dev/null``, stdout and stderr into one pipe).

        Raises the ``OSError`` that ``subprocess.Popen`` would where the program cannot be
        started (not found, not executable...), and :class:`LauncherGone` where the launcher
        does not answer (it is then closed: start the program directly).
        """
        if not self.wait_ready():
            raise LauncherGone
        channel = self.channel
        assert channel is not None
        out_read, out_write = os.pipe()
        error_read, error_write = os.pipe()
        try:
            environment = [name + b"=" + value for name, value in os.environb.items()]  # as it is now
            fields = [os.fsencode(cwd), str(len(argv)).encode(), *(os.fsencode(arg) for arg in argv)]
            payload = b"\0".join([*fields, *environment])
            socket.send_fds(channel, [payload], [out_write, error_write])
            reply = channel.recv(64)
        except OSError:  # gone (EOF, a closed socket) or stopped (no answer in time)
            reply = b""
        finally:
            os.close(out_write)
            os.close(error_write)
        word, _, number = reply.partition(b" ")
        if word != b"pid" or not number.isdigit():
            os.close(out_read)
            os.close(error_read)
            if word == b"fork" and number.isdigit():  # as Popen: a failed fork is the caller's OSError
                code = int(number) or errno.EAGAIN
                raise OSError(code, os.strerror(code))
            self.failed = True
            self.close()
            raise LauncherGone
        pid = int(number)
        with io.FileIO(error_read, "rb") as errors:
            said = errors.read()  # end-of-file at the exec (the pipe closes on exec)
        if said:
            code = struct.unpack("i", said[:4])[0] if len(said) >= 4 else 0
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            os.close(out_read)
            raise OSError(code or errno.EINVAL, os.strerror(code or errno.EINVAL), str(argv[0]))
        return LaunchedProgram(pid, out_read, argv)

    def clear(self) -> None:
        """Kill whatever the last program left in the cgroup (the launcher stays)."""
        if self.running and self.group is not None and self.process is not None:
            self.group.kill_all(spare={self.process.pid})

    def close(self) -> None:
        """End the launcher and everything in its cgroup, and remove the cgroup."""
        channel, process, group = self.channel, self.process, self.group
        self.channel = self.process = self.group = None
        if channel is not None:
            channel.close()
        if self.owner != os.getpid():  # a forked child's copy: the launcher is its parent's
            return
        if process is not None:
            _LAUNCHERS.pop(process.pid, None)
            with contextlib.suppress(ProcessLookupError):
                process.kill()  # also when stopped: end-of-file alone would not reach it
            process.wait()
            guard.forget(process.pid)
        if group is not None:
            group.kill_all()
            group.remove()
