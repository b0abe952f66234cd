"""Where a tooltip goes (no GL): as near the control it explains as it can be, over no control.

A tooltip drawn straight under its control covered the next one (on the start screen the Tron
tab's tip lay over the Open button below it), so that control could not be seen or read while the
mouse rested on its neighbour. ``place`` looks at the places beside, under and above the control
and along the edges of every other control, inside the window, and takes the nearest that covers
no control (the one it explains included); where every place covers one (a window too small for
its controls), the one covering the least. The start screen and the viewer's buttons both use it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: A rectangle in screen pixels, top-left origin: (left, top, width, height).
Rect = tuple[float, float, float, float]

GAP = 4.0


def overlap(a: Rect, b: Rect) -> float:
    """The area two rectangles share (0 when they only touch)."""
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0.0, width) * max(0.0, height)


def place(anchor: Rect, size: tuple[float, float], viewport: tuple[int, int], controls: Sequence[Rect]) -> Rect:
    """The tip's rectangle for the control ``anchor`` among ``controls`` (the anchor may be among
    them): the free place nearest to the anchor (under it first, then beside it, above it), else
    the place covering the least control area."""
    left, top, width, height = anchor
    tip_w, tip_h = size
    view_w, view_h = viewport
    others = [*controls, anchor]
    # Preferred places first: under (left-aligned, then right-aligned), beside (right, left), above.
    xs = [left, left + width - tip_w, left + width + GAP, left - GAP - tip_w, GAP, view_w - tip_w - GAP]
    ys = [top + height + GAP, top + (height - tip_h) / 2, top - GAP - tip_h, GAP, view_h - tip_h - GAP]
    for c_left, c_top, c_width, c_height in others:  # just clear of every control's edges
        xs += [c_left + c_width + GAP, c_left - GAP - tip_w]
        ys += [c_top + c_height + GAP, c_top - GAP - tip_h]
    x = np.clip(np.array(xs, dtype=np.float64), 0.0, max(0.0, view_w - tip_w))
    y = np.clip(np.array(ys, dtype=np.float64), 0.0, max(0.0, view_h - tip_h))
    spots_x, spots_y = (grid.ravel() for grid in np.meshgrid(x, y))  # y-major: under before above
    boxes = np.array(others, dtype=np.float64)
    shared_w = np.minimum(spots_x[:, None] + tip_w, boxes[None, :, 0] + boxes[None, :, 2]) - np.maximum(
        spots_x[:, None], boxes[None, :, 0]
    )
    shared_h = np.minimum(spots_y[:, None] + tip_h, boxes[None, :, 1] + boxes[None, :, 3]) - np.maximum(
        spots_y[:, None], boxes[None, :, 1]
    )
    covered = (np.clip(shared_w, 0.0, None) * np.clip(shared_h, 0.0, None)).sum(axis=1)
    # How far the tip is from the control: the gap between the two rectangles (0 when touching).
    apart_x = np.maximum(0.0, np.maximum(left - (spots_x + tip_w), spots_x - (left + width)))
    apart_y = np.maximum(0.0, np.maximum(top - (spots_y + tip_h), spots_y - (top + height)))
    distance = np.hypot(apart_x, apart_y)
    best = int(np.lexsort((distance, covered))[0])  # least covered, then nearest, then first listed
    return (float(spots_x[best]), float(spots_y[best]), tip_w, tip_h)
