"""External AIs: any program that speaks the contest's file protocol.

Each round the engine writes ``board.txt``, ``cards.txt`` (the 8-card hand) and
``bot.txt`` (the robot's pose) into a working directory, starts the program
there with the level word (``easy``, ``normal`` or ``hard``) as its only
argument -- exactly like the contest's ``bot-ki`` -- and reads the 5 chosen
cards from ``ccards.txt``.

A contest must survive bad programs, so every way a program can misbehave
(not found, not executable, crash, non-zero exit, hang, flood of output,
missing or malformed answer, wrong cards) becomes an :class:`AIError` with a
one-line message; ``play_game`` turns that into ``Outcome.AI_ERROR`` and the
contest goes on with the next game.  When a turn ends -- answer given, crash or
timeout -- the program and everything it started are killed, ``setsid``
children included (see :mod:`engine.ai.supervise`), under resource limits
(:class:`~engine.ai.supervise.AILimits`).  Output is read through a pipe and
only its first and last part are kept (``engine.ai.output``), so a flood fills
neither memory nor disk and a traceback printed last survives.
:class:`ExternalAI` gives the program a fresh, empty scratch folder every
round, so nothing it leaves there (symlinks, odd permissions, files) can make
the engine fail or write elsewhere.

Besides ``ccards.txt`` a program may write ``debug.txt`` (marks for the viewer,
``engine.debugmarks``); it is read, bounded, and never makes an AI error.
"""

from __future__ import annotations

import contextlib
import errno
import os
import selectors
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, overload

from engine.ai import guard, launcher
from engine.ai.cgroup import PidsGroup
from engine.ai.hints import program_hint, timeout_hint
from engine.ai.output import BoundedOutput
from engine.ai.supervise import AILimits, become_subreaper, child_setup, children, kill_descendants
from engine.ai.trace import Trace
from engine.atomic import open_log
from engine.boardfile import write_board
from engine.cards import CHOSEN_PER_ROUND, Card
from engine.debugmarks import DEBUG_FILE, MAX_BYTES, parse_debug
from engine.deck import parse_cards, write_cards
from engine.errors import InputError
from engine.game import AIError, check_choice
from engine.model import Board, Level, Pose
from engine.protocol import BOARD_FILE, BOT_FILE, CARDS_FILE, CHOSEN_FILE, write_pose

DEFAULT_TIMEOUT = 10.0
#: A program writing more than this (stdout + stderr, per round) is stopped: an AI error.
MAX_OUTPUT_BYTES = 8 * 1024 * 1024
#: How much of a round's output is kept in the log: this much of its start and as much of its end.
LOG_KEEP_BYTES = 32 * 1024
#: Beyond this log size (a game has up to 700 rounds) an ExternalAI logs only each round's
#: header and the last ``LOG_FULL_TAIL_BYTES`` of its output, so a final traceback still shows.
LOG_TOTAL_BYTES = 4 * 1024 * 1024
LOG_FULL_TAIL_BYTES = 2 * 1024
#: A ``ccards.txt`` larger than this is not read (5 cards take a few dozen bytes).
MAX_ANSWER_BYTES = 64 * 1024
_READ_CHUNK = 65536

#: A program path (never split on spaces) or a full argv such as ``["python3", "bot.py"]``.
Command = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]


def normalize_command(command: Command) -> list[str]:
    """The argv to start, with a program path made absolute (the program runs in another directory).

    A string is one program (a path, or a name looked up in ``PATH``), never split on spaces, so
    paths with spaces work.  A bare name that is not a file here is left to the ``PATH`` lookup.
    """
    argv = [os.fspath(command)] if isinstance(command, str | os.PathLike) else [os.fspath(a) for a in command]
    if not argv or not argv[0]:
        raise AIError("no AI program given")
    program = argv[0]
    if os.sep in program or Path(program).exists():
        argv[0] = str(Path(program).absolute())
    return argv


def _describe(argv: Sequence[str]) -> str:
    return " ".join(argv) if len(argv) > 1 else argv[0]


#: AI programs running in this process right now, for :func:`kill_running_ais` (Tron bots register here too).
_RUNNING: dict[int, subprocess.Popen[bytes] | launcher.LaunchedProgram] = {}
#: For each, this process's children from before it started: not its strays, never killed with it.
_SPARED: dict[int, set[int]] = {}
#: The pids cgroup of each, where one could be made.
_GROUPS: dict[int, PidsGroup] = {}
#: The launcher of each started by one (its cgroup is the launcher's, cleared after the program).
_LAUNCHED: dict[int, launcher.Launcher] = {}


#: Scratch folders of live ExternalAI objects (by object id), for :func:`kill_running_ais`.
_SCRATCH: dict[int, Path] = {}


_stopping = False

#: The signals that stop the engine (Ctrl-C, ``kill``, a closed terminal, a dying contest's worker).
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


def stop_all_ais() -> None:
    """Kill every running AI and refuse to start new ones: this process is about to end.

    For signal handlers and exit hooks of programs whose AI runs in another thread (the viewer).
    """
    global _stopping
    _stopping = True
    kill_running_ais()


def kill_running_ais() -> None:
    """Kill every AI program this process runs (and what they started) and remove their scratch folders.

    For signal handlers of processes about to leave without unwinding (``os._exit``).
    """
    for process in list(_RUNNING.values()):
        end_program(process)
    launcher.close_all()
    for folder in list(_SCRATCH.values()):
        remove_tree(folder)


@overload
def start_program(
    argv: Sequence[str], limits: AILimits | None = None, *, via: None = None, **popen: Any
) -> subprocess.Popen[bytes]: ...


@overload
def start_program(
    argv: Sequence[str], limits: AILimits | None = None, *, via: launcher.Launcher | None, **popen: Any
) -> subprocess.Popen[bytes] | launcher.LaunchedProgram: ...


def start_program(
    argv: Sequence[str], limits: AILimits | None = None, *, via: launcher.Launcher | None = None, **popen: Any
) -> subprocess.Popen[bytes] | launcher.LaunchedProgram:
    """Start a program under supervision; end it (and all it started) with :func:`end_program`.

    It gets a session of its own, the resource ``limits`` (AILimits' defaults when None), its own
    pids cgroup where one can be made, stdout as a pipe unless ``popen`` says otherwise, and it is
    registered so that :func:`kill_running_ais` ends it too.  ``popen`` goes to ``subprocess.Popen``
    (cwd, stdin, stderr...).  For any program the engine runs on someone's behalf: robots AIs
    (:func:`run_ai_once`), Tron bots.  ``via``: a running launcher (:mod:`engine.ai.launcher`)
    that starts it inside its cgroup instead, for a program with stdin ``/dev/null`` and stderr
    into stdout (as :func:`run_ai_once` starts one); if the launcher is gone it is started here.
    """
    become_subreaper()
    guard.ensure_watcher()  # before the children are listed: the watcher is not the program's stray
    spared = children()  # ours already, not the program's: never killed as its strays
    limits = limits or AILimits()
    popen.setdefault("stdout", subprocess.PIPE)
    # A stop signal (Ctrl-C, kill, the contest dying under a worker) is held back until the program
    # is registered, and its handler then ends it with the rest.  Handled in the middle of Popen
    # (which waits for the exec), the handler found nothing to kill and the program ran on.
    held = _HeldStops()
    process = None
    try:
        process = _spawn(argv, limits, spared, popen, via)
    finally:
        try:
            held.release()  # a stop held back is handled now
        except BaseException:  # its handler raised (KeyboardInterrupt): the program must not outlive it
            if process is not None:
                end_program(process)
            raise
    return process


class _HeldStops:
    """The stop signals, held back while a program is started (see ``start_program``).

    Blocking them (``pthread_sigmask``) holds them for this thread only: where the process has
    other threads (a Dask offload thread, the viewer's game thread) the kernel hands a
    process-directed signal to one of those, and Python runs its handler in the main thread as
    soon as it can, in the middle of ``Popen``. So in the main thread the handlers are also
    swapped for one that only records the signal, and ``release`` raises what it recorded again,
    once the real handlers are back.
    """

    def __init__(self) -> None:
        self.mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        self.handlers: dict[int, Any] = {}
        self.caught: list[int] = []
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                handler = signal.getsignal(signum)
                if handler is not None:  # None: set outside Python, the mask is all we can do
                    self.handlers[signum] = handler
                    signal.signal(signum, self._record)

    def _record(self, signum: int, frame: object) -> None:
        self.caught.append(signum)

    def release(self) -> None:
        """The real handlers back, the signals unblocked; each stop that came meanwhile is handled now."""
        for signum, handler in self.handlers.items():
            signal.signal(signum, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, self.mask)
        for signum in dict.fromkeys(self.caught):
            signal.raise_signal(signum)


#: What a launcher gives a program: stdin /dev/null, stdout a pipe, stderr into it, a folder.
_LAUNCHED_SHAPE = (subprocess.DEVNULL, subprocess.PIPE, subprocess.STDOUT, {"cwd"})


def _spawn(
    argv: Sequence[str],
    limits: AILimits,
    spared: set[int],
    popen: dict[str, Any],
    via: launcher.Launcher | None = None,
) -> subprocess.Popen[bytes] | launcher.LaunchedProgram:
    """Start and register the program (the stop signals are blocked; the program unblocks them)."""
    shape = (popen.get("stdin"), popen.get("stdout"), popen.get("stderr"), set(popen) - {"stdin", "stdout", "stderr"})
    if via is not None and via.running and via.group is not None and shape == _LAUNCHED_SHAPE:
        try:
            launched = via.launch(argv, popen["cwd"])
        except launcher.LauncherGone:
            pass  # started here instead, as before
        else:
            _RUNNING[launched.pid] = launched
            _SPARED[launched.pid] = spared
            _LAUNCHED[launched.pid] = via
            guard.watch(launched.pid, via.group.path)  # killed even if we are (kill -9)
            return launched
    group = PidsGroup.create(limits.processes)  # None where no cgroup can be made
    try:
        process: subprocess.Popen[bytes] = subprocess.Popen(
            list(argv), start_new_session=True, preexec_fn=child_setup(limits, group, popen.get("cwd")), **popen
        )
    except BaseException:
        if group is not None:
            group.remove()
        raise
    _RUNNING[process.pid] = process
    _SPARED[process.pid] = spared
    if group is not None:
        _GROUPS[process.pid] = group
    guard.watch(process.pid, group.path if group is not None else None)  # killed even if we are (kill -9)
    return process


def end_program(process: subprocess.Popen[bytes] | launcher.LaunchedProgram) -> None:
    """Kill a program started by :func:`start_program` with everything it started, and forget it."""
    _kill_group(process)
    _RUNNING.pop(process.pid, None)
    group = _GROUPS.pop(process.pid, None)
    if group is not None:
        group.kill_all()  # what even the subreaper could not see (it left our descendants)
        group.remove()
    via = _LAUNCHED.pop(process.pid, None)
    if via is not None:
        via.clear()  # the same, in the launcher's cgroup (the launcher stays)
    guard.forget(process.pid)


def _kill_group(process: subprocess.Popen[bytes] | launcher.LaunchedProgram) -> None:
    """Kill the program, its process group and every process it started, wherever they went.

    Orphans (setsid children, double forks) re-parented to this process (a subreaper) are killed
    too, except children that were here before the program started and other programs still
    registered in ``_RUNNING``.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    process.wait()
    spared = _SPARED.pop(process.pid, None)
    if spared is not None:
        others = {pid for pid in _RUNNING if pid != process.pid} | launcher.launcher_pids()
        kill_descendants(process.pid, spared | others)


#: At most this many bytes of notes are carried from one round's scratch folder to the next.
MAX_NOTES_BYTES = 64 * 1024 * 1024
#: At most this many files, and folders this deep, are carried.
MAX_NOTES_FILES = 1000
MAX_NOTES_DEPTH = 8


def carry_notes(old: Path, new: Path, max_bytes: int = MAX_NOTES_BYTES) -> None:
    """Copy the regular files (and folders) a program left in ``old`` into ``new``; never fails.

    Symlinks, FIFOs, devices, unreadable entries and the protocol's own files are skipped and
    nothing is followed, so a planted link cannot make this read or write outside ``old``/``new``.
    """
    budget = [max_bytes, MAX_NOTES_FILES]
    skip = {BOARD_FILE, CARDS_FILE, BOT_FILE, CHOSEN_FILE, DEBUG_FILE}

    def copy(src: Path, dst: Path, depth: int) -> None:
        try:
            entries = list(os.scandir(src))
        except OSError:
            return
        for entry in entries:
            if budget[1] <= 0 or budget[0] <= 0:
                return
            if depth == 0 and entry.name in skip:
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if depth < MAX_NOTES_DEPTH:
                        (dst / entry.name).mkdir(mode=0o700)
                        copy(Path(entry.path), dst / entry.name, depth + 1)
                elif entry.is_file(follow_symlinks=False):
                    _copy_file(Path(entry.path), dst / entry.name, budget)
            except OSError:
                continue

    copy(old, new, 0)


def _copy_file(src: Path, dst: Path, budget: list[int]) -> None:
    fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > budget[0]:
            return
        data = os.read(fd, info.st_size + 1)[: info.st_size]
    finally:
        os.close(fd)
    out = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(out, "wb") as handle:
        handle.write(data)
    os.chmod(dst, (info.st_mode & 0o777) | 0o600)
    budget[0] -= len(data)
    budget[1] -= 1


def remove_tree(folder: Path) -> bool:
    """Remove a scratch folder whatever the AI left in it; whether it is gone.

    Symlinks are removed, never followed; folders it made unreadable are opened up first.
    Nothing is left running there (the turn's processes are all dead), so this cannot race.
    """

    def open_up(function: object, path: str, _exc: object) -> None:
        with contextlib.suppress(OSError):
            parent = os.path.dirname(path)
            os.chmod(parent, 0o700)
            if os.path.isdir(path) and not os.path.islink(path):
                os.chmod(path, 0o700)
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)

    if not os.path.lexists(folder):
        return True
    with contextlib.suppress(OSError):
        os.chmod(folder, 0o700)
    shutil.rmtree(folder, onerror=open_up)
    if os.path.lexists(folder):
        shutil.rmtree(folder, ignore_errors=True)
    return not os.path.lexists(folder)


def _write_log(
    log_path: Path | None, header: str, capture: BoundedOutput, append: bool, *, tail_only: int = 0, workdir: Path
) -> None:
    """Append the round's header and output to the log; ``tail_only`` > 0: only that many last bytes.

    A log in the AI's own folder (``robots-engine start``'s ``bot-ki.log``) is never written through
    a link or into a FIFO the program left there (``engine.atomic.open_log``)."""
    if log_path is None:
        return
    data = capture.data()
    if tail_only and len(data) > tail_only:
        data = (
            f"[... only the last {tail_only} bytes of this round's output: the log is full ...]\n".encode()
            + data[-tail_only:]
        )
    try:
        with open_log(log_path, append=append, follow_symlinks=not _in_folder(log_path, workdir)) as handle:
            handle.write(header.encode("utf-8", errors="replace"))
            handle.write(data)
            if data and not data.endswith(b"\n"):
                handle.write(b"\n")
    except OSError as exc:
        raise AIError(f"cannot write AI log {log_path}: {exc.strerror or exc}") from None


def _in_folder(path: Path, folder: Path) -> bool:
    """Whether ``path`` is a file right in ``folder`` (where the AI program may have planted anything)."""
    return os.path.abspath(path.parent) == os.path.abspath(folder)


def _pidfd(pid: int) -> int | None:
    """A file descriptor that becomes readable when ``pid`` exits (Linux 5.3+); None elsewhere."""
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    try:
        fd: int = opener(pid)
    except OSError:
        return None
    return fd


def _drain(fd: int, capture: BoundedOutput, max_output: int) -> bool:
    """Read what is already in the pipe without waiting for writers; False when the output is too long."""
    os.set_blocking(fd, False)
    while True:
        try:
            chunk = os.read(fd, _READ_CHUNK)
        except BlockingIOError:
            return True
        if not chunk:
            return True
        capture.add(chunk)
        if capture.total > max_output:
            return False


def _wait_for(
    process: subprocess.Popen[bytes] | launcher.LaunchedProgram,
    capture: BoundedOutput,
    deadline: float,
    timeout: float,
    max_output: int,
) -> str | None:
    """Read the program's output until it exits; None when it exited in time, else why it must be killed.

    The turn ends when the program itself exits: a child it left behind holding the output pipe
    open does not make it wait (that child is killed with the rest of the turn's processes).
    """
    assert process.stdout is not None
    out_fd = process.stdout.fileno()
    pidfd = _pidfd(process.pid)
    with selectors.DefaultSelector() as selector:
        selector.register(out_fd, selectors.EVENT_READ, "out")
        if pidfd is not None:
            selector.register(pidfd, selectors.EVENT_READ, "exit")
        reading = True
        try:
            while True:
                if process.poll() is not None:
                    if reading and not _drain(out_fd, capture, max_output):
                        return f"wrote more than {max_output} bytes of output (killed)"
                    return None
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return f"timed out after {timeout:g} s (killed)"
                # Without a pidfd the exit is noticed by polling, 20 times a second.
                wait = remaining if pidfd is not None else min(remaining, 0.05)
                for key, _ in selector.select(wait):
                    if key.data != "out":
                        continue
                    chunk = os.read(out_fd, _READ_CHUNK)
                    if not chunk:
                        selector.unregister(out_fd)
                        reading = False
                        continue
                    capture.add(chunk)
                    if capture.total > max_output:
                        return f"wrote more than {max_output} bytes of output (killed)"
        finally:
            if pidfd is not None:
                os.close(pidfd)


def run_ai_once(
    command: Command,
    workdir: str | Path,
    level: Level | str,
    timeout: float = DEFAULT_TIMEOUT,
    log_path: Path | None = None,
    *,
    max_output: int = MAX_OUTPUT_BYTES,
    log_keep: int = LOG_KEEP_BYTES,
    append_log: bool = False,
    round_number: int | None = None,
    trace: Trace | None = None,
    log_tail_only: int = 0,
    limits: AILimits | None = None,
    via: launcher.Launcher | None = None,
    started: Callable[[], object] | None = None,
) -> list[Card]:
    """Run the AI once in ``workdir`` (which already holds the input files) and return its cards.

    Removes a stale ``ccards.txt`` and ``debug.txt`` first, runs ``command LEVEL`` with
    ``workdir`` as current directory under ``limits`` (AILimits' defaults when None), kills
    whatever it left running, and parses the ``ccards.txt`` it writes.  Only the format
    is checked here; the caller checks the choice against the hand (``engine.game.check_choice``).
    Raises AIError with a one-line message on every failure.  ``trace``, when given, receives
    the round's output (first and last ``log_keep`` bytes) and the raw ``debug.txt``, also when
    the AI fails; ``round_number`` goes into the log's header line.  ``via``: a launcher that
    starts the program inside its cgroup (:mod:`engine.ai.launcher`), where it runs; ``started``
    is called once the program runs (it must not raise).
    """
    argv = normalize_command(command)
    name = _describe(argv)
    level_word = level.value if isinstance(level, Level) else str(level)
    folder = Path(workdir)
    chosen_path = folder / CHOSEN_FILE
    if not folder.is_dir():
        raise AIError(f"the AI's working directory {folder} does not exist")
    try:
        chosen_path.unlink(missing_ok=True)
    except OSError as exc:
        raise AIError(f"cannot remove stale {chosen_path}: {exc.strerror or exc}") from None
    with contextlib.suppress(OSError):  # debug marks are optional: whatever is there must not end the game
        (folder / DEBUG_FILE).unlink(missing_ok=True)
    if _stopping:
        raise AIError("not started: the program running the AI is ending")
    begun = time.monotonic()
    capture = BoundedOutput(log_keep, log_keep)  # made first: nothing may raise between the start and the try
    try:
        process = start_program(
            [*argv, level_word], limits, via=via, cwd=folder, stdin=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
    except FileNotFoundError:
        hint = program_hint(argv[0])
        raise AIError(f"AI program not found: {argv[0]}" + (f" ({hint})" if hint else "")) from None
    except PermissionError:
        hint = program_hint(argv[0]) or f"try chmod +x {argv[0]}"
        raise AIError(f"AI program is not executable: {argv[0]} ({hint})") from None
    except OSError as exc:
        hint = program_hint(argv[0]) if exc.errno == errno.ENOEXEC else None
        raise AIError(
            f"cannot start AI program {argv[0]}: {exc.strerror or exc}" + (f" ({hint})" if hint else "")
        ) from None

    try:
        if started is not None:
            started()
        failure = _wait_for(process, capture, begun + timeout, timeout, max_output)
    finally:
        # Answer given, crash, timeout or we are being stopped (Ctrl-C): nothing it started lives on.
        end_program(process)
    assert process.stdout is not None
    process.stdout.close()
    elapsed = time.monotonic() - begun
    code = process.wait()  # ended above: its exit status, at once
    status = failure or (f"exit {code}" if code >= 0 else f"signal {-code}")
    where = f"round {round_number}: " if round_number is not None else ""
    header = f"--- {where}{name} {level_word}: {status}, {elapsed:.3f} s ---\n"
    _write_log(log_path, header, capture, append_log, tail_only=log_tail_only, workdir=folder)
    if trace is not None:
        trace.output = capture.text()
        trace.output_bytes = capture.total
        trace.debug_text, trace.debug_cut = _read_debug(folder)

    tail = capture.last_line()
    said = f"; last output: {tail}" if tail else ""
    if failure is not None:
        if failure.startswith("timed out"):
            hint = timeout_hint(folder, code)
            said += f" ({hint})" if hint else ""
        raise AIError(f"AI {name} {failure}{said}")
    if code < 0:
        try:
            signame = signal.Signals(-code).name
        except ValueError:
            signame = f"signal {-code}"
        raise AIError(f"AI {name} crashed ({signame}){said}")
    if code > 0:
        hint = program_hint(argv[0], code=code, output=capture.text())
        raise AIError(f"AI {name} exited with status {code}{said}" + (f" ({hint})" if hint else ""))
    if _is_card(tail):  # said only if no ccards.txt is there: then the cards were printed instead
        said += f" (the cards go into the file {CHOSEN_FILE}, one a line, not to the program's output)"
    return read_answer(folder, name, said)


def _is_card(line: str) -> bool:
    """Whether ``line`` is a card name as written in ``ccards.txt``."""
    try:
        Card.parse(line)
    except ValueError:
        return False
    return True


def _read_debug(folder: Path) -> tuple[str | None, bool]:
    """The AI's ``debug.txt`` (its first ``MAX_BYTES``) and whether it was longer; never fails."""
    path = folder / DEBUG_FILE
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)  # a planted link is ignored
    except OSError:
        return None, False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, False
        data = os.read(fd, MAX_BYTES + 1)
    except OSError:
        return None, False
    finally:
        os.close(fd)
    cut = len(data) > MAX_BYTES
    return data[:MAX_BYTES].decode("utf-8", errors="replace"), cut


def read_answer(folder: str | Path, name: str = "AI", said: str = "") -> list[Card]:
    """The 5 cards in ``folder/ccards.txt`` as the AI ``name`` wrote them; AIError when missing, malformed
    or holding another number of cards (whether they are in the hand is the caller's check).

    The file must be a regular file, not a symlink (to ``/dev/zero``, a FIFO, another user's file):
    it is opened without following links and read up to ``MAX_ANSWER_BYTES``.
    """
    chosen_path = Path(folder) / CHOSEN_FILE
    try:
        fd = os.open(chosen_path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise AIError(f"AI {name} wrote no {CHOSEN_FILE}{said}") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW's answer to a link, in the kernel's odd words
            raise AIError(f"AI {name}: {CHOSEN_FILE} is a symbolic link, not a file it wrote") from None
        raise AIError(f"AI {name}: {CHOSEN_FILE} is not a file it wrote ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise AIError(f"AI {name}: {CHOSEN_FILE} is not a regular file")
        if info.st_size > MAX_ANSWER_BYTES:
            raise AIError(f"AI {name} wrote a {info.st_size}-byte {CHOSEN_FILE}, far too large for 5 cards")
        data = os.read(fd, MAX_ANSWER_BYTES + 1)
    except OSError as exc:
        raise AIError(f"AI {name}: cannot read {CHOSEN_FILE}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        cards = parse_cards(text, chosen_path)
    except InputError as exc:
        where = f" (line {exc.line})" if exc.line is not None else ""
        raise AIError(f"AI {name} wrote a malformed {CHOSEN_FILE}: {exc.message}{where}") from None
    # Counted here, where the file is known: "chose 4 cards" alone did not say which file to fix.
    if not cards:
        raise AIError(f"AI {name} wrote an empty {CHOSEN_FILE}: it must hold {CHOSEN_PER_ROUND} cards, one a line")
    if len(cards) != CHOSEN_PER_ROUND:
        raise AIError(
            f"AI {name} wrote {len(cards)} cards to {CHOSEN_FILE}, must write exactly {CHOSEN_PER_ROUND}, one a line"
        )
    return cards


class ExternalAI:
    """A Chooser that runs an external program through the file protocol once per round.

    ``workdir`` None gives the program a fresh, private scratch folder every round, holding the
    round's input files and a copy of the regular files the program left in the last round's
    folder: so its notes persist from round to round of a game, while links, locked folders,
    special files and processes still writing there are left behind (the old folder is removed
    once everything the program started is dead).  :meth:`close` removes the last one.
    ``log_path`` collects every round's output under a ``--- round N: ...`` header
    (the first and last ``LOG_KEEP_BYTES`` of each; past ``LOG_TOTAL_BYTES`` only each round's
    last ``LOG_FULL_TAIL_BYTES``); it is started afresh, and the round count reset, by
    :meth:`start_log`.  ``last_trace`` holds the last round's output and debug marks.
    ``limits`` are the program's resource limits.  Not thread-safe: one instance plays one game
    at a time.

    A failure to write the program's input files is the engine's (a full disk, say), not the
    AI's: it is raised as the ``OSError`` it is, never as an AIError.
    """

    def __init__(
        self,
        command: Command,
        *,
        workdir: Path | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        log_path: Path | None = None,
        limits: AILimits | None = None,
    ) -> None:
        self.argv = normalize_command(command)
        self.name = _describe(self.argv)
        self.timeout = timeout
        self.log_path = log_path
        self.limits = limits or AILimits()
        self._fixed_workdir = workdir
        self._scratch: Path | None = None
        self._log_started = False
        self._round = 0
        self.last_trace: Trace | None = None
        self._board: Board | None = None
        self._board_text = ""
        #: Starts the rounds' programs inside one cgroup from the second round on (engine.ai.launcher).
        self._launcher = launcher.Launcher(self.limits)

    @property
    def workdir(self) -> Path:
        """The folder the program runs in: the one given, or this round's scratch folder."""
        if self._fixed_workdir is not None:
            return self._fixed_workdir
        if self._scratch is None:
            self._new_scratch()
        assert self._scratch is not None
        return self._scratch

    def _new_scratch(self) -> Path:
        """A new scratch folder (mode 700) in place of the last one, with the notes carried over."""
        old = self._scratch
        self._scratch = Path(tempfile.mkdtemp(prefix="robots-ai-"))
        _SCRATCH[id(self)] = self._scratch
        guard.ensure_watcher()
        guard.scratch(self._scratch)  # removed even if we are killed (kill -9)
        if old is not None:
            carry_notes(old, self._scratch, self.limits.file_size * 1024 * 1024 or MAX_NOTES_BYTES)
            if remove_tree(old):  # if the AI made it undeletable, it is left, never a game error
                guard.unscratch(old)
        return self._scratch

    def _remove_scratch(self) -> None:
        if self._scratch is not None:
            if remove_tree(self._scratch):
                guard.unscratch(self._scratch)
            _SCRATCH.pop(id(self), None)
            self._scratch = None

    def prepare(self) -> None:
        """Start what the rounds need before the first one: the watcher against ``kill -9`` and the
        launcher (with its cgroup, whose making waits for the kernel).

        Optional, the first round does it otherwise; the commands that play whole games call it
        first, so that a game's first round costs its program about what the later ones do.
        """
        become_subreaper()  # the launcher hands its programs over to a subreaper only
        if self._launcher.start():  # which starts the watcher first
            self._launcher.wait_ready()  # its Python start is then not part of the first round's time

    def start_log(self) -> None:
        """Begin a new game's log (the next round, numbered 1, truncates the log file)."""
        self._log_started = False
        self._round = 0

    def _log_is_full(self) -> bool:
        if self.log_path is None or not self._log_started:
            return False
        try:
            return self.log_path.stat().st_size >= LOG_TOTAL_BYTES
        except OSError:
            return False

    def __call__(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> list[Card]:
        folder = self._fixed_workdir if self._fixed_workdir is not None else self._new_scratch()
        try:
            self._write_inputs(folder, board, hand, pose)
        except OSError as exc:
            raise OSError(exc.errno, f"cannot write the AI's input files: {exc.strerror or exc}", str(folder)) from None
        self._round += 1
        trace = Trace()
        self.last_trace = trace
        tail_only = LOG_FULL_TAIL_BYTES if self._log_is_full() else 0
        append = self._log_started
        self._log_started = True
        # Without ``prepare`` the launcher is started while the first round's program runs, right
        # after that program moved into its own cgroup (a move right after another one does not
        # wait, and the launcher's start-up overlaps the program's); it starts the later rounds'.
        via = self._launcher if self._launcher.running else None
        try:
            chosen = run_ai_once(
                self.argv,
                folder,
                level,
                self.timeout,
                self.log_path,
                append_log=append,
                round_number=self._round,
                trace=trace,
                log_tail_only=tail_only,
                limits=self.limits,
                via=via,
                started=None if via is not None else self._launcher.start,
            )
        finally:
            self._read_marks(trace, board)
        try:
            check_choice(hand, chosen)
        except AIError as exc:
            raise AIError(f"AI {self.name} {exc}") from None
        return chosen

    def _read_marks(self, trace: Trace, board: Board) -> None:
        """Parse the round's ``debug.txt``; its problems go to the log (they never end the game)."""
        if trace.debug_text is None:
            return
        trace.debug = parse_debug(trace.debug_text, board.width, board.height, cut=trace.debug_cut)
        if trace.debug.problems and self.log_path is not None:
            follow = self._fixed_workdir is None or not _in_folder(self.log_path, self._fixed_workdir)
            with contextlib.suppress(OSError), open_log(self.log_path, follow_symlinks=follow) as handle:
                handle.write("".join(f"[{p}]\n" for p in trace.debug.problems).encode("utf-8", errors="replace"))

    def _write_inputs(self, folder: Path, board: Board, hand: tuple[Card, ...], pose: Pose) -> None:
        """``engine.protocol.write_ai_inputs`` without its fsyncs, and the board text made once per board.

        The scratch folder is new and empty each round, so durability buys nothing here while
        three fsyncs per round cost more than starting a small program.  In a folder given by
        the caller a symlink the program planted is replaced, never followed.
        """
        if self._board is not board:
            self._board, self._board_text = board, write_board(board)
        for name, text in (
            (BOARD_FILE, self._board_text),
            (CARDS_FILE, write_cards(hand)),
            (BOT_FILE, write_pose(pose)),
        ):
            path = folder / name
            if self._fixed_workdir is not None and path.is_symlink():
                path.unlink()
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)

    def close(self) -> None:
        """End the launcher and remove the scratch folder, if they were made."""
        self._launcher.close()
        self._remove_scratch()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._launcher.close()
        with contextlib.suppress(Exception):
            self._remove_scratch()

    def __enter__(self) -> ExternalAI:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ExternalAI({self.argv!r}, timeout={self.timeout!r})"
