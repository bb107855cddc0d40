"""The inspector window: the panels around one InspectorModel, and the worker that runs it.

The window owns the model, the worker thread and the menus; each panel observes the model
and sends it what the user does (chunker_panel, document_view, result_tabs), and files.py
opens and saves. The window itself only wires them together.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from PySide6.QtCore import QSettings, QTimer, Slot
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QSplitter,
)

from chunkview.app import theme
from chunkview.app.chunker_panel import ChunkerPanel, escape
from chunkview.app.document_view import DocumentView
from chunkview.app.files import DEFAULT_SAMPLE, SAMPLES, DocumentFiles
from chunkview.app.icon import app_icon
from chunkview.app.result_tabs import ResultTabs
from chunkview.app.worker import ChunkWorker
from chunkview.core.document import Document
from chunkview.core.model import Failure, InspectorModel
from chunkview.core.pipeline import ChunkResult

__all__ = ["DEFAULT_SAMPLE", "MainWindow", "launch"]

DEBOUNCE_MS = 30
BUSY_AFTER_MS = 150
NEWLINES = {"\n": "LF", "\r\n": "CRLF", "\r": "CR", "mixed": "mixed newlines", "": "one line"}


class MainWindow(QMainWindow):
    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.settings = settings or QSettings("chunkview", "chunkview")
        self.model = InspectorModel(runner=self._run)
        self.worker = ChunkWorker(self)
        self.worker.finished.connect(self._on_finished)
        self.worker.failed.connect(self._on_failed)
        self.worker.progress.connect(self._on_progress)
        self.worker.tokens_ready.connect(self.model.accept_tokens)
        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self.submit)
        self._busy_timer = QTimer(self, singleShot=True, interval=BUSY_AFTER_MS)
        self._busy_timer.timeout.connect(self._show_busy)

        self.chunker = ChunkerPanel(self.model)
        self.view = DocumentView(self.model)
        self.tabs = ResultTabs(self.model)
        splitter = QSplitter()
        for panel in (self.chunker, self.view, self.tabs):
            splitter.addWidget(panel)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([340, 620, 460])
        self.setCentralWidget(splitter)
        # the widgets tests and the headless render reach for
        self.params, self.error_label = self.chunker.params, self.chunker.error_label
        self.pin_button, self.compare_label = self.chunker.pin_button, self.chunker.compare_label
        self.editor, self.search_box = self.view.editor, self.view.search_box
        self.table, self.stats = self.tabs.table, self.tabs.stats
        self.warnings, self.hits = self.tabs.warnings, self.tabs.hits

        self.status_doc = QLabel()
        self.status_run = QLabel()
        self.busy = QProgressBar()
        self.busy.setMaximumWidth(160)
        self.busy.setTextVisible(False)
        self.busy.hide()
        self.statusBar().addWidget(self.status_doc, 1)
        self.statusBar().addPermanentWidget(self.status_run)
        self.statusBar().addPermanentWidget(self.busy)

        self.files = DocumentFiles(self, self.model, self.settings, self.show_message)
        self.chunker.show_position.connect(self._show_position)
        self.tabs.show_position.connect(self._show_position)
        for panel in (self.chunker, self.view):
            panel.status.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.model.subscribe("stale", self._debounce.start)
        self.model.subscribe("document", self._update_title)
        self.model.subscribe("modified", lambda _modified: self._update_title())
        self.model.subscribe("result", self._show_result)
        self.model.subscribe("failed", self._show_failure)
        self.model.subscribe("running", self._show_running)
        self._build_menus()
        self.setAcceptDrops(True)
        self.resize(1400, 860)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        for text, key, slot in (
            ("&Open…", QKeySequence.StandardKey.Open, self.files.open_dialog),
            ("&Save", QKeySequence.StandardKey.Save, self.save),
            ("Save &As…", QKeySequence.StandardKey.SaveAs, self.files.save_as),
        ):
            action = QAction(text, self)
            action.setShortcut(key)
            action.triggered.connect(slot)
            file_menu.addAction(action)
        self.files.recent_menu = file_menu.addMenu("Open &Recent")
        samples = file_menu.addMenu("Open &Sample")
        for path in sorted(SAMPLES.glob("*")):
            action = samples.addAction(path.name)
            action.triggered.connect(lambda _c=False, p=path: self.open_path(p, sample=True))
        file_menu.addSeparator()
        quit_action = file_menu.addAction("&Quit")
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        view = self.menuBar().addMenu("&View")
        self.dark_action = view.addAction("&Dark theme")
        self.dark_action.setCheckable(True)
        self.dark_action.setChecked(theme.is_dark())
        self.dark_action.toggled.connect(self.set_dark)
        self.files.refresh_recent()

    # ----- the session, as the tests and the render drive it ---------------------------
    @property
    def result(self) -> ChunkResult | None:
        return self.model.result

    @property
    def generation(self) -> int:
        return self.model.generation

    @property
    def shown_generation(self) -> int:
        return self.model.shown_generation

    @property
    def modified(self) -> bool:
        return self.model.modified

    @property
    def document(self) -> Document:
        return self.model.document

    def open_path(self, path: str | os.PathLike[str], sample: bool = False) -> bool:
        return self.files.open_path(path, sample)

    def set_document(self, document: Document) -> None:
        self.model.set_document(document)
        self.submit()

    def save(self) -> bool:
        return self.files.save()

    def select_entry(self, entry_id: str, options: dict[str, Any] | None = None) -> None:
        self.model.select_entry(entry_id, options)

    def submit(self) -> None:
        self._debounce.stop()
        self.model.submit()

    def _run(self, request: Any) -> None:
        self.worker.submit(request)
        self._busy_timer.start()

    # ----- answers from the worker ---------------------------------------------------
    @Slot(object)
    def _on_finished(self, result: ChunkResult) -> None:
        if self.model.accept(result) and result.tokens is None:
            if result.generation == self.model.generation:
                # after the decoration pass queued above: counting must not delay the paint
                QTimer.singleShot(0, lambda g=result.generation: self.worker.request_tokens(g))

    @Slot(int, str, str, object)
    def _on_failed(self, generation: int, name: str, message: str, position: Any) -> None:
        self.model.fail(generation, name, message, position)

    def _on_progress(self, generation: int, done: int, total: int) -> None:
        if generation == self.model.generation and total:
            self.busy.setRange(0, total)
            self.busy.setValue(done)

    def _show_running(self, running: bool) -> None:
        if not running:
            self._busy_timer.stop()
            self.busy.hide()

    def _show_busy(self) -> None:
        if self.model.running:
            self.busy.setRange(0, 0)
            self.busy.show()

    def _show_result(self, result: ChunkResult) -> None:
        layout = result.layout
        self.status_run.setText(
            f"{len(layout.spans)} chunks · {len(layout.warnings)} warnings · "
            f"{result.seconds * 1000:.0f} ms"
        )
        self._update_status()

    def _show_failure(self, failure: Failure) -> None:
        self.status_run.setText(f"error: {failure.name}")

    def _show_position(self, point: int) -> None:
        self.editor.show_position(point)
        self.editor.setFocus()

    def _update_title(self) -> None:
        star = " *" if self.model.modified else ""
        self.setWindowTitle(f"chunkview — {self.model.document.name}{star}")
        self._update_status()

    def _update_status(self) -> None:
        document = self.model.document
        newline = NEWLINES.get(document.newline, "")
        self.status_doc.setText(
            f"{document.name} · {document.kind} · {len(document.text):,} chars · {newline}"
        )

    # ----- window events -------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.files.may_discard():
            event.ignore()
            return
        self.worker.stop()
        event.accept()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
                break

    def set_dark(self, dark: bool) -> None:
        theme.apply_theme(QApplication.instance(), dark)  # type: ignore[arg-type]
        self.settings.setValue("dark", dark)
        self.editor._schedule()
        self.view.update_legend()

    def show_message(self, title: str, text: str) -> None:
        self.statusBar().showMessage(text, 10000)
        if QApplication.platformName() != "offscreen":
            QMessageBox.warning(self, title, text)
        else:
            self.chunker.show_error(escape(text))


def launch(path: str | None = None) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("chunkview")
    app.setWindowIcon(app_icon())
    settings = QSettings("chunkview", "chunkview")
    theme.apply_theme(app, bool(settings.value("dark", False, bool)))  # type: ignore[arg-type]
    window = MainWindow(settings)
    window.select_entry("agentos.SemanticChunker")
    if path is None or not window.open_path(path):
        window.open_path(DEFAULT_SAMPLE, sample=True)
    window.show()
    return app.exec()
