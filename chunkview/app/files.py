"""Opening, saving and remembering documents for the window."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QMessageBox, QWidget

from chunkview.app.settings import AppSettings
from chunkview.core.document import ReadOnlyError, load_document, save_document
from chunkview.core.errors import DocumentError
from chunkview.core.model import InspectorModel

SAMPLES = Path(__file__).resolve().parent.parent / "resources" / "samples"
DEFAULT_SAMPLE = SAMPLES / "guide.md"
EDITOR_MAX_CHARS = 64_000_000
OPEN_FILTER = "Text documents (*.md *.txt *.rst *.html *.htm *.json *.jsonl *.tex);;All files (*)"


class DocumentFiles:
    """Open, Save, Save As and the recent files, on behalf of ``window``."""

    def __init__(
        self,
        window: QWidget,
        model: InspectorModel,
        settings: QSettings,
        tell: Callable[[str, str], None],
    ) -> None:
        self.window = window
        self.model = model
        self.settings = settings
        #: says what went wrong (title, text) where the user sees it
        self.tell = tell
        self.recent_menu: QMenu | None = None
        self.remembered = AppSettings(settings)
        #: the document is one of the built-in samples (Save asks where to)
        self.sample = False
        #: the file last opened or tried (Reopen with Encoding reads it again)
        self.last_path: str | None = None

    def open_path(
        self, path: str | os.PathLike[str], sample: bool = False, encoding: str | None = None
    ) -> bool:
        if not self.may_discard():
            return False
        self.last_path = None if sample else os.fspath(path)
        try:
            document = load_document(path, encoding=encoding)
        except DocumentError as error:
            guess = getattr(error, "guess", None)  # not UTF-8: the encoding it likely is in
            if guess and encoding is None and self._confirm_encoding(path, guess):
                return self.open_path(path, sample, encoding=guess)
            self.tell("Cannot open the file", str(error))
            return False
        if len(document.text) > EDITOR_MAX_CHARS:
            self.tell(
                "File too large for the editor",
                f"{path}: {len(document.text) / 1e6:.0f} million characters is more than the "
                f"editor shows ({EDITOR_MAX_CHARS // 1_000_000} million); use `chunkview run` "
                "or `chunkview spans` on it",
            )
            return False
        self.sample = sample
        if not sample:
            self.remember(str(path))
        self.remembered.set_last_document(str(path), sample)
        self.model.set_document(document)
        return True

    def _confirm_encoding(self, path: str | os.PathLike[str], guess: str) -> bool:
        """Ask whether to read a file that is not UTF-8 as ``guess`` (never offscreen)."""
        if QApplication.platformName() == "offscreen":
            return False
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self.window,
            "Not UTF-8",
            f"{os.path.basename(os.fspath(path))} is not UTF-8 text; it is likely {guess}.\n"
            f"Open it as {guess}? (File › Reopen with Encoding offers others.)",
            buttons.Open | buttons.Cancel,
        )
        return answer == buttons.Open

    def path_on_disk(self) -> str | None:
        """The document's own file (not a built-in sample), if it has one."""
        return None if self.sample else self.model.document.path

    def reopen(self, encoding: str) -> bool:
        """Read the file last opened (or that failed to open) again, as ``encoding``."""
        path = self.last_path or self.path_on_disk()
        return path is not None and self.open_path(path, encoding=encoding)

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, "Open a document", "", OPEN_FILTER)
        if path:
            self.open_path(path)

    def save(self) -> bool:
        document = self.model.sync_text()
        if not document.path or self.sample:
            return self.save_as()
        return self.write(document.path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(
            self.window,
            "Save the document",
            self.path_on_disk() or self.model.document.name or "untitled.md",
        )
        return bool(path) and self.write(path)

    def write(self, path: str) -> bool:
        """Save losing nothing (core save_document: mode, owner, symlinks, encoding,
        newline style and BOM kept; no temp file left); ask before a read-only file."""
        document = self.model.sync_text()
        try:
            try:
                save_document(document, path)
            except ReadOnlyError:
                if not self._confirm_read_only(path):
                    return False
                save_document(document, path, overwrite_read_only=True)
        except DocumentError as error:
            self.tell("Cannot save", str(error))
            return False
        self.model.saved(path)
        self.sample = False
        self.remember(path)
        self.remembered.set_last_document(path)
        return True

    def _confirm_read_only(self, path: str) -> bool:
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self.window,
            "Read-only file",
            f"{path} is read-only. Replace it anyway (it stays read-only)?",
            buttons.Yes | buttons.Cancel,
            buttons.Cancel,
        )
        return answer == buttons.Yes

    def may_discard(self) -> bool:
        """True when the document has no unsaved edits, or the user lets them go."""
        if not self.model.modified or QApplication.platformName() == "offscreen":
            return True
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self.window,
            "Unsaved changes",
            f"{self.model.document.name} has unsaved edits. Save them?",
            buttons.Save | buttons.Discard | buttons.Cancel,
        )
        if answer == buttons.Save:
            return self.save()
        return answer == buttons.Discard

    def remember(self, path: str) -> None:
        """Put ``path`` (made absolute) first in the recent files."""
        self.remembered.remember_file(path)
        self.refresh_recent()

    def refresh_recent(self) -> None:
        if self.recent_menu is None:
            return
        self.recent_menu.clear()
        recent = self.remembered.recent_files()  # files that are gone drop out here
        for path in recent:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _c=False, p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(recent))
