"""The document editor: chunk backgrounds, hatched overlaps, boundary marks, search hits.

A QPlainTextEdit subclass with a gutter widget, after Qt's code-editor example. Only what
is visible is decorated: on scroll, resize or a new layout the spans that meet the
viewport are found by binary search and turned into extra selections, so the cost of a
redraw follows the size of the window, not of the document.

A long text is loaded in pieces, one per event-loop turn, so its first screen shows at
once and the window never freezes. An edit does not wait for the next layout: the edits
made since the shown layout's text (``contentsChange``) map its offsets to the editor's,
so the chunks after an edit move with it and nothing blanks while the new layout runs.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontDatabase,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
    QWheelEvent,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QToolTip, QWidget

from chunkview.app import outline, theme
from chunkview.app.markup import escape
from chunkview.app.zoom_wheel import zoom_by_wheel
from chunkview.core.analysis.compare import BoundaryComparison
from chunkview.core.model.explain import chunk_ends
from chunkview.core.model.spans import Span
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.text.offsets import EditorOffsets, editor_text
from chunkview.core.views.decorations import Run, boundary_label, decorations

#: which change a gutter bar shows when a line holds several
DIFF_ORDER = ("removed", "added", "moved", "kept")

#: characters shown at once when a text is set; the rest follows in pieces of LOAD_PIECE
#: at first, then each sized to take about LOAD_SLICE seconds at the pace of the one
#: before (at most LOAD_PIECE_MOST): between pieces the window repaints what a piece
#: changed (scroll bar, gutter), which in pieces of 20,000 took twice the inserting
LOAD_FIRST = 60_000
LOAD_PIECE = 20_000
LOAD_PIECE_MOST = 400_000
LOAD_SLICE = 0.012
#: at most this many lines a piece: each line is a block of the editor's document, and
#: 20,000 empty lines took 0.2 s to make
LOAD_LINES = 4_000


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
        index = self.editor.gutter_chunk_at(int(event.position().y()))
        if index is not None:
            self.editor.chunk_clicked.emit(index)

    def mouseMoveEvent(self, event) -> None:
        """Hovering the gutter outlines the chunk there, as hovering its text does."""
        editor = self.editor
        index = editor.gutter_chunk_at(int(event.position().y()))
        editor.set_hovered(index)
        spans = editor.spans_shown()
        if index is None or not 0 <= index < len(spans):
            QToolTip.hideText()
            return
        QToolTip.showText(event.globalPosition().toPoint(), editor.tooltip_for(spans[index]), self)

    def leaveEvent(self, event: QEvent) -> None:
        self.editor.set_hovered(None)
        super().leaveEvent(event)


class ChunkEditor(QPlainTextEdit):
    chunk_clicked = Signal(int)
    edited = Signal()
    #: Ctrl+wheel: +1 zoom in, -1 zoom out
    zoom_asked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        #: the gutter's width by the digits it holds
        self._gutter_widths: dict[int, int] = {}
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSize(max(font.pointSize(), 10))
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self._gutter = _Gutter(self)
        self._gutter.setMouseTracking(True)
        #: (y, chunk index) of each chunk number the gutter painted last
        self.gutter_labels: list[tuple[int, int]] = []
        self._result: ChunkResult | None = None
        self._offsets: EditorOffsets | None = None
        self._spans: Sequence[Span] = []
        self._runs: list[Run] = []
        self._query = ""
        self._diff: BoundaryComparison | None = None
        self._selected: int | None = None
        #: the chunk under the mouse (its whole extent outlined, as the selected one's)
        self._hovered: int | None = None
        #: the outline paths painted last, by chunk outlined (viewport coordinates)
        self.outline_paths: dict[outline.Outline, QPainterPath] = {}
        #: colour boundaries by the rule of their reason instead of their kind
        self.by_reason = False
        #: the width of the boundary bars (thicker in presentation mode), and stronger
        #: chunk tints (presentation mode's high contrast)
        self.bar_width = 3
        self.strong_tints = False
        #: the difference from B stepped to last (code points), highlighted
        self._current_difference: int | None = None
        self._programmatic = False
        # the edits made since the shown layout's text: (editor position, removed, added);
        # _edit_base is the serial number of the first of them
        self._edits: list[tuple[int, int, int]] = []
        self._edit_base = 0
        # a long text being loaded: the text and how much of it the document holds
        self._load_text = ""
        self._loaded = 0
        self._piece_size = LOAD_PIECE  # characters in the next piece loaded
        self._read_only_after = False
        # the text as shown, and its UTF-16 mirror once edited (set_text explains them):
        # an editor no document was shown in yet is empty, and may be typed in
        self._shown_text = ""
        self._mirror: bytearray | None = None
        self._mirror_ok = True
        self._edited = False
        self._load_timer = QTimer(self, singleShot=True, interval=0)
        self._load_timer.timeout.connect(self._load_piece)
        self._decorate_timer = QTimer(self, singleShot=True, interval=0)
        self._decorate_timer.timeout.connect(self._decorate)
        # no slot on blockCountChanged: it fires once per line inserted, and each call
        # into Python waits for the interpreter lock while the worker runs
        self.updateRequest.connect(self._on_update_request)
        self.document().contentsChange.connect(self._on_contents_change)
        self._update_margins()

    # ----- content --------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Show a new document text (not an edit): the first screen at once, the rest in
        pieces (read-only until it is all there)."""
        shown = editor_text(text) if "\r" in text else text
        self._load_timer.stop()
        if self.loading:
            self._finish_loading()
        self._programmatic = True
        try:
            if len(shown) > LOAD_FIRST:
                self._load_text = shown
                self._loaded = self._cut(0, LOAD_FIRST)
                self._piece_size = LOAD_PIECE
                self._read_only_after = self.isReadOnly()
                super().setReadOnly(True)
                self.setUndoRedoEnabled(False)  # the pieces are not edits to undo
                shown = shown[: self._loaded]
            self.setPlainText(shown)
        finally:
            self._programmatic = False
        if self.loading:
            self._load_timer.start()
        # the offsets come with each layout (built off the UI thread); none until then
        self._offsets = None
        # the text as the editor holds it ("\n" between blocks), and once edited the same
        # as UTF-16 bytes kept in step with each edit: reading the text for a run is then
        # one decode, not a walk of the whole QTextDocument. A long text's bytes are made
        # piece by piece as it loads, so that the first key does not make them all at
        # once (10 MB: 30 ms and more of the UI thread); a short text's at its first edit
        self._shown_text = shown if not self.loading else self._load_text
        self._mirror = (
            bytearray(shown.encode("utf-16-le", "surrogatepass")) if self.loading else None
        )
        self._edited = False  # since the text was set
        self._mirror_ok = True
        self._spans, self._result = [], None
        self._hovered = None
        self._edit_base += len(self._edits)
        self._edits = []
        self._schedule()

    @property
    def loading(self) -> bool:
        """True while pieces of the text are still to come."""
        return self._loaded < len(self._load_text)

    def _cut(self, start: int, size: int, whole_lines: bool = False) -> int:
        """Where a piece from ``start`` ends: after a line break when there is one (at most
        ``LOAD_LINES`` of them); with ``whole_lines``, a line longer than ``size`` is taken
        to its end (Qt lays a line out whole at every insert into it: a 2 MB line of
        minified JSON in pieces of 20,000 was laid out 120 times, a minute, and once takes
        a second)."""
        text = self._load_text
        end = start + size
        if end >= len(text):
            cut = len(text)
        else:
            cut = text.rfind("\n", start, end) + 1
            if not cut:  # inside a line longer than a piece
                if not whole_lines:
                    return end
                line_end = text.find("\n", end)
                return len(text) if line_end < 0 else line_end + 1
        if text.count("\n", start, cut) > LOAD_LINES:
            cut = start
            for _line in range(LOAD_LINES):
                cut = text.index("\n", cut) + 1
        return cut

    def _load_piece(self) -> None:
        began = time.perf_counter()
        end = self._cut(self._loaded, self._piece_size, whole_lines=True)
        document = self.document()
        cursor = QTextCursor(document)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        document.contentsChange.disconnect(self._on_contents_change)  # not an edit
        piece = self._load_text[self._loaded : end]
        try:
            cursor.insertText(piece)
        finally:
            document.contentsChange.connect(self._on_contents_change)
        self._loaded = end
        if self._mirror is not None:
            self._mirror += piece.encode("utf-16-le", "surrogatepass")
        took = max(time.perf_counter() - began, 1e-4)
        self._piece_size = min(
            LOAD_PIECE_MOST, max(LOAD_PIECE, int(len(piece) * LOAD_SLICE / took))
        )
        if self.loading:
            self._load_timer.start()
        else:
            self._finish_loading()
            self._schedule()

    def _finish_loading(self) -> None:
        self._load_text, self._loaded = "", 0
        self.setUndoRedoEnabled(True)
        super().setReadOnly(self._read_only_after)

    def setReadOnly(self, read_only: bool) -> None:
        if self.loading:
            self._read_only_after = read_only  # applies once the text is all there
        else:
            super().setReadOnly(read_only)

    def edit_serial(self) -> int:
        """How many edits were made so far (a mark for ``set_result``)."""
        return self._edit_base + len(self._edits)

    def plain_text(self) -> str:
        """The text the editor holds, with "\n" between lines."""
        if not self._edited:
            return self._shown_text
        if self._mirror is None:
            return self.document().toRawText().replace("\u2029", "\n")
        return self._mirror.decode("utf-16-le", "surrogatepass")

    def _follow_in_mirror(self, position: int, removed: int, added: int) -> None:
        document = self.document()
        if not self._mirror_ok:
            return
        if self._mirror is None:
            self._mirror = bytearray(self._shown_text.encode("utf-16-le", "surrogatepass"))
        cursor = QTextCursor(document)
        cursor.setPosition(position)
        cursor.setPosition(position + added, QTextCursor.MoveMode.KeepAnchor)
        inserted = cursor.selectedText().replace("\u2029", "\n")
        self._mirror[2 * position : 2 * (position + removed)] = inserted.encode(
            "utf-16-le", "surrogatepass"
        )
        if len(self._mirror) != 2 * (document.characterCount() - 1):
            self._mirror = None  # out of step (an odd change report): read the document
            self._mirror_ok = False

    def _on_contents_change(self, position: int, removed: int, added: int) -> None:
        if self._programmatic:
            return
        # Qt counts the document's closing paragraph mark in a change that reaches the
        # end (a Return typed there is reported again as one mark out, one in): it is no
        # text, so the change is read without it, by the copy and by the offsets' map
        past_end = position + added - (self.document().characterCount() - 1)
        if past_end > 0:
            added, removed = added - past_end, max(removed - past_end, 0)
            if not added and not removed:
                return
        self._follow_in_mirror(position, removed, added)
        self._edited = True
        self._edits.append((position, removed, added))
        self._schedule()
        self.edited.emit()

    def set_result(self, result: ChunkResult, edit_serial: int | None = None) -> None:
        """Show a new layout. ``edit_serial``: the edit count when its text was read from
        the editor (None: the text as set); later edits keep mapping its offsets."""
        self._result = result
        self._offsets = result.offsets
        self._spans = result.layout.spans
        self._hovered = None  # another layout: the mouse's next move finds its chunk
        if edit_serial is not None and edit_serial >= self._edit_base:
            self._edits = self._edits[edit_serial - self._edit_base :]
            self._edit_base = edit_serial
        self._update_margins()  # the gutter is as wide as the largest chunk number
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
            cursor.setPosition(self._position(span.end))
            self.setTextCursor(cursor)
            cursor.setPosition(self._position(span.own_start))
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
        cursor.setPosition(self._position(point))
        self.setTextCursor(cursor)
        self.centerCursor()

    # ----- offsets ------------------------------------------------------------------
    def to_editor(self, point: int) -> int:
        """Editor position of code point ``point`` of the shown layout's text, moved by
        the edits made since (a point in removed text goes to where it was)."""
        position = self._offsets.to_editor(point) if self._offsets else point
        for at, removed, added in self._edits:
            if position >= at + removed:
                position += added - removed
            elif position > at:
                position = at
        return position

    def _position(self, point: int) -> int:
        """``to_editor`` within the text the editor holds (less than all while loading)."""
        return min(self.to_editor(point), self.document().characterCount() - 1)

    def to_point(self, position: int) -> int:
        """Code point of the shown layout's text at editor ``position`` (typed text maps
        to where it was typed)."""
        for at, removed, added in reversed(self._edits):
            if position >= at + added:
                position -= added - removed
            elif position > at:
                position = at
        return self._offsets.to_point(position) if self._offsets else position

    def visible_points(self) -> tuple[int, int]:
        """The document range (code points) the viewport shows."""
        top, bottom = self.visible_positions()
        return self.to_point(top), self.to_point(bottom)

    def visible_positions(self) -> tuple[int, int]:
        """The editor positions the viewport shows, first to last."""
        top = self.cursorForPosition(QPoint(0, 0)).position()
        rect = self.viewport().rect()
        bottom = self.cursorForPosition(QPoint(rect.width(), rect.height())).position()
        # to the end of the last line on view, not of its paragraph: one line of
        # minified JSON is a paragraph of millions of characters
        block = self.document().findBlock(bottom)
        line = block.layout().lineForTextPosition(bottom - block.position())
        if line.isValid():
            end = block.position() + line.textStart() + line.textLength()
        else:
            end = block.position() + block.length()
        return top, max(bottom, end)

    def visible_spans(self) -> list[Span]:
        """Spans meeting the viewport."""
        if self._result is None:
            return []
        return self._result.layout.spans_between(*self.visible_points())

    # ----- decorations ----------------------------------------------------------------
    def _schedule(self) -> None:
        self._decorate_timer.start()

    def _selection(self, start: int, end: int, fmt: QTextCharFormat) -> QTextEdit.ExtraSelection:
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(self.document())
        cursor.setPosition(self._position(start))
        cursor.setPosition(self._position(end), QTextCursor.MoveMode.KeepAnchor)
        selection.cursor = cursor
        selection.format = fmt
        return selection

    def _decorate(self) -> None:
        """Turn the visible runs into extra selections (backgrounds, overlaps, hits); the
        boundary and pinned runs are drawn by paintEvent."""
        dark = theme.is_dark(self.palette())
        if self._result is None:
            self._runs = []
        else:
            first, last = self.visible_points()
            self._runs = decorations(
                self._result.layout,
                first,
                last,
                self._query,
                self._diff,
                self._selected,
                by_reason=self.by_reason,
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
        palette = self.palette()
        base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
        selections = []
        for run in self._runs:
            if run.kind == "chunk":
                fmt = QTextCharFormat()
                colour = theme.chunk_colour(run.chunk or 0, dark)
                if self.strong_tints:
                    colour.setAlpha(min(255, colour.alpha() * 2))
                if run.selected:
                    colour.setAlpha(min(255, colour.alpha() * 2 + 40))
                fmt.setBackground(colour)
                readable = theme.readable_text(colour, base, text)
                if readable != text:
                    fmt.setForeground(readable)
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
        # at least five digits: a new width re-wraps every line of a long text
        digits = max(len(str(len(self._spans))), 5)
        width = self._gutter_widths.get(digits)
        if width is None:
            width = (
                8 + 2 * self.bar_width + self.fontMetrics().horizontalAdvance("#" + "9" * digits)
            )
            self._gutter_widths[digits] = width
        return width

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._gutter_widths.clear()
        super().changeEvent(event)

    def _update_margins(self, *_: object) -> None:
        width = self.gutter_width()
        if self.viewportMargins().left() != width:  # the same margins lay out again
            self.setViewportMargins(width, 0, 0, 0)

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
        if diff is None and self._diff is None:
            return  # nothing pinned before or now: no second decoration pass
        self._diff = diff
        self._schedule()

    def mark_difference(self, point: int | None) -> None:
        """Highlight the line of the difference at ``point`` (None: none)."""
        if point != self._current_difference:
            self._current_difference = point
            self.viewport().update()

    def _paint_current_difference(self, painter: QPainter) -> None:
        point = self._current_difference
        if point is None or self._result is None:
            return
        cursor = QTextCursor(self.document())
        cursor.setPosition(min(self._position(point), self.document().characterCount() - 1))
        rect = self.cursorRect(cursor)
        band = QColor(self.palette().color(QPalette.ColorRole.Highlight))
        band.setAlpha(60)
        painter.fillRect(QRect(0, rect.top(), self.viewport().width(), rect.height()), band)
        painter.setPen(QPen(self.palette().color(QPalette.ColorRole.Highlight), 2))
        painter.drawRect(QRect(rect.left() - 5, rect.top() - 1, 9, rect.height() + 2))

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
            cursor.setPosition(self._position(run.start))
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
                bar = self.bar_width
                painter.fillRect(
                    QRect(rect.left() - 1 - (bar - 3) // 2, rect.top(), bar, rect.height()), colour
                )
        self._paint_current_difference(painter)
        self._paint_outlines(painter, dark)
        painter.end()

    # ----- outlines -------------------------------------------------------------------
    def outlines(self) -> list[outline.Outline]:
        """The chunks outlined, whole (their overlap included): the selected one, and the
        one under the mouse when it is another."""
        found = []
        for index, hovered in ((self._selected, False), (self._hovered, True)):
            if index is None or not 0 <= index < len(self._spans):
                continue
            if hovered and index == self._selected:
                continue
            span = self._spans[index]
            if span.located != "missing":
                found.append(outline.Outline(index, span.start, span.end, hovered))
        return found

    def set_hovered(self, index: int | None) -> None:
        """The chunk under the mouse (None: none), outlined."""
        if index != self._hovered:
            self._hovered = index
            self.viewport().update()

    def _paint_outlines(self, painter: QPainter, dark: bool) -> None:
        self.outline_paths = {}
        found = self.outlines()
        if not found:
            return
        top, bottom = self.visible_positions()
        width = 2 if self.bar_width <= 3 else 4  # presentation mode: thicker, not over the text
        for chunk in found:
            path = outline.outline_on_view(
                self, self._position(chunk.start), self._position(chunk.end), top, bottom
            )
            if not path.isEmpty():
                outline.paint(painter, path, dark, chunk.hovered, width)
                self.outline_paths[chunk] = path

    def paint_gutter(self, event: QPaintEvent) -> None:
        painter = QPainter(self._gutter)
        palette = self.palette()
        painter.fillRect(event.rect(), palette.color(QPalette.ColorRole.AlternateBase))
        self.gutter_labels = []
        if not self._spans:
            painter.end()
            return
        visible = self.visible_spans()
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
                bar = self.bar_width
                for lane, span in enumerate(covering[-2:]):
                    colour = theme.kind_colour(boundary_label(span, self.by_reason))
                    painter.fillRect(QRect(width - 2 * bar + lane * bar, top, bar, height), colour)
                starting = [
                    s for s in covering if first <= s.own_start < last and s.index not in labelled
                ]
                # each label on the wrapped line its chunk starts on (a long paragraph
                # holds many starts); a start whose line is taken goes to the next free one
                text_layout = block.layout()
                taken = top - metrics.height()
                for span in starting:
                    at = self.to_editor(span.own_start) - block.position()
                    line = text_layout.lineForTextPosition(max(at, 0))
                    y = top + round(line.y()) if line.isValid() else top
                    y = max(y, taken + metrics.height())
                    if y + metrics.height() > top + height:
                        break
                    taken = y
                    labelled.add(span.index)
                    self.gutter_labels.append((y, span.index))
                    colour = palette.color(QPalette.ColorRole.Text)
                    if span.index == self._selected:
                        colour = palette.color(QPalette.ColorRole.Highlight)
                    painter.setPen(colour)
                    painter.drawText(
                        QRect(2, y, width - 4 - 2 * self.bar_width, metrics.height()),
                        Qt.AlignmentFlag.AlignRight,
                        f"#{span.index}",
                    )
            block = block.next()
            top += height
        painter.end()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if not zoom_by_wheel(event, self.zoom_asked):
            super().wheelEvent(event)

    # ----- mouse ----------------------------------------------------------------------
    def span_at_position(self, position: int) -> Span | None:
        if not self._result:
            return None
        return self._result.layout.span_at(self.to_point(position))

    def spans_shown(self) -> Sequence[Span]:
        """The spans of the layout shown (by chunk index)."""
        return self._spans

    def gutter_chunk_at(self, y: int) -> int | None:
        """The chunk at height ``y`` of the gutter: the one whose number is written
        there, else the one at the start of the line there."""
        height = self.fontMetrics().height()
        for top, index in self.gutter_labels:
            if top <= y < top + height:
                return index
        span = self.span_at_position(self.cursorForPosition(QPoint(0, y)).position())
        return span.index if span is not None else None

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
        self.set_hovered(span.index if span is not None else None)
        if span is None:
            QToolTip.hideText()
            return
        QToolTip.showText(event.globalPosition().toPoint(), self.tooltip_for(span), self)

    def leaveEvent(self, event: QEvent) -> None:
        self.set_hovered(None)
        super().leaveEvent(event)

    def tooltip_for(self, span: Span) -> str:
        tokens = ""
        if self._result is not None and self._result.tokens is not None:
            tokens = f" · {self._result.tokens[span.index]} tokens"
        size = len(span.text.encode("utf-8", "surrogatepass"))
        # the kind and the metadata come from the library and the document: escaped, and
        # their white space kept (pre-wrap), so the tip shows them exactly
        lines = [
            f"<b>chunk {span.index}</b> · {escape(span.kind)}",
            f"{span.start}–{span.end} · {len(span.text)} chars · {size} bytes{tokens}",
        ]
        if span.start < span.own_start:
            lines.append(f"repeats {span.own_start - span.start} chars of the chunk before")
        if span.located != "exact":
            lines.append(f"placed: {escape(span.located)}")
        for key, value in list(span.metadata.items())[:6]:
            lines.append(f"{escape(key)}: {escape(str(value)[:80])}")
        lines.extend(self._reason_lines(span))
        return '<p style="white-space:pre-wrap">' + "<br>".join(lines) + "</p>"

    def set_by_reason(self, by_reason: bool) -> None:
        """Colour boundaries by the rule of their reason (True) or by their kind."""
        self.by_reason = by_reason
        self._schedule()

    def _reason_lines(self, span: Span) -> list[str]:
        """Why the chunk starts and ends where it does, when the run recorded it."""
        if self._result is None:
            return []
        spans = self._result.layout.spans
        if not 0 <= span.index < len(spans) or spans[span.index] is not span:
            return []
        start, end = chunk_ends(spans, span.index)
        lines = []
        for label, reason in (("starts here", start), ("ends here", end)):
            if reason is not None:
                lines.append(f"<b>{label}:</b> {escape(reason.text)}")
        return lines
