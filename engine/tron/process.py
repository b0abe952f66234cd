"""A bot program kept running for a whole game, spoken to line by line over its stdin and stdout.

The robots AIs run once per round (``engine.ai.external``); Tron bots run for the whole game, so the
channel is new but the supervision is the same and shared: the program gets its own process group,
is registered with ``engine.ai.external`` so ``kill_running_ais`` ends it with everything else, and
is killed with all its descendants when it misbehaves or the game ends.  All pipes are non-blocking
and served by one selector loop with deadlines, so a program that stops reading, floods its output
or never answers can stall nothing: it is put out with a one-line reason.
"""

from __future__ import annotations

import contextlib
import os
import select
import selectors
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from engine.ai.external import (  # the robots AIs' supervision, shared rather than written twice
    LOG_KEEP_BYTES,
    MAX_OUTPUT_BYTES,
    _kill_group,
    end_program,
    start_program,
)
from engine.ai.hints import program_hint
from engine.ai.output import BoundedOutput
from engine.ai.supervise import AILimits

#: An answer line longer than this is not an answer.
MAX_LINE_BYTES = 4096
#: Address space a bot may use, in MiB (``RLIMIT_AS``, as the robots AIs' default): without it one bot
#: allocating in a loop took the whole machine's memory, and the OOM killer picks any process.
DEFAULT_MEMORY_MB = 2048


def bot_limits(memory_mb: int = DEFAULT_MEMORY_MB) -> AILimits:
    """A bot's resource limits: memory (0: none) and, as for the robots AIs, the user's processes
    (a fork bomb; the kernel does not hold root to it). A bot runs for a whole game, not one round,
    so the robots AIs' per-round CPU seconds and file size do not fit (core dumps stay off)."""
    return AILimits(memory=memory_mb, processes=AILimits().processes, file_size=0, cpu=0)


_CHUNK = 65536
#: How long a bot may take to exit after ``END`` before it is killed.
END_GRACE = 1.0


class BotProcess:
    """One running bot program: queue lines with :meth:`send`, collect answers with :func:`exchange`."""

    def __init__(
        self, argv: Sequence[str], name: str, *, stderr_keep: int = LOG_KEEP_BYTES, memory_mb: int = DEFAULT_MEMORY_MB
    ) -> None:
        self.argv = list(argv)
        self.name = name
        self.limits = bot_limits(memory_mb)
        self.process: subprocess.Popen[bytes] | None = None
        self.failure: str | None = None  # why the channel is unusable (the bot is put out with it)
        self.stderr = BoundedOutput(stderr_keep, stderr_keep // 4)
        self._out = bytearray()
        self._in = bytearray()
        self._read_total = 0
        self._stdout_open = True
        self._stderr_open = True
        self.lingered = ""  # why it was killed after END instead of exiting (finish)

    def start(self, cwd: str | Path | None = None) -> None:
        """Start the program; a failure is kept in :attr:`failure` (the bot goes out in round 1)."""
        try:
            # Its own session, registered for kill_running_ais, and whatever it starts and abandons
            # (a setsid child, a double fork) is re-parented to us and killed with it.
            self.process = start_program(
                self.argv, self.limits, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
        except FileNotFoundError:
            # the file may well exist: a '#!' line naming a missing interpreter (or ending in '\r') says so too
            why = program_hint(self.argv[0], option="")
            self.failure = f"program not found: {self.argv[0]}" + (f" ({why})" if why else "")
            return
        except PermissionError:
            hint = program_hint(self.argv[0], option="") or f"try chmod +x {self.argv[0]}"
            self.failure = f"program is not executable: {self.argv[0]} ({hint})"
            return
        except OSError as exc:
            why = program_hint(self.argv[0], option="")
            self.failure = f"cannot start {self.argv[0]}: {exc.strerror or exc}" + (f" ({why})" if why else "")
            return
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)

    @property
    def running(self) -> bool:
        return self.process is not None and self.failure is None

    def send(self, lines: Sequence[str]) -> None:
        """Queue lines (each gets ``\\n``); they are written while :func:`exchange` or :meth:`finish` waits."""
        if self.running:
            self._out += "".join(line + "\n" for line in lines).encode("ascii")

    def take_line(self) -> str | None:
        """The next complete line the program wrote, if any (without its line end)."""
        end = self._in.find(b"\n")
        if end < 0:
            return None
        line = bytes(self._in[:end])
        del self._in[: end + 1]
        return line.decode("utf-8", errors="replace")

    def describe_exit(self, what: str = "closed its output") -> str:
        """``what`` the program did (its stdout ended, by default), how it stands, and the last line it
        wrote to stderr."""
        assert self.process is not None
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(0.2)
        code = self.process.returncode
        status = (
            "is still running"
            if code is None
            else f"exited with status {code}"
            if code >= 0
            else f"died of signal {-code}"
        )
        tail = self.stderr.last_line()
        return f"{what} ({status})" + (f"; last error output: {tail}" if tail else "")

    def _write_ready(self) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            written = os.write(self.process.stdin.fileno(), self._out[:_CHUNK])
        except BlockingIOError:
            return
        except (BrokenPipeError, ConnectionResetError):
            self._out.clear()
            if self.failure is None:
                # its output may well be open still: "closed its output" was said of a bot still answering
                self.failure = self.describe_exit("stopped reading its input")
            return
        del self._out[:written]

    def _read_ready(self, stream_fd: int, is_stdout: bool) -> None:
        try:
            chunk = os.read(stream_fd, _CHUNK)
        except BlockingIOError:
            return
        if is_stdout:
            if not chunk:
                self._stdout_open = False
                return
            self._in += chunk
            self._read_total += len(chunk)
            if self._read_total > MAX_OUTPUT_BYTES and self.failure is None:
                self.failure = f"wrote more than {MAX_OUTPUT_BYTES} bytes to its output (killed)"
            elif self._in.find(b"\n") < 0 and len(self._in) > MAX_LINE_BYTES and self.failure is None:
                self.failure = f"wrote a line longer than {MAX_LINE_BYTES} bytes (killed)"
        elif not chunk:
            self._stderr_open = False
        else:
            # Only its first and last parts are kept, so any amount costs no memory: a bot logging a
            # few hundred bytes a round was killed after 8 MiB, some 200 rounds into a big arena's game.
            self.stderr.add(chunk)
        if self.failure is not None and "killed" in self.failure:
            self.kill()

    def register(self, selector: selectors.BaseSelector) -> None:
        """Watch this program's pipes: stdin while lines wait to be written, stdout and stderr always."""
        if not self.running:
            return
        assert self.process is not None
        assert self.process.stdin is not None and self.process.stdout is not None and self.process.stderr is not None
        if self._out:
            selector.register(self.process.stdin.fileno(), selectors.EVENT_WRITE, (self, "in"))
        if self._stdout_open:
            selector.register(self.process.stdout.fileno(), selectors.EVENT_READ, (self, "out"))
        if self._stderr_open:
            selector.register(self.process.stderr.fileno(), selectors.EVENT_READ, (self, "err"))

    def serve(self, kind: str, fd: int) -> None:
        if kind == "in":
            self._write_ready()
        else:
            self._read_ready(fd, kind == "out")

    @property
    def stdout_closed(self) -> bool:
        return not self._stdout_open

    @property
    def input_closed(self) -> bool:
        """Whether the program (and all it started) closed its end of our pipe to it: a pipe with
        no reader polls as an error, so this needs no write."""
        if self.process is None or self.process.stdin is None or self.process.stdin.closed:
            return False
        poller = select.poll()
        poller.register(self.process.stdin.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))

    @property
    def wrote_nothing(self) -> bool:
        """Not one byte on its output so far (its answers may sit in its own buffer, unflushed)."""
        return self._read_total == 0 and not self._in

    @property
    def has_pending_output(self) -> bool:
        return bool(self._out)

    def stop(self) -> None:
        """Kill the program and everything it started, from any thread (a watcher ending the game):
        its pipes stay open for the thread that reads them, which sees them end; ``kill`` closes them."""
        if self.process is not None:
            _kill_group(self.process)

    def kill(self) -> None:
        """Kill the program and everything it started; safe to call twice."""
        if self.process is None:
            return
        end_program(self.process)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def finish(self, grace: float) -> None:
        """Write what is queued (``END``), give the program ``grace`` seconds to exit, then kill what is left."""
        deadline = time.monotonic() + grace
        while self.running and self._out and time.monotonic() < deadline:
            _pump([self], deadline)
        if self.process is not None and self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        while self.running and self._stdout_open and time.monotonic() < deadline:
            _pump([self], deadline)  # drain its output so it is not stuck writing while it ends
        if self.running and self.process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(max(0.0, deadline - time.monotonic()))
            self.lingered = self._linger_note()
        self.kill()

    def _linger_note(self) -> str:
        """Why the program had to be killed after ``END`` (empty when it ended in time): nothing said
        so, and a bot ignoring ``END`` cost every game of a tournament a second, silently."""
        assert self.process is not None
        if self.process.poll() is None:
            return f"did not exit within {END_GRACE:g} s of END: killed"
        if self._stdout_open:
            return f"exited at END, but a program it started still held its output {END_GRACE:g} s later: killed"
        return ""


def _pump(bots: Sequence[BotProcess], deadline: float) -> bool:
    """Serve every ready pipe once, waiting at most until ``deadline``; False when nothing was ready."""
    with selectors.DefaultSelector() as selector:
        for bot in dict.fromkeys(bots):
            bot.register(selector)
        if not selector.get_map():
            return False
        ready = selector.select(max(0.0, deadline - time.monotonic()))
        for key, _ in ready:
            bot, kind = key.data
            if bot.running:
                bot.serve(kind, key.fd)
        return bool(ready)


def exchange(
    bots: Sequence[BotProcess], deadlines: Sequence[float], since: float | None = None
) -> list[tuple[str | None, str, float]]:
    """Write every bot's queued lines and wait for one answer line from each, each by its own deadline.

    Returns per bot ``(line, failure, seconds)``: the line (None on failure), why it failed (a one-line
    reason, empty on success) and how long the answer took, counted from ``since`` (the time the
    deadlines were set from; default now), so a late bot is told its time limit.  A late bot is killed.
    """
    started = time.monotonic() if since is None else since
    results: list[tuple[str | None, str, float] | None] = [None] * len(bots)
    while True:
        now = time.monotonic()
        waiting = []
        for i, bot in enumerate(bots):
            if results[i] is not None:
                continue
            line = bot.take_line() if bot.failure is None else None
            if line is not None:
                results[i] = (line, "", now - started)
            elif bot.failure is not None or bot.process is None:
                results[i] = (None, bot.failure or "not running", now - started)
            elif bot.stdout_closed:
                bot.failure = "ended without answering: " + bot.describe_exit()
                results[i] = (None, bot.failure, now - started)
            elif now >= deadlines[i] and bot.input_closed:
                # it closed its input after reading all there was: no write failed to tell us so
                bot.failure = bot.describe_exit("stopped reading its input")
                bot.kill()
                results[i] = (None, bot.failure, now - started)
            elif now >= deadlines[i]:
                bot.failure = f"no answer within {deadlines[i] - started:.3g} s (killed)"
                if bot.wrote_nothing:  # a C or Python bot that never flushes its answers looked just so
                    bot.failure += "; it has written nothing at all yet: does it flush its output after each line?"
                bot.kill()
                results[i] = (None, bot.failure, now - started)
            else:
                waiting.append(i)
        if not waiting:
            return [r for r in results if r is not None]
        _pump(
            [bots[i] for i in waiting] + [b for b in bots if b.running and b.has_pending_output],
            min(deadlines[i] for i in waiting),
        )
