"""The views around the editor and the results: chunk inspector, compare, sweep, eval, the
overview strip, B's editor side by side, and the keys that step through differences.

Sweep, Eval and Audit are docks under the panels (their plots and tables want the width), opened
from the View menu; the right panel keeps the tabs used all the time, so they fit at
1280 px without scroll arrows.

``Views`` builds them and wires them to the model and the panels it is given, so the main
window stays a list of panels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QBoxLayout,
    QDockWidget,
    QHBoxLayout,
    QMainWindow,
    QMenu,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from chunkview.app.audit_panel import AuditPanel
from chunkview.app.compare_panel import ComparePanel
from chunkview.app.dock_height import FirstDockHeight
from chunkview.app.document_view import DocumentView
from chunkview.app.eval_panel import EvalPanel
from chunkview.app.inspector import ChunkInspector
from chunkview.app.lanes_view import LanesPanel
from chunkview.app.overview import OverviewStrip
from chunkview.app.params import ParamsPanel
from chunkview.app.result_tabs import ResultTabs
from chunkview.app.settings import AppSettings
from chunkview.app.stale import StaleBar, StaleLayouts
from chunkview.app.sweep_panel import SweepPanel
from chunkview.app.worker import ChunkWorker
from chunkview.core.session import InspectorModel


class Views(QObject):
    """The views around the editor and the results, over the panels they join.

    ``frame`` is the main window as Qt knows it: the docks and actions belong to it and
    messages go to its status bar. ``splitter`` holds the panels side by side; the
    inspector goes under ``tabs`` in it, and the overview strip beside
    ``document_view``'s editor."""

    def __init__(
        self,
        frame: QMainWindow,
        model: InspectorModel,
        *,
        splitter: QSplitter,
        document_view: DocumentView,
        tabs: ResultTabs,
        params: ParamsPanel,
        worker: ChunkWorker,
        remembered: AppSettings,
        step_through_action: QAction,
        open_path: Callable[[str], Any],
    ) -> None:
        super().__init__(frame)
        self.frame, self.model, self.tabs = frame, model, tabs
        editor = document_view.editor
        # the inspector under the result tabs
        self.inspector = ChunkInspector(model)
        right = QSplitter(Qt.Orientation.Vertical)
        splitter.replaceWidget(splitter.indexOf(tabs), right)
        # a stale layout's label in a bar of its own above the results (stale.py)
        self.results_stale_bar = StaleBar()
        results = QWidget()
        results_column = QVBoxLayout(results)
        results_column.setContentsMargins(0, 0, 0, 0)
        results_column.setSpacing(2)
        results_column.addWidget(self.results_stale_bar)
        results_column.addWidget(tabs, 1)
        right.addWidget(results)
        right.addWidget(self.inspector)
        right.setSizes([600, 220])
        self.right = right
        # compare as a tab of the results; sweep and eval as docks below the panels
        self.compare = ComparePanel(model)
        tabs.setTabToolTip(
            tabs.addTab(self.compare, "Compare"),
            "Boundaries kept, moved, added and removed against a pinned layout or a second "
            "configuration",
        )
        self.eval_panel = EvalPanel(model)
        self.eval_panel.show_position.connect(tabs.show_position)
        # a sweep scores the Eval panel's questions too, when it has any
        self.sweep = SweepPanel(
            model, apply=params.set_value, retrieval=self.eval_panel.retrieval_setup
        )
        self.sweep.time_budget = lambda: worker.service.timeout
        self.sweep_dock = self._dock(
            self.sweep, "Sweep an option", "sweepDock", "S&weep an Option", "Ctrl+Shift+W"
        )
        self.eval_dock = self._dock(
            self.eval_panel, "Retrieval eval", "evalDock", "Retrieval &Eval", "Ctrl+Shift+E"
        )
        frame.tabifyDockWidget(self.sweep_dock, self.eval_dock)
        # a whole folder chunked with the setting on view, a row per file
        self.audit = AuditPanel(
            model, open_file=open_path, token_limit=tabs.warnings_panel.token_limit
        )
        self.audit.time_budget = lambda: worker.service.timeout
        self.audit.memory_budget = lambda: worker.service.max_memory
        folder, files = remembered.audit_folder()
        self.audit.folder_edit.setText(folder)
        self.audit.include_edit.setText(files)
        self.audit.started.connect(remembered.remember_audit)
        self.audit_dock = self._dock(
            self.audit, "Audit a folder", "auditDock", "&Audit a Folder", "Ctrl+Shift+A"
        )
        frame.tabifyDockWidget(self.eval_dock, self.audit_dock)
        # a third of the window's height when first opened, the editor keeps the most
        # (dock_height.py); a restored window's state keeps a user's height
        self.dock_height = FirstDockHeight(
            frame,
            (self.sweep_dock, self.eval_dock, self.audit_dock),
            active=not remembered.qsettings.contains("window/state"),
        )
        # teaching mode stands in for the panels: the docks step aside while it runs
        self._docks_set_aside: list[QDockWidget] = []
        step_through_action.toggled.connect(self._step_through_toggled)
        # the overview strip beside the editor, and B's editor between them
        self.overview = OverviewStrip(model, editor)
        row = QWidget()
        column = document_view.layout()
        if not isinstance(column, QBoxLayout):  # DocumentView lays itself out when built
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
        # and at the top of the document view, level with the results' bar
        self.editor_stale_bar = StaleBar()
        column.insertWidget(0, self.editor_stale_bar)
        self.compare.attach(editor)
        # every chunk as a bar on the document's axis, in lanes (lanes_view.py)
        self.lanes = LanesPanel(model, editor)
        self.lanes.canvas.chunk_clicked.connect(model.select_chunk)
        self.lanes_dock = self._dock(
            self.lanes, "Chunk lanes", "lanesDock", "Chunk &Lanes", "Ctrl+Shift+L"
        )
        self.compare.show_position.connect(editor.show_position)
        # the last good layout, dimmed and labelled while the settings have none (stale.py)
        self.stale = StaleLayouts(
            model,
            covered=[editor, tabs.table, tabs.stats, self.overview, self.lanes.canvas],
            bars=[self.editor_stale_bar, self.results_stale_bar],
        )
        # the chunk table's columns as a user left them
        tabs.table.columns.restore(remembered.table_columns())
        tabs.table.columns.chosen.connect(remembered.set_table_columns)
        tabs.searcher.started.connect(self.overview.clear_hits)
        tabs.searcher.found.connect(self.overview.add_hits)
        # the table follows the keyboard too (Up / Down move the editor)
        tabs.table.selectionModel().currentRowChanged.connect(self._row_changed)
        self._navigate_actions()

    def _dock(
        self, panel: QWidget, title: str, name: str, action_text: str, shortcut: str
    ) -> QDockWidget:
        """``panel`` in a dock below the panels, hidden until its View menu entry (or its
        shortcut) opens it; the window's saved state remembers where it was left."""
        dock = QDockWidget(title, self.frame)
        dock.setObjectName(name)  # saveState / restoreState know it by this
        dock.setWidget(panel)
        self.frame.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        dock.hide()
        action = dock.toggleViewAction()
        action.setText(action_text)
        action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(f"Show or hide the {title.lower()} panel")
        view = self._menu("View")
        if view is not None:
            if not view.actions()[-1].isSeparator() and not isinstance(
                view.actions()[-1].data(), str
            ):
                view.addSeparator()  # once, above the docks' entries
            action.setData(name)
            view.addAction(action)
        else:
            self.frame.addAction(action)
        return dock

    def _step_through_toggled(self, active: bool) -> None:
        if active:
            docks = (self.sweep_dock, self.eval_dock, self.audit_dock, self.lanes_dock)
            self._docks_set_aside = [d for d in docks if d.isVisible() and not d.isFloating()]
            for dock in self._docks_set_aside:
                dock.hide()
        else:
            for dock in self._docks_set_aside:
                dock.show()
            self._docks_set_aside = []

    @property
    def docks_set_aside(self) -> tuple[QDockWidget, ...]:
        """The docks step-through hid, to open again when it ends (open all the same, for
        a session saved meanwhile)."""
        return tuple(self._docks_set_aside)

    def show_panel(self, panel: QWidget) -> None:
        """Bring ``panel`` into view: its dock opened and raised, or its tab chosen."""
        for dock in (self.sweep_dock, self.eval_dock, self.audit_dock, self.lanes_dock):
            if dock.widget() is panel:
                dock.show()
                dock.raise_()
                return
        self.tabs.setCurrentWidget(panel)

    def _menu(self, title: str) -> QMenu | None:
        # QAction.menu() is typed QObject (a template in C++): keep the QMenus
        menus = [
            menu
            for action in self.frame.menuBar().actions()
            if isinstance(menu := action.menu(), QMenu)
        ]
        return next((m for m in menus if m.title().replace("&", "") == title), None)

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and current.row() != self.model.selected:
            self.model.select_chunk(current.row())

    def _navigate_actions(self) -> None:
        """Next / previous difference in the Navigate menu (F8, Shift+F8)."""
        navigate = self._menu("Navigate")
        self.next_difference = QAction("Next &Difference", self.frame)
        self.next_difference.setShortcut(QKeySequence("F8"))
        self.next_difference.triggered.connect(lambda: self.step_difference(forward=True))
        self.previous_difference = QAction("Previous Di&fference", self.frame)
        self.previous_difference.setShortcut(QKeySequence("Shift+F8"))
        self.previous_difference.triggered.connect(lambda: self.step_difference(forward=False))
        if navigate is not None:
            navigate.addSeparator()
            navigate.addAction(self.next_difference)
            navigate.addAction(self.previous_difference)
        else:
            self.frame.addAction(self.next_difference)
            self.frame.addAction(self.previous_difference)

    def step_difference(self, forward: bool = True) -> int | None:
        """F8 / Shift+F8: the next / previous boundary change, or a word on why none."""
        found = self.compare.step(forward)
        if found is None:
            self.frame.statusBar().showMessage(
                "No differences to step through: pin a layout, or set B in the Compare tab",
                6000,
            )
        return found

    def shutdown(self) -> None:
        """Stop what runs in the background (the window closing)."""
        self.sweep.shutdown()
        self.audit.shutdown()
        self.compare.shutdown()
