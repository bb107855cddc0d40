"""Small multiples: plots laid out in rows that fill the width, the number of rows chosen
from the space they have.

A wide, low dock under the panels takes them in one row; a floated or narrow one in
several. Each row is a layout of its own, so a row with fewer plots has wider ones and no
cell is left empty (seven plots over two rows: four, then three).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pyqtgraph is imported when the plots are built (start-up time)
    import pyqtgraph as pg

#: the shape a plot reads best in: its width over its height
ASPECT = 1.5
#: the least a plot reads at: width and height in pixels
LEAST_WIDTH = 150
LEAST_HEIGHT = 100


def row_counts(count: int, rows: int) -> list[int]:
    """``count`` plots over ``rows`` rows as evenly as they go, the fuller rows first."""
    rows = max(1, min(rows, count))
    base, extra = divmod(count, rows)
    return [base + 1] * extra + [base] * (rows - extra)


def best_rows(count: int, width: float, height: float) -> list[int]:
    """How many of ``count`` plots stand in each row of a ``width`` × ``height`` space:
    of the arrangements where every plot is readable, the one whose plots are nearest
    the ASPECT; when none is, the one nearest readable."""
    if count <= 0:
        return []

    def badness(rows: int) -> tuple[bool, float]:
        cell_width = width / math.ceil(count / rows)
        cell_height = height / rows
        readable = min(cell_width / LEAST_WIDTH, cell_height / LEAST_HEIGHT)
        if readable < 1:
            return True, -readable
        return False, abs(math.log(cell_width / cell_height / ASPECT))

    return row_counts(count, min(range(1, count + 1), key=badness))


def lay_out_rows(
    layout: pg.GraphicsLayout,
    rows: list[pg.GraphicsLayout],
    items: list[pg.GraphicsWidget],
    counts: list[int],
    spacing: int,
) -> list[pg.GraphicsLayout]:
    """``items`` in ``layout``, ``counts`` of them a row, each row a layout of its own
    under the ones before; ``rows`` (as this returned last time) are emptied and taken
    out first. Returns the new rows."""
    for row in rows:
        for item in list(row.items):
            row.removeItem(item)
        layout.removeItem(row)
    for index in range(layout.layout.rowCount()):  # rows that were, and are no more
        layout.layout.setRowStretchFactor(index, 0)
    new_rows = []
    start = 0
    for index, count in enumerate(counts):
        row = layout.addLayout(row=index, col=0)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(spacing)
        for column, item in enumerate(items[start : start + count]):
            row.addItem(item, row=0, col=column)
            row.layout.setColumnStretchFactor(column, 1)
        start += count
        layout.layout.setRowStretchFactor(index, 1)
        new_rows.append(row)
    return new_rows
