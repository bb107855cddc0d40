"""The right panel: the chunk table, size statistics, warnings and search hits (compare
joins them from views.py; sweep and eval are docks the View menu opens)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleOptionTabWidgetFrame, QTabWidget

from chunkview.app.chunk_table import ChunkTable
from chunkview.app.hit_rows import HitDelegate
from chunkview.app.lists import RowsModel, RowsView
from chunkview.app.searcher import SliceSearch
from chunkview.app.stats import StatsPanel
from chunkview.app.warnings_panel import WarningsPanel
from chunkview.core.analysis.search import SearchHit
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.session import InspectorModel, ModelEvent
from chunkview.core.text.tokenizer_files import tokenizer_label


class CompactTabs(QProxyStyle):
    """The app's style (Fusion) with half the room beside a tab's name."""

    def __init__(self) -> None:
        super().__init__("Fusion")

    def pixelMetric(
        self, metric: QStyle.PixelMetric, option: Any = None, widget: Any = None
    ) -> int:
        value = super().pixelMetric(metric, option, widget)
        if metric == QStyle.PixelMetric.PM_TabBarTabHSpace:
            return value // 2
        return value


class ResultTabs(QTabWidget):
    #: a row asks to show a place in the document (code points)
    show_position = Signal(int)

    def __init__(self, model: InspectorModel) -> None:
        super().__init__()
        self.model = model
        self.table = ChunkTable()
        self.table.clicked.connect(lambda index: model.select_chunk(index.row()))
        self.table.activated.connect(lambda index: model.select_chunk(index.row()))
        self.stats = StatsPanel()
        # lazy lists: a row is formatted when it is painted, rows come in batches
        self.warnings_panel = WarningsPanel(model)  # fills itself on each result
        self.warnings_panel.show_position.connect(self.show_position)
        self.warnings_panel.counted.connect(
            lambda count: self.set_tab_text(2, f"Warnings ({count})" if count else "Warnings")
        )
        self.warnings = self.warnings_panel.list
        self.hits = RowsView(RowsModel(lambda h: f"#{h.chunk}  {h.snippet}", lambda h: h.snippet))
        self.hits.clicked.connect(self._hit_clicked)
        self.hits.activated.connect(self._hit_clicked)
        self.searcher = SliceSearch(model, self)
        self.hits.setItemDelegate(HitDelegate(lambda: self.searcher.search, self.hits))
        self.searcher.started.connect(self._search_started)
        self.searcher.found.connect(self.hits.rows.append)
        self.searcher.finished.connect(self._search_finished)
        for widget, name, tip in (
            (self.table, "Chunks", "Every chunk: where it begins and ends, its size and kind"),
            (self.stats, "Stats", "Chunk sizes: histogram and figures"),
            (self.warnings_panel, "Warnings", "Lost text, cut tables and blocks, oversize chunks"),
            (self.hits, "Search", "The chunks the search box finds"),
        ):
            self.setTabToolTip(self.addTab(widget, name), tip)
        self.setMinimumWidth(280)  # small screens: the window must still fit
        # the pane is narrow (the editor keeps half the window): tabs with less room
        # beside their names, and where even so they do not fit the names cut short
        # (each whole in its tooltip) rather than the last tabs behind scroll arrows
        bar = self.tabBar()
        self._compact = CompactTabs()
        self._compact.setParent(bar)
        bar.setStyle(self._compact)
        bar.setElideMode(Qt.TextElideMode.ElideRight)
        bar.setUsesScrollButtons(False)
        model.subscribe(ModelEvent.RESULT, self._show_result)
        model.subscribe(ModelEvent.TOKENS, lambda _tokens: self._show_stats())
        model.subscribe(ModelEvent.DETAILS, lambda _result: self._show_stats())  # after the layout
        model.subscribe(ModelEvent.SELECTION, self._show_selection)

    def _show_result(self, result: ChunkResult) -> None:
        self.table.show_result(result)
        # rows reset (more or fewer to show) drop the table's selected row, rows kept keep
        # it: either way the row selected is the chunk selected, or none
        self._show_selection(self.model.selected)
        self._show_stats()  # the warnings panel counts its own in the tab's title

    def _search_started(self, query: str) -> None:
        self.hits.rows.set_items([])
        self.set_tab_text(3, "Search (…)" if query.strip() else "Search")

    def _search_finished(self, count: int) -> None:
        query = self.model.query.strip()
        self.set_tab_text(3, f"Search ({count})" if query else "Search")

    def set_tab_text(self, index: int, text: str) -> None:
        """Name a tab. Through the tab bar: QTabWidget.setTabText repaints the whole
        panel, the table and its scroll bars too, even for the same text."""
        if self.tabText(index) != text:
            self.tabBar().setTabText(index, text)

    def event(self, event: QEvent) -> bool:
        # a tab's new name asks the tab widget to lay out again, and QTabWidget then
        # repaints all of itself (every page's frame, scroll bars, the table) even when
        # nothing moves: where the tab bar and the pages already stand, only the size
        # hint is passed on (the tab bar repaints its own tabs)
        if event.type() == QEvent.Type.LayoutRequest and self.isVisible() and self._laid_out():
            self.updateGeometry()
            return True
        return super().event(event)

    def _laid_out(self) -> bool:
        """True when the tab bar and the pages stand where QTabWidget would put them."""
        option = QStyleOptionTabWidgetFrame()
        self.initStyleOption(option)
        style = self.style()
        bar = style.subElementRect(QStyle.SubElement.SE_TabWidgetTabBar, option, self)
        pages = style.subElementRect(QStyle.SubElement.SE_TabWidgetTabContents, option, self)
        page = self.currentWidget()
        stack = page.parentWidget() if page is not None else None
        return stack is not None and bar == self.tabBar().geometry() and pages == stack.geometry()

    def _show_stats(self) -> None:
        result = self.model.result
        if result is None:
            return
        # the token counts and the details (UTF-8 sizes) come after the layout
        self.table.show_counts(result.tokens, tokenizer_label(self.model.token_counter))
        limits = self.model.limits(result)
        self.stats.show_result(
            result, limits, result.layout.size_unit, result.tokens, self.model.token_counter
        )

    def _show_selection(self, index: int | None) -> None:
        if index is None:
            if self.table.selected_chunk() is not None:
                self.table.clearSelection()
        elif self.table.selected_chunk() != index:
            self.table.select_chunk(index)

    def _hit_clicked(self, index: QModelIndex) -> None:
        hit: SearchHit = self.hits.rows.item(index.row())
        self.model.select_chunk(hit.chunk)
        self.show_position.emit(hit.at)
