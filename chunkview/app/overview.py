"""The overview strip beside the editor: the whole document at once.

Four lanes, left to right: chunk boundaries, boundary changes against B (in the change's
colour), warnings and search hits, each drawn from counts binned per pixel row
(core/overview.py), plus the stretch the editor shows. Click or drag to scroll there.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QWidget

from chunkview.app import theme
from chunkview.app.editor import ChunkEditor
from chunkview.core.analysis.compare import CHANGE_KINDS
from chunkview.core.session import InspectorModel, ModelEvent
from chunkview.core.views.overview import overview_bins, point_of, row_of

LANE = 5
#: the change kinds drawn in the difference lane, the most telling on top
CHANGES_ON_TOP = ("moved", "added", "removed")


class OverviewStrip(QWidget):
    #: a place to scroll to (code points)
    scroll_to = Signal(int)

    def __init__(self, model: InspectorModel, editor: ChunkEditor) -> None:
        super().__init__()
        self.model = model
        self.editor = editor
        self.setFixedWidth(4 * LANE + 5)
        self.setToolTip(
            "The whole document: boundaries, differences from B, warnings, search hits. "
            "Click or drag to scroll."
        )
        self.bins: dict[str, np.ndarray] = {}
        #: search hits, as the app's sliced search finds them (``add_hits``)
        self.hit_points: list[int] = []
        self._rows = 0
        self._timer = QTimer(self, singleShot=True, interval=40)
        self._timer.timeout.connect(self.refresh)
        for event in (
            ModelEvent.RESULT,
            ModelEvent.DETAILS,
            ModelEvent.PINNED,
            ModelEvent.DOCUMENT,
        ):
            model.subscribe(event, lambda *_args: self._timer.start())
        editor.verticalScrollBar().valueChanged.connect(lambda _v: self.update())

    def sizeHint(self) -> QSize:
        return QSize(4 * LANE + 5, 200)

    def length(self) -> int:
        result = self.model.result
        return len(result.layout.document.text) if result is not None else 0

    def marks(self) -> dict[str, list[int]]:
        """Every place the strip marks, by kind (sorted code points)."""
        result = self.model.result
        if result is None:
            return {}
        marks = {
            "boundary": self.model.targets("chunk"),
            "warning": self.model.targets("warning"),
            "hit": self.hit_points,
        }
        comparison = self.model.comparison()
        if comparison is not None and comparison.same_text:
            for kind in CHANGE_KINDS:
                marks[kind] = [c.at for c in comparison.diff.changes if c.kind == kind]
        return marks

    def clear_hits(self, *_args: object) -> None:
        self.hit_points = []
        self._timer.start()

    def add_hits(self, hits: list) -> None:
        """Search hits found (objects with ``at``), added as the search goes."""
        self.hit_points.extend(hit.at for hit in hits)
        self._timer.start()

    def refresh(self) -> None:
        self._rows = max(1, self.height())
        self.bins = overview_bins(self.marks(), self.length(), self._rows)
        self.update()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.refresh()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.AlternateBase))
        length = self.length()
        if not self.bins or not length:
            painter.end()
            return
        dark = theme.is_dark(palette)
        boundary = palette.color(QPalette.ColorRole.Text)
        boundary.setAlpha(150)
        lanes: list[tuple[int, str, QColor]] = [(1, "boundary", boundary)]
        lanes += [(2 + LANE, kind, theme.diff_colour(kind)) for kind in CHANGES_ON_TOP]
        lanes.append((3 + 2 * LANE, "warning", QColor(theme.WARNING_COLOUR)))
        lanes.append((4 + 3 * LANE, "hit", theme.search_colour(dark)))
        for x, kind, colour in lanes:
            counts = self.bins.get(kind)
            if counts is None:
                continue
            for row in np.flatnonzero(counts):
                painter.fillRect(QRect(x, int(row), LANE, 1), colour)
        first, last = self.editor.visible_points()
        top, bottom = row_of(first, length, self._rows), row_of(last, length, self._rows)
        shade = palette.color(QPalette.ColorRole.Highlight)
        shade.setAlpha(60)
        painter.fillRect(QRect(0, top, self.width(), max(3, bottom - top + 1)), shade)
        shade.setAlpha(200)
        painter.setPen(shade)
        painter.drawRect(QRect(0, top, self.width() - 1, max(3, bottom - top + 1)))
        painter.end()

    def point_at(self, y: float) -> int:
        return point_of(y, self.length(), max(1, self.height()))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._scroll(event.position().y())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._scroll(event.position().y())

    def _scroll(self, y: float) -> None:
        """Put the place under the mouse in the middle of the editor."""
        point = self.point_at(y)
        editor = self.editor
        block = editor.document().findBlock(editor.to_editor(point))
        page = editor.verticalScrollBar().pageStep()
        editor.verticalScrollBar().setValue(max(0, block.firstLineNumber() - page // 2))
        self.scroll_to.emit(point)
        self.update()
