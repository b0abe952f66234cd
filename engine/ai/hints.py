"""Why an AI program cannot run, in words an AI author can act on.

The operating system's own messages ("Exec format error", env's "use -[v]S to pass options in
shebang lines", "Permission denied") name the symptom, not the cause.  These functions look at
the program file and name the cause: source code that was never compiled, a script without a
``#!`` line, a ``#!`` line ending in a Windows carriage return, an interpreter that does not
exist, a program that wrote its cards but did not exit in time.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
from pathlib import Path

from engine.atomic import file_kind
from engine.deck import parse_cards
from engine.errors import InputError
from engine.protocol import CHOSEN_FILE

#: File endings of source code that must be compiled before it can run, with how to compile it.
SOURCE_ENDINGS = {
    ".c": "cc -O2 -o {stem} {name}",
    ".cc": "c++ -O2 -o {stem} {name}",
    ".cpp": "c++ -O2 -o {stem} {name}",
    ".cxx": "c++ -O2 -o {stem} {name}",
    ".rs": "rustc -O {name}",
    ".go": "go build {name}",
    ".pas": "fpc {name}",
    ".hs": "ghc -O2 {name}",
    ".java": "javac {name} (then give {option}'java {stem}')",
    ".f90": "gfortran -O2 -o {stem} {name}",
}
#: Interpreters for scripts by file ending, for the "no #! line" hint.
INTERPRETERS = {
    ".py": "python3",
    ".sh": "sh",
    ".pl": "perl",
    ".rb": "ruby",
    ".js": "node",
    ".lua": "lua",
    ".php": "php",
}


def _head(path: Path, size: int = 512) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(size)
    except OSError:
        return b""


def interpreter_of(path: str | os.PathLike[str]) -> str:
    """The interpreter a script's '#!' line names (``sh``, ``python3``); ``python3`` without one.

    A script that lost its execute bit is best run by the interpreter it names: telling the author
    of a shell script to try ``python3`` sends them the wrong way."""
    first = _head(Path(path)).split(b"\n", 1)[0]
    words = first[2:].decode("utf-8", errors="replace").split() if first.startswith(b"#!") else []
    if words and Path(words[0]).name == "env":
        words = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
    return Path(words[0]).name if words else "python3"


def _given(option: str) -> str:
    """How a command is given: ``--ai 'CMD'`` for the robots AIs, a plain ``'CMD'`` where ``option`` is empty."""
    return f"{option} " if option else ""


def _interpreter_line(path: Path, option: str = "--ai") -> str:
    name = path.name
    interpreter = INTERPRETERS.get(path.suffix.lower())
    shebang = f"#!/usr/bin/env {interpreter}" if interpreter else "#!/usr/bin/env python3"
    run = f"{interpreter} {shlex.quote(str(path))}" if interpreter else f"python3 {shlex.quote(name)}"
    return f"start it with a line such as '{shebang}', or name the interpreter: {_given(option)}'{run}'"


def file_problem(program: str | os.PathLike[str], option: str = "--ai") -> str | None:
    """Why the existing file ``program`` cannot be started as an AI, or None if it looks runnable.

    ``option`` is how a program is given on the command line (``--ai``; empty where it is a plain
    argument, as a Tron bot is)."""
    path = Path(program)
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if not stat.S_ISREG(mode):  # a FIFO was told "try chmod +x", which cannot help
        return None if stat.S_ISDIR(mode) else f"{path.name} is a {file_kind(mode)}, not a program"
    compile_line = SOURCE_ENDINGS.get(path.suffix.lower())
    if compile_line is not None:
        how = compile_line.format(stem=shlex.quote(path.stem), name=shlex.quote(path.name), option=_given(option))
        give = f"give the program to {option}" if option else "give the program instead"
        return f"{path.name} is source code, not a program: compile it first ({how}) and {give}"
    head = _head(path)
    if head.startswith(b"\x7fELF") or not head:
        return None
    first = head.split(b"\n", 1)[0]
    if head.startswith(b"#!"):
        if first.endswith(b"\r"):
            return (
                "its first line ends in a carriage return (Windows line ends), so the '#!' line names no"
                f" interpreter: convert the file, e.g. sed -i 's/\\r$//' {shlex.quote(str(path))}"
            )
        words = first[2:].decode("utf-8", errors="replace").split()
        if words and words[0].startswith("/") and not Path(words[0]).exists():
            return f"its '#!' line names {words[0]}, which does not exist on this machine"
        if words and Path(words[0]).name == "env":
            names = [w for w in words[1:] if not w.startswith("-")]
            if names and shutil.which(names[0]) is None:
                return f"its '#!' line runs {names[0]!r}, which is not installed (not on PATH)"
        return None
    if b"\0" in head:
        return None  # some binary format the kernel may know; let it try
    return f"it has no '#!' line saying how to run it: {_interpreter_line(path, option)}"


def program_hint(program: str, *, code: int | None = None, output: str = "", option: str = "--ai") -> str | None:
    """A hint for a program that could not be started (or exited 126/127 at once), or None."""
    path = Path(program)
    if not path.exists():
        return None
    if code is not None and code not in (126, 127):
        return None
    if path.is_dir():
        return "it is a folder, not a program"
    problem = file_problem(path, option)
    if problem is not None:
        return problem
    if code is None and not os.access(path, os.X_OK):
        quoted = shlex.quote(str(path))
        return f"try chmod +x {quoted}, or name the interpreter: {_given(option)}'{interpreter_of(path)} {quoted}'"
    return None


def timeout_hint(folder: str | os.PathLike[str], code: int | None) -> str | None:
    """For a program that timed out: did it write a good answer and then fail to exit?"""
    path = Path(folder) / CHOSEN_FILE
    try:
        if not path.is_file() or path.stat().st_size > 4096:
            return None
        cards = parse_cards(path.read_text(encoding="utf-8", errors="replace"), path)
    except (OSError, InputError):
        return None
    if len(cards) != 5:
        return None
    return f"it had written {CHOSEN_FILE}, but the program itself must exit within the time limit"
