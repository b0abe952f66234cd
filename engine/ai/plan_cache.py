"""On-disk cache of planner tables, keyed by board text, level and table-format version.

A file is trusted only if it loads, carries the same key and format version, and its arrays have
the shapes the board implies; otherwise it is recomputed. Files are written atomically, so a
crashed writer leaves either the old file or none.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import numpy as np

from engine.ai.plan_table import CARDS, TransitionTable, occupiable_states
from engine.atomic import write_bytes_atomic
from engine.boardfile import write_board
from engine.model import Board, Level

#: Bump when the meaning or layout of the cached arrays changes.
TABLE_FORMAT_VERSION = 2
CACHE_FOLDER = ".robots-ai-cache"


def cache_key(board: Board, level: Level) -> str:
    text = f"{write_board(board)}\n{level.value}\nformat {TABLE_FORMAT_VERSION}\n"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_path(folder: Path, board: Board, level: Level) -> Path:
    return folder / f"{cache_key(board, level)}.npz"


def load_cached(folder: Path, board: Board, level: Level) -> tuple[TransitionTable, np.ndarray] | None:
    """The cached table and values, or None if missing, stale or damaged in any way."""
    path = cache_path(folder, board, level)
    try:
        with np.load(path, allow_pickle=False) as data:
            key = str(data["key"])
            version = int(data["version"])
            nxt = np.array(data["next"], dtype=np.int32)
            values = np.array(data["values"], dtype=np.float64)
            digest = str(data["digest"])
    except Exception:  # any unreadable or partial file: recompute
        return None
    states = board.width * board.height * 4 + 2
    if key != cache_key(board, level) or version != TABLE_FORMAT_VERSION or digest != _digest(nxt, values):
        return None
    if nxt.shape != (len(CARDS), states) or values.shape != (states,):
        return None
    if nxt.min() < 0 or nxt.max() >= states or not np.all(np.isfinite(values)):
        return None
    nxt.setflags(write=False)
    return TransitionTable(board.width, board.height, nxt, occupiable_states(board, level, nxt)), values


def store(folder: Path, board: Board, level: Level, table: TransitionTable, values: np.ndarray) -> None:
    """Write the cache file atomically (failures to write are not errors: the cache is optional)."""
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        key=np.array(cache_key(board, level)),
        version=np.array(TABLE_FORMAT_VERSION),
        next=table.next,
        values=values,
        digest=np.array(_digest(table.next, values)),
    )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(cache_path(folder, board, level), buffer.getvalue())
    except OSError:
        pass


def _digest(nxt: np.ndarray, values: np.ndarray) -> str:
    """A checksum of the arrays as stored (int32 table, float64 values)."""
    h = hashlib.sha256(np.ascontiguousarray(nxt, dtype=np.int32).tobytes())
    h.update(np.ascontiguousarray(values, dtype=np.float64).tobytes())
    return h.hexdigest()
