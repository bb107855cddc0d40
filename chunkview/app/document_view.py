"""The centre: the search box, the document kind, the legend and the chunk editor."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from chunkview.app import missing_fonts, theme
from chunkview.app.chunker_panel import escape
from chunkview.app.editor import ChunkEditor
from chunkview.app.outside_changes import OutsideChangeBar
from chunkview.core.model.document import KINDS
from chunkview.core.model.span_table import MISSING, SpanTable
from chunkview.core.model.spans import Span
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.session import InspectorModel, ModelEvent
from chunkview.core.views.decorations import DIFF_STYLES, boundary_label


class DocumentView(QWidget):
    #: a short message for the status bar
    status = Signal(str)

    def __init__(self, model: InspectorModel) -> None:
        super().__init__()
        self.model = model
        self._view_text: str | None = None
        #: the last complete layout recorded why its boundaries are where they are
        self._explained = False
        #: what the legend says of the document's scripts that no font draws
        self._font_note: str | None = None
        self._fonts_noted_for: str | None = None  # the text the note was made for
        self.search_box = QLineEdit()
        self.search_box.setPlaceholderText("Search: words a user would ask about…")
        self.search_box.setClearButtonEnabled(True)
        self.search_box.textChanged.connect(self._query_typed)
        self.kind_combo = QComboBox()
        for kind in KINDS:
            self.kind_combo.addItem(kind, kind)
        self.kind_combo.setToolTip("document kind (decides some defaults, e.g. mastra's strategy)")
        self.kind_combo.currentIndexChanged.connect(
            lambda: model.set_kind(self.kind_combo.currentData())
        )
        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setWordWrap(True)  # a long legend wraps rather than widen the window
        # a link in the legend switches between colouring boundaries by kind and by the
        # rule of their reason (a link takes no room from the search row)
        self.legend.linkActivated.connect(lambda link: self.set_colour_by_reason(link == "reason"))
        self.legend.setToolTip(
            "boundaries coloured by their kind, or by the rule that put them there; hover a "
            "chunk to read why it starts and ends where it does"
        )
        # a long legend wraps rather than widening the window past a small screen
        self.legend.setWordWrap(True)
        self.editor = ChunkEditor()
        self.editor.edited.connect(model.text_edited)
        self.editor.chunk_clicked.connect(model.select_chunk)
        search_row = QHBoxLayout()
        search_row.addWidget(self.search_box, 1)
        search_row.addWidget(QLabel("kind"))
        search_row.addWidget(self.kind_combo)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(search_row)
        layout.addWidget(self.legend)
        #: what another program did to the file, with Reload or Keep mine (outside_changes)
        self.outside_bar = OutsideChangeBar()
        layout.addWidget(self.outside_bar)
        layout.addWidget(self.editor, 1)
        # edits are read from the editor only when a run or a save needs them
        model.text_source = self._editor_text
        # the editor's edit count when each recent text was read from it (by id: the
        # requests hold the texts), so a layout keeps following the edits made after
        self._edit_marks: dict[int, int] = {}
        model.subscribe(ModelEvent.DOCUMENT, self._show_document)
        model.subscribe(ModelEvent.RESULT, self._show_result)
        model.subscribe(ModelEvent.DETAILS, self._show_reasons)  # the reasons follow the layout
        model.subscribe(ModelEvent.PINNED, self._show_pinned)
        model.subscribe(ModelEvent.SELECTION, self._show_selection)
        self.update_legend()

    def _editor_text(self) -> str:
        text = self.editor.plain_text()
        newline = self.model.document.newline
        if newline in ("\r\n", "\r"):
            text = text.replace("\n", newline)
        self._mark(text)
        return text

    def _mark(self, text: str) -> None:
        self._edit_marks[id(text)] = self.editor.edit_serial()
        while len(self._edit_marks) > 16:
            del self._edit_marks[next(iter(self._edit_marks))]

    def _query_typed(self, text: str) -> None:
        self.editor.set_query(text)
        self.model.set_query(text)

    def _show_document(self) -> None:
        document = self.model.document
        self.kind_combo.blockSignals(True)
        self.kind_combo.setCurrentIndex(max(self.kind_combo.findData(document.kind), 0))
        self.kind_combo.blockSignals(False)
        self.editor.setReadOnly(False)
        self._view_text = None
        self.editor.set_text(document.text)
        self._mark(document.text)
        self._note_fonts(document.text)

    def _note_fonts(self, text: str) -> None:
        """A script of ``text`` with no font: said under the legend while the text shown
        holds it (a document opened, or text typed or pasted in: each layout's text)."""
        if text == self._fonts_noted_for:  # most layouts: the same text, other options
            return
        self._fonts_noted_for = text
        font_note = missing_fonts.note(text)
        if font_note != self._font_note:
            self._font_note = font_note
            self.update_legend()

    def _show_result(self, result: ChunkResult) -> None:
        shown = result.layout.document.text
        self._note_fonts(shown)
        self._show_text(shown, view=shown != result.request.document.text)
        self.editor.set_result(result, self._edit_marks.get(id(result.request.document.text)))
        self._show_pinned()

    def _show_reasons(self, _result: ChunkResult) -> None:
        self.update_legend()
        if self.editor.by_reason:
            self.editor._schedule()

    def _show_text(self, text: str, view: bool) -> None:
        """Show the document, or (read-only) the text an entry shows instead of it, such
        as a transcript's turns one per line."""
        if view != (self._view_text is not None) or (view and text != self._view_text):
            self.editor.set_text(text if view else self.model.document.text)
            self._mark(self.model.document.text)
            self.editor.setReadOnly(view)
            self._view_text = text if view else None
            self.status.emit(
                "Showing the transcript's turns, one per line (read-only); the file itself is JSON"
                if view
                else ""
            )

    def _show_pinned(self, _pinned: ChunkResult | None = None) -> None:
        comparison = self.model.comparison()
        usable = comparison is not None and comparison.same_text
        self.editor.set_comparison(comparison.diff if usable else None)  # type: ignore[union-attr]
        self.update_legend()

    def _show_selection(self, index: int | None) -> None:
        self.editor.select_chunk(index, scroll=not self.editor.chunk_visible(index))

    def set_colour_by_reason(self, by_reason: bool) -> None:
        """Colour the boundaries by the rule of their reason (True) or by their kind."""
        self.editor.set_by_reason(by_reason)
        self.update_legend()

    def update_legend(self) -> None:
        """The boundary kinds (or reason rules) of the layout shown, in order of first
        appearance."""
        result = self.model.result
        by_reason = self.editor.by_reason
        if result is None:
            kinds = []
        elif by_reason:  # walks the spans: only when asked
            kinds = list(dict.fromkeys(boundary_label(s, True) for s in result.layout.spans))
        else:
            kinds = result.layout.kinds
        swatches = "&nbsp;&nbsp;".join(
            f'<span style="color:{theme.kind_colour(k).name()}">▌</span>{escape(k)}'
            for k in kinds[:12]
        )
        overlap = (
            "&nbsp;&nbsp;&nbsp;▨ overlap (repeated text)"
            if result is not None and result.layout.overlaps
            else ""
        )
        compared = ""
        comparison = self.model.comparison()
        if comparison is not None and comparison.same_text:
            compared = "<br>vs B: " + "&nbsp;&nbsp;".join(
                f'<span style="color:{colour}">{"┃" if style == "solid" else "┆"}</span>'
                f"{text} {comparison.diff.count(kind)}"
                for kind, (colour, style, text) in DIFF_STYLES.items()
            )
        title = "boundary"
        if result is not None:
            explained = _any_reason(result.layout.spans, 64)
            # reasons may follow the layout (details): till then the title keeps its link,
            # so the legend does not lose a line and get it back (the editor jumping)
            if explained or result.layout.complete:
                self._explained = explained
        if result is not None and self._explained:
            title = (
                'boundary reason (<a href="kind">colour by kind</a>)'
                if by_reason
                else 'boundary (<a href="reason">colour by reason</a>)'
            )
        missing = _missing_note(result)
        fonts = (
            f'<br><span style="color:{theme.warning_text()}">⚠ {escape(self._font_note)}</span>'
            if self._font_note
            else ""
        )
        self.legend.setText(
            f"<small>{title}: {swatches}{overlap}{compared}{missing}{fonts}</small>"
            if kinds
            else f"<small>&nbsp;{fonts}</small>"
        )


def _missing_note(result: ChunkResult | None) -> str:
    """A line saying how many chunks are nowhere in the text (a library that rewrites
    what it returns, such as Mastra's json and html strategies): the editor has no tint
    for them, and without a word it looks as if nothing was chunked."""
    if result is None:
        return ""
    spans = result.layout.spans
    if isinstance(spans, SpanTable):
        missing = spans.located_ids.count(MISSING)
    else:
        missing = sum(1 for span in spans if span.located == "missing")
    if not missing:
        return ""
    return (
        f'<br><span style="color:{theme.warning_text()}">⚠ {missing:,} of {len(spans):,} '
        "chunks are not in the text as written (not tinted here; the table and the "
        "inspector show them)</span>"
    )


def _any_reason(spans: Sequence[Span], first: int) -> bool:
    """True when one of the ``first`` spans has a reason: read from a table's column,
    without building the spans (each new layout asks it, before its paint)."""
    if isinstance(spans, SpanTable):
        return any(spans.reasons.get(i) is not None for i in range(min(first, len(spans))))
    return any(s.reason is not None for s in islice(spans, first))
