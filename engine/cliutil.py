"""What every command line of the project shares: a parser whose usage errors are one line,
``WIDTHxHEIGHT`` sizes, and a progress bar on stderr. ``robots-engine``, ``robots-contest``,
``robots-oracle``, ``robots-tron``, ``robots-view``, ``robots-edit`` and ``robots-theme`` use
these, so they behave alike."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn, TextIO

from engine.bounds import MAX_DIGITS, cut, parse_count, shown
from engine.errors import MAX_NAME_SHOWN, InputError, printable

EXIT_BAD_INPUT = 2
BAR_WIDTH = 30
#: Seconds between progress lines when not on a terminal (besides one per tenth of the way).
LINE_EVERY = 30.0
_SIZE = re.compile(r"\s*([0-9]{1,6})\s*[x×X ]\s*([0-9]{1,6})\s*")


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line (exit 2), like every other bad input,
    instead of the usage block."""

    #: The sub-command whose --help an error points to (set as the arguments are parsed).
    _help_prog: str | None = None

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        """As argparse's, noting which sub-command parsed: the top-level parser reports a
        sub-command's unknown options, and pointed to its own --help, which does not list them."""
        namespace, extras = super().parse_known_args(*args, **kwargs)
        deepest = getattr(namespace, _PARSED_BY, None)
        if deepest is None:
            setattr(namespace, _PARSED_BY, self.prog)  # the innermost parser finishes first
        else:
            self._help_prog = deepest
        return namespace, extras

    def parse_args(self, *args: Any, **kwargs: Any) -> Any:
        namespace = super().parse_args(*args, **kwargs)
        if hasattr(namespace, _PARSED_BY):
            delattr(namespace, _PARSED_BY)
        return namespace

    def error(self, message: str) -> NoReturn:
        program = self.prog.split()[0]  # a sub-command's prog is "robots-engine play"
        helped = self._help_prog if message.startswith(_UNRECOGNIZED) and self._help_prog else self.prog
        self.exit(EXIT_BAD_INPUT, f"{program}: {short_usage_message(message)} (see '{helped} --help')\n")


#: The distribution whose version ``--version`` prints (``[project] name`` in pyproject.toml).
DISTRIBUTION = "robots"


def package_version() -> str:
    """The installed package's version, from its metadata (pyproject.toml's, once installed), so that
    no tool carries a number of its own that could fall behind."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(version unknown: not installed)"


class _VersionAction(argparse.Action):
    """``--version``: looks the version up only when asked (reading package metadata scans the
    import path, a cost every other run of a tool would pay for nothing)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        try:
            print(f"{parser.prog} {package_version()}", flush=True)
        except BrokenPipeError:
            if stdout_gone():  # ``robots-engine --version | head -0``: quiet, as every other output
                parser.exit(EXIT_BROKEN_PIPE)
            raise
        parser.exit()


def add_version(parser: argparse.ArgumentParser) -> None:
    """Give a command line ``--version`` (``robots-engine 0.1.0`` on stdout, exit 0): every console
    script has it, worded alike, so a bug report can say which release it came from."""
    parser.add_argument("--version", action=_VersionAction)


#: Where the parser that parsed the arguments notes its ``prog`` in the namespace (removed before it is returned).
_PARSED_BY = "_one_line_parsed_by"

#: A value argparse quotes in a message (with ``%r``: single quotes, or double ones around a ').
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_UNRECOGNIZED = "unrecognized arguments: "


def short_usage_message(message: str) -> str:
    """argparse's ``message`` kept to one line that quotes about 60 characters of each input:
    it quotes a bad value whole (``invalid choice: 'xxx...'``, 5,000 characters long) and lists
    unrecognized arguments as given, newlines and all."""
    if message.startswith(_UNRECOGNIZED):
        message = _UNRECOGNIZED + cut(message[len(_UNRECOGNIZED) :])
    message = _QUOTED.sub(lambda quoted: _cut_quoted(quoted.group()), message)
    return printable(message)


def _cut_quoted(quoted: str) -> str:
    return quoted if len(quoted) <= 60 else quoted[:56] + "..." + quoted[0]


def time_limit_argument(text: str) -> float:
    """An argparse ``type`` for a solver's ``--time-limit``: seconds, 0 or more (0: stop after the
    set-up, ``inf``: no limit); ``nan`` and negative numbers, which stopped the solve as silently
    as 0, are refused."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {shown(text, 20)}") from None
    if not seconds >= 0:  # NaN too
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds (inf: no limit), not {shown(text, 20)}")
    return seconds


def timeout_argument(text: str) -> float:
    """An argparse ``type`` for an AI's ``--timeout``: positive, finite seconds up to a day, worded
    the same by robots-engine and robots-contest (the contest said "invalid float value")."""
    from engine.bounds import parse_seconds

    try:
        return parse_seconds(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def seed_argument(text: str) -> int:
    """An argparse ``type`` for ``--seed``: a whole number of at most 18 digits (a sign allowed),
    as every number the tools read (``docs/limits.md``); 200 digits were taken and recorded."""
    digits = text.strip().lstrip("+-")
    if digits.isascii() and digits.isdigit() and len(digits.lstrip("0")) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"seed {cut(text.strip(), 24)} has more than {MAX_DIGITS} digits")
    try:
        return parse_count(text.strip(), "seed", -MAX_SEED, MAX_SEED, signed=True)
    except InputError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


#: Largest seed magnitude: 18 digits, ``engine.bounds.MAX_DIGITS``.
MAX_SEED = 10**MAX_DIGITS - 1


def parse_size(
    text: str,
    what: str = "--size",
    low: tuple[int, int] = (16, 16),
    high: tuple[int, int] = (8192, 8192),
    example: str = "1024x768",
) -> tuple[int, int]:
    """``1024x768`` (also ``1024 768``) as (width, height) within ``low``..``high``; InputError otherwise.
    ``example`` is the size the message shows: one that fits (a board is not a window)."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise InputError(f"{what} must look like WIDTHxHEIGHT (e.g. {example}), not {shown(text, 30)}")
    width, height = int(match[1]), int(match[2])
    if not (low[0] <= width <= high[0] and low[1] <= height <= high[1]):
        raise InputError(f"{what} {width}x{height} out of range ({low[0]}..{high[0]} wide, {low[1]}..{high[1]} high)")
    return width, height


def make_folder(path: str | Path, purpose: str = "--out") -> Path:
    """Create the output folder ``path`` (and its parents) if missing; ``purpose`` says what it is
    for (an option). An InputError names what is in the way when something else (a file, a FIFO,
    a dangling symlink) holds its place or a parent's, instead of ``mkdir``'s bare ``File exists``."""
    import os
    import stat

    from engine.atomic import file_kind

    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        for place in (*reversed(folder.parents), folder):
            if os.path.lexists(place) and not place.is_dir():
                try:
                    mode = os.stat(place).st_mode
                except OSError:
                    what = "a symlink to nothing"
                else:
                    what = "a file" if stat.S_ISREG(mode) else f"a {file_kind(mode)}"
                raise InputError(f"is {what}, not a folder (for {purpose})", place) from None
        raise InputError(f"cannot create the folder (for {purpose}): it exists and is not a folder", folder) from None
    except OSError as exc:
        raise InputError(f"cannot create the folder (for {purpose}): {exc.strerror or exc}", folder) from None
    return folder


@contextlib.contextmanager
def output_folder(path: str | Path, purpose: str = "--out") -> Iterator[Path]:
    """``make_folder`` for a command that fills the folder only at its end (a whole game): if the
    command fails or is stopped (Ctrl-C) while the folders it created are still empty, they are
    removed again, so an interrupted ``play --out g`` leaves no empty ``g`` behind. A folder that
    existed before, or one something was written into, is never removed."""
    folder = Path(path)
    created = [place for place in (*reversed(folder.parents), folder) if not os.path.lexists(place)]
    try:
        yield make_folder(folder, purpose)
    except BaseException:
        for place in reversed(created):
            try:
                place.rmdir()  # only an empty folder goes; anything in it stops the clean-up here
            except OSError:
                break
        raise


#: After a redrawn line: erase what a longer earlier line left at its end ("0.8 games/ss/s").
CLEAR_TO_END = "\x1b[K"


class ProgressBar:
    """``LABEL[#######.......] 120/300 UNIT  40%  85.2 UNIT/s  AI errors: 1`` on ``stream``.

    On a terminal it is redrawn in place whenever it visibly changes. Elsewhere (a log file, a
    pipe) carriage-return redraws would pile up in one endless line, so it writes plain lines
    instead: with ``log_progress``, one at every tenth of the way and at least every
    ``LINE_EVERY`` seconds (so a long run in the background still says how far it is), and
    always the final ``LABEL120/300 UNIT in 3.52 s`` from ``finish`` (which may be called again:
    it returns the elapsed seconds).
    """

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        *,
        unit: str = "games",
        label: str = "",
        interactive: bool | None = None,
        log_progress: bool = True,
    ) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.unit = unit
        self.label = label
        self.interactive = self.stream.isatty() if interactive is None else interactive
        self.log_progress = log_progress
        self.started = time.monotonic()
        self.done = 0
        self.errors = 0
        self._shown: tuple[int, int] | None = None
        self._lined_at = self.started
        self._tenths = 0
        self._elapsed: float | None = None

    def update(self, done: int, total: int | None = None, error: bool = False) -> None:
        """``done`` of ``total`` (when given, it replaces the total) finished; ``error``: one more AI error."""
        if total is not None:
            self.total = total
        self.done = done
        self.errors += int(error)
        if self.interactive:
            shown_now = (round(100 * self._fraction()), self.errors)
            if shown_now != self._shown:
                self._shown = shown_now
                self.stream.write("\r" + self.line() + CLEAR_TO_END)
                self.stream.flush()
        elif self.log_progress and done < self.total:
            now = time.monotonic()
            tenths = 10 * done // self.total if self.total else 10
            if tenths > self._tenths or now - self._lined_at >= LINE_EVERY:
                self._tenths, self._lined_at = max(self._tenths, tenths), now
                self.stream.write(self.plain_line(now) + "\n")
                self.stream.flush()

    def __call__(self, done: int, total: int | None) -> None:
        """The ``progress(done, total)`` callback of ``viewer3d.export``."""
        self.update(done, total or done)

    def _fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 1.0

    def plain_line(self, now: float) -> str:
        """``120/650 games (18%), 4.1 games/s, about 2 min left`` (for logs)."""
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else None
        eta = (
            "" if left is None else f", about {left:.0f} s left" if left < 120 else f", about {left / 60:.0f} min left"
        )
        errors = f", AI errors: {self.errors}" if self.errors else ""
        percent = 100 * self._fraction()
        return (
            f"{self.label}{self.done}/{self.total} {self.unit} ({percent:.0f}%), {rate:.1f} {self.unit}/s{eta}{errors}"
        )

    def line(self) -> str:
        fraction = self._fraction()
        filled = round(BAR_WIDTH * fraction)
        elapsed = max(time.monotonic() - self.started, 1e-9)
        errors = f"  AI errors: {self.errors}" if self.errors else ""
        return (
            f"{self.label}[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {self.done}/{self.total} {self.unit}"
            f" {100 * fraction:3.0f}%  {self.done / elapsed:.1f} {self.unit}/s{errors}"
        )

    def finish(self) -> float:
        """End the bar (a newline on a terminal, the final line elsewhere); the elapsed seconds."""
        if self._elapsed is not None:
            return self._elapsed
        self._elapsed = time.monotonic() - self.started
        if self.interactive:
            self.stream.write("\r" + self.line() + CLEAR_TO_END + "\n")
        else:
            self.stream.write(f"{self.label}{self.done}/{self.total} {self.unit} in {self._elapsed:.2f} s")
            self.stream.write(f", AI errors: {self.errors}\n" if self.errors else "\n")
        self.stream.flush()
        return self._elapsed


EXIT_BAD_INPUT = 2
EXIT_BROKEN_INSTALL = 4  # a file that ships with the package is missing
EXIT_BROKEN_PIPE = 141  # what a shell reports for a program ended by SIGPIPE


def stdout_gone() -> bool:
    """Whether standard output's reader has gone (a pipe whose read end is closed reports an error
    condition to poll); if so, point it at /dev/null so that the interpreter's last flush at exit
    does not fail again. Where poll is missing (Windows), a broken pipe is taken to be stdout's."""
    import os
    import select

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        if not any(events & select.POLLERR for _, events in poller.poll(0)):
            return False
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
    return True


def run_command(prog: str, run: Callable[[], int]) -> int:
    """Run a command line's work and turn every expected failure into one line on stderr.

    Shared by the command lines so that bad input, file errors, a damaged installation and
    Ctrl-C / SIGTERM / SIGHUP read the same everywhere (and never as a traceback). The signals
    unwind like Ctrl-C, so that ``finally`` blocks end AI programs and remove their folders."""
    from engine.resources import ResourceMissing
    from engine.stopping import describe, exit_status, raise_on_signals

    raise_on_signals()
    try:
        return run()
    except BrokenPipeError as exc:
        if stdout_gone():  # the reader left (``| head``): stop quietly, as Unix tools do
            return EXIT_BROKEN_PIPE
        print(f"{prog}: {exc.strerror or exc}", file=sys.stderr)
    except InputError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
    except OSError as exc:
        # The name can come from a file (game.json's AI, run by 'round'): 100,000 characters were printed.
        where = f"{cut(printable(str(exc.filename)), MAX_NAME_SHOWN)}: " if exc.filename else ""
        print(f"{prog}: {where}{exc.strerror or exc}", file=sys.stderr)
    except ResourceMissing as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return EXIT_BROKEN_INSTALL
    except KeyboardInterrupt as stop:
        print(f"{prog}: {describe(stop)}", file=sys.stderr)
        return exit_status(stop)
    return EXIT_BAD_INPUT
