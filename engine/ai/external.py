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
contest goes on with the next game.  A hanging program is killed together with
everything it started (its whole process group).  Output is read through a
pipe and only its first and last part are kept (``engine.ai.output``), so a
flood fills neither memory nor disk and a traceback printed last survives.

Besides ``ccards.txt`` a program may write ``debug.txt`` (marks for the viewer,
``engine.debugmarks``); it is read, bounded, and never makes an AI error.
"""

from __future__ import annotations

import contextlib
import errno
import os
import selectors
import signal
import subprocess
import tempfile
import time
import weakref
from collections.abc import Sequence
from pathlib import Path

from engine.ai.hints import program_hint, timeout_hint
from engine.ai.output import BoundedOutput
from engine.ai.trace import Trace
from engine.boardfile import write_board
from engine.cards import Card
from engine.debugmarks import DEBUG_FILE, MAX_BYTES, parse_debug
from engine.deck import write_cards
from engine.errors import InputError
from engine.game import AIError, check_choice
from engine.model import Board, Level, Pose
from engine.protocol import BOARD_FILE, BOT_FILE, CARDS_FILE, CHOSEN_FILE, read_chosen, write_pose

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


#: AI programs running in this process right now, for :func:`kill_running_ais`.
_RUNNING: dict[int, subprocess.Popen[bytes]] = {}


#: Temporary working directories of live ExternalAI objects, for :func:`kill_running_ais`.
_TEMPDIRS: weakref.WeakValueDictionary[int, tempfile.TemporaryDirectory[str]] = weakref.WeakValueDictionary()


def kill_running_ais() -> None:
    """Kill every AI program this process runs (and what they started) and remove their scratch folders.

    For signal handlers of processes about to leave without unwinding (``os._exit``).
    """
    for process in list(_RUNNING.values()):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    for tempdir in list(_TEMPDIRS.values()):
        with contextlib.suppress(OSError):
            tempdir.cleanup()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the program and everything it started; it runs in its own session/process group."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    process.wait()


def _write_log(log_path: Path | None, header: str, capture: BoundedOutput, append: bool, *, tail_only: int = 0) -> None:
    """Append the round's header and output to the log; ``tail_only`` > 0: only that many last bytes."""
    if log_path is None:
        return
    data = capture.data()
    if tail_only and len(data) > tail_only:
        data = (
            f"[... only the last {tail_only} bytes of this round's output: the log is full ...]\n".encode()
            + data[-tail_only:]
        )
    try:
        with open(log_path, "ab" if append else "wb") as handle:
            handle.write(header.encode("utf-8", errors="replace"))
            handle.write(data)
            if data and not data.endswith(b"\n"):
                handle.write(b"\n")
    except OSError as exc:
        raise AIError(f"cannot write AI log {log_path}: {exc.strerror or exc}") from None


def _wait_for(
    process: subprocess.Popen[bytes], capture: BoundedOutput, deadline: float, timeout: float, max_output: int
) -> str | None:
    """Read the program's output until it ends; None when it exited in time, else why it must be killed."""
    assert process.stdout is not None
    stream = process.stdout
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if process.poll() is None:
                    return f"timed out after {timeout:g} s (killed)"
                return f"timed out after {timeout:g} s: it exited but something it started kept running (killed)"
            if not selector.select(remaining):
                continue
            chunk = os.read(stream.fileno(), _READ_CHUNK)
            if not chunk:
                break
            capture.add(chunk)
            if capture.total > max_output:
                return f"wrote more than {max_output} bytes of output (killed)"
    try:
        process.wait(max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout:g} s (killed)"
    return None


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
) -> list[Card]:
    """Run the AI once in ``workdir`` (which already holds the input files) and return its cards.

    Removes a stale ``ccards.txt`` and ``debug.txt`` first, runs ``command LEVEL`` with
    ``workdir`` as current directory, and parses the ``ccards.txt`` it writes.  Only the format
    is checked here; the caller checks the choice against the hand (``engine.game.check_choice``).
    Raises AIError with a one-line message on every failure.  ``trace``, when given, receives
    the round's output (first and last ``log_keep`` bytes) and the raw ``debug.txt``, also when
    the AI fails; ``round_number`` goes into the log's header line.
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
    started = time.monotonic()
    try:
        process = subprocess.Popen(
            [*argv, level_word],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
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

    capture = BoundedOutput(log_keep, log_keep)
    _RUNNING[process.pid] = process
    try:
        failure = _wait_for(process, capture, started + timeout, timeout, max_output)
    except BaseException:
        _kill_group(process)  # we are being stopped (Ctrl-C): take the AI with us
        raise
    finally:
        _RUNNING.pop(process.pid, None)
    if failure is not None:
        _kill_group(process)
    assert process.stdout is not None
    process.stdout.close()
    elapsed = time.monotonic() - started
    code = process.returncode
    status = failure or (f"exit {code}" if code >= 0 else f"signal {-code}")
    where = f"round {round_number}: " if round_number is not None else ""
    header = f"--- {where}{name} {level_word}: {status}, {elapsed:.3f} s ---\n"
    _write_log(log_path, header, capture, append_log, tail_only=log_tail_only)
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
    return read_answer(folder, name, said)


def _read_debug(folder: Path) -> tuple[str | None, bool]:
    """The AI's ``debug.txt`` (its first ``MAX_BYTES``) and whether it was longer; never fails."""
    path = folder / DEBUG_FILE
    try:
        if not path.is_file():
            return None, False
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError:
        return None, False
    cut = len(data) > MAX_BYTES
    return data[:MAX_BYTES].decode("utf-8", errors="replace"), cut


def read_answer(folder: str | Path, name: str = "AI", said: str = "") -> list[Card]:
    """The cards in ``folder/ccards.txt`` as the AI ``name`` wrote them; AIError when missing or malformed."""
    chosen_path = Path(folder) / CHOSEN_FILE
    if not chosen_path.is_file():
        raise AIError(f"AI {name} wrote no {CHOSEN_FILE}{said}")
    try:
        size = chosen_path.stat().st_size
        if size > MAX_ANSWER_BYTES:
            raise AIError(f"AI {name} wrote a {size}-byte {CHOSEN_FILE}, far too large for 5 cards")
        return read_chosen(folder)
    except InputError as exc:
        where = f" (line {exc.line})" if exc.line is not None else ""
        raise AIError(f"AI {name} wrote a malformed {CHOSEN_FILE}: {exc.message}{where}") from None
    except OSError as exc:
        raise AIError(f"AI {name}: cannot read {CHOSEN_FILE}: {exc.strerror or exc}") from None


class ExternalAI:
    """A Chooser that runs an external program through the file protocol once per round.

    ``workdir`` None uses a private temporary directory, removed by :meth:`close` (or when the
    object is collected); it persists from round to round of a game, so a program may keep
    notes there.  ``log_path`` collects every round's output under a ``--- round N: ...`` header
    (the first and last ``LOG_KEEP_BYTES`` of each; past ``LOG_TOTAL_BYTES`` only each round's
    last ``LOG_FULL_TAIL_BYTES``); it is started afresh, and the round count reset, by
    :meth:`start_log`.  ``last_trace`` holds the last round's output and debug marks.
    Not thread-safe: one instance plays one game at a time.
    """

    def __init__(
        self,
        command: Command,
        *,
        workdir: Path | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        log_path: Path | None = None,
    ) -> None:
        self.argv = normalize_command(command)
        self.name = _describe(self.argv)
        self.timeout = timeout
        self.log_path = log_path
        self._tempdir: tempfile.TemporaryDirectory[str] | None = None
        self._workdir = workdir
        self._log_started = False
        self._round = 0
        self.last_trace: Trace | None = None
        self._board: Board | None = None
        self._board_text = ""

    @property
    def workdir(self) -> Path:
        if self._workdir is None:
            self._tempdir = tempfile.TemporaryDirectory(prefix="robots-ai-")
            self._workdir = Path(self._tempdir.name)
            _TEMPDIRS[id(self._tempdir)] = self._tempdir
        return self._workdir

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
        folder = self.workdir
        try:
            self._write_inputs(folder, board, hand, pose)
        except OSError as exc:
            raise AIError(f"cannot write the AI's input files in {folder}: {exc.strerror or exc}") from None
        self._round += 1
        trace = Trace()
        self.last_trace = trace
        tail_only = LOG_FULL_TAIL_BYTES if self._log_is_full() else 0
        append = self._log_started
        self._log_started = True
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
            with contextlib.suppress(OSError), open(self.log_path, "ab") as handle:
                handle.write("".join(f"[{p}]\n" for p in trace.debug.problems).encode("utf-8", errors="replace"))

    def _write_inputs(self, folder: Path, board: Board, hand: tuple[Card, ...], pose: Pose) -> None:
        """``engine.protocol.write_ai_inputs`` without its fsyncs, and the board text made once per board.

        The working directory is scratch space rewritten every round, so durability buys nothing
        here while three fsyncs per round cost more than starting a small program.
        """
        if self._board is not board:
            self._board, self._board_text = board, write_board(board)
        (folder / BOARD_FILE).write_text(self._board_text, encoding="utf-8")
        (folder / CARDS_FILE).write_text(write_cards(hand), encoding="utf-8")
        (folder / BOT_FILE).write_text(write_pose(pose), encoding="utf-8")

    def close(self) -> None:
        """Remove the temporary working directory, if one was made."""
        if self._tempdir is not None:
            _TEMPDIRS.pop(id(self._tempdir), None)
            self._tempdir.cleanup()
            self._tempdir = None
            self._workdir = None

    def __enter__(self) -> ExternalAI:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ExternalAI({self.argv!r}, timeout={self.timeout!r})"
