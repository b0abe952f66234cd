"""Atomic file writes: never leave a half-written file where the user's file was, never destroy anything else.

The new content goes to a temporary file in the target's folder and is renamed over the
target.  A rename replaces *whatever* is at the target, so the target is looked at first:

* a regular file is replaced, keeping its permission bits -- unless it is read-only (no write
  bit at all, or none for this user): a rename needs only the folder's permission, so without
  this check ``chmod a-w`` would protect nothing (as root, not even ``open`` would refuse);
* a symlink is followed to its final target, which is replaced (the link stays a link, as an
  editor's "save" would keep it), provided that target is a regular file or does not exist yet;
* anything else -- a folder, a device such as ``/dev/null``, a FIFO, a socket, or a symlink
  to one of those -- is refused with ``IsADirectoryError`` / ``FileExistsError``.

Every error names the path the user gave, never the hidden temporary file, and no temporary
file is left behind on any failure (full disk, no permission, interrupted write).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING would import typing on robots-ai's warm round (~2 ms)
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import BinaryIO

#: Symlink chains longer than this are refused, as the kernel refuses them (ELOOP).
MAX_LINKS = 40


def write_text_atomic(path: str | Path, text: str, *, follow_symlinks: bool = True) -> None:
    """Write ``text`` (UTF-8) to ``path`` via a temporary file in the same folder and a rename."""
    write_bytes_atomic(path, text.encode("utf-8"), follow_symlinks=follow_symlinks)


def resolve_target(path: str | Path, follow_symlinks: bool = True) -> Path:
    """The file a write to ``path`` must replace: ``path`` itself, or where its symlinks lead.

    With ``follow_symlinks`` False a symlink is itself the thing replaced (for folders an AI
    program writes in, where a planted link must not lead our next write elsewhere), and a
    read-only file there is replaced too (an AI must not stop the engine by ``chmod``).
    Raises OSError naming ``path`` when that is not a regular file (or nothing yet), and
    PermissionError when it is read-only (see :func:`is_read_only`).
    """
    given = Path(path)
    target = given
    for _ in range(MAX_LINKS):
        try:
            info = os.lstat(target)
        except FileNotFoundError:
            return target  # a new file (its folder may still be missing: mkstemp reports that)
        except OSError as exc:
            raise _named(exc, given) from None
        if stat.S_ISLNK(info.st_mode):
            if not follow_symlinks:
                return target
            link = Path(os.readlink(target))
            target = link if link.is_absolute() else target.parent / link
            continue
        if stat.S_ISREG(info.st_mode):
            if follow_symlinks and is_read_only(target, info.st_mode):
                raise PermissionError(errno.EACCES, "the file is read-only: refusing to replace it", str(given))
            return target
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file: refusing to replace it", str(given))
        raise FileExistsError(
            errno.EEXIST, f"is a {file_kind(info.st_mode)}, not a file: refusing to replace it", str(given)
        )
    raise OSError(errno.ELOOP, "too many levels of symbolic links", str(given))


def is_read_only(path: str | os.PathLike[str], mode: int | None = None) -> bool:
    """A file nobody may write (no write bit at all, which holds for root too), or this user may not.

    ``mode``: its ``st_mode`` when already known. A file that does not exist is not read-only.
    """
    if mode is None:
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            return False
    return not (mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)) or not os.access(path, os.W_OK)


class NotARegularFile(OSError):
    """What :func:`read_regular` refuses besides a folder: a FIFO, device or socket (``EINVAL``), or
    a file over its limit (``EFBIG``); ``strerror`` says which, in words."""


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file (or a link to one) of at most ``limit`` bytes.

    The one way the project reads a file it did not write: opened without blocking (a FIFO with
    no writer would hold ``open`` for ever) and looked at before reading (``/dev/zero`` never
    ends, a huge file eats memory); a file that grows while it is read is cut off at the limit.
    Raises ``IsADirectoryError`` for a folder, :class:`NotARegularFile` for the rest it refuses,
    and the usual OSError (``FileNotFoundError``...) where it cannot be opened.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", os.fspath(path))
        if not stat.S_ISREG(mode):
            raise NotARegularFile(errno.EINVAL, f"is a {file_kind(mode)}, not a regular file", os.fspath(path))
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise NotARegularFile(errno.EFBIG, f"more than {limit // (1024 * 1024)} MiB", os.fspath(path))
    return data


def file_kind(mode: int) -> str:
    """What a file that is not a regular file or a folder is, in words ("FIFO (named pipe)", "device", ...)."""
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def _named(exc: OSError, path: Path) -> OSError:
    """The same error, naming the user's file (not our temporary one)."""
    return type(exc)(exc.errno, exc.strerror, str(path))


def write_bytes_atomic(path: str | Path, data: bytes, *, follow_symlinks: bool = True) -> None:
    """Write ``data`` to ``path`` atomically; see the module docstring for what is refused."""
    write_files_atomic({Path(path): data}, follow_symlinks=follow_symlinks)


def write_files_atomic(files: Mapping[Path, str | bytes], *, follow_symlinks: bool = True) -> None:
    """Write several files (text is written as UTF-8) so that a failure changes none of them.

    Every target is checked and every new content written to its temporary file first (the
    steps that fail: a refused target, a full disk, no permission); only then are the files
    renamed into place, in the order given, so the last one (a state file) is replaced last.
    Each target is checked again just before its rename: something may have taken its place.
    """
    staged: list[tuple[str, Path, Path]] = []
    try:
        for path, content in files.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            target = resolve_target(path, follow_symlinks)
            folder = target.parent if str(target.parent) else Path(".")
            try:
                fd, tmp_name = _temporary(folder, target.name)
            except OSError as exc:
                raise _named(exc, path) from None
            staged.append((tmp_name, target, path))
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.chmod(tmp_name, _mode_for(target))
            except OSError as exc:
                raise _named(exc, path) from None
        for tmp_name, target, path in staged:
            resolve_target(path, follow_symlinks)
            try:
                os.replace(tmp_name, target)
            except OSError as exc:
                raise _named(exc, path) from None
    except BaseException:
        for tmp_name, _, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
        raise


@contextlib.contextmanager
def atomic_output(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` for a writer that wants a file name (PIL, ffmpeg, a stream
    written over minutes); renamed over ``path`` when the ``with`` block ends without an error.

    The same rules as :func:`write_files_atomic`: ``path`` is checked first and again before the
    rename (a symlink is followed, anything but a regular file or a read-only file is refused), the
    temporary file is ``.NAME.RANDOM.tmp`` (so one left by ``kill -9`` says what it is), it is
    removed on any failure, and errors name ``path``.
    """
    given = Path(path)
    target = resolve_target(given)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp_name = _temporary(folder, target.name)
    except OSError as exc:
        raise _named(exc, given) from None
    os.close(fd)
    try:
        os.chmod(tmp_name, _mode_for(target))
        yield Path(tmp_name)
        with open(tmp_name, "rb") as handle:  # what the writer wrote reaches the disk before the rename
            os.fsync(handle.fileno())
        target = resolve_target(given)  # something may have taken its place meanwhile
        os.replace(tmp_name, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        if exc.filename in (None, tmp_name):
            raise _named(exc, given) from None
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise


def open_log(path: str | Path, *, append: bool = True, follow_symlinks: bool = True) -> BinaryIO:
    """Open a log or record file to add to (``append``) or to start afresh, for writing in binary.

    Only a regular file is written: a folder, FIFO, device or socket (or a link to one) is refused
    with an OSError naming ``path`` at once (a FIFO is never waited on). With ``follow_symlinks``
    False (a folder an AI program writes in) a symlink, FIFO, device or socket found at ``path`` is
    removed and a new file made, so a link planted there never leads the write elsewhere; with it
    True a symlink is followed, as every save does, and a read-only file is refused.
    """
    given = Path(path)
    if follow_symlinks:
        target = resolve_target(given)
    else:
        target = given
        try:
            info = os.lstat(given)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise _named(exc, given) from None
        else:
            if not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
                try:
                    os.unlink(given)
                except OSError as exc:
                    raise _named(exc, given) from None
    flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    flags |= os.O_APPEND if append else 0
    flags |= 0 if follow_symlinks else getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(target, flags, 0o644)
    except OSError as exc:
        raise _named(exc, given) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileExistsError(errno.EEXIST, f"is a {file_kind(mode)}, not a file: refusing to write it", str(given))
        os.set_blocking(fd, True)
        if not append:
            os.ftruncate(fd, 0)  # only now: O_TRUNC would have emptied a file before it was looked at
        return os.fdopen(fd, "ab" if append else "wb")
    except BaseException:
        os.close(fd)
        raise


def _temporary(folder: Path, name: str) -> tuple[int, str]:
    """A new file ``.NAME.RANDOM.tmp`` in ``folder``, created exclusively (as ``tempfile.mkstemp``).

    Not ``tempfile`` itself: it imports shutil, random, bz2 and lzma, a few milliseconds that
    ``robots-ai`` pays every round to write one small file.
    """
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp_name = os.path.abspath(os.path.join(folder, f".{name}.{os.urandom(6).hex()}.tmp"))
        try:
            return os.open(tmp_name, flags, 0o600), tmp_name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(folder))


def _mode_for(target: Path) -> int:
    """The permission bits the new file gets: the old file's, or 0o644 for a new one (or a replaced link)."""
    try:
        info = os.lstat(target)  # a symlink here is one being replaced, not followed
        return info.st_mode & 0o7777 if stat.S_ISREG(info.st_mode) else 0o644
    except FileNotFoundError:
        return 0o644  # what a new file gets under the usual umask (mkstemp's own 0o600 would hide it)
