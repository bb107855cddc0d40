"""Each document's eval questions, kept in the app's data folder as they change
(core/saved/document_questions) and brought back when the document is opened again, so
quitting, or opening another document, loses none. When the folder would not take them,
the status bar says so, and closing the window tries again, then asks."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSettings, QStandardPaths, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QWidget

from chunkview.app.eval_panel import EvalPanel
from chunkview.app.files import DocumentFiles
from chunkview.app.markup import as_rich_text
from chunkview.core.model.document import Document
from chunkview.core.saved.document_questions import (
    HASH_SLICE,
    DocumentQuestions,
    StoreError,
    document_key,
    load_document_questions,
    save_document_questions,
    text_key,
    text_sha256,
    text_sha256_in_slices,
)
from chunkview.core.session import InspectorModel, ModelEvent

#: the folder under the app's data folder that holds the questions
QUESTIONS_FOLDER = "questions"


def data_folder(settings: QSettings) -> Path:
    """Where the app keeps its data: beside the settings file when the window was given
    one of its own (an INI file: the tests, a portable set-up), else the platform's
    application data folder (QStandardPaths.AppDataLocation, such as
    ~/.local/share/chunkview on Linux)."""
    if settings.format() == QSettings.Format.IniFormat and settings.fileName():
        settings_file = Path(settings.fileName())
        return settings_file.parent / f"{settings_file.stem}-data"
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(location or os.path.expanduser("~/.chunkview"))


class QuestionMemory(QObject):
    """Keeps ``panel``'s questions for the document ``model`` shows, in ``folder``."""

    def __init__(
        self,
        model: InspectorModel,
        files: DocumentFiles,
        panel: EvalPanel,
        folder: Path,
        tell: Callable[[str], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.model, self.files, self.panel = model, files, panel
        self.folder = folder
        self.tell = tell
        #: the document the panel's questions belong to (None until one is shown)
        self.key: str | None = None
        #: the last change could not be written (said where the user sees it)
        self.unsaved = False
        self._loading = False
        #: a long text's hash being made: the document and the steps left
        self._hashing: tuple[Document, Iterator[str | None]] | None = None
        self._hash_timer = QTimer(self, singleShot=True, interval=0)
        self._hash_timer.timeout.connect(self._hash_step)
        model.subscribe(ModelEvent.DOCUMENT, self._document_shown)
        panel.questions_changed.connect(self.save)
        files.disk_listeners.append(self._document_written)  # Save As: a new name
        #: the window whose closing is held while questions are not kept (``watch_close``)
        self.window: QWidget | None = None

    def current_key(self) -> str:
        document = self.model.document
        return document_key(document.path, document.text, sample=self.files.sample)

    def _document_shown(self) -> None:
        """Another document (or the same one read again): its own questions, or none.
        A long text without a file is known by its hash, made a slice per turn of the
        event loop (``_hash_step``) so that opening it does not freeze the window; its
        questions come when the hash is done, and till then it has none."""
        self._hashing = None
        document = self.model.document
        if document.path is None and len(document.text) > HASH_SLICE:
            self.key = None
            self._show_kept(None)
            self._hashing = (document, text_sha256_in_slices(document.text))
            self._hash_timer.start()
            return
        self.key = self.current_key()
        self._show_kept(self.key)

    def _hash_step(self) -> None:
        if self._hashing is None:
            return
        _document, steps = self._hashing
        digest = next(steps)
        if digest is None:
            self._hash_timer.start()
            return
        self._hashing = None
        if self.key is None:  # not made meanwhile by a save
            self.key = text_key(digest)
            self._show_kept(self.key, digest)

    def _show_kept(self, key: str | None, text_hash: str | None = None) -> None:
        """Show the questions kept for ``key`` (None: none yet); ``text_hash``: the text's
        hash, when known."""
        try:
            kept = load_document_questions(self.folder, key) if key is not None else None
        except StoreError as error:
            kept = None
            self.tell(f"The questions kept for {self.model.document.name} cannot be read: {error}")
        self._loading = True
        try:
            self.panel.set_questions(list(kept.questions) if kept else [])
        finally:
            self._loading = False
        if kept and kept.text_sha256 != (text_hash or text_sha256(self.model.document.text)):
            self.tell(
                f"{len(kept.questions)} questions brought back for {self.model.document.name}, "
                "marked on an earlier version of its text: their answers may have moved"
            )

    def _document_written(self) -> None:
        """The document was saved, perhaps under a new name: its questions go with it."""
        key = self.current_key()
        if key != self.key:
            self.key = key
            if self.panel.questions:
                self.save()

    def save(self) -> bool:
        """Write the panel's questions for the shown document; False (said) on a failure,
        the questions staying in the panel."""
        if self._loading:
            return True
        if self.key is None:
            self.key = self.current_key()
        text = self.model.sync_text().text
        kept = DocumentQuestions(self.key, text_sha256(text), tuple(self.panel.questions))
        try:
            save_document_questions(self.folder, kept)
        except StoreError as error:
            self.unsaved = True
            self.tell(f"The questions are not kept for next time: {error}")
            return False
        self.unsaved = False
        return True

    # ----- quitting ----------------------------------------------------------------------
    def watch_close(self, window: QWidget) -> None:
        """Before ``window`` closes, questions that could not be kept are written again,
        and if that fails too the user is asked (Save to a file, Quit anyway, Cancel)."""
        self.window = window
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Close and self.unsaved:
            if not self.save() and not self._may_quit():
                event.ignore()
                return True  # the window stays open, the questions with it
        return super().eventFilter(watched, event)

    def _may_quit(self) -> bool:
        """Ask what to do with questions the data folder would not take (never offscreen,
        where nobody can answer)."""
        if QApplication.platformName() == "offscreen":
            return True
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self.window,
            "Questions not kept",
            as_rich_text(
                f"The {len(self.panel.questions)} eval questions of "
                f"{self.model.document.name} could not be kept in {self.folder}. Save them "
                "to a file before quitting?"
            ),
            buttons.Save | buttons.Discard | buttons.Cancel,
            buttons.Save,
        )
        if answer == buttons.Save:
            path, _ = QFileDialog.getSaveFileName(
                self.window, "Save questions", "questions.jsonl", "JSONL (*.jsonl)"
            )
            return bool(path) and self.panel.save_questions(path)
        return answer == buttons.Discard


def attach(window: Any) -> QuestionMemory:
    """Question memory for the main window: its model, files and Eval panel, in the data
    folder its settings say; its closing waits for questions not kept yet."""
    memory = QuestionMemory(
        window.model,
        window.files,
        window.views.eval_panel,
        data_folder(window.settings) / QUESTIONS_FOLDER,
        lambda text: window.statusBar().showMessage(text, 10000),
        window,
    )
    memory.watch_close(window)
    return memory
