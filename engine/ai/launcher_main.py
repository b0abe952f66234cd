"""The launcher program of :mod:`engine.ai.launcher`: starts each round's AI program inside its cgroup.

Run as ``python -I -S launcher_main.py`` with a ``SOCK_SEQPACKET`` socket on file descriptor 0
whose other end the engine holds, inside the AI's pids cgroup and under the AI's resource
limits (both are inherited by what it forks, so no per-round move into the cgroup is needed:
that move waits for an RCU grace period of the kernel, ~10-25 ms a round).

Each request is one message ``CWD\\0ARGC\\0ARG0...\\0NAME=VALUE...`` (the folder, the
arguments, the engine's environment as it is now) carrying two file descriptors: the write end
of the program's output pipe and the write end of an error pipe.  The launcher forks a
short-lived child, which forks the program and exits at once; the program waits for that exit
before its exec, so it is re-parented to the engine (a child subreaper), which waits for it like
any child of its own, and the cgroup then holds only the launcher beside it.  The program gets a session of its own, the output pipe as stdout and stderr, ``/dev/null`` as
stdin, default signal handling, and ``CWD`` as its folder; if it cannot be started the errno is
written to the error pipe (which closes on a successful exec).  The reply is ``pid N`` once the
short-lived child has exited (the program is the engine's child by then), or ``fork ERRNO``.
Before the first request the launcher says ``ready`` once, so that the engine can wait for its
start outside any round's time. End-of-file on the socket (the engine ended, however it ended)
ends the launcher.

Only the standard library, nothing of the engine: it starts in a few milliseconds.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import struct


def _reset_signals() -> None:
    """Every signal at its default, none blocked: what the program would get from a fresh start
    (Python ignores SIGPIPE and SIGXFSZ, and the launcher SIGINT and SIGHUP)."""
    for signum in signal.valid_signals():
        if signum not in (signal.SIGKILL, signal.SIGSTOP):
            with contextlib.suppress(OSError, ValueError):
                signal.signal(signum, signal.SIG_DFL)
    with contextlib.suppress(OSError, ValueError):
        signal.pthread_sigmask(signal.SIG_SETMASK, ())


def _run_program(cwd: bytes, argv: list[bytes], env: dict[bytes, bytes], out_fd: int, err_fd: int) -> None:
    """In the program's own process: set it up and exec it; never returns."""
    try:
        _reset_signals()
        os.setsid()
        os.chdir(cwd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_fd, 1)
        os.dup2(out_fd, 2)
        os.set_inheritable(err_fd, False)
        os.closerange(3, err_fd)
        os.closerange(err_fd + 1, 1 << 16)
        os.execvpe(argv[0], argv, env)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.write(err_fd, struct.pack("i", exc.errno or 0))
    except BaseException:
        with contextlib.suppress(OSError):
            os.write(err_fd, struct.pack("i", 0))
    os._exit(127)


def serve(channel: socket.socket) -> None:
    """Answer requests until the engine closes its end."""
    while True:
        try:
            message, fds, _flags, _address = socket.recv_fds(channel, 1 << 20, 2)
        except InterruptedError:
            continue
        except OSError:
            return
        if not message:
            for fd in fds:
                os.close(fd)
            return
        if len(fds) != 2:
            for fd in fds:
                os.close(fd)
            channel.send(b"fork 22")
            continue
        out_fd, err_fd = fds
        cwd, count, *rest = message.split(b"\0")
        argv = rest[: int(count)]
        env = dict(item.partition(b"=")[::2] for item in rest[int(count) :])
        pid_read, pid_write = os.pipe()
        try:
            middle = os.fork()
        except OSError as exc:
            for fd in (out_fd, err_fd, pid_read, pid_write):
                os.close(fd)
            channel.send(f"fork {exc.errno or 0}".encode())
            continue
        if middle == 0:  # the short-lived child: fork the program, say its pid, exit
            try:
                os.close(pid_read)
                gate_read, gate_write = os.pipe()
                program = os.fork()
                if program == 0:
                    # Not before this child is gone: the program then is the engine's child, and
                    # the cgroup's process limit counts only the launcher beside its own.
                    os.close(pid_write)
                    os.close(gate_write)
                    while os.read(gate_read, 1):
                        pass
                    os.close(gate_read)
                    _run_program(cwd, argv, env, out_fd, err_fd)
                os.write(pid_write, str(program).encode())
            except BaseException:
                pass
            os._exit(0)
        for fd in (out_fd, err_fd, pid_write):
            os.close(fd)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(middle, 0)  # once it is gone, the program is the engine's child
        with os.fdopen(pid_read, "rb") as handle:
            said = handle.read()
        channel.send(b"pid " + said if said.isdigit() else b"fork 11")


def main() -> None:
    for name in ("SIGINT", "SIGHUP"):  # the engine's terminal is not ours; the engine ends us
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    channel = socket.socket(fileno=0)
    try:
        channel.send(b"ready")
    except OSError:
        return
    serve(channel)


if __name__ == "__main__":
    main()
