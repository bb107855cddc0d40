"""The chunk table: one row per chunk, a model so 100k chunks cost nothing to show.

Cells are computed when the view paints them, and rows reach the view in batches
(``canFetchMore``/``fetchMore``) as it scrolls, so a new layout of 20,000 chunks never
resets 20,000 rows at once. Each column is as wide as its short header label or its
widest value (the digits of the layout shown), the first words take the rest; which
columns show is a user's choice (table_columns.py), and where the table is too narrow for
them and readable first words, the least needed make way till it is wider.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QAccessible, QBrush, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QStyle, QTableView

from chunkview.app import theme
from chunkview.app.table_columns import COLUMNS, TABLE_COLUMNS, ColumnChoices, header_tooltip
from chunkview.app.zoom_wheel import zoom_by_wheel
from chunkview.core.model.explain import chunk_ends, reason_words
from chunkview.core.model.span_table import SpanTable
from chunkview.core.runtime.pipeline import ChunkResult

PLACED = {"exact": "=", "normalized": "≈", "missing": "✗"}
Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()
#: rows handed to the view at once
BATCH = 500
#: a cell's margins and a little air, beside its text
CELL_PADDING = 8
#: the first words' natural width (the column that takes the rest), in characters
FIRST_WORDS_WIDTH = 12
#: their least width, readable: a word or two (less, and the least needed columns make way)
FIRST_WORDS_LEAST = 10
#: a kind's colour swatch, as a share of the line's height
SWATCH_SHARE = 0.75
#: the columns left out, in this order, where the table has too little room for them
#: and the first words (the end follows from the start and the size; the placed mark
#: shows as the row's colour and in the inspector; the sizes last)
ROOM_ORDER = ("end", "placed", "bytes", "chars")


@dataclass(frozen=True)
class Widest:
    """What the columns of the layout shown must hold: the largest chunk number, offset,
    size in code points, size in UTF-8 bytes and token count (None: not counted yet),
    and the kinds present."""

    number: int = 0
    offset: int = 0
    size: int = 0
    bytes: int | None = None
    tokens: int | None = None
    kinds: tuple[str, ...] = ()


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
        self._layout: Any = None
        #: the kind column shows each kind's name beside its colour (False: the colour
        #: alone, the name in the tooltip, where the panel has no room for the names)
        self.kind_names = True
        #: the tokenizer the token counts are of, as the header's tooltip names it
        self.counter = "cl100k"

    def set_result(self, result: ChunkResult | None) -> bool:
        """Show the rows of ``result``; True when the model was reset. A layout with as
        many rows to show as the last (a long one: the first batch) only changes their
        cells, so the view repaints its rows alone: not its header or scroll bars."""
        spans = result.layout.spans if result else []
        shown = min(len(spans), BATCH)
        if result is not None and shown and shown == self._shown:
            self._spans = spans
            self._layout = result.layout
            self._tokens = result.tokens
            self._rows = {}
            self.dataChanged.emit(self.index(0, 0), self.index(shown - 1, len(COLUMNS) - 1))
            return False
        self.beginResetModel()
        self._spans = spans
        self._layout = result.layout if result else None
        self._tokens = result.tokens if result else None
        self._rows = {}
        self._shown = shown
        self.endResetModel()
        return True

    def set_tokens(self, tokens: list[int], counter: str = "cl100k") -> None:
        """The chunks' token counts, by the tokenizer named ``counter``."""
        self._tokens = tokens
        if counter != self.counter:
            self.counter = counter
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, _TOKENS_COLUMN, _TOKENS_COLUMN)
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

    def set_kind_names(self, shown: bool) -> None:
        """Show the kinds' names beside their colours, or the colours alone."""
        if shown != self.kind_names:
            self.kind_names = shown
            if self._shown:
                last = self._shown - 1
                self.dataChanged.emit(self.index(0, _KIND_COLUMN), self.index(last, _KIND_COLUMN))

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        column = TABLE_COLUMNS[section]
        if role == _DISPLAY:
            return column.label
        if role == _TOOLTIP:  # the short label's whole name and meaning
            return header_tooltip(column, self.counter)
        if role == _ALIGNMENT:  # above the digits of a number column
            return _ALIGNMENTS[section]
        return None

    def _row(self, row: int) -> _Row:
        cells = self._rows.get(row)
        if cells is None:
            cells = self._rows[row] = _Row(self._spans[row])
        return cells

    def _value(self, row: int, column: int) -> Any:
        if column == _TOKENS_COLUMN:
            return self._tokens[row] if self._tokens is not None else "…"
        if column == _KIND_COLUMN and not self.kind_names:
            return None
        return self._row(row).values[column]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # called for every visible cell and role on each paint: keep the common path short
        if role == _DISPLAY:
            return self._value(index.row(), index.column())
        if role == _ALIGNMENT:
            return _ALIGNMENTS[index.column()]
        if role == _FOREGROUND:
            return self._row(index.row()).foreground
        if role == _DECORATION and index.column() == _KIND_COLUMN:
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

    def widest(self) -> Widest:
        """What the columns must hold for the layout shown."""
        spans, layout = self._spans, self._layout
        if not len(spans) or layout is None:
            return Widest()
        if isinstance(spans, SpanTable):
            starts, ends, *_ = spans.columns()
            size = int((ends - starts).max())
            last_end = int(ends.max())
        else:
            last_end = max(s.end for s in spans)
            size = max(s.end - s.start for s in spans)
        size = max(size, layout.chars.maximum)  # a rewritten chunk's text may be longer
        # the bytes come with the layout's details (None till then)
        utf8 = layout.bytes.maximum if layout.complete and layout.bytes.maximum else None
        tokens = max(self._tokens, default=0) if self._tokens is not None else None
        return Widest(len(spans) - 1, last_end, size, utf8, tokens, tuple(layout.kinds))


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
_CENTRE = int(Qt.AlignmentFlag.AlignCenter)
_ALIGNMENTS = tuple(
    _RIGHT if c.numeric else _CENTRE if c.name == "placed" else _LEFT for c in TABLE_COLUMNS
)
_PLACED_COLUMN = COLUMNS.index("placed")
_TOKENS_COLUMN = COLUMNS.index("tokens")
_KIND_COLUMN = COLUMNS.index("kind")
_FIRST_WORDS_COLUMN = COLUMNS.index("first words")
PLACED_HELP = {
    "exact": "the chunk's text is this slice of the document",
    "normalized": "the library rewrote the text (white space, joins); placed by a "
    "white-space-insensitive match",
    "missing": "the chunk's text is not in the document",
}


def _rest_column(shown: list[int]) -> int:
    """The column that takes the rest of the width: the first words, or where they are
    hidden the kind (presentation mode's), else the last."""
    text_columns = [c for c in (_FIRST_WORDS_COLUMN, _KIND_COLUMN) if c in shown]
    return text_columns[0] if text_columns else shown[-1]


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
        #: the columns a user shows (the header's context menu; kept by the caller)
        self.columns = ColumnChoices(self)
        self.columns.changed.connect(self._show_columns)
        #: presentation mode's cut-down set of columns (None: as a user chose)
        self._only: tuple[str, ...] | None = None
        #: the columns a user shows that the table has no room for now (ROOM_ORDER)
        self.no_room: tuple[str, ...] = ()
        header = self.horizontalHeader()
        # each column as wide as its header and its widest value, the first words the
        # rest (fit_columns): a header is never cut short
        header.setMinimumSectionSize(8)
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        for column in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu_asked)
        self._natural: list[int] = []
        self._compact_kind = 0
        self._widest = Widest()
        self._show_columns()
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)

    # ----- which columns ----------------------------------------------------------------
    def header_menu(self) -> QMenu:
        """The header's context menu: a column shown or hidden at a click; those left
        out for room are greyed, marked so."""
        return self.columns.menu(self, self._only, self.no_room)

    def _header_menu_asked(self, position: QPoint) -> None:
        menu = self.header_menu()
        menu.exec(self.horizontalHeader().mapToGlobal(position))
        menu.deleteLater()

    def set_only_columns(self, names: Iterable[str] | None) -> None:
        """Show no more than ``names`` of the columns a user shows (presentation mode's
        few a room reads); None: all of them again."""
        self._only = tuple(names) if names is not None else None
        self._show_columns()

    def column_shown(self, name: str) -> bool:
        return self.columns.shown(name) and (self._only is None or name in self._only)

    def _show_columns(self) -> None:
        """Hide the columns a user does not show; fit_columns shows the rest, room
        permitting."""
        for column, name in enumerate(COLUMNS):
            if not self.column_shown(name) and not self.isColumnHidden(column):
                self.setColumnHidden(column, True)
        self.fit_columns()

    # ----- widths -----------------------------------------------------------------------
    def fit_columns(self) -> None:
        """Rows, swatches and columns sized to the type (zoom and presentation mode
        change it)."""
        height = self.fontMetrics().height()
        self.verticalHeader().setDefaultSectionSize(height + 6)
        swatch = max(10, round(height * SWATCH_SHARE))
        if self.iconSize() != QSize(swatch, swatch):
            self.setIconSize(QSize(swatch, swatch))
        # fixed widths: ResizeToContents would ask every row on each new layout
        self._natural = self._natural_widths()
        self._fit_to_viewport()

    def _header_width(self, column: int) -> int:
        """The width that shows the column's header label whole (Qt's elision takes a
        few pixels beside the style's margins)."""
        header = self.horizontalHeader()
        margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        label = TABLE_COLUMNS[column].label
        return header.fontMetrics().horizontalAdvance(label) + 2 * margin + 8

    def _natural_widths(self) -> list[int]:
        """Each column's width: its header label or its widest value, whichever is the
        wider (the digits of the layout shown; each kind's name beside its colour)."""
        metrics = self.fontMetrics()
        digit, pad = metrics.horizontalAdvance("0"), CELL_PADDING
        widest = self._widest
        swatch = self.iconSize().width()  # a kind's colour
        kind_names = max((metrics.horizontalAdvance(k) for k in widest.kinds), default=0)
        tokens = (
            len(str(widest.tokens)) * digit
            if widest.tokens is not None
            else metrics.horizontalAdvance("…")
        )
        content = {
            "#": len(str(widest.number)) * digit,
            "kind": swatch + pad + kind_names,
            "start": len(str(widest.offset)) * digit,
            "end": len(str(widest.offset)) * digit,
            "chars": len(str(widest.size)) * digit,
            # till the UTF-8 sizes come, at most 4 bytes a code point
            "bytes": len(str(4 * widest.size if widest.bytes is None else widest.bytes)) * digit,
            "tokens": tokens,
            "placed": max(metrics.horizontalAdvance(mark) for mark in PLACED.values()),
            "first words": metrics.horizontalAdvance("0") * FIRST_WORDS_WIDTH,
        }
        self._compact_kind = max(self._header_width(1), swatch + 2 * pad)
        return [
            max(self._header_width(column), content[name] + pad)
            for column, name in enumerate(COLUMNS)
        ]

    def _fit_to_viewport(self) -> None:
        """Each column shown at its natural width but one, which takes the rest of the
        table's width: the first words, or where they are hidden the kind (presentation
        mode's), else the last. Where the rest is less than its natural width, the kinds
        show as their colours alone (the name in the tooltip; the legend names the
        colours); where even that leaves the first words less than their readable least,
        the least needed columns make way (``ROOM_ORDER``; a user's choice stays, and
        they come back when the table is wider) before a scroll bar comes."""
        wanted = [c for c, name in enumerate(COLUMNS) if self.column_shown(name)]
        if not wanted:
            return
        room = self.viewport().width()
        names, dropped = self._plan_room(wanted, room)
        self.chunk_model.set_kind_names(names)
        for column in wanted:
            if self.isColumnHidden(column) != (column in dropped):
                self.setColumnHidden(column, column in dropped)
        self.no_room = tuple(COLUMNS[c] for c in sorted(dropped))
        shown = [c for c in wanted if c not in dropped]
        rest = _rest_column(shown)
        widths = {c: self._natural[c] for c in shown if c != rest}
        if not names and _KIND_COLUMN in widths:
            widths[_KIND_COLUMN] = self._compact_kind
        # not Qt's stretched last section: that is the last column. The rest may leave
        # the first words less than their natural width, never less than their header's
        # (a scroll bar comes where even that is too much)
        least = self._compact_kind if rest == _KIND_COLUMN else self._header_width(rest)
        widths[rest] = max(least, room - sum(widths.values()))
        for column, width in widths.items():
            if self.columnWidth(column) != width:  # each change lays the header out again
                self.setColumnWidth(column, width)

    def _least_width(self, rest: int) -> int:
        """The least width of the column taking the rest before others make way: the
        first words' readable least, or another's header."""
        least = self._header_width(rest)
        if rest == _FIRST_WORDS_COLUMN:
            digit = self.fontMetrics().horizontalAdvance("0")
            least = max(least, digit * FIRST_WORDS_LEAST + CELL_PADDING)
        return least

    def _plan_room(self, wanted: list[int], room: int) -> tuple[bool, set[int]]:
        """Whether the kinds show their names, and the columns of ``wanted`` left out for
        room: none while every column fits at its natural width; else the kinds as their
        colours, then the columns of ``ROOM_ORDER`` one by one till the rest leaves the
        first words their readable least."""
        if sum(self._natural[c] for c in wanted) <= room:
            return True, set()
        names = _KIND_COLUMN not in wanted
        dropped: set[int] = set()
        for name in (None, *ROOM_ORDER):
            if name is not None and (column := COLUMNS.index(name)) in wanted:
                dropped.add(column)
            shown = [c for c in wanted if c not in dropped]
            rest = _rest_column(shown)
            if rest == _KIND_COLUMN:  # presentation mode's few columns: as they are
                break
            need = sum(
                self._natural[c] if names or c != _KIND_COLUMN else self._compact_kind
                for c in shown
                if c != rest
            )
            if need + self._least_width(rest) <= room:
                break
        return names, dropped

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

    # ----- the layout shown -------------------------------------------------------------
    def show_result(self, result: ChunkResult | None) -> None:
        """The rows of a new layout, laid out at once: left to the view's zero timer,
        the layout would come after the paint and paint the whole table a second time
        (header, rows and scroll bars)."""
        if self.chunk_model.set_result(result):
            self.doItemsLayout()
        if result is not None:
            self.columns.set_size_unit(result.layout.size_unit)
        self._fit_to_values()

    def show_counts(self, tokens: list[int] | None, counter: str) -> None:
        """The chunks' token counts (by the tokenizer ``counter``) and the layout's
        details (its UTF-8 sizes): the columns fit them."""
        if tokens is not None:
            self.chunk_model.set_tokens(tokens, counter)
        self._fit_to_values()

    def _fit_to_values(self) -> None:
        widest = self.chunk_model.widest()
        # a count not made yet for this layout (its tokens, its UTF-8 sizes: they come
        # after it) keeps the last layout's width: a column narrowed for "…" and widened
        # again for the count would lay the header out and paint the table twice more
        # at every option change
        if widest.tokens is None and self._widest.tokens is not None:
            widest = replace(widest, tokens=self._widest.tokens)
        if widest.bytes is None and self._widest.bytes is not None:
            widest = replace(widest, bytes=self._widest.bytes)
        if widest != self._widest:  # the numbers' digits and the kinds decide the widths
            self._widest = widest
            self.fit_columns()

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
