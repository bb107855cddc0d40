"""Opening, saving and remembering documents for the window."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QMessageBox, QWidget

from chunkview.core.document import load_document
from chunkview.core.errors import DocumentError
from chunkview.core.model import InspectorModel

SAMPLES = Path(__file__).resolve().parent.parent / "resources" / "samples"
DEFAULT_SAMPLE = SAMPLES / "guide.md"
MAX_RECENT = 8
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

    def open_path(self, path: str | os.PathLike[str], sample: bool = False) -> bool:
        if not self.may_discard():
            return False
        try:
            document = load_document(path)
        except DocumentError as error:
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
        if sample:
            document = replace(document, path=None)
        else:
            self.remember(str(path))
        self.model.set_document(document)
        return True

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, "Open a document", "", OPEN_FILTER)
        if path:
            self.open_path(path)

    def save(self) -> bool:
        document = self.model.sync_text()
        if not document.path:
            return self.save_as()
        return self.write(document.path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(
            self.window, "Save the document", self.model.document.path or "untitled.md"
        )
        return bool(path) and self.write(path)

    def write(self, path: str) -> bool:
        """Write atomically (temp file + rename), keeping newline style and BOM."""
        document = self.model.sync_text()
        data = document.text.encode("utf-8", "surrogatepass")
        if document.bom:
            data = b"\xef\xbb\xbf" + data
        folder = os.path.dirname(os.path.abspath(path))
        try:
            handle, temp = tempfile.mkstemp(prefix=".chunkview-", dir=folder)
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temp, path)
        except OSError as error:
            self.tell("Cannot save", f"{path}: {error.strerror or error}")
            return False
        self.model.saved(path)
        self.remember(path)
        return True

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
        recent = [p for p in self.settings.value("recent", [], list) if p != path]  # type: ignore[union-attr]
        self.settings.setValue("recent", [path, *recent][:MAX_RECENT])
        self.refresh_recent()

    def refresh_recent(self) -> None:
        if self.recent_menu is None:
            return
        self.recent_menu.clear()
        recent = self.settings.value("recent", [], list)
        for path in recent:  # type: ignore[union-attr]
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _c=False, p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(recent))
