"""The inspector window: the panels around one InspectorModel, and the worker that runs it.

The window owns the model, the worker thread and the menus; each panel observes the model
and sends it what the user does (chunker_panel, document_view, result_tabs), and files.py
opens and saves. The window itself only wires them together.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSettings, Qt, QTimer, Slot
from PySide6.QtGui import QCloseEvent, QGuiApplication, QShowEvent, QTextOption
from PySide6.QtWidgets import (
    QApplication,
    QMainWindow,
    QMessageBox,
    QSplitter,
)

from chunkview.app import presentation, question_memory, session_files, theme
from chunkview.app.chunker_files import ChunkerFiles
from chunkview.app.chunker_panel import ChunkerPanel, escape
from chunkview.app.collector import UiThreadCollector
from chunkview.app.document_view import DocumentView
from chunkview.app.drops import FileDrops
from chunkview.app.files import DEFAULT_SAMPLE, SAMPLES, DocumentFiles
from chunkview.app.icon import app_icon
from chunkview.app.markup import as_rich_text
from chunkview.app.menus import Menus
from chunkview.app.outside_changes import FileWatch
from chunkview.app.panel_sizes import FirstPanelSizes
from chunkview.app.result_tabs import ResultTabs
from chunkview.app.settings import SAMPLE_PREFIX, AppSettings
from chunkview.app.status_line import StatusLine
from chunkview.app.step_through import StepThrough
from chunkview.app.token_counter import TokenCounter
from chunkview.app.views import Views
from chunkview.app.worker import ChunkWorker, chunking_budgets
from chunkview.core import registry
from chunkview.core.model.document import Document
from chunkview.core.plugins.load import is_function_id
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.saved.session_file import is_session_path
from chunkview.core.session import InspectorModel, ModelEvent

__all__ = ["DEFAULT_SAMPLE", "MainWindow", "launch"]

DEBOUNCE_MS = 30
#: an option change is sent on the next turn of the event loop (changes made in one slot
#: go as one): a newer change supersedes the run in flight (the worker: latest wins,
#: cancelled at once), so waiting longer would only delay the last change of a drag
OPTION_CHANGE_MS = 0
SWITCH_INTERVAL = 0.0005


#: how long after a paint the layout it replaced is freed
FREE_AFTER_MS = 150


class AfterPaint(QObject):
    """Runs calls once the paint asked for so far is done. Qt posts a window's update
    request at low priority, after every other waiting event (a zero timer included):
    this object's event is posted at that priority too, so it comes after the request."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._calls: list[Callable[[], object]] = []
        self._garbage: list[object] = []
        # a moment after the paint: the next key or slider step comes first
        self._free_timer = QTimer(self, singleShot=True, interval=FREE_AFTER_MS)
        self._free_timer.timeout.connect(self._garbage.clear)

    def call(self, function: Callable[[], object]) -> None:
        if not self._calls:
            low = Qt.EventPriority.LowEventPriority.value
            QCoreApplication.postEvent(self, QEvent(QEvent.Type.User), low)
        self._calls.append(function)

    def release(self, garbage: object) -> None:
        """Keep ``garbage`` until the paint is done and free it a moment later (a layout
        no longer shown: at 10 MB, freeing it and its reasons takes 5-10 ms, which the
        next input would wait for). A drag frees what it let go of every FREE_AFTER_MS."""
        self._garbage.append(garbage)
        if not self._free_timer.isActive():
            self.call(self._free_timer.start)

    def customEvent(self, event: QEvent) -> None:
        calls, self._calls = self._calls, []
        for function in calls:
            function()


class MainWindow(QMainWindow):
    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.settings = settings or QSettings("chunkview", "chunkview")
        # the app searches the shown layout itself, in slices (result_tabs' SliceSearch)
        self.model = InspectorModel(runner=self._run, search_in_runner=False)
        # while the worker thread runs Python, each call from Qt into Python on this
        # thread waits up to the switch interval for the interpreter lock (5 ms by
        # default, hundreds of times per paint): shorter waits keep paints short
        sys.setswitchinterval(SWITCH_INTERVAL)
        # a bad stored budget falls back to its default, with a note in the status bar
        budget_notes: list[str] = []
        budgets = chunking_budgets(self.settings, budget_notes)
        self.worker = ChunkWorker(self, **budgets, details_later=True)
        self.worker.finished.connect(self._on_finished)
        self.worker.failed.connect(self._on_failed)
        self.worker.tokens_ready.connect(self.model.accept_tokens)
        self.worker.details_ready.connect(self.model.accept_details)
        self._after_paint = AfterPaint(self)
        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self.submit)

        self.chunker = ChunkerPanel(self.model)
        self.chunker.hang_hint.time_budget = lambda: self.worker.service.timeout
        self.view = DocumentView(self.model)
        self.tabs = ResultTabs(self.model)
        splitter = QSplitter()
        for panel in (self.chunker, self.view, self.tabs):
            splitter.addWidget(panel)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([340, 620, 460])
        self.splitter = splitter
        self.setCentralWidget(splitter)
        # teaching mode: stands in for the panels and walks the boundaries (step_through.py)
        self.step_through = StepThrough(self.model, self)
        # the widgets tests and the headless render reach for
        self.params, self.error_label = self.chunker.params, self.chunker.error_label
        self.pin_button, self.compare_label = self.chunker.pin_button, self.chunker.compare_label
        self.editor, self.search_box = self.view.editor, self.view.search_box
        self.table, self.stats = self.tabs.table, self.tabs.stats
        self.warnings, self.hits = self.tabs.warnings, self.tabs.hits
        self.searcher = self.tabs.searcher

        self.status_line = StatusLine(self.statusBar(), self.model)
        self.status_doc = self.status_line.document_label
        self.worker.progress.connect(self.status_line.progress)

        self.files = DocumentFiles(self, self.model, self.settings, self.show_message)
        # the open file, changed by another program: reloaded, or Reload / Keep mine
        self.file_watch = FileWatch(
            self.files,
            self.view.outside_bar,
            lambda text: self.statusBar().showMessage(text, 10000),
            self,
        )
        # File > Open Chunker…: a user's own chunker, reloaded when saved
        self.chunker_files = ChunkerFiles(
            self,
            self.model,
            self.chunker,
            lambda text: self.statusBar().showMessage(text, 8000),
            self.worker,
            self.settings,
        )
        self.chunker.show_position.connect(self._show_position)
        self.tabs.show_position.connect(self._show_position)
        for panel in (self.chunker, self.view):
            panel.status.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.model.subscribe(ModelEvent.STALE, lambda: self._debounce.start(OPTION_CHANGE_MS))
        # typing: the layout follows the edits meanwhile, so a long text is re-chunked
        # after a longer pause (reading 10 MB out of the editor costs tens of ms)
        self.editor.edited.connect(
            lambda: self._debounce.start(DEBOUNCE_MS + len(self.model.document.text) // 40_000)
        )
        self.model.subscribe(ModelEvent.DOCUMENT, self._update_title)
        self.model.subscribe(ModelEvent.MODIFIED, lambda _modified: self._update_title())
        self.setWindowIcon(app_icon())
        self.remembered = AppSettings(self.settings)
        self.model.options_by_entry.update(self.remembered.entry_options())
        self.menus = Menus(
            self,
            self.model,
            files=self.files,
            chunker=self.chunker,
            document_view=self.view,
            tabs=self.tabs,
            step_through_action=self.step_through.toggle_action,
            settings=self.settings,
            worker=self.worker,
            open_sample=lambda path: self.open_path(path, sample=True),
            open_chunker=self.chunker_files.open_dialog,
            save=self.save,
            set_theme=self.set_theme,
            set_white_space=self.set_white_space,
            show_message=self.show_message,
        )
        self.views = Views(
            self,
            self.model,
            splitter=splitter,
            document_view=self.view,
            tabs=self.tabs,
            params=self.params,
            worker=self.worker,
            remembered=self.remembered,
            step_through_action=self.step_through.toggle_action,
            open_path=self.open_path,
        )
        self.menus.page_export.sweep = self.views.sweep  # its option and values, when set
        # View > Count Tokens With: cl100k or a user's tokenizer file (token_counter.py)
        self.token_counter = TokenCounter(
            self,
            self.model,
            self.worker,
            self.settings,
            self.chunker.tokenizer_combo,
            lambda text: self.statusBar().showMessage(text, 8000),
        )
        self.menus.view_menu.addMenu(self.token_counter.menu)
        # View > Zoom and Presentation Mode (presentation.py)
        self.presentation = presentation.attach(self)
        # File > Open / Save Session (session_files.py); each document's eval questions
        # kept in the data folder as they change (question_memory.py)
        self.sessions = session_files.attach(self)
        self.question_memory = question_memory.attach(self)
        self.files.refresh_recent()
        self.theme_mode = self.remembered.theme()
        self.menus.themes[self.theme_mode].setChecked(True)
        self.menus.white_space.setChecked(self.remembered.show_white_space())
        color_scheme_changed = getattr(QGuiApplication.styleHints(), "colorSchemeChanged", None)
        if color_scheme_changed is not None:  # Qt 6.5+: follow the desktop when "system"
            color_scheme_changed.connect(self._system_scheme_changed)
        # a file dropped anywhere opens, the editor and line edits included
        self._drops = FileDrops(self, self.open_path)
        self.setAcceptDrops(True)
        self.remembered.restore_window(self, splitter)
        # the panels' widths from the window's, the editor at least half (panel_sizes.py)
        self.panel_sizes = FirstPanelSizes(
            self, splitter, active=not self.settings.contains("window/splitter")
        )
        if budget_notes:
            self.statusBar().showMessage("; ".join(budget_notes), 20000)

    def restore_session(self, path: str | None = None) -> None:
        """The entry chosen last time, then ``path``, else the last document, else the
        default sample."""
        entry = self.remembered.last_entry() or "agentos.SemanticChunker"
        # a chunker file's function is chosen once the chunking process has read the file
        self.chunker_files.restore(entry if is_function_id(entry) else None)
        try:
            self.select_entry("agentos.SemanticChunker" if is_function_id(entry) else entry)
        except KeyError:  # an entry of an older version
            self.select_entry("agentos.SemanticChunker")
        if path is not None and self.open_path(path):
            return
        last = self.remembered.last_document()
        if last is not None and last.startswith(SAMPLE_PREFIX):
            sample = SAMPLES / last[len(SAMPLE_PREFIX) :]
            if sample.is_file() and self.open_path(sample, sample=True):
                return
        elif last is not None and self.open_path(last):
            return
        self.open_path(DEFAULT_SAMPLE, sample=True)

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
        if not sample and is_session_path(path):  # NAME.chunkview.json: a saved view
            return self.sessions.open_session(path)
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
        self.status_line.run_started()

    # ----- answers from the worker ---------------------------------------------------
    @Slot(object)
    def _on_finished(self, result: ChunkResult) -> None:
        previous = self.model.result
        accepted = self.model.accept(result)  # asks for the paint first
        if previous is not None and previous is not self.model.result:
            self._after_paint.release(previous)  # freed after the paint, not before
        del previous
        if accepted and result.generation == self.model.generation:
            # after the paint: the warnings, statistics and reasons (sent after the layout)
            # and the token counts must not delay it (the worker thread, busy with them,
            # would make each call of the paint into Python wait for the interpreter lock)
            generation = result.generation
            if not result.layout.complete:
                self._after_paint.call(lambda: self.worker.request_details(generation))
            if result.tokens is None:
                self._after_paint.call(lambda: self.worker.request_tokens(generation))

    @Slot(int, str, str, object, object, object)
    def _on_failed(
        self, generation: int, name: str, message: str, position: Any, traceback: Any, stop: Any
    ) -> None:
        self.model.fail(generation, name, message, position, traceback, stop)

    def _show_position(self, point: int) -> None:
        self.editor.show_position(point)
        self.editor.setFocus()

    def _update_title(self) -> None:
        star = " *" if self.model.modified else ""
        self.setWindowTitle(f"chunkview — {self.model.document.name}{star}")

    # ----- window events -------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        self._drops.attach()  # the platform window exists from now on
        super().showEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.files.may_discard():
            event.ignore()
            return
        self.remember_session()
        self.worker.stop()
        self.views.shutdown()  # a sweep or a second configuration's run
        self.menus.page_export.shutdown()  # an interactive page being exported
        event.accept()

    def remember_session(self) -> None:
        """Window geometry, splitter, the entry and every entry's options, for next time."""
        self.remembered.save_window(self, self.splitter)
        if self.model.entry_id:
            self.remembered.set_last_entry(self.model.entry_id)
        self.remembered.set_entry_options(self.model.options_by_entry)
        self.settings.sync()

    def set_theme(self, mode: theme.ThemeMode) -> None:
        """ "system" (follow the desktop's colour scheme), "light" or "dark"."""
        self.theme_mode = mode
        self.menus.themes[mode].setChecked(True)
        self.remembered.set_theme(mode)
        self._apply_theme()

    def _system_scheme_changed(self, *_: object) -> None:
        if self.theme_mode == "system":
            self._apply_theme()

    def _apply_theme(self) -> None:
        theme.apply_theme(QApplication.instance(), self.theme_mode)  # type: ignore[arg-type]
        self.editor._schedule()
        self.view.update_legend()

    def set_white_space(self, shown: bool) -> None:
        """Show spaces, tabs and line ends as marks in the editor."""
        option = self.editor.document().defaultTextOption()
        flags = option.flags()
        marks = QTextOption.Flag.ShowTabsAndSpaces | QTextOption.Flag.ShowLineAndParagraphSeparators
        option.setFlags(flags | marks if shown else flags & ~marks)
        self.editor.document().setDefaultTextOption(option)
        self.remembered.set_show_white_space(shown)

    def show_message(self, title: str, text: str) -> None:
        self.statusBar().showMessage(text, 10000)
        if QApplication.platformName() != "offscreen":
            QMessageBox.warning(self, title, as_rich_text(text))
        else:
            self.chunker.show_error(escape(text))


def collect_garbage_on_ui_thread() -> UiThreadCollector:
    """Stop Python's automatic garbage collection and collect from a timer on the UI
    thread instead (``UiThreadCollector``), for as long as the returned object
    lives. A collection starts in whichever thread allocates; in the worker thread it
    could free a closed window's Qt objects there, waiting for the interpreter lock while
    it holds Qt's, which the UI thread may be waiting for: a hang. The chunking processes
    keep their own collection (and hold it off while a job runs)."""
    return UiThreadCollector(interval=1.0)


def freeze_startup_objects() -> None:
    """Collect once, then leave every object alive now (modules, functions, the window's
    wrappers: tens of thousands) out of later collections (``gc.freeze``): a full
    collection on the UI thread walked them all, 30-40 ms with a 10 MB document open."""
    gc.collect()
    gc.freeze()


def launch(path: str | None = None) -> int:
    app = theme.application()
    collector = collect_garbage_on_ui_thread()  # noqa: F841 (lives while the app runs)
    app.setApplicationName("chunkview")
    app.setWindowIcon(app_icon())
    settings = QSettings("chunkview", "chunkview")
    registry.keep_user_code_out()  # a user's chunker file runs in the chunking process only
    theme.apply_theme(app, AppSettings(settings).theme())
    window = MainWindow(settings)
    window.restore_session(path)
    window.show()
    freeze_startup_objects()
    return app.exec()
