"""File > Reopen with Encoding > Choose…: the file's likely encodings and the common ones,
each with a line of the file decoded in it, so a user picks the encoding by eye."""

from __future__ import annotations

import codecs
from collections.abc import Iterable

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from chunkview.core.io.read import likely_encodings, preview_line

#: the bytes read for the guesses and the previews
SAMPLE_BYTES = 256 * 1024


def candidates(data: bytes, common: Iterable[str]) -> list[str]:
    """The likely encodings of ``data`` first, then ``common`` ones, each codec once."""
    seen: set[str] = set()
    names = []
    for name in [*likely_encodings(data, 5), *common]:
        try:
            codec = codecs.lookup(name).name
        except LookupError:
            continue
        if codec not in seen:
            seen.add(codec)
            names.append(name)
    return names


class EncodingDialog(QDialog):
    """A table of encodings and the preview line each makes, and a field for any other
    codec name; ``encoding()`` is the one chosen."""

    def __init__(
        self,
        data: bytes,
        common: Iterable[str],
        parent: QWidget | None = None,
        name: str | None = None,
    ):
        super().__init__(parent)
        # the file's name: which file is being reopened, when several were opened
        self.setWindowTitle(f"Reopen {name} with encoding" if name else "Reopen with encoding")
        self.data = data[:SAMPLE_BYTES]
        self.names = candidates(self.data, common)
        self.table = QTableWidget(len(self.names), 2)
        self.table.setHorizontalHeaderLabels(["encoding", "a line of the file read in it"])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        for row, name in enumerate(self.names):
            self.table.setItem(row, 0, QTableWidgetItem(name))
            preview = preview_line(self.data, name)
            item = QTableWidgetItem(preview)
            item.setToolTip(preview)
            self.table.setItem(row, 1, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _index: self.accept())
        self.other = QLineEdit()
        self.other.setPlaceholderText("or any encoding by name, as Python names it")
        self.other.textChanged.connect(self._other_typed)
        self.other_preview = QLabel()
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Likely encodings first. Pick the one whose line reads right:"))
        layout.addWidget(self.table, 1)
        layout.addWidget(self.other)
        layout.addWidget(self.other_preview)
        layout.addWidget(buttons)
        if self.names:
            self.table.selectRow(0)
        self.resize(640, 420)

    def _other_typed(self, name: str) -> None:
        self.other_preview.setText(preview_line(self.data, name.strip()) if name.strip() else "")

    def encoding(self) -> str | None:
        """The name typed, else the row chosen."""
        typed = self.other.text().strip()
        if typed:
            return typed
        rows = self.table.selectionModel().selectedRows()
        return self.names[rows[0].row()] if rows else None
