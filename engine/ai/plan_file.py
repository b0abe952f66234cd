"""The planner's cache file: one board and level's table and values, readable without numpy.

``robots-ai`` is a new process every round, so a warm round must read this file and decide in a
few milliseconds; importing numpy alone costs more than that. The format is therefore plain:

    ROBOTS-PLAN <format version>\\n
    <one line of JSON: key, width, height, states, how the value iteration ended, sha256>\\n
    next   int32   7 x states   (the transition table, card-major)
    goal   float64 states       (best goal probability)
    won    float64 states       (least E[rounds x 1(goal)])
    alive  float64 states       (survival probability where no goal can be reached)
    solved uint8   states       (1 where the values were iterated)

all little-endian. A file is trusted only if it is a regular file of at most ``MAX_FILE_BYTES``
and the magic line, key, sizes, report, digest and value ranges check out; anything else is
ignored (and rewritten by the next cold run). Files are written atomically, so concurrent games
on one board never see half a file.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
import sys
from array import array
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING would import typing on the warm path
if TYPE_CHECKING:
    from engine.model import Board, Level

#: Bump when the meaning or layout of the stored arrays changes.
FORMAT_VERSION = 4
MAGIC = b"ROBOTS-PLAN %d\n" % FORMAT_VERSION
KINDS = 7
#: Most bytes read from a cache file (``engine.bounds.MAX_FILE_BYTES``, not imported: the warm path
#: stays small). The biggest board's plan (262,144 tiles) takes about 56 MB.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: What the report in a file's header may hold: each key's accepted types (bool is not a number here).
REPORT_TYPES: dict[str, tuple[type, ...]] = {
    "sweeps": (int,),
    "updates": (int,),
    "converged": (bool,),
    "residual_goal": (int, float),
    "residual_rounds": (int, float),
    "seconds": (int, float),
    "exit_mass": (int, float),
}
#: Environment variable and folder names of the per-user cache (XDG base directory rules).
CACHE_ENV = "ROBOTS_AI_CACHE"


def default_cache_dir() -> Path:
    """``$ROBOTS_AI_CACHE``, else ``$XDG_CACHE_HOME/robots/planner``, else ``~/.cache/robots/planner``."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    return user_cache_root() / "robots" / "planner"


def user_cache_root() -> Path:
    """``$XDG_CACHE_HOME`` (when absolute, as the XDG rules ask), else ``~/.cache``: the root of
    every per-user cache (the plan cache here, numba's compiled kernels in ``jit_cache``)."""
    base = os.environ.get("XDG_CACHE_HOME")
    return Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"


def cache_key(board: Board, level: Level) -> str:
    from engine.boardfile import write_board

    return text_key(write_board(board), level.value)


def text_key(board_text: str, level_name: str) -> str:
    """The cache key of a board given as its canonical board-file text (``write_board``)."""
    text = f"{board_text}\n{level_name}\nformat {FORMAT_VERSION}\n"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_path(folder: Path, board: Board, level: Level) -> Path:
    return folder / f"{cache_key(board, level)}.plan"


class PlanData:
    """The stored arrays as flat ``array`` objects (no numpy) and the iteration's report.

    A plain class, not a dataclass: importing ``dataclasses`` costs a warm round milliseconds.
    """

    __slots__ = ("alive", "goal", "height", "next", "report", "solved", "width", "won")

    def __init__(
        self,
        width: int,
        height: int,
        next: array[int],  # card-major: next[card * states + state]
        goal: array[float],
        won: array[float],
        alive: array[float],
        solved: array[int],
        report: dict[str, object] | None = None,
    ) -> None:
        self.width = width
        self.height = height
        self.next = next
        self.goal = goal
        self.won = won
        self.alive = alive
        self.solved = solved
        self.report: dict[str, object] = {} if report is None else report

    @property
    def states(self) -> int:
        return self.width * self.height * 4 + 2


def _le(values: array[int] | array[float]) -> bytes:
    if sys.byteorder == "little":
        return values.tobytes()
    swapped = array(values.typecode, values)
    swapped.byteswap()
    return swapped.tobytes()


def encode(key: str, data: PlanData) -> bytes:
    payload = _le(data.next) + _le(data.goal) + _le(data.won) + _le(data.alive) + data.solved.tobytes()
    header = {
        "key": key,
        "width": data.width,
        "height": data.height,
        "states": data.states,
        "report": data.report,
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    return MAGIC + json.dumps(header, sort_keys=True).encode("utf-8") + b"\n" + payload


def decode(raw: bytes, key: str) -> PlanData | None:
    """The file's arrays, or None if it is not a sound plan for ``key``."""
    if not raw.startswith(MAGIC):
        return None
    end = raw.find(b"\n", len(MAGIC))
    if end < 0:
        return None
    try:
        header = json.loads(raw[len(MAGIC) : end].decode("utf-8"))
        width, height, states = header["width"], header["height"], header["states"]
        stored_key, digest, report = header["key"], header["sha256"], header.get("report", {})
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError):
        return None  # RecursionError: a header of thousands of nested brackets
    if not all(type(number) is int for number in (width, height, states)):
        return None  # 1e400 is a float (inf), "12" a string: this program never writes either
    if not isinstance(stored_key, str) or not isinstance(digest, str) or not _sound_report(report):
        return None
    payload = raw[end + 1 :]
    if stored_key != key or width < 1 or height < 1 or states != width * height * 4 + 2:
        return None
    if len(payload) != states * (4 * KINDS + 8 + 8 + 8 + 1) or hashlib.sha256(payload).hexdigest() != digest:
        return None
    arrays: list[array[int] | array[float]] = []
    offset = 0
    for typecode, count in (("i", KINDS * states), ("d", states), ("d", states), ("d", states), ("B", states)):
        values = array(typecode)
        size = values.itemsize * count
        values.frombytes(payload[offset : offset + size])
        if sys.byteorder != "little" and typecode != "B":
            values.byteswap()
        arrays.append(values)
        offset += size
    nxt, goal, won, alive, solved = arrays
    # sum() is NaN or inf if any value is; min and max run in C, so this stays fast on big boards.
    if min(nxt) < 0 or max(nxt) >= states or max(solved) > 1:
        return None
    if not math.isfinite(sum(goal) + sum(won) + sum(alive)) or min(goal) < 0.0 or max(goal) > 1.0 or min(won) < 0.0:
        return None
    if min(alive) < 0.0 or max(alive) > 1.0:
        return None
    return PlanData(
        width,
        height,
        nxt,  # type: ignore[arg-type]
        goal,  # type: ignore[arg-type]
        won,  # type: ignore[arg-type]
        alive,  # type: ignore[arg-type]
        solved,  # type: ignore[arg-type]
        report if isinstance(report, dict) else {},
    )


def _sound_report(report: object) -> bool:
    """Whether a header's report holds only what ``to_data`` writes: known keys, each of its type,
    numbers not NaN and not negative (a hand-edited ``"sweeps": 1e400`` must not crash a reader)."""
    if not isinstance(report, dict):
        return False
    for name, value in report.items():
        kinds = REPORT_TYPES.get(name)
        if kinds is None or type(value) not in kinds:
            return False
        if type(value) is not bool and not value >= 0:  # NaN fails too
            return False
        if type(value) is int and value > 10**15:
            return False
    return True


def load(folder: Path, board: Board, level: Level) -> PlanData | None:
    """The cached plan of ``board`` and ``level`` in ``folder``, or None if missing or unsound."""
    data = load_keyed(folder, cache_key(board, level))
    if data is None or data.width != board.width or data.height != board.height:
        return None
    return data


def load_keyed(folder: str | Path, key: str) -> PlanData | None:
    """The cached plan stored under ``key`` in ``folder``, or None if missing or unsound."""
    try:
        raw = _read_regular(os.path.join(folder, f"{key}.plan"))
    except OSError:
        return None
    return decode(raw, key) if raw is not None else None


def _read_regular(path: str) -> bytes | None:
    """The bytes of a regular file of at most ``MAX_FILE_BYTES``; None for anything else (a FIFO
    would hold the entry until the contest's timeout, ``/dev/zero`` never ends)."""
    from engine.atomic import NotARegularFile, read_regular

    try:
        return read_regular(path, MAX_FILE_BYTES)
    except (NotARegularFile, IsADirectoryError):
        return None


def store(folder: Path, board: Board, level: Level, data: PlanData) -> Path | None:
    """Write the plan atomically; a cache that cannot be written is not an error (None)."""
    try:
        return write(folder, board, level, data)
    except OSError:
        return None


def write(folder: Path, board: Board, level: Level, data: PlanData) -> Path:
    """Write the plan atomically (creating ``folder``); OSError says why it could not be written."""
    from engine.atomic import write_bytes_atomic

    path = cache_path(folder, board, level)
    folder.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(path, encode(cache_key(board, level), data))
    remove_stale_temporaries(folder)
    return path


#: A temporary plan file older than this was left by a writer that was killed (a --warm has
#: a time limit of 10 minutes by default; a day leaves any real writer far alone).
STALE_SECONDS = 24 * 3600.0


def remove_stale_temporaries(folder: Path, now: float | None = None) -> int:
    """Remove the ``.KEY.plan.RANDOM.tmp`` files that writers killed between writing and renaming
    left in ``folder`` (up to tens of MB each), once they are a day old; how many went."""
    import time

    cutoff = (time.time() if now is None else now) - STALE_SECONDS
    removed = 0
    for entry in folder.glob(".*.plan.*.tmp"):
        try:
            info = entry.lstat()
            if stat.S_ISREG(info.st_mode) and info.st_mtime < cutoff:
                entry.unlink()
                removed += 1
        except OSError:  # gone already, or not ours to remove: leave it
            continue
    return removed
