"""An append-only journal of finished jobs: one JSON line each, fsync'd, read back to resume.

The first line names the batch (a *fingerprint*: what was asked for, e.g. boards, decks, level
and AI), so a journal is never resumed with other settings.  Each further line is
``{"key": KEY, "row": ROW}``.  A line cut short by ``kill -9`` or a power cut (the last one)
is dropped when the journal is read back, and cut off before anything new is appended.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.atomic import read_regular, resolve_target
from engine.bounds import shown
from engine.errors import InputError

FORMAT = 1
#: How every journal's first line starts (``Journal._write`` of the header).
_HEADER_START = b'{"journal":%d,' % FORMAT
#: Most bytes of a journal read back: a row takes about 300 bytes, so some three million games.
MAX_JOURNAL_BYTES = 1024 * 1024 * 1024


class JournalError(InputError):
    """A journal that cannot be used: another batch's, unreadable, or in the way."""


class Journal:
    """Append rows, each durable before :meth:`append` returns; ``done`` holds the rows so far."""

    def __init__(self, path: Path, fingerprint: Mapping[str, Any], done: dict[str, dict[str, Any]], fd: int) -> None:
        self.path = path
        self.fingerprint = dict(fingerprint)
        self.done = done
        self._fd = fd
        #: Whether this run made the file (so an empty one may be removed again).
        self.created = False

    @classmethod
    def open(cls, path: str | Path, fingerprint: Mapping[str, Any], *, resume: bool) -> Journal:
        """Start a journal at ``path``, or with ``resume`` continue the one there (if any).

        Without ``resume`` an existing journal is an error (its results would be lost); with
        it, a journal of another batch (another fingerprint) is one too.
        """
        given = Path(path)
        wanted = json.loads(json.dumps(dict(fingerprint)))  # as it reads back from the file
        done: dict[str, dict[str, Any]] = {}
        try:  # a link is followed (a dangling one made), a FIFO, folder or read-only file refused
            target = resolve_target(given)
        except OSError as exc:
            raise JournalError(f"cannot write the journal: {exc.strerror or exc}", given) from None
        if target.exists():
            if not resume:
                raise JournalError(
                    "holds the journal of an earlier run: add --resume to finish it, or choose another --out", target
                )
            done, good_bytes = _read(given, wanted)
            try:
                fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
                os.ftruncate(fd, good_bytes)  # drop a line cut short by a crash
            except OSError as exc:
                raise JournalError(f"cannot write the journal: {exc.strerror or exc}", given) from None
            journal = cls(given, wanted, done, fd)
            if good_bytes == 0:
                journal._write({"journal": FORMAT, "fingerprint": wanted})
            return journal
        try:
            fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise JournalError(f"cannot write the journal: {exc.strerror or exc}", given) from None
        journal = cls(given, wanted, done, fd)
        journal.created = True
        journal._write({"journal": FORMAT, "fingerprint": wanted})
        return journal

    def discard_if_empty(self) -> None:
        """Remove the file again if this run made it and no row was written (nothing was played)."""
        self.close()
        if self.created and not self.done:
            self.path.unlink(missing_ok=True)

    def append(self, key: str, row: Mapping[str, Any]) -> None:
        """Record a finished job; on return the line is on disk."""
        self._write({"key": key, "row": dict(row)})
        self.done[key] = dict(row)

    def _write(self, record: Mapping[str, Any]) -> None:
        data = (json.dumps(record, separators=(",", ":"), ensure_ascii=True) + "\n").encode()
        size = os.fstat(self._fd).st_size
        try:
            written = 0
            while written < len(data):
                written += os.write(self._fd, data[written:])
            os.fsync(self._fd)
        except OSError as exc:  # a full disk: no half line is left behind, the error names the journal
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, size)
            raise OSError(exc.errno, exc.strerror, str(self.path)) from None

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _differing(found: object, wanted: dict[str, Any]) -> str:
    """Which settings differ, by the fingerprint's keys (a robots contest's boards, decks, level, AI;
    a Tron tournament's bots, arenas, limits), e.g. ``bots, time_limit differ``."""
    if not isinstance(found, dict):
        return "the journal names none"
    keys = [key for key in sorted(set(found) | set(wanted)) if found.get(key) != wanted.get(key)]
    named = [key if key.isidentifier() and len(key) <= 20 else shown(key, 20) for key in keys[:6]]
    return ", ".join(named) + (", ..." if len(keys) > 6 else "") + " differ"


def _read(path: Path, fingerprint: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], int]:
    """The rows of a journal and the length of its intact part; JournalError if it is not ours."""
    try:
        data = read_regular(path, MAX_JOURNAL_BYTES)  # a FIFO or /dev/zero named journal.jsonl: refused, not read
    except OSError as exc:
        raise JournalError(f"cannot read: {exc.strerror or exc}", path) from None
    done: dict[str, dict[str, Any]] = {}
    offset = 0
    for number, raw in enumerate(data.splitlines(keepends=True), start=1):
        if not raw.endswith(b"\n"):
            if number == 1 and not _HEADER_START.startswith(raw[: len(_HEADER_START)]):
                # Not a header cut short but someone else's file (one line, no newline at its
                # end): the truncation below would have emptied it.
                raise JournalError(f"not a journal of format {FORMAT}", path, 1, 1)
            break  # the last line, cut short
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            raise JournalError("damaged line: not JSON", path, number, 1) from None
        if number == 1:
            if not isinstance(record, dict) or record.get("journal") != FORMAT:
                raise JournalError(f"not a journal of format {FORMAT}", path, 1, 1)
            found = record.get("fingerprint")
            if found != fingerprint:
                raise JournalError(
                    f"is the journal of a run with other settings ({_differing(found, fingerprint)}): "
                    "resume it with those, or choose another --out",
                    path,
                    1,
                    1,
                )
        else:
            key, row = (record.get("key"), record.get("row")) if isinstance(record, dict) else (None, None)
            if not isinstance(key, str) or not isinstance(row, dict):
                raise JournalError("damaged line: expected a key and a row", path, number, 1)
            done[key] = row
        offset += len(raw)
    return done, offset  # 0: not even the first line was complete; it is written anew
