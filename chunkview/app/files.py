"""Opening, saving and remembering documents for the window."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QWidget,
)

from chunkview.app.markup import as_rich_text
from chunkview.app.settings import AppSettings
from chunkview.core.errors import DocumentError
from chunkview.core.io.read import NulBytesError, load_document
from chunkview.core.io.save import ReadOnlyError, save_document
from chunkview.core.io.stamp import FileStamp, disk_change, file_stamp
from chunkview.core.model.document import NUL_SHOWN, Document
from chunkview.core.saved.session_file import is_session_path
from chunkview.core.session import InspectorModel

SAMPLES = Path(__file__).resolve().parent.parent / "resources" / "samples"
DEFAULT_SAMPLE = SAMPLES / "guide.md"
EDITOR_MAX_CHARS = 64_000_000
#: what a NUL byte is shown as, the first the editor's font can draw: ␀, else a sign
#: common fonts have (DejaVu Sans Mono, the usual Linux monospace, has no ␀)
NUL_STAND_INS = (NUL_SHOWN, "∅", "¤")
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
        #: the document is a file with NUL bytes shown as ␀: not the file's text, so Save
        #: asks where to
        self.nuls_shown = False
        #: the question a file with NUL bytes raises (open anyway?), while it is asked
        self.nul_box: QMessageBox | None = None
        #: the document's file as it was when read or last written (None: no file of its
        #: own), so that a change by another program is noticed before Save replaces it
        self.stamp: FileStamp | None = None
        #: called after the document's file was read or written (the file watch re-arms)
        self.disk_listeners: list[Callable[[], None]] = []
        #: opens a session file chosen in Open Recent (session_files.py sets it)
        self.session_opener: Callable[[str], bool] | None = None

    def open_path(
        self,
        path: str | os.PathLike[str],
        sample: bool = False,
        encoding: str | None = None,
        show_nuls: str | None = None,
    ) -> bool:
        """Open ``path`` in the window; False (and a word on why) when it is not opened.
        A file with NUL bytes is not opened at once: the user is asked whether to see it
        with each NUL shown as ␀, and the current text stays until they say yes."""
        if show_nuls is None and not self.may_discard():
            return False
        self.last_path = None if sample else os.fspath(path)
        # taken before reading: a change made while it is read counts as a change
        stamp = file_stamp(path)
        try:
            document = load_document(path, encoding=encoding, show_nuls=show_nuls)
        except NulBytesError as error:
            self._offer_nuls_shown(path, encoding, error)
            return False
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
        self.nuls_shown = show_nuls is not None
        if not sample:
            self.remember(str(path))
        if show_nuls is None:  # the next launch would only ask again
            self.remembered.set_last_document(str(path), sample)
        self.stamp = None if sample or show_nuls is not None else stamp
        self.model.set_document(document)
        self._disk_read()
        if show_nuls is not None and isinstance(self.window, QMainWindow):
            self.window.statusBar().showMessage(
                f"{os.path.basename(os.fspath(path))}: {document.text.count(show_nuls):,} NUL "
                f"bytes shown as {show_nuls}; Save asks for a new name",
                10000,
            )
        return True

    def new_document(self, text: str = "", kind: str = "text") -> bool:
        """Show an untitled document holding ``text`` (File › New: none), in no file:
        Save asks where. A text not empty counts as unsaved edits, so that closing the
        window or opening another document asks before it is lost. False when the user
        keeps the current document's unsaved edits."""
        if not self.may_discard():
            return False
        self.last_path = self.stamp = None
        self.sample = self.nuls_shown = False
        self.model.set_document(Document(text=text, kind=kind))
        if text:
            self.model.set_text(text)  # an edit: no file holds this text
        self._disk_read()
        return True

    def open_edited(self, document: Document, sample: bool = False) -> bool:
        """Show ``document`` as its file (``document.path``, which may be missing) edited
        and not saved, as a session kept it: Save writes it there (a sample's, or an
        untitled document's, with no path, asks where). False when the user keeps the
        current document's unsaved edits."""
        if not self.may_discard():
            return False
        path = document.path
        own = None if sample else path
        self.last_path = own
        self.sample, self.nuls_shown = sample, False
        self.stamp = None if own is None else file_stamp(own)  # None: the file is missing
        if own is not None and self.stamp is not None:
            self.remember(own)
            self.remembered.set_last_document(own)
        self.model.set_document(document)
        self.model.set_text(document.text)  # an edit: the file does not hold this text
        self._disk_read()
        return True

    def _offer_nuls_shown(
        self, path: str | os.PathLike[str], encoding: str | None, error: NulBytesError
    ) -> None:
        """Say which file holds a NUL byte and where, and offer to open it anyway with the
        NULs shown as ␀ (a window-modal question: the current text stays meanwhile)."""
        name = os.path.basename(os.fspath(path))
        shown = self.nul_stand_in()
        if self.nul_box is not None:
            self.nul_box.close()
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Binary file?")
        box.setTextFormat(Qt.TextFormat.PlainText)  # the file's name, as written
        box.setText(
            f"{name} holds a NUL byte at byte offset {error.offset:,}: "
            "it looks like a binary file, not text."
        )
        box.setInformativeText(
            f"Open it anyway, with each NUL shown as {shown} (and any byte that is not "
            f"{encoding or 'UTF-8'} as �)? The file is not changed; Save then asks for a new "
            "name. Cancel keeps the current document."
        )
        box.setDetailedText(str(error))
        self.show_nuls_button = box.addButton(
            f"Open with NULs shown as {shown}", QMessageBox.ButtonRole.AcceptRole
        )
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)

        def answered() -> None:
            self.nul_box = None
            if box.clickedButton() is self.show_nuls_button:
                self.open_path(path, encoding=encoding, show_nuls=shown)

        box.finished.connect(answered)
        self.nul_box = box
        box.open()

    def _confirm_encoding(self, path: str | os.PathLike[str], guess: str) -> bool:
        """Ask whether to read a file that is not UTF-8 as ``guess`` (never offscreen)."""
        if QApplication.platformName() == "offscreen":
            return False
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self.window,
            "Not UTF-8",
            as_rich_text(
                f"{os.path.basename(os.fspath(path))} is not UTF-8 text; it is likely {guess}.\n"
                f"Open it as {guess}? (File › Reopen with Encoding offers others.)"
            ),
            buttons.Open | buttons.Cancel,
        )
        return answer == buttons.Open

    def nul_stand_in(self) -> str:
        """What a NUL is shown as: ␀ where the editor's font has it (NUL_STAND_INS)."""
        editor = getattr(self.window, "editor", self.window)
        metrics = QFontMetrics(editor.font())
        return next((c for c in NUL_STAND_INS if metrics.inFontUcs4(ord(c))), NUL_SHOWN)

    def path_on_disk(self) -> str | None:
        """The document's own file (not a built-in sample, nor a file shown with its
        NULs as ␀), if it has one."""
        return None if self.sample or self.nuls_shown else self.model.document.path

    def _disk_read(self) -> None:
        for listener in self.disk_listeners:
            listener()

    def reload(self) -> bool:
        """Read the document's file again in its encoding, dropping any unsaved edits
        (the caller has asked), keeping the cursor where it was."""
        path = self.path_on_disk()
        if path is None:
            return False
        stamp = file_stamp(path)
        shown = self.model.document
        # UTF-8 (the default) is read as at first: its byte-order marks recognised
        encoding = None if shown.encoding.replace("_", "-") == "utf-8" else shown.encoding
        try:
            document = load_document(path, kind=shown.kind, encoding=encoding)
        except DocumentError as error:
            self.tell("Cannot reload the file", str(error))
            return False
        editor = getattr(self.window, "editor", None)
        position = editor.textCursor().position() if editor is not None else 0
        self.stamp = stamp
        self.model.set_document(document)
        self._disk_read()
        if editor is not None:
            cursor = editor.textCursor()
            cursor.setPosition(min(position, len(editor.toPlainText())))
            editor.setTextCursor(cursor)
        return True

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
        if not document.path or self.sample or self.nuls_shown:
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
        if not self._may_replace(path):
            return False
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
        self.sample = self.nuls_shown = False
        self.stamp = file_stamp(path)
        self.remember(path)
        self.remembered.set_last_document(path)
        self._disk_read()
        return True

    def _may_replace(self, path: str) -> bool:
        """True unless ``path`` is the document's own file and it changed on disk since
        it was read or written here, and the user does not want it replaced."""
        own = self.path_on_disk()
        if self.stamp is None or own is None or os.path.abspath(own) != os.path.abspath(path):
            return True
        change = disk_change(self.stamp, path)
        if change in ("same", "deleted"):  # nothing of the other program's to lose
            return True
        buttons = QMessageBox.StandardButton
        what = "was replaced by another file" if change == "replaced" else "was changed"
        answer = QMessageBox.question(
            self.window,
            "Changed on disk",
            as_rich_text(
                f"{os.path.basename(path)} {what} on disk since it was read here, by another "
                "program. Replace it with the text here (what the other program wrote is lost)?"
            ),
            buttons.Save | buttons.Cancel,
            buttons.Cancel,
        )
        return answer == buttons.Save

    def _confirm_read_only(self, path: str) -> bool:
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self.window,
            "Read-only file",
            as_rich_text(f"{path} is read-only. Replace it anyway (it stays read-only)?"),
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
            as_rich_text(f"{self.model.document.name} has unsaved edits. Save them?"),
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
            action.triggered.connect(lambda _c=False, p=path: self.open_recent(p))
        self.recent_menu.setEnabled(bool(recent))

    def open_recent(self, path: str) -> bool:
        """Open a recent file: a session file as a session (its view), else as a text."""
        if self.session_opener is not None and is_session_path(path):
            return self.session_opener(path)
        return self.open_path(path)
