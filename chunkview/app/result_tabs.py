"""The right panel: the chunk table, size statistics, warnings and search hits."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QTabWidget

from chunkview.app.chunk_table import ChunkTable
from chunkview.app.stats import StatsPanel
from chunkview.core.model import InspectorModel
from chunkview.core.pipeline import ChunkResult

#: rows a list shows at most (the rest are counted in the tab's title)
LIST_LIMIT = 5000


class ResultTabs(QTabWidget):
    #: a row asks to show a place in the document (code points)
    show_position = Signal(int)

    def __init__(self, model: InspectorModel) -> None:
        super().__init__()
        self.model = model
        self._warning_targets: list[tuple[int, int | None]] = []
        self._hit_targets: list[tuple[int, int]] = []
        self.table = ChunkTable()
        self.table.clicked.connect(lambda index: model.select_chunk(index.row()))
        self.table.activated.connect(lambda index: model.select_chunk(index.row()))
        self.stats = StatsPanel()
        self.warnings = QListWidget()
        self.warnings.itemActivated.connect(self._warning_clicked)
        self.warnings.itemClicked.connect(self._warning_clicked)
        self.hits = QListWidget()
        self.hits.setWordWrap(True)
        self.hits.itemClicked.connect(self._hit_clicked)
        self.hits.itemActivated.connect(self._hit_clicked)
        self.addTab(self.table, "Chunks")
        self.addTab(self.stats, "Stats")
        self.addTab(self.warnings, "Warnings")
        self.addTab(self.hits, "Search")
        self.setMinimumWidth(280)  # small screens: the window must still fit
        model.subscribe("result", self._show_result)
        model.subscribe("tokens", lambda _tokens: self._show_stats())
        model.subscribe("selection", self._show_selection)

    def _show_result(self, result: ChunkResult) -> None:
        self.table.chunk_model.set_result(result)
        self._show_stats()
        layout = result.layout
        # targets stay on the Python side: row i of the list is entry i here
        warnings = layout.warnings[:LIST_LIMIT]
        self._warning_targets = [(w.start, w.chunk) for w in warnings]
        self.warnings.clear()
        self.warnings.addItems([f"⚠ {w.message}" for w in warnings])
        count = len(layout.warnings)
        self.setTabText(2, f"Warnings ({count})" if count else "Warnings")
        hits = result.hits[:LIST_LIMIT]
        self._hit_targets = [(h.at, h.chunk) for h in hits]
        self.hits.clear()
        self.hits.addItems([f"#{h.chunk}  {h.snippet}" for h in hits])
        query = result.request.query.strip()
        self.setTabText(3, f"Search ({len(result.hits)})" if query else "Search")

    def _show_stats(self) -> None:
        result = self.model.result
        if result is None:
            return
        if result.tokens is not None:
            self.table.chunk_model.set_tokens(result.tokens)
        limits = self.model.limits(result)
        self.stats.show_result(result, limits, result.layout.size_unit, result.tokens)

    def _show_selection(self, index: int | None) -> None:
        if index is not None and self.table.selected_chunk() != index:
            self.table.select_chunk(index)

    def _warning_clicked(self, item: QListWidgetItem) -> None:
        start, chunk = self._warning_targets[self.warnings.row(item)]
        if chunk is not None:
            self.model.select_chunk(chunk)
        else:
            self.show_position.emit(start)

    def _hit_clicked(self, item: QListWidgetItem) -> None:
        at, chunk = self._hit_targets[self.hits.row(item)]
        self.model.select_chunk(chunk)
        self.show_position.emit(at)
