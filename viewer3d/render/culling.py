"""Draw only the instances near what the camera sees, still in ONE draw call.

Instances are sorted into square chunks of the board, and the chunks into square groups; each frame
the groups' bounding boxes are tested against the view frustum, then only the chunks of the groups
on screen (numpy, corners computed once), so a close-up tests a few dozen boxes on any board, not
every chunk of a 512x512 one. The visible chunks become the commands of one
``glMultiDrawElementsIndirect`` call. So a close-up of a 512x512
board pays for the walls on screen, not for all 130,000 of them. Where the context is older than
OpenGL 4.3 (macOS stops at 4.1), the visible chunks' rows are copied into the instance buffer
instead (``visible_rows``), again one draw."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

CHUNK_TILES = 8
#: Chunks per group side: the coarse level tested first (a 512x512 board has 8x8 groups).
GROUP_CHUNKS = 8


def _corners(low: NDArray[np.float64], high: NDArray[np.float64]) -> NDArray[np.float64]:
    """The 8 corners of each box, homogeneous: (boxes, 8, 4)."""
    out = np.ones((len(low), 8, 4), np.float64)
    for i in range(8):
        out[:, i, 0] = high[:, 0] if i & 1 else low[:, 0]
        out[:, i, 1] = high[:, 1] if i & 2 else low[:, 1]
        out[:, i, 2] = high[:, 2] if i & 4 else low[:, 2]
    return out


def _outside(corners: NDArray[np.float64], view_proj: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Which boxes (given by their corners) lie wholly outside one plane of the view frustum."""
    clip = corners @ np.asarray(view_proj, dtype=np.float64).T
    x, y, z, w = clip[..., 0], clip[..., 1], clip[..., 2], clip[..., 3]
    outside: NDArray[np.bool_] = (
        np.all(x < -w, axis=1)
        | np.all(x > w, axis=1)
        | np.all(y < -w, axis=1)
        | np.all(y > w, axis=1)
        | np.all(z < -w, axis=1)
        | np.all(z > w, axis=1)
    )
    return outside


class ChunkedInstances:
    """Instance rows sorted by chunk, with each chunk's range and world bounding box."""

    def __init__(
        self, rows: NDArray[np.float32], chunk_tiles: int = CHUNK_TILES, group_chunks: int = GROUP_CHUNKS
    ) -> None:
        #: Bounding boxes (groups and chunks) the last ``visible`` call tested: its work.
        self.boxes_tested = 0
        if len(rows) == 0:
            self.rows = rows
            self.ranges = np.zeros((0, 2), np.int64)
            self.boxes = np.zeros((0, 2, 3), np.float64)
            self._chunk_corners = np.zeros((0, 8, 4), np.float64)
            self._group_corners = np.zeros((0, 8, 4), np.float64)
            self._members: list[NDArray[np.int64]] = []
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
        self._chunk_corners = _corners(self.boxes[:, 0], self.boxes[:, 1])
        # groups of group_chunks x group_chunks chunks: tested first, their chunks only when on screen
        gx, gz = (cx - cx.min())[order][starts] // group_chunks, (cz - cz.min())[order][starts] // group_chunks
        group_key = gz * (int(gx.max()) + 1) + gx
        by_group = np.argsort(group_key, kind="stable")
        sorted_keys = group_key[by_group]
        group_starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
        self._members = np.split(by_group, group_starts[1:])
        group_low = np.minimum.reduceat(self.boxes[by_group, 0], group_starts)
        group_high = np.maximum.reduceat(self.boxes[by_group, 1], group_starts)
        self._group_corners = _corners(group_low, group_high)

    def visible(self, view_proj: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Which chunks may be on screen (``view_proj`` in column-vector convention)."""
        if len(self.boxes) == 0:
            return np.zeros(0, dtype=bool)
        groups = np.flatnonzero(~_outside(self._group_corners, view_proj))
        seen = np.zeros(len(self.boxes), dtype=bool)
        self.boxes_tested = len(self._group_corners)
        if len(groups):
            candidates = np.concatenate([self._members[g] for g in groups])
            self.boxes_tested += len(candidates)
            seen[candidates[~_outside(self._chunk_corners[candidates], view_proj)]] = True
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
