"""The views around the editor and the results: chunk inspector, compare, sweep, the
overview strip, B's editor side by side, and the keys that step through differences.

``Views(window)`` builds them and wires them to the window's model and panels, so the
main window stays a list of panels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QMenu, QSplitter, QVBoxLayout, QWidget

from chunkview.app.compare_panel import ComparePanel
from chunkview.app.inspector import ChunkInspector
from chunkview.app.overview import OverviewStrip
from chunkview.app.sweep_panel import SweepPanel

if TYPE_CHECKING:
    from chunkview.app.main_window import MainWindow


class Views(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        model, editor = window.model, window.editor
        # the inspector under the result tabs
        self.inspector = ChunkInspector(model)
        right = QSplitter(Qt.Orientation.Vertical)
        window.splitter.replaceWidget(window.splitter.indexOf(window.tabs), right)
        right.addWidget(window.tabs)
        right.addWidget(self.inspector)
        right.setSizes([600, 220])
        self.right = right
        # compare and sweep as tabs of the results
        self.compare = ComparePanel(model)
        self.sweep = SweepPanel(model, apply=window.params.set_value)
        window.tabs.addTab(self.compare, "Compare")
        window.tabs.addTab(self.sweep, "Sweep")
        # the overview strip beside the editor, and B's editor between them
        self.overview = OverviewStrip(model, editor)
        row = QWidget()
        column = window.view.layout()
        if column is None:  # DocumentView lays itself out when built
            raise RuntimeError("the document view has no layout to hold the overview strip")
        column.replaceWidget(editor, row)
        b_side = QWidget()
        b_column = QVBoxLayout(b_side)
        b_column.setContentsMargins(0, 0, 0, 0)
        b_column.addWidget(self.compare.b_editor, 1)
        b_column.addWidget(self.compare.b_title)  # below, so both editors' tops align
        b_side.hide()
        self.compare.side_by_side.toggled.connect(b_side.setVisible)
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        line.setSpacing(2)
        line.addWidget(editor, 1)
        line.addWidget(b_side, 1)
        line.addWidget(self.overview)
        self.compare.attach(editor)
        self.compare.show_position.connect(window.editor.show_position)
        window.searcher.started.connect(self.overview.clear_hits)
        window.searcher.found.connect(self.overview.add_hits)
        # the table follows the keyboard too (Up / Down move the editor)
        window.table.selectionModel().currentRowChanged.connect(self._row_changed)
        self._navigate_actions()

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and current.row() != self.window.model.selected:
            self.window.model.select_chunk(current.row())

    def _navigate_actions(self) -> None:
        """Next / previous difference in the Navigate menu (F8, Shift+F8)."""
        # QAction.menu() is typed QObject (a template in C++): keep the QMenus
        menus = [
            menu
            for action in self.window.menuBar().actions()
            if isinstance(menu := action.menu(), QMenu)
        ]
        navigate = next((m for m in menus if m.title().replace("&", "") == "Navigate"), None)
        self.next_difference = QAction("Next &Difference", self.window)
        self.next_difference.setShortcut(QKeySequence("F8"))
        self.next_difference.triggered.connect(lambda: self.step_difference(forward=True))
        self.previous_difference = QAction("Previous Di&fference", self.window)
        self.previous_difference.setShortcut(QKeySequence("Shift+F8"))
        self.previous_difference.triggered.connect(lambda: self.step_difference(forward=False))
        if navigate is not None:
            navigate.addSeparator()
            navigate.addAction(self.next_difference)
            navigate.addAction(self.previous_difference)
        else:
            self.window.addAction(self.next_difference)
            self.window.addAction(self.previous_difference)

    def step_difference(self, forward: bool = True) -> int | None:
        """F8 / Shift+F8: the next / previous boundary change, or a word on why none."""
        found = self.compare.step(forward)
        if found is None:
            self.window.statusBar().showMessage(
                "No differences to step through: pin a layout, or set B in the Compare tab",
                6000,
            )
        return found

    def shutdown(self) -> None:
        """Stop what runs in the background (the window closing)."""
        self.sweep.shutdown()
        self.compare.shutdown()
