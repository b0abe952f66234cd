"""Draw only the instances near what the camera sees, still in ONE draw call.

Instances are sorted into square chunks of the board; each frame the chunks' bounding boxes are
tested against the view frustum (numpy, a few hundred boxes at most for 512x512) and the visible
ones become the commands of one ``glMultiDrawElementsIndirect`` call. So a close-up of a 512x512
board pays for the walls on screen, not for all 130,000 of them. Where the context is older than
OpenGL 4.3 (macOS stops at 4.1), the visible chunks' rows are copied into the instance buffer
instead (``visible_rows``), again one draw."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

CHUNK_TILES = 16


class ChunkedInstances:
    """Instance rows sorted by chunk, with each chunk's range and world bounding box."""

    def __init__(self, rows: NDArray[np.float32], chunk_tiles: int = CHUNK_TILES) -> None:
        if len(rows) == 0:
            self.rows = rows
            self.ranges = np.zeros((0, 2), np.int64)
            self.boxes = np.zeros((0, 2, 3), np.float64)
            return
        centre, half = rows[:, 0:3].astype(np.float64), rows[:, 3:6].astype(np.float64)
        move = np.abs(rows[:, 9:12].astype(np.float64))  # animated boxes may slide this far
        cx = np.floor(centre[:, 0] / chunk_tiles).astype(np.int64)
        cz = np.floor(centre[:, 2] / chunk_tiles).astype(np.int64)
        key = (cz - cz.min()) * (cx.max() - cx.min() + 1) + (cx - cx.min())
        order = np.argsort(key, kind="stable")
        self.rows = np.ascontiguousarray(rows[order])
        key = key[order]
        low = (centre - half - move)[order]
        high = (centre + half + move)[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        ends = np.r_[starts[1:], len(key)]
        self.ranges = np.stack([starts, ends - starts], axis=1)
        self.boxes = np.stack([np.minimum.reduceat(low, starts), np.maximum.reduceat(high, starts)], axis=1)

    def visible(self, view_proj: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Which chunks may be on screen (``view_proj`` in column-vector convention)."""
        if len(self.boxes) == 0:
            return np.zeros(0, dtype=bool)
        low, high = self.boxes[:, 0], self.boxes[:, 1]
        corners = np.stack(
            [
                np.stack(
                    [
                        np.where(i & 1, high[:, 0], low[:, 0]),
                        np.where(i & 2, high[:, 1], low[:, 1]),
                        np.where(i & 4, high[:, 2], low[:, 2]),
                        np.ones(len(low)),
                    ],
                    axis=1,
                )
                for i in range(8)
            ],
            axis=1,
        )  # (chunks, 8, 4)
        clip = corners @ np.asarray(view_proj, dtype=np.float64).T
        x, y, z, w = clip[..., 0], clip[..., 1], clip[..., 2], clip[..., 3]
        outside = (
            np.all(x < -w, axis=1)
            | np.all(x > w, axis=1)
            | np.all(y < -w, axis=1)
            | np.all(y > w, axis=1)
            | np.all(z < -w, axis=1)
            | np.all(z > w, axis=1)
        )
        seen: NDArray[np.bool_] = ~outside
        return seen

    def visible_rows(self, seen: NDArray[np.bool_]) -> NDArray[np.float32]:
        """The rows of the chunks marked in ``seen`` (from ``visible``), in chunk order."""
        if not seen.any():
            return self.rows[:0]
        starts, counts = self.ranges[seen, 0], self.ranges[seen, 1]
        offsets = np.repeat(starts - np.r_[0, np.cumsum(counts)[:-1]], counts)
        picked: NDArray[np.float32] = self.rows[np.arange(int(counts.sum())) + offsets]
        return picked

    def commands(self, view_proj: NDArray[np.float64], index_count: int) -> NDArray[np.uint32]:
        """DrawElementsIndirect commands (count, instances, first index, base vertex, base instance),
        one per run of consecutive visible chunks."""
        seen = self.visible(view_proj)
        if not seen.any():
            return np.zeros((0, 5), np.uint32)
        edges = np.diff(np.r_[0, seen.astype(np.int8), 0])
        run_starts, run_ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
        first = self.ranges[run_starts, 0]
        last = self.ranges[run_ends - 1, 0] + self.ranges[run_ends - 1, 1]
        out = np.zeros((len(first), 5), np.uint32)
        out[:, 0] = index_count
        out[:, 1] = last - first
        out[:, 4] = first
        return out
