"""The overview strip's data: marks of a whole document binned into rows (no Qt).

However long the text, the strip draws a fixed number of rows; each kind of mark
(boundaries, warnings, search hits, each kind of boundary change) becomes one count per
row, worked out with numpy from the sorted positions, so a 10 MB document with 100 000
chunks costs a few milliseconds, not a widget per span.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np


def bin_positions(positions: Sequence[int], length: int, rows: int) -> np.ndarray:
    """How many of ``positions`` (code points into a text of ``length``) fall in each of
    ``rows`` equal stretches of the text."""
    if rows <= 0:
        return np.zeros(0, dtype=np.int64)
    if not len(positions) or length <= 0:
        return np.zeros(rows, dtype=np.int64)
    points = np.asarray(positions, dtype=np.int64)
    index = np.clip(points * rows // max(length, 1), 0, rows - 1)
    return np.bincount(index, minlength=rows)


def overview_bins(
    marks: Mapping[str, Sequence[int]], length: int, rows: int
) -> dict[str, np.ndarray]:
    """Each kind of mark binned into ``rows``."""
    return {kind: bin_positions(points, length, rows) for kind, points in marks.items()}


def row_of(point: int, length: int, rows: int) -> int:
    """The row a code point is drawn in."""
    return min(rows - 1, max(0, point * rows // max(length, 1)))


def point_of(row: float, length: int, rows: int) -> int:
    """The code point at the top of ``row`` (a fraction picks a place inside the row)."""
    return min(length, max(0, int(row * length / max(rows, 1))))
