"""The chunk table: one row per chunk, a model so 100k chunks cost nothing to show.

Cells are computed when the view paints them, and rows reach the view in batches
(``canFetchMore``/``fetchMore``) as it scrolls, so a new layout of 20,000 chunks never
resets 20,000 rows at once.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    Qt,
    Signal,
)
from PySide6.QtGui import QAccessible, QBrush, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from chunkview.app import theme
from chunkview.app.zoom_wheel import zoom_by_wheel
from chunkview.core.model.explain import chunk_ends, reason_words
from chunkview.core.model.span_table import SpanTable
from chunkview.core.runtime.pipeline import ChunkResult

COLUMNS = ("#", "kind", "start", "end", "chars", "bytes", "tokens", "placed", "first words")
PLACED = {"exact": "=", "normalized": "≈", "missing": "✗"}
Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()
#: rows handed to the view at once
BATCH = 500
#: a cell's margins and a little air, beside its text
CELL_PADDING = 8


class ChunkTableModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self._spans: Sequence[Any] = []
        self._tokens: list[int] | None = None
        #: each painted row's cells (display values, kind, placement), made once per
        #: layout: a view asks seven roles of every visible cell on each paint, and a
        #: span is made anew at each ``self._spans[row]``
        self._rows: dict[int, _Row] = {}
        self._shown = 0

    def set_result(self, result: ChunkResult | None) -> bool:
        """Show the rows of ``result``; True when the model was reset. A layout with as
        many rows to show as the last (a long one: the first batch) only changes their
        cells, so the view repaints its rows alone: not its header or scroll bars."""
        spans = result.layout.spans if result else []
        shown = min(len(spans), BATCH)
        if result is not None and shown and shown == self._shown:
            self._spans = spans
            self._tokens = result.tokens
            self._rows = {}
            self.dataChanged.emit(self.index(0, 0), self.index(shown - 1, len(COLUMNS) - 1))
            return False
        self.beginResetModel()
        self._spans = spans
        self._tokens = result.tokens if result else None
        self._rows = {}
        self._shown = shown
        self.endResetModel()
        return True

    def set_tokens(self, tokens: list[int]) -> None:
        self._tokens = tokens
        if self._shown:
            column = COLUMNS.index("tokens")
            self.dataChanged.emit(self.index(0, column), self.index(self._shown - 1, column))

    def total(self) -> int:
        """Rows of the layout, shown or not yet."""
        return len(self._spans)

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else self._shown

    def canFetchMore(self, parent: Index = _ROOT) -> bool:
        return not parent.isValid() and self._shown < len(self._spans)

    def fetchMore(self, parent: Index = _ROOT) -> None:
        if not parent.isValid():
            self.show_rows(self._shown + BATCH)

    def show_rows(self, count: int) -> None:
        """Hand the view at least ``count`` rows (all there are, at most)."""
        count = min(count, len(self._spans))
        if count > self._shown:
            self.beginInsertRows(_ROOT, self._shown, count - 1)
            self._shown = count
            self.endInsertRows()

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        if role == _TOOLTIP:  # a narrow column's header is cut short: its whole name here
            return f"{COLUMNS[section]}: {COLUMN_HELP[COLUMNS[section]]}"
        return None

    def _row(self, row: int) -> _Row:
        cells = self._rows.get(row)
        if cells is None:
            cells = self._rows[row] = _Row(self._spans[row])
        return cells

    def _value(self, row: int, column: int) -> Any:
        if column == _TOKENS_COLUMN:
            return self._tokens[row] if self._tokens is not None else "…"
        return self._row(row).values[column]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # called for every visible cell and role on each paint: keep the common path short
        if role == _DISPLAY:
            return self._value(index.row(), index.column())
        if role == _ALIGNMENT:
            return _ALIGNMENTS[index.column()]
        if role == _FOREGROUND:
            return self._row(index.row()).foreground
        if role == _DECORATION and index.column() == 1:
            return self._row(index.row()).decoration
        if role == _TOOLTIP and index.column() == _PLACED_COLUMN:
            return PLACED_HELP.get(self._row(index.row()).located)
        if role == _TOOLTIP:
            why = ends_tooltip(self._spans, index.row())
            if index.column() not in _TEXT_COLUMNS:
                return why
            # a text column may be cut short at its width: the whole of it first
            whole = html.escape(str(self._row(index.row()).values[index.column()]))
            return f"{whole}<br>{why}" if why else f"<p>{whole}</p>"
        return None

    def widest_values(self) -> tuple[int, int, int]:
        """The largest chunk number, offset and size in code points of the layout shown
        (what the number columns must hold)."""
        spans = self._spans
        if not len(spans):
            return 0, 0, 0
        if isinstance(spans, SpanTable):
            starts, ends, *_ = spans.columns()
            size = int((ends - starts).max())
            return len(spans) - 1, int(ends.max()), size
        last_end = max(s.end for s in spans)
        return len(spans) - 1, last_end, max(s.end - s.start for s in spans)


class _Row:
    """What the table shows of one span: its cells but the token count (which comes
    later), its kind's colour, how it was placed and the text colour that follows."""

    __slots__ = ("decoration", "foreground", "located", "values")

    def __init__(self, span: Any) -> None:
        text = span.text
        words = " ".join(text[:160].split())
        self.values = (
            span.index,
            span.kind,
            span.start,
            span.end,
            len(text),
            len(text.encode("utf-8", "surrogatepass")),
            None,  # tokens: read from the model
            PLACED.get(span.located, "?"),
            words[:60] + ("…" if len(words) > 60 else ""),
        )
        self.decoration = theme.kind_colour(span.kind)
        self.located = span.located
        self.foreground = QBrush(theme.kind_colour("code")) if self.located == "missing" else None


_DISPLAY = Qt.ItemDataRole.DisplayRole
_ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole
_DECORATION = Qt.ItemDataRole.DecorationRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
_TEXT_COLUMNS = {COLUMNS.index("kind"), COLUMNS.index("first words")}
_ALIGNMENTS = tuple(_LEFT if c in _TEXT_COLUMNS else _RIGHT for c in range(len(COLUMNS)))
_PLACED_COLUMN = COLUMNS.index("placed")
_TOKENS_COLUMN = COLUMNS.index("tokens")
COLUMN_HELP = {
    "#": "the chunk's number, from 0",
    "kind": "the boundary kind the chunk starts with",
    "start": "where the chunk starts (code points)",
    "end": "where the chunk ends (code points)",
    "chars": "the chunk's length in code points",
    "bytes": "the chunk's length in UTF-8 bytes",
    "tokens": "the chunk's length in tokens: cl100k's, or those of View › Count Tokens With",
    "placed": "= exact, ≈ normalized (the library rewrote the text), ✗ missing",
    "first words": "the chunk's first words",
}
PLACED_HELP = {
    "exact": "the chunk's text is this slice of the document",
    "normalized": "the library rewrote the text (white space, joins); placed by a "
    "white-space-insensitive match",
    "missing": "the chunk's text is not in the document",
}


def ends_tooltip(spans: Any, row: int) -> str | None:
    """Why chunk ``row`` starts and ends where it does, when the run recorded it."""
    start, end = chunk_ends(spans, row)
    lines = [
        f"<b>{label}:</b> {html.escape(reason_words(reason))}"
        for label, reason in (("starts here", start), ("ends here", end))
        if reason is not None
    ]
    return "<br>".join(lines) or None


class ChunkTable(QTableView):
    #: Ctrl+wheel: +1 zoom in, -1 zoom out
    zoom_asked = Signal(int)

    def __init__(self) -> None:
        super().__init__()
        self.chunk_model = ChunkTableModel()
        self.setModel(self.chunk_model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.verticalHeader().setVisible(False)
        self.setAlternatingRowColors(True)
        header = self.horizontalHeader()
        # narrow columns where room is short: the numbers' digits decide (_least_widths);
        # a header cut short ends in "…" (its tooltip has the whole name)
        header.setMinimumSectionSize(8)
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        for column in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        self._natural: list[int] = []
        self._least: list[int] = []
        self._widest = (0, 0, 0)
        self.fit_columns()
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)

    def fit_columns(self) -> None:
        """Rows and columns sized to the type (zoom and presentation mode change it)."""
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        # fixed widths: ResizeToContents would ask every row on each new layout
        self._natural = self._natural_widths()
        self._least = self._least_widths()
        self._fit_to_viewport()

    def _natural_widths(self) -> list[int]:
        """Each column's width where there is room (all but the last, which stretches)."""
        digits = self.fontMetrics().horizontalAdvance("0000000")
        widths = {
            "#": 0.6,
            "kind": 1.9,
            "start": 0.85,
            "end": 0.85,
            "chars": 0.75,
            "bytes": 0.75,
            "tokens": 0.75,
            "placed": 0.95,
        }
        return [int(digits * widths[name]) + 8 for name in COLUMNS[:-1]]

    def _least_widths(self) -> list[int]:
        """Each column's width where room is short: the numbers of the layout shown whole,
        a kind cut to its first letters (the tooltip has it), the placed mark."""
        metrics = self.fontMetrics()
        digit, pad = metrics.horizontalAdvance("0"), CELL_PADDING
        number, offset, size = (len(str(v)) for v in self._widest)
        bytes_digits = len(str(self._widest[2] * 3))  # up to 3 UTF-8 bytes a code point
        least = {
            "#": number * digit + pad,
            "kind": self.iconSize().width() + metrics.horizontalAdvance("code…") + pad,
            "start": offset * digit + pad,
            "end": offset * digit + pad,
            "chars": size * digit + pad,
            "bytes": bytes_digits * digit + pad,
            "tokens": size * digit + pad,
            "placed": metrics.horizontalAdvance("≈") + pad,
        }
        return [min(least[name], most) for name, most in zip(COLUMNS[:-1], self._natural)]

    def _fit_to_viewport(self) -> None:
        """The columns shown at their natural widths when they fit the table's width with
        room for the last one (the first words, or the last left in presentation mode);
        else each cut towards its least by the same share. Hidden columns take no room."""
        shown = [c for c in range(len(COLUMNS)) if not self.isColumnHidden(c)]
        if not shown:
            return
        *sized, last = shown
        first_words = self.fontMetrics().horizontalAdvance("first wo")
        last_least = first_words if last == len(COLUMNS) - 1 else self._least[last]
        room = self.viewport().width() - last_least
        natural = [self._natural[c] for c in sized]
        least = [self._least[c] for c in sized]
        if sum(natural) <= room:
            widths = natural
        else:
            slack = sum(natural) - sum(least)
            share = min(max((room - sum(least)) / slack, 0.0), 1.0) if slack else 0.0
            widths = [lo + int((hi - lo) * share) for lo, hi in zip(least, natural)]
        # the last column takes the rest (not Qt's stretched last section: it keeps 100 px)
        widths = [*widths, max(last_least, self.viewport().width() - sum(widths))]
        for column, width in zip(shown, widths):
            if self.columnWidth(column) != width:  # each change lays the header out again
                self.setColumnWidth(column, width)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_to_viewport()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.fit_columns()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if not zoom_by_wheel(event, self.zoom_asked):
            super().wheelEvent(event)

    def show_result(self, result: ChunkResult | None) -> None:
        """The rows of a new layout, laid out at once: left to the view's zero timer,
        the layout would come after the paint and paint the whole table a second time
        (header, rows and scroll bars)."""
        if self.chunk_model.set_result(result):
            self.doItemsLayout()
        widest = self.chunk_model.widest_values()
        if widest != self._widest:  # the numbers' digits decide the least widths
            self._widest = widest
            self._least = self._least_widths()
            self._fit_to_viewport()

    def dataChanged(self, top_left: Index, bottom_right: Index, roles: Any = ()) -> None:
        # QAbstractItemView repaints the whole viewport for any range of changed cells:
        # the token counts (one column, after the layout) repaint that column only
        if (
            top_left.isValid()
            and top_left.column() == bottom_right.column()
            and not QAccessible.isActive()
        ):
            column = top_left.column()
            strip = QRect(
                self.columnViewportPosition(column),
                0,
                self.columnWidth(column),
                self.viewport().height(),
            )
            self.viewport().update(strip)
            return
        super().dataChanged(top_left, bottom_right, roles)

    def select_chunk(self, index: int) -> None:
        self.chunk_model.show_rows(index + 1)
        if 0 <= index < self.chunk_model.rowCount():
            self.selectRow(index)
            self.scrollTo(self.chunk_model.index(index, 0))

    def selected_chunk(self) -> int | None:
        rows = self.selectionModel().selectedRows()
        return rows[0].row() if rows else None
