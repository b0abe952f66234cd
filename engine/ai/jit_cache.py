"""numba, with the cache of compiled kernels in the per-user cache folder, never in the package.

numba's own choice is a ``__pycache__`` beside the source whenever that folder is writable. In a
virtual environment the user owns, the planner's kernels went into
``site-packages/engine/ai/__pycache__``, where ``pip uninstall`` (which removes what the wheel
installed) left them, and their ``engine`` folder with them; only a read-only install fell back
to ``~/.cache/numba``. ``$NUMBA_CACHE_DIR``, when the user sets it, still wins.

Where no folder can be written (a read-only install run by an account without a home, such as
``nobody``), numba refused to decorate the kernels at all ("cannot cache function 'tier': no
locator available", a traceback from ``robots-engine play --ai planner``): the kernels are then
cached in a private temporary folder for this process only (compiled again next time), removed
at exit.

Every module with ``cache=True`` kernels imports numba from here (``from engine.ai.jit_cache
import numba``): the folder must be chosen before the first decorator runs, as numba picks a
kernel's cache folder when it is decorated.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from types import ModuleType

import numba

from engine.ai.plan_file import user_cache_root

#: The folder under the per-user cache root (next to the planner's plan cache).
NUMBA_FOLDER = ("robots", "numba")


def _writable(folder: str) -> bool:
    """Whether numba can keep files in ``folder``: tried as numba does (make it, create a file)."""
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _user_folder() -> str | None:
    try:
        return str(user_cache_root().joinpath(*NUMBA_FOLDER))
    except RuntimeError:  # no home folder to be found
        return None


def _private_folder() -> str | None:
    """A folder of this process's own (mode 0700: no other account can plant compiled code in it)."""
    try:
        folder = tempfile.mkdtemp(prefix="robots-numba-")
    except OSError:
        return None
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _choose_cache_dir() -> None:
    settings = vars(numba.config)  # its settings are made at run time: no attributes a type checker sees
    chosen = settings.get("CACHE_DIR") or _user_folder()  # $NUMBA_CACHE_DIR first
    if chosen is None or not _writable(chosen):
        chosen = _private_folder()
    if chosen is not None:
        # numba re-reads its settings from the environment only when a NUMBA_ variable changes,
        # so the value set here holds for the whole process.
        settings["CACHE_DIR"] = chosen


_choose_cache_dir()


def kernels_compiled(module: ModuleType) -> int:
    """How many of ``module``'s kernels this process compiled rather than loaded from the cache.

    A first run on a machine compiles them (~20 s on the planner's): a time limit of a second
    then "stopped early after 1 sweep (24 s)", which reads like a broken limit unless it is said.
    """
    return sum(
        sum(stats.cache_misses.values())
        for value in vars(module).values()
        if (stats := getattr(value, "stats", None)) is not None and hasattr(stats, "cache_misses")
    )


__all__ = ["kernels_compiled", "numba"]
