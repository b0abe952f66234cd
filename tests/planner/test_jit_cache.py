"""numba's compiled kernels go to the per-user cache folder, never beside the installed source.

In a virtual environment the user owns, numba's default (a writable ``__pycache__`` beside the
source) put them in ``site-packages/engine/ai/__pycache__``, and ``pip uninstall`` left them
there. Each case runs in a fresh interpreter: numba picks the folder when a kernel is decorated.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Prints the cache folder of every cached kernel of the planner's numba modules.
SHOW = """
import json
from engine.ai import plan_focus, plan_kernel
print(json.dumps(sorted({
    f.__name__: f._cache.cache_path
    for module in (plan_kernel, plan_focus)
    for f in vars(module).values()
    if hasattr(f, "_cache") and getattr(f, "__module__", "") == module.__name__
}.items())))
"""


def _cache_folders(tmp_path: Path, **extra: str) -> list[tuple[str, str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_") and k != "XDG_CACHE_HOME"}
    env.update({"HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT), **extra})
    result = subprocess.run(
        [sys.executable, "-c", SHOW], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    folders: list[tuple[str, str]] = [tuple(pair) for pair in json.loads(result.stdout)]
    assert len(folders) >= 10, "the planner's cached kernels were found"
    return folders


@pytest.mark.parametrize("xdg", [True, False])
def test_kernels_are_cached_in_the_user_cache_folder(tmp_path: Path, xdg: bool) -> None:
    extra = {"XDG_CACHE_HOME": str(tmp_path / "xdg")} if xdg else {}
    root = tmp_path / "xdg" if xdg else tmp_path / "home" / ".cache"
    for name, folder in _cache_folders(tmp_path, **extra):
        assert Path(folder).is_relative_to(root / "robots" / "numba"), (name, folder)
        assert not Path(folder).is_relative_to(ROOT), (name, folder)


def test_numba_cache_dir_set_by_the_user_wins(tmp_path: Path) -> None:
    chosen = tmp_path / "mine"
    for name, folder in _cache_folders(tmp_path, NUMBA_CACHE_DIR=str(chosen)):
        assert Path(folder).is_relative_to(chosen), (name, folder)


def test_without_a_writable_cache_folder_a_private_one_is_used_and_removed(tmp_path: Path) -> None:
    """A read-only install run by ``nobody`` (home ``/nonexistent``): numba found no folder to
    cache in and refused to decorate the kernels, a traceback from ``--ai planner``. A home below
    a file cannot be made even by root, as the read-only install cannot be written by ``nobody``."""
    (tmp_path / "file").write_text("")
    private = tmp_path / "tmp"
    private.mkdir()
    folders = _cache_folders(tmp_path, HOME=str(tmp_path / "file" / "home"), TMPDIR=str(private))
    for name, folder in folders:
        assert Path(folder).is_relative_to(private), (name, folder)
    assert list(private.iterdir()) == [], "the private folder is removed at exit"


def test_compile_kernels_covers_every_kernel_a_real_plan_calls() -> None:
    """After ``compile_kernels`` (what ``./run setup`` and ``robots-ai --warm`` run first), planning
    real boards, whole or focused, with hopeless poses or not, needs no kernel signature it lacks:
    nothing is compiled inside a board's precomputation."""
    from engine.ai import plan_focus, plan_kernel
    from engine.ai.plan_table import build_table, state_index
    from engine.ai.planner import compile_kernels, forget_plans, plan_for
    from engine.boardfile import load_board
    from engine.model import Level
    from gameboards import board_path

    def signatures() -> dict[str, int]:
        return {
            f"{module.__name__}.{name}": len(value.signatures)
            for module in (plan_kernel, plan_focus)
            for name, value in vars(module).items()
            if hasattr(value, "signatures") and hasattr(value, "stats")
        }

    compile_kernels()
    before = signatures()
    assert sum(count > 0 for count in before.values()) >= 7  # at least the ones called from Python
    forget_plans()
    for name in ("wall-garden-12x12.dat", "no-way-to-goal.dat", "oil-runs-12x8.dat"):
        plan_for(load_board(board_path(name)), Level.HARD, cache_dir=None)
    board = load_board(board_path("chop.dat"))
    starts = [state_index(board, start) for start in board.starts]
    plan_focus.solve_planned(build_table(board, Level.HARD, starts), starts, time_limit=60, focus_from=0)
    forget_plans()
    assert signatures() == before
