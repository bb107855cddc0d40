"""A histogram of chunk sizes (pyqtgraph), stacked by boundary kind, with targetSize /
maxSize / minSize drawn as labelled lines where they are."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QPalette, QResizeEvent
from PySide6.QtWidgets import QSizePolicy

from chunkview.app import theme
from chunkview.core.model.kinds import UNIT_NAMES

BINS = 24
#: the limit lines' stacking above the bars
LINES_Z = 10
LIMIT_COLOURS = {"target": "#009E73", "max": "#D55E00", "min": "#0072B2"}
LIMIT_NAMES = {"target": "target", "max": "maxSize", "min": "minSize"}
#: most kinds drawn apart (the rest are summed as "other")
MAX_KINDS = 6

pg.setConfigOptions(antialias=True)  # smooth lines (the sweep sets it too)


def stacked_counts(
    sizes: list[int], kinds: list[str] | None, top: float, bins: int = BINS
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Bin edges over 0..top and the count of each kind's chunks per bin (the most common
    kinds apart, the rest as "other")."""
    edges = np.linspace(0, top, bins + 1)
    values = np.minimum(np.asarray(sizes, dtype=float), top)
    if not kinds or len(kinds) != len(sizes):
        return edges, {"chunks": np.histogram(values, edges)[0]}
    names, counts = np.unique(np.asarray(kinds), return_counts=True)
    common = [str(n) for n in names[np.argsort(-counts, kind="stable")]][:MAX_KINDS]
    labels = np.asarray([k if k in common else "other" for k in kinds])
    stacks = {}
    for name in [*common, "other"]:
        chosen = values[labels == name]
        if len(chosen):
            stacks[name] = np.histogram(chosen, edges)[0]
    return edges, stacks


class Histogram(pg.PlotWidget):
    """Chunk sizes as bars stacked by boundary kind, with the size limits drawn as
    labelled lines where they are."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []
        #: each chunk's kind, or what reads them (read when first drawn)
        self.kinds: list[str] | Callable[[], list[str]] | None = None
        self.limits: dict[str, float] = {}
        self.unit = "chars"
        self.bars: dict[str, pg.BarGraphItem] = {}
        self.lines: dict[str, pg.InfiniteLine] = {}
        self.setMinimumHeight(140)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMenuEnabled(False)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        plot = self.getPlotItem()
        for name in ("left", "bottom"):
            plot.getAxis(name).enableAutoSIPrefix(False)
        plot.setLabel("left", "chunks")
        # the legend stands in the title's row, above the plot: inside it, it covered the
        # limits' labels (they sit at the top too) and the tallest bars
        self.legend = pg.LegendItem(labelTextSize="8pt")
        self.legend.mouseDragEvent = lambda event: None  # it stays in its row
        plot.layout.removeItem(plot.titleLabel)  # no title: "no chunks" is said in the plot
        plot.titleLabel.hide()
        plot.layout.addItem(self.legend, 0, 1)

    def sizeHint(self) -> QSize:
        return QSize(260, 180)

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        super().resizeEvent(event)
        if "legend" in self.__dict__:  # pyqtgraph resizes while it builds the widget
            self._fit_legend()

    def _fit_legend(self) -> None:
        """As many of the legend's entries to a row as the plot's width holds, and the
        row above the plot as tall as the legend."""
        legend, plot = self.legend, self.getPlotItem()
        if not legend.items:
            plot.layout.setRowFixedHeight(0, 0)
            return
        # the text's own width (a label's is stretched to its cell's)
        widest = (
            max(
                sample.width() + label.item.boundingRect().width() for sample, label in legend.items
            )
            + 12
        )
        columns = max(1, min(len(legend.items), int(max(self.width() - 60, 0) // widest)))
        legend.setColumnCount(columns)
        rows = -(-len(legend.items) // columns)
        height = rows * max(s.height() for s, _ in legend.items) + 4
        # its own size, at the left of its row (stretched, its entries spread apart)
        legend.setMaximumSize(columns * widest, height)
        plot.layout.setAlignment(legend, Qt.AlignmentFlag.AlignLeft)
        plot.layout.setRowFixedHeight(0, height)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "bars"):
            self._draw()  # the theme changed: background, axes and labels follow it

    def set_data(
        self,
        sizes: list[int],
        limits: dict[str, float],
        unit: str,
        kinds: list[str] | Callable[[], list[str]] | None = None,
    ) -> None:
        """``kinds``: each chunk's kind, or what reads them (called when drawn)."""
        self.sizes, self.limits, self.unit, self.kinds = list(sizes), dict(limits), unit, kinds
        # drawn when seen: a hidden tab costs nothing per layout (tens of ms at 10 MB)
        self._stale = True
        if self.isVisible():
            self._draw()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if getattr(self, "_stale", False):
            self._draw()

    def _draw(self) -> None:
        self._stale = False
        if callable(self.kinds):  # read once, when first drawn
            self.kinds = self.kinds()
        plot = self.getPlotItem()
        plot.clear()
        self.legend.clear()
        self.bars, self.lines = {}, {}
        palette = self.palette()
        ink = palette.color(QPalette.ColorRole.Text)
        self.legend.setLabelTextColor(ink)
        self.setBackground(palette.color(QPalette.ColorRole.Base))
        for name in ("left", "bottom"):
            plot.getAxis(name).setTextPen(ink)
            plot.getAxis(name).setPen(ink)
        plot.setLabel("bottom", f"chunk size ({UNIT_NAMES.get(self.unit, self.unit)})")
        if not self.sizes:
            plot.setXRange(0, 1, padding=0)
            plot.setYRange(0, 1, padding=0)
            words = pg.TextItem("no chunks", color=ink, anchor=(0.5, 0.5))
            words.setPos(0.5, 0.5)
            plot.addItem(words)
            self._fit_legend()
            return
        shown_limits = {r: v for r, v in self.limits.items() if r in LIMIT_COLOURS and v > 0}
        top = max(max(self.sizes), *shown_limits.values(), 1) * 1.04
        edges, stacks = stacked_counts(self.sizes, self.kinds, top)
        width = edges[1] - edges[0]
        base = np.zeros(len(edges) - 1)
        for name, counts in stacks.items():
            colour = theme.kind_colour(name) if name not in ("chunks", "other") else None
            brush = colour or pg.mkColor(theme.CHUNK_HUES[0] if name == "chunks" else "#999999")
            bars = pg.BarGraphItem(
                x0=edges[:-1],
                y0=base.copy(),
                width=width * 0.92,
                height=counts,
                brush=brush,
                pen=None,
            )
            plot.addItem(bars)
            if name != "chunks":
                self.legend.addItem(bars, name)
            self.bars[name] = bars
            base += counts
        tallest = max(base.max(), 1)
        plot.setYRange(0, tallest * 1.25, padding=0)
        step = max(1, int(np.ceil(tallest / 5)))  # whole chunks on the count axis
        plot.getAxis("left").setTickSpacing(step, step)
        plot.setXRange(0, top, padding=0.01)
        for i, (role, value) in enumerate(sorted(shown_limits.items(), key=lambda rv: rv[1])):
            limit_colour = LIMIT_COLOURS[role]
            on_left = value > top * 0.7
            line = pg.InfiniteLine(
                pos=value,
                angle=90,
                pen=pg.mkPen(limit_colour, width=2, style=Qt.PenStyle.DashLine),
                label=f"{LIMIT_NAMES[role]} {value:g}",
                labelOpts={
                    "position": 0.95 - 0.12 * i,  # staggered, so close lines stay readable
                    "color": limit_colour,
                    # the label on the side with room: left of a line near the right edge
                    "anchors": [(1, 0.5), (1, 0.5)] if on_left else [(0, 0.5), (0, 0.5)],
                    "fill": palette.color(QPalette.ColorRole.Base),
                },
            )
            # a label reaching over the next lines lies over them (a label is its line's
            # child, so the line goes up with it): lines to its right for a label on the
            # right, and those on the left for one on the left
            line.setZValue(LINES_Z + (len(shown_limits) - i if not on_left else 2 * i + 100))
            plot.addItem(line)
            self.lines[role] = line
        self._fit_legend()
