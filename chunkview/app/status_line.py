"""The status bar: the document, the last run, and a progress bar while a run is long."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar

from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.session import Failure, InspectorModel, ModelEvent

#: a run shows the busy bar only when it takes longer than this
BUSY_AFTER_MS = 150
#: a failure's message in the status bar: this many words
FIRST_WORDS = 8
NEWLINES = {"\n": "LF", "\r\n": "CRLF", "\r": "CR", "mixed": "mixed newlines", "": "one line"}


class StatusLine:
    """Fills ``bar`` from the model: the document's name, kind, size, newlines and
    encoding; the last run's chunks, warnings and time, or its error; the busy bar."""

    def __init__(self, bar: QStatusBar, model: InspectorModel) -> None:
        self.model = model
        self.document_label = QLabel()
        self.run_label = QLabel()
        # a file name, an encoding or an error name may hold markup: shown as written
        self.document_label.setTextFormat(Qt.TextFormat.PlainText)
        self.run_label.setTextFormat(Qt.TextFormat.PlainText)
        self.busy = QProgressBar()
        self.busy.setMaximumWidth(160)
        self.busy.setTextVisible(False)
        self.busy.hide()
        bar.addWidget(self.document_label, 1)
        bar.addPermanentWidget(self.run_label)
        bar.addPermanentWidget(self.busy)
        # a passing message takes the document label's place rather than painting over it
        bar.messageChanged.connect(lambda text: self.document_label.setVisible(not text))
        self._busy_timer = QTimer(bar, singleShot=True, interval=BUSY_AFTER_MS)
        self._busy_timer.timeout.connect(self._show_busy)
        model.subscribe(ModelEvent.DOCUMENT, self.show_document)
        model.subscribe(ModelEvent.MODIFIED, lambda _modified: self.show_document())
        model.subscribe(ModelEvent.RESULT, self._show_result)
        model.subscribe(ModelEvent.DETAILS, self._show_result)  # the warnings come after the layout
        model.subscribe(ModelEvent.FAILED, self._show_failure)
        model.subscribe(ModelEvent.RUNNING, self._show_running)

    def run_started(self) -> None:
        self._busy_timer.start()

    def progress(self, generation: int, done: int, total: int) -> None:
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
        self.run_label.setToolTip("")
        self.run_label.setText(
            f"{len(result.layout.spans)} chunks · {len(result.layout.warnings)} warnings · "
            f"{result.seconds * 1000:.0f} ms"
        )
        self.show_document()

    def _show_failure(self, failure: Failure) -> None:
        """The error's name and the first words of its message (the panel has it all)."""
        words = " ".join(failure.message.split()[:FIRST_WORDS])
        if len(failure.message.split()) > FIRST_WORDS:
            words += " …"
        self.run_label.setText(f"{failure.name}: {words}" if words else failure.name)
        self.run_label.setToolTip(failure.message)

    def show_document(self) -> None:
        document = self.model.document
        newline = NEWLINES.get(document.newline, "")
        encoding = document.encoding
        shown_encoding = "" if encoding.replace("_", "-") in ("utf-8", "utf8") else f" · {encoding}"
        self.document_label.setText(
            f"{document.name} · {document.kind} · {len(document.text):,} chars · {newline}"
            f"{shown_encoding}"
        )
