"""The document editor: chunk backgrounds, hatched overlaps, boundary marks, search hits.

A QPlainTextEdit subclass with a gutter widget, after Qt's code-editor example. Only what
is visible is decorated: on scroll, resize or a new layout the spans that meet the
viewport are found by binary search and turned into extra selections, so the cost of a
redraw follows the size of the window, not of the document.
"""

from __future__ import annotations

import bisect

from PySide6.QtCore import QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontDatabase,
    QPainter,
    QPaintEvent,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QToolTip, QWidget

from chunkview.app import theme
from chunkview.core.compare import BoundaryComparison
from chunkview.core.decorations import Run, decorations
from chunkview.core.offsets import EditorOffsets, editor_text
from chunkview.core.pipeline import ChunkResult
from chunkview.core.spans import Span

#: which change a gutter bar shows when a line holds several
DIFF_ORDER = ("removed", "added", "moved", "kept")


class _Gutter(QWidget):
    """Chunk index labels and a bar per chunk beside the text (the line-number area)."""

    def __init__(self, editor: ChunkEditor) -> None:
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self.editor.paint_gutter(event)

    def mousePressEvent(self, event) -> None:
        cursor = self.editor.cursorForPosition(QPoint(0, int(event.position().y())))
        self.editor.click_at(cursor.position())


class ChunkEditor(QPlainTextEdit):
    chunk_clicked = Signal(int)
    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSize(max(font.pointSize(), 10))
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self._gutter = _Gutter(self)
        self._result: ChunkResult | None = None
        self._offsets: EditorOffsets | None = None
        self._spans: list[Span] = []
        self._runs: list[Run] = []
        self._query = ""
        self._diff: BoundaryComparison | None = None
        self._selected: int | None = None
        self._programmatic = False
        self._stale = False
        self._decorate_timer = QTimer(self, singleShot=True, interval=0)
        self._decorate_timer.timeout.connect(self._decorate)
        self.blockCountChanged.connect(self._update_margins)
        self.updateRequest.connect(self._on_update_request)
        self.textChanged.connect(self._on_text_changed)
        self._update_margins()

    # ----- content --------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Show a new document text (not an edit)."""
        self._programmatic = True
        try:
            self.setPlainText(editor_text(text))
        finally:
            self._programmatic = False
        self._offsets = EditorOffsets(text)
        self._spans, self._result = [], None
        self._stale = False
        self._schedule()

    def _on_text_changed(self) -> None:
        if not self._programmatic:
            self._stale = True  # decorations wait for the layout of the new text
            self.setExtraSelections([])
            self.edited.emit()

    def set_result(self, result: ChunkResult) -> None:
        self._result = result
        self._offsets = result.offsets
        self._spans = result.layout.spans
        self._stale = False
        self._decorate_timer.stop()
        self._decorate()  # at once: a new layout is the thing a user waits to see

    def set_query(self, query: str) -> None:
        self._query = query
        self._schedule()

    def select_chunk(self, index: int | None, scroll: bool = True) -> None:
        self._selected = index
        if index is not None and scroll and 0 <= index < len(self._spans):
            span = self._spans[index]
            cursor = QTextCursor(self.document())
            cursor.setPosition(self.to_editor(span.end))
            self.setTextCursor(cursor)
            cursor.setPosition(self.to_editor(span.own_start))
            self.setTextCursor(cursor)
            self.centerCursor()
        self._schedule()

    def chunk_visible(self, index: int | None) -> bool:
        """True when chunk ``index`` (or nothing) meets the viewport: no need to scroll."""
        if index is None or not 0 <= index < len(self._spans):
            return True
        span = self._spans[index]
        first, last = self.visible_points()
        return span.start < last and span.end > first

    def show_position(self, point: int) -> None:
        cursor = QTextCursor(self.document())
        cursor.setPosition(self.to_editor(point))
        self.setTextCursor(cursor)
        self.centerCursor()

    # ----- offsets ------------------------------------------------------------------
    def to_editor(self, point: int) -> int:
        return self._offsets.to_editor(point) if self._offsets else point

    def to_point(self, position: int) -> int:
        return self._offsets.to_point(position) if self._offsets else position

    def visible_points(self) -> tuple[int, int]:
        """The document range (code points) the viewport shows."""
        top = self.cursorForPosition(QPoint(0, 0)).position()
        rect = self.viewport().rect()
        bottom = self.cursorForPosition(QPoint(rect.width(), rect.height())).position()
        block = self.document().findBlock(bottom)
        bottom = max(bottom, block.position() + block.length())
        return self.to_point(top), self.to_point(bottom)

    def visible_spans(self) -> list[Span]:
        """Spans meeting the viewport."""
        if self._result is None or self._stale:
            return []
        return self._result.layout.spans_between(*self.visible_points())

    # ----- decorations ----------------------------------------------------------------
    def _schedule(self) -> None:
        self._decorate_timer.start()

    def _selection(self, start: int, end: int, fmt: QTextCharFormat) -> QTextEdit.ExtraSelection:
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(self.document())
        cursor.setPosition(self.to_editor(start))
        cursor.setPosition(self.to_editor(end), QTextCursor.MoveMode.KeepAnchor)
        selection.cursor = cursor
        selection.format = fmt
        return selection

    def _decorate(self) -> None:
        """Turn the visible runs into extra selections (backgrounds, overlaps, hits); the
        boundary and pinned runs are drawn by paintEvent."""
        dark = theme.is_dark(self.palette())
        if self._result is None or self._stale:
            self._runs = []
        else:
            first, last = self.visible_points()
            self._runs = decorations(
                self._result.layout, first, last, self._query, self._diff, self._selected
            )
        hatch = QTextCharFormat()
        hatch.setBackground(QBrush(theme.hatch_colour(dark), Qt.BrushStyle.BDiagPattern))
        found = QTextCharFormat()
        found.setBackground(theme.search_colour(dark))
        found.setForeground(QColor("#000000"))
        found.setFontWeight(QFont.Weight.Bold)
        moved = QTextCharFormat()
        moved.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        moved.setUnderlineColor(theme.diff_colour("moved"))
        selections = []
        for run in self._runs:
            if run.kind == "chunk":
                fmt = QTextCharFormat()
                colour = theme.chunk_colour(run.chunk or 0, dark)
                if run.selected:
                    colour.setAlpha(min(255, colour.alpha() * 2 + 40))
                fmt.setBackground(colour)
                fmt.setProperty(QTextFormat.Property.UserProperty, run.chunk)
                selections.append(self._selection(run.start, run.end, fmt))
            elif run.kind == "overlap":
                selections.append(self._selection(run.start, run.end, hatch))
            elif run.kind == "hit":
                selections.append(self._selection(run.start, run.end, found))
            elif run.kind == "moved":
                selections.append(self._selection(run.start, run.end, moved))
        self.setExtraSelections(selections)
        self._gutter.update()
        self.viewport().update()

    def runs(self) -> list[Run]:
        """The runs of the last decoration pass (what is painted now)."""
        return list(self._runs)

    def search_ranges(self) -> list[tuple[int, int]]:
        """The highlighted word ranges now applied (code points), for tests and views."""
        ranges = []
        for selection in self.extraSelections():
            if selection.format.fontWeight() == QFont.Weight.Bold:
                ranges.append(
                    (
                        self.to_point(selection.cursor.selectionStart()),
                        self.to_point(selection.cursor.selectionEnd()),
                    )
                )
        return ranges

    def chunk_ranges(self) -> dict[int, tuple[int, int]]:
        """Painted own-part range of each decorated chunk, in code points."""
        ranges = {}
        for selection in self.extraSelections():
            index = selection.format.property(QTextFormat.Property.UserProperty)
            if index is not None:
                ranges[int(index)] = (
                    self.to_point(selection.cursor.selectionStart()),
                    self.to_point(selection.cursor.selectionEnd()),
                )
        return ranges

    # ----- painting -------------------------------------------------------------------
    def gutter_width(self) -> int:
        digits = len(str(max(len(self._spans), 1)))
        return 14 + self.fontMetrics().horizontalAdvance("#" + "9" * max(digits, 3))

    def _update_margins(self, *_: object) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _on_update_request(self, rect: QRect, dy: int) -> None:
        if dy:
            self._gutter.scroll(0, dy)
            self._schedule()
        else:
            self._gutter.update(0, rect.y(), self._gutter.width(), rect.height())
        if rect.contains(self.viewport().rect()):
            self._update_margins()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        rect = self.contentsRect()
        self._gutter.setGeometry(QRect(rect.left(), rect.top(), self.gutter_width(), rect.height()))
        self._schedule()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        self._schedule()

    def set_comparison(self, diff: BoundaryComparison | None) -> None:
        """The boundary changes from this layout (A) to a layout B, drawn beside it."""
        self._diff = diff
        self._schedule()

    def diff_visible(self) -> list[tuple[int, str]]:
        """The boundary changes painted now: (code point, change kind)."""
        return [(run.start, run.label) for run in self._runs if run.kind == "diff"]

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        painter = QPainter(self.viewport())
        dark = theme.is_dark(self.palette())
        for run in self._runs:
            if run.kind not in ("boundary", "diff"):
                continue
            cursor = QTextCursor(self.document())
            cursor.setPosition(self.to_editor(run.start))
            rect = self.cursorRect(cursor)
            if run.kind == "diff":
                if run.label != "kept":  # a kept one is the boundary already drawn
                    painter.setPen(theme.diff_pen(run.label, 2))
                    painter.drawLine(
                        rect.left() - 3, rect.top() - 2, rect.left() - 3, rect.bottom() + 2
                    )
            else:
                colour = theme.kind_colour(run.label)
                colour = colour.lighter(130) if dark else colour.darker(110)
                painter.fillRect(QRect(rect.left() - 1, rect.top(), 3, rect.height()), colour)
        painter.end()

    def paint_gutter(self, event: QPaintEvent) -> None:
        painter = QPainter(self._gutter)
        palette = self.palette()
        painter.fillRect(event.rect(), palette.color(QPalette.ColorRole.AlternateBase))
        if not self._spans or self._stale:
            painter.end()
            return
        visible = self.visible_spans() if not self._stale else []
        width = self._gutter.width()
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        painter.setFont(self.font())
        metrics = self.fontMetrics()
        labelled: set[int] = set()
        changes = sorted(self.diff_visible())
        points = [point for point, _kind in changes]
        while block.isValid() and top <= event.rect().bottom():
            height = round(self.blockBoundingRect(block).height())
            if block.isVisible():
                first = self.to_point(block.position())
                last = self.to_point(block.position() + block.length())
                here = changes[bisect.bisect_left(points, first) : bisect.bisect_left(points, last)]
                if here:  # the most telling change in this block, as a bar on the left
                    kind = min((k for _p, k in here), key=DIFF_ORDER.index)
                    painter.setPen(theme.diff_pen(kind, 3))
                    painter.drawLine(3, top + 1, 3, top + height - 1)
                covering = [
                    s
                    for s in visible
                    if s.start < last and s.end > first and s.located != "missing"
                ]
                for lane, span in enumerate(covering[-2:]):
                    colour = theme.kind_colour(span.kind)
                    painter.fillRect(QRect(width - 6 + lane * 3, top, 3, height), colour)
                starting = [
                    s for s in covering if first <= s.own_start < last and s.index not in labelled
                ]
                for row, span in enumerate(starting[: max(1, height // metrics.height())]):
                    labelled.add(span.index)
                    colour = palette.color(QPalette.ColorRole.Text)
                    if span.index == self._selected:
                        colour = palette.color(QPalette.ColorRole.Highlight)
                    painter.setPen(colour)
                    painter.drawText(
                        QRect(2, top + row * metrics.height(), width - 10, metrics.height()),
                        Qt.AlignmentFlag.AlignRight,
                        f"#{span.index}",
                    )
            block = block.next()
            top += height
        painter.end()

    # ----- mouse ----------------------------------------------------------------------
    def span_at_position(self, position: int) -> Span | None:
        if not self._result or self._stale:
            return None
        return self._result.layout.span_at(self.to_point(position))

    def click_at(self, position: int) -> None:
        span = self.span_at_position(position)
        if span is not None:
            self.chunk_clicked.emit(span.index)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            self.click_at(self.cursorForPosition(event.position().toPoint()).position())

    def mouseMoveEvent(self, event) -> None:
        super().mouseMoveEvent(event)
        if event.buttons():
            return
        span = self.span_at_position(self.cursorForPosition(event.position().toPoint()).position())
        if span is None:
            QToolTip.hideText()
            return
        QToolTip.showText(event.globalPosition().toPoint(), self.tooltip_for(span), self)

    def tooltip_for(self, span: Span) -> str:
        tokens = ""
        if self._result is not None and self._result.tokens is not None:
            tokens = f" · {self._result.tokens[span.index]} tokens"
        size = len(span.text.encode("utf-8", "surrogatepass"))
        lines = [
            f"<b>chunk {span.index}</b> · {span.kind}",
            f"{span.start}–{span.end} · {len(span.text)} chars · {size} bytes{tokens}",
        ]
        if span.start < span.own_start:
            lines.append(f"repeats {span.own_start - span.start} chars of the chunk before")
        if span.located != "exact":
            lines.append(f"placed: {span.located}")
        for key, value in list(span.metadata.items())[:6]:
            lines.append(f"{key}: {str(value)[:80]}")
        return "<br>".join(lines)
