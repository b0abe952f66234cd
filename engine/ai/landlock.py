"""Keeping an AI program's writes inside its own folder (Linux Landlock).

Resource limits and the subreaper stop what an AI *runs*; nothing stopped what it *writes*: a
program could write ``../../x`` or ``$HOME/x``, or delete the organiser's files, with the
organiser's rights.  Landlock (Linux 5.13+, unprivileged) lets a process give up rights for
itself and everything it starts, for good: between fork and exec the child keeps the right to
create, write, rename and delete only beneath its working folder (and to write ``/dev/null``).
Reading stays open everywhere, since interpreters and libraries live all over the system, and
files already open (the output pipe) are not affected.

Where the kernel has no Landlock (older kernels, other systems) :func:`confine_writes` does
nothing; :func:`available` says which, and ``--ai-limit sandbox=1`` is refused there (a sandbox
that silently did nothing would be worse than none), as a program it cannot confine is not run
(``engine.ai.supervise.child_setup``).  ``--ai-limit sandbox=1`` turns it on; it is off by
default because some AIs write elsewhere (``robots-ai`` building a plan cache in the user's home
folder, numba's cache beside its code).
"""

from __future__ import annotations

import ctypes
import functools
import os

_CREATE_RULESET = 444  # the same number on every Linux architecture (the syscalls are newer than the split)
_ADD_RULE = 445
_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

_WRITE_FILE = 1 << 1
_REMOVE_DIR = 1 << 4
_REMOVE_FILE = 1 << 5
_MAKE_ALL = sum(1 << bit for bit in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
_REFER = 1 << 13  # ABI 2: moving a file to another folder
_TRUNCATE = 1 << 14  # ABI 3

#: Files outside the folder that programs commonly open for writing.
WRITABLE_FILES = ("/dev/null",)


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


@functools.cache
def _libc() -> ctypes.CDLL:
    """The C library, loaded once in the parent (loading it in a forked child could deadlock)."""
    return ctypes.CDLL(None, use_errno=True)


def abi_version() -> int:
    """The kernel's Landlock ABI version; 0 where there is none (or not Linux)."""
    try:
        libc = _libc()
        version = int(libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION)))
    except (OSError, AttributeError):
        return 0
    return max(version, 0)


def available() -> bool:
    """Whether :func:`confine_writes` can confine anything on this system."""
    return abi_version() > 0


def _write_rights(abi: int) -> int:
    rights = _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE_ALL
    if abi >= 2:
        rights |= _REFER
    if abi >= 3:
        rights |= _TRUNCATE
    return rights


def confine_writes(folder: str | os.PathLike[str], abi: int) -> bool:
    """Let the calling process (and all it starts) write only beneath ``folder``; whether it did.

    Run in the child between fork and exec; ``abi`` is :func:`abi_version`, asked in the parent
    (once, not in every child).  A folder that cannot be opened, or a kernel without Landlock,
    leaves the process as it was and returns False.
    """
    if abi <= 0:
        return False
    libc = _libc()
    rights = _write_rights(abi)
    attr = _RulesetAttr(rights)
    ruleset = int(libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), 0))
    if ruleset < 0:
        return False
    try:
        file_rights = _WRITE_FILE | (_TRUNCATE if abi >= 3 else 0)
        beneath = [(os.fspath(folder), rights), *((path, file_rights) for path in WRITABLE_FILES)]
        for path, allowed in beneath:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                if path == os.fspath(folder):
                    return False
                continue
            try:
                rule = _PathBeneathAttr(allowed, fd)
                if libc.syscall(_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0) != 0:
                    return False
            finally:
                os.close(fd)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return int(libc.syscall(_RESTRICT_SELF, ruleset, 0)) == 0
    finally:
        os.close(ruleset)
