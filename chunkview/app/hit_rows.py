"""The Search tab's rows: each hit's chunk number and a snippet of whole words around the
hit, the query's words marked in the theme's hit colour.

A delegate formats a row's rich text when the view paints it, for the rows on view only,
and fits the snippet to the row's width (the hit stays in sight however narrow the pane);
the core gives the window and its marks (``views.snippet``), the editor's matching.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFontMetrics,
    QPainter,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from chunkview.app import theme
from chunkview.app.markup import escape
from chunkview.core.analysis.search import HitSearch, SearchHit
from chunkview.core.model.spans import Layout, Span
from chunkview.core.views.snippet import HitSnippet, hit_snippet

Index = QModelIndex | QPersistentModelIndex
#: tries at a narrower window when a snippet is wider than its row (wide letters)
_FIT_TRIES = 4
#: pixels before the chunk numbers' column and between it and the snippet
_PAD, _GAP = 4, 10
#: rows whose laid-out text is kept (a view shows fewer)
_KEPT_ROWS = 256


def hit_span(layout: Layout, chunk: int) -> Span | None:
    """The span whose index is ``chunk`` (its position, unless the layout is a slice)."""
    spans = layout.spans
    if 0 <= chunk < len(spans) and spans[chunk].index == chunk:
        return spans[chunk]
    return next((span for span in spans if span.index == chunk), None)


def row_snippet(search: HitSearch, hit: SearchHit, width: int) -> HitSnippet | None:
    """The snippet a row shows for ``hit``, about ``width`` characters."""
    span = hit_span(search.layout, hit.chunk)
    if span is None:
        return None
    text = search.layout.document.text
    return hit_snippet(text, span.start, span.end, hit.at, search.query, width)


def snippet_html(snippet: HitSnippet, marked: QColor, marked_text: QColor) -> str:
    """A snippet as rich text, each part escaped, the query's words on ``marked`` in
    ``marked_text``."""
    style = f"background-color:{marked.name()};color:{marked_text.name()}"
    parts = [
        f'<span style="{style}">{escape(part.text)}</span>' if part.hit else escape(part.text)
        for part in snippet.parts
    ]
    # pre: the one space kept between words is never dropped at a mark's edge
    return f'<span style="white-space:pre">{"".join(parts)}</span>'


@dataclass(frozen=True)
class PaintedRow:
    snippet: HitSnippet | None  # None: no layout (the agentos snippet is shown)
    html: str
    room: int  # the snippet's width, pixels


class HitDelegate(QStyledItemDelegate):
    """Paints a hit's row: its chunk's number, right-aligned in a column as wide as the
    layout's largest, then its snippet as rich text fitted to the rest of the row."""

    def __init__(self, search: Callable[[], HitSearch | None], parent: QWidget) -> None:
        super().__init__(parent)
        self._search = search
        #: each hit painted for the search under way: its snippet and rich text (tests)
        self.painted: dict[SearchHit, PaintedRow] = {}
        #: rows laid out for the search ``_kept_for``, by hit, width, font and theme
        self._kept: dict[tuple[int, int, int, str, bool], tuple[PaintedRow, QTextDocument, float]]
        self._kept = {}
        self._kept_for: HitSearch | None = None

    def fitted_snippet(
        self, hit: SearchHit, width_px: int, metrics: QFontMetrics
    ) -> HitSnippet | None:
        """The snippet of ``hit`` that fits ``width_px`` pixels: a window of about as many
        characters as fit, narrowed while its plain text is still too wide."""
        search = self._search()
        if search is None:
            return None
        chars = max(width_px // max(metrics.averageCharWidth(), 1), 8)
        snippet = row_snippet(search, hit, chars)
        for _ in range(_FIT_TRIES):
            if snippet is None or metrics.horizontalAdvance(snippet.text) <= width_px:
                break
            chars = max(chars * 4 // 5, 8)
            snippet = row_snippet(search, hit, chars)
        return snippet

    def row_html(self, snippet: HitSnippet, palette: QPalette) -> str:
        """The rich text of ``snippet`` on ``palette``: the query's words in the theme's
        hit colour, under text that reads on it."""
        marked = theme.search_colour(theme.is_dark(palette))
        base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
        return snippet_html(snippet, marked, theme.readable_text(marked, base, text))

    def number_width(self, metrics: QFontMetrics) -> int:
        """The chunk numbers' column: the widest number the layout can have, and a gap."""
        search = self._search()
        count = len(search.layout.spans) if search is not None else 0
        digits = len(str(max(count - 1, 0)))
        return _PAD + metrics.horizontalAdvance("#" + "9" * digits) + _GAP

    def _row_document(
        self, hit: SearchHit, room: int, item: QStyleOptionViewItem
    ) -> tuple[QTextDocument, float]:
        """``hit``'s snippet laid out in ``room`` pixels, and its height: kept for the
        search under way, so a repaint (a row selected, rows coming in) lays out none
        again."""
        search = self._search()
        if search is not self._kept_for or len(self._kept) > _KEPT_ROWS:
            self._kept, self._kept_for, self.painted = {}, search, {}
        key = (hit.chunk, hit.at, room, item.font.key(), theme.is_dark(item.palette))
        kept = self._kept.get(key)
        if kept is None:
            snippet = self.fitted_snippet(hit, room, item.fontMetrics)
            html = escape(hit.snippet) if snippet is None else self.row_html(snippet, item.palette)
            document = QTextDocument()
            document.setDocumentMargin(0)
            document.setDefaultFont(item.font)
            document.setHtml(html)
            kept = self._kept[key] = (
                PaintedRow(snippet, html, room),
                document,
                document.size().height(),
            )
        self.painted[hit] = kept[0]
        return kept[1], kept[2]

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        hit: SearchHit = index.model().item(index.row())  # type: ignore[attr-defined]
        item.text = ""
        widget = item.widget
        style = widget.style() if widget is not None else None
        if style is None:
            return
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, item, widget)
        selected = bool(item.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        ink = item.palette.color(role)
        metrics = item.fontMetrics
        column = self.number_width(metrics)
        painter.save()
        painter.setPen(ink)
        painter.setFont(item.font)
        number = QRect(rect.left(), rect.top(), column - _GAP, rect.height())
        align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(number, int(align), f"#{hit.chunk}")
        room = rect.width() - column - 4
        document, height = self._row_document(hit, room, item)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette = QPalette(item.palette)
        context.palette.setColor(QPalette.ColorRole.Text, ink)
        top = rect.top() + (rect.height() - height) / 2
        painter.translate(rect.left() + column, top)
        painter.setClipRect(0, 0, room + 2, rect.height())
        document.documentLayout().draw(painter, context)
        painter.restore()
