"""Cost of the lanes view at 100,000 chunks of a 10 MB text: assigning the lanes (once per
layout, when the view is open) and drawing the bars by pixel (each paint after a zoom,
a pan or a new layout), the whole document and a zoomed stretch, by kind and by reason.
The window assigns lanes a slice of LANES_SLICE chunks per event-loop turn:
``assign_turn_ms_most`` is its longest turn, what a user's input may wait for.

Two layouts of 100,000 chunks: each chunk overlapping the one before (two lanes, the
columns path) and each overlapping the three before (four lanes, the heap pass).

Peer: one frame at 60 Hz (16.7 ms); each time is printed as a share of it, so below 1.0
means a paint that fits in a frame.
Run: python bench/lanes.py [--json]
"""

from __future__ import annotations

import json
import os
import sys
import time
from array import array

from _common import best_of

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from chunkview.app.lanes_view import LANES_SLICE, LaneFrame, bar_pixels
from chunkview.core.model.document import Document
from chunkview.core.model.explain import Reason, ReasonColumns
from chunkview.core.model.span_table import SpanTable
from chunkview.core.model.spans import Layout, SizeStats
from chunkview.core.views.lanes import LaneAssignment, lanes_from, lanes_of, layout_columns

CHUNKS = 100_000
STEP = 100  # code points between chunk starts: a 10 MB text
FRAME = 1 / 60
WIDTH, LANE_HEIGHT = 1500, 24


def layout_of(text: str, size: int, reasons: bool) -> Layout:
    """``CHUNKS`` chunks of ``size`` code points, one every ``STEP``, kinds and reasons
    taking turns (a packed layout, as the chunking process sends)."""
    starts = array("q", range(0, CHUNKS * STEP, STEP))
    ends = array("q", (s + size for s in starts))
    own = array("q", (s if i == 0 else s + size - STEP for i, s in enumerate(starts)))
    table = SpanTable(
        starts,
        ends,
        own,
        ("paragraph", "heading", "code-block"),
        array("I", (i % 3 for i in range(CHUNKS))),
        array("B", bytes(CHUNKS)),
        text,
    )
    if reasons:
        rules = ("blank line", "sentence end", "word boundary", "inside a word")
        table.reasons = ReasonColumns(
            {i: Reason(starts[i], rules[i % 4], "why") for i in range(1, CHUNKS)}
        )
    stats = SizeStats.of([])
    return Layout(Document(text, None, "text"), table, [], [], [], stats, stats)


def paint(layout: Layout, lanes, first: float, last: float, by_reason: bool) -> None:
    """What a paint of the view does with the bars: the pixels, the image, drawn."""
    frame = LaneFrame(first, last, WIDTH, LANE_HEIGHT, lanes.count)
    pixels = bar_pixels(layout, lanes, frame, by_reason, 0x20000000)
    height, width = pixels.shape
    image = QImage(pixels.data, width, height, 4 * width, QImage.Format.Format_ARGB32)
    target = QImage(width, height + 30, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(target)
    painter.drawImage(0, 0, image)
    painter.end()


def longest_turn(layout: Layout) -> float:
    """The longest of the event-loop turns the window takes to assign a layout's lanes,
    a slice of LANES_SLICE chunks a turn (seconds)."""
    turns = []
    began = time.perf_counter()
    starts, ends, placed = layout_columns(layout)
    assignment = LaneAssignment(starts, ends, placed)
    done = assignment.advance(LANES_SLICE)
    turns.append(time.perf_counter() - began)
    while not done:
        began = time.perf_counter()
        done = assignment.advance(LANES_SLICE)
        if done:
            lanes_from(starts, ends, assignment.lanes, len(layout.document.text))
        turns.append(time.perf_counter() - began)
    return max(turns)


def measure(name: str, text: str, size: int) -> dict[str, float | int]:
    """The figures of one layout: its lanes, assigning them, drawing them."""
    layout = layout_of(text, size, reasons=name == "two_lanes")
    lanes = lanes_of(layout)
    length = float(len(text))
    middle = length / 2
    figures: dict[str, float | int] = {
        f"lanes_{name}_count": lanes.count,
        f"assign_ms_{name}": round(1000 * best_of(lambda: lanes_of(layout)), 2),
        # the longest turn of a run (its value; the time of the whole run is assign_ms)
        f"assign_turn_ms_most_{name}": round(1000 * min(longest_turn(layout) for _ in range(3)), 2),
    }
    windows = {"whole": (0.0, length), "zoomed": (middle - length / 400, middle + length / 400)}
    for label, (first, last) in windows.items():
        figures[f"draw_ms_{name}_{label}"] = round(
            1000 * best_of(lambda f=first, la=last: paint(layout, lanes, f, la, False)), 2
        )
    if name == "two_lanes":
        figures[f"draw_ms_{name}_whole_by_reason"] = round(
            1000 * best_of(lambda: paint(layout, lanes, 0.0, length, True)), 2
        )
    return figures


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv[:1])  # noqa: F841 (QImage, QPainter)
    text = "word " * (CHUNKS * STEP // 5 + 100)
    figures: dict[str, float | int] = {"chunks": CHUNKS, "document_mb": round(len(text) / 1e6, 1)}
    for name, size in (("two_lanes", STEP + 30), ("four_lanes", 3 * STEP + 40)):
        figures.update(measure(name, text, size))
    shares = {
        key: round(value / 1000 / FRAME, 3)
        for key, value in figures.items()
        if key.startswith(("draw_ms", "assign_ms"))
    }
    if "--json" in sys.argv:
        print(json.dumps({**figures, "share_of_frame": shares}))
        return
    for key, value in figures.items():
        share = f"   ({shares[key]:.2f} of a 60 Hz frame)" if key in shares else ""
        print(f"{key:40} {value}{share}")


if __name__ == "__main__":
    main()
