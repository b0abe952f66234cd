"""numba, with the cache of compiled kernels in the per-user cache folder, never in the package.

numba's own choice is a ``__pycache__`` beside the source whenever that folder is writable. In a
virtual environment the user owns, the planner's kernels went into
``site-packages/engine/ai/__pycache__``, where ``pip uninstall`` (which removes what the wheel
installed) left them, and their ``engine`` folder with them; only a read-only install fell back
to ``~/.cache/numba``. ``$NUMBA_CACHE_DIR``, when the user sets it, still wins.

Every module with ``cache=True`` kernels imports numba from here (``from engine.ai.jit_cache
import numba``): the folder must be chosen before the first decorator runs, as numba picks a
kernel's cache folder when it is decorated.
"""

from __future__ import annotations

import numba

from engine.ai.plan_file import user_cache_root

#: The folder under the per-user cache root (next to the planner's plan cache).
NUMBA_FOLDER = ("robots", "numba")


def _choose_cache_dir() -> None:
    settings = vars(numba.config)  # its settings are made at run time: no attributes a type checker sees
    if settings.get("CACHE_DIR"):  # $NUMBA_CACHE_DIR
        return
    try:
        root = user_cache_root()
    except RuntimeError:  # no home folder to be found: numba's own fallbacks remain
        return
    # numba re-reads its settings from the environment only when a NUMBA_ variable changes, so
    # the value set here holds for the whole process.
    settings["CACHE_DIR"] = str(root.joinpath(*NUMBA_FOLDER))


_choose_cache_dir()

__all__ = ["numba"]
