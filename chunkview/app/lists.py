"""A list of rows computed when a view asks for them, handed to the view in batches.

Warnings and search hits can number tens of thousands; a QListWidget would build an item
for each on the UI thread. ``RowsModel`` keeps the plain Python items, formats a row only
when a view paints it, and grows its row count by ``fetchMore`` as the view scrolls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QListView

from chunkview.app.markup import as_rich_text

Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()
#: rows handed to a view at once
BATCH = 500


class RowsModel(QAbstractListModel):
    def __init__(
        self, label: Callable[[Any], str], tooltip: Callable[[Any], str] | None = None
    ) -> None:
        super().__init__()
        self._label = label
        self._tooltip = tooltip
        self._items: list[Any] = []
        self._shown = 0

    def set_items(self, items: Iterable[Any]) -> None:
        self.beginResetModel()
        self._items = list(items)
        self._shown = min(len(self._items), BATCH)
        self.endResetModel()

    def append(self, items: Iterable[Any]) -> None:
        """More items at the end (an incremental search): shown at once while the view
        holds less than a batch, otherwise when it scrolls there."""
        self._items.extend(items)
        if self._shown < BATCH:
            self._show(min(len(self._items), BATCH) - self._shown)

    def item(self, row: int) -> Any:
        return self._items[row]

    def total(self) -> int:
        """All items, shown or not yet."""
        return len(self._items)

    def _show(self, count: int) -> None:
        if count > 0:
            self.beginInsertRows(_ROOT, self._shown, self._shown + count - 1)
            self._shown += count
            self.endInsertRows()

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else self._shown

    def canFetchMore(self, parent: Index = _ROOT) -> bool:
        return not parent.isValid() and self._shown < len(self._items)

    def fetchMore(self, parent: Index = _ROOT) -> None:
        if not parent.isValid():
            self._show(min(BATCH, len(self._items) - self._shown))

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._label(self._items[index.row()])
        if role == Qt.ItemDataRole.ToolTipRole and self._tooltip is not None:
            # a tool tip guesses its format: the text (a snippet, a warning) shown as written
            return as_rich_text(self._tooltip(self._items[index.row()]))
        return None


class RowsView(QListView):
    """A list view over a RowsModel: one line per row, all rows the same height, so the
    view never measures rows it does not show."""

    def __init__(self, model: RowsModel) -> None:
        super().__init__()
        self.rows = model
        self.setModel(model)
        self.setUniformItemSizes(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        # rows as wide as the view, long ones elided (the tooltip has the whole text)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
