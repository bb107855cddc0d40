"""The window's menus and their actions: File, Edit, Navigate, View and Help.

Each action is an attribute (tests trigger them); what an action does lives here when it
only needs the parts ``Menus`` is given, or in files.py / export.py.
"""

from __future__ import annotations

import bisect
import inspect
import os
import platform
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QSettings, qVersion
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QInputDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from chunkview import __version__
from chunkview.app import export
from chunkview.app.chunker_panel import ChunkerPanel
from chunkview.app.document_view import DocumentView
from chunkview.app.encoding_dialog import SAMPLE_BYTES, EncodingDialog
from chunkview.app.files import SAMPLES, DocumentFiles
from chunkview.app.page_export import PageExport
from chunkview.app.preferences import PreferencesDialog
from chunkview.app.result_tabs import ResultTabs
from chunkview.app.theme import ThemeMode
from chunkview.app.worker import ChunkWorker
from chunkview.core.chunkers import PORTED
from chunkview.core.io.read import load_document
from chunkview.core.model.document import kind_for_text
from chunkview.core.session import InspectorModel

#: offered by File > Reopen with Encoding (any other by name with "Other…")
ENCODINGS = (
    "utf-8",
    "utf-16",
    "windows-1252",
    "iso-8859-1",
    "iso-8859-15",
    "windows-1251",
    "koi8-r",
    "shift_jis",
    "euc-jp",
    "gb18030",
    "big5",
    "euc-kr",
)
Key = QKeySequence.StandardKey


def reopen_supported() -> bool:
    """Whether documents can be read in another encoding than UTF-8."""
    return "encoding" in inspect.signature(load_document).parameters


class Menus:
    """The menu bar's menus and their actions, over the parts of the window they act on.

    ``frame`` is the main window as Qt knows it: the menus, actions and dialogs belong to
    it, messages go to its status bar, Quit closes it and Export View takes a picture of
    it. The rest is what the actions read or drive: the model, the files, the panels, and
    the window's own operations (``open_sample``, ``save``, ``set_theme``, ...)."""

    def __init__(
        self,
        frame: QMainWindow,
        model: InspectorModel,
        *,
        files: DocumentFiles,
        chunker: ChunkerPanel,
        document_view: DocumentView,
        tabs: ResultTabs,
        step_through_action: QAction,
        settings: QSettings,
        worker: ChunkWorker,
        open_sample: Callable[[Path], object],
        open_chunker: Callable[[], object],
        save: Callable[[], object],
        set_theme: Callable[[ThemeMode], None],
        set_white_space: Callable[[bool], None],
        show_message: Callable[[str, str], None],
    ) -> None:
        self.frame, self.model, self.files = frame, model, files
        self.editor, self.search_box = document_view.editor, document_view.search_box
        self.searcher, self.warnings_panel = tabs.searcher, tabs.warnings_panel
        self.status_bar = frame.statusBar()
        self.settings, self.worker = settings, worker
        self.show_message = show_message
        self.about_box: QMessageBox | None = None
        self.shortcuts_dialog: QDialog | None = None

        file_menu = frame.menuBar().addMenu("&File")
        # an untitled document: empty, or a text copied from elsewhere (Save asks where)
        self.new = self._action(file_menu, "&New", files.new_document, Key.New)
        self.new_from_clipboard = self._action(
            file_menu, "New from C&lipboard", self.new_from_clipboard_text, "Ctrl+Shift+N"
        )
        self.open = self._action(file_menu, "&Open…", files.open_dialog, Key.Open)
        # a .py file's functions in the chunker picker, watched for saves (chunker_files.py)
        self.open_chunker = self._action(file_menu, "Open &Chunker…", open_chunker)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        files.recent_menu = self.recent_menu
        self.recent_menu.aboutToShow.connect(files.refresh_recent)
        samples = file_menu.addMenu("Open &Sample")
        for path in sorted(SAMPLES.glob("*")):
            action = samples.addAction(path.name)
            action.triggered.connect(lambda _c=False, p=path: open_sample(p))
        self.reopen_menu = file_menu.addMenu("Reopen with &Encoding")
        self.reopen_actions: dict[str, QAction] = {}
        for name in ENCODINGS:
            self.reopen_actions[name] = self._action(
                self.reopen_menu, name, partial(self.reopen, name)
            )
        self.reopen_menu.addSeparator()
        self._action(self.reopen_menu, "Choose with a Preview…", self.reopen_other)
        self.reopen_menu.aboutToShow.connect(self._update_reopen)
        file_menu.addSeparator()
        self.save = self._action(file_menu, "&Save", save, Key.Save)
        self.save_as = self._action(file_menu, "Save &As…", files.save_as, Key.SaveAs)
        file_menu.addSeparator()
        chunks_menu = file_menu.addMenu("&Export Chunks")
        self.export_chunks = {
            fmt: self._action(chunks_menu, f"as {label}…", partial(self.export_chunks_as, fmt))
            for fmt, label in (("json", "JSON"), ("jsonl", "JSON Lines"), ("csv", "CSV"))
        }
        view_menu = file_menu.addMenu("Export &View")
        self.export_view = {
            fmt: self._action(view_menu, f"as {label}…", partial(self.export_view_as, fmt))
            for fmt, label in (("html", "HTML page"), ("png", "PNG image"))
        }
        # a slider over an option's values, as one self-contained page (page_export.py)
        self.page_export = PageExport(frame, model, lambda: worker.service.timeout, show_message)
        self.export_page = self._action(
            file_menu, "Export &Interactive Page…", self.page_export.export
        )
        file_menu.addSeparator()
        self.quit = self._action(file_menu, "&Quit", frame.close, Key.Quit)
        if self.quit.shortcut().isEmpty():  # platforms without a standard Quit key
            self.quit.setShortcut(QKeySequence("Ctrl+Q"))

        edit = frame.menuBar().addMenu("&Edit")
        self.find = self._action(edit, "&Find", self.focus_search, Key.Find)
        edit.addSeparator()
        self.copy_code = self._action(edit, "Copy as &Code", chunker.copy_code, "Ctrl+Shift+C")
        self.copy_chunk = self._action(edit, "Copy C&hunk", self.copy_selected_chunk, "Ctrl+Alt+C")
        edit.addSeparator()
        self.preferences_dialog: PreferencesDialog | None = None
        self.preferences = self._action(
            edit, "P&references…", self.show_preferences, Key.Preferences
        )
        self.preferences.setMenuRole(QAction.MenuRole.PreferencesRole)
        if self.preferences.shortcut().isEmpty():  # platforms without a standard key
            self.preferences.setShortcut(QKeySequence("Ctrl+,"))

        navigate = frame.menuBar().addMenu("&Navigate")
        self.next_chunk = self._action(
            navigate, "&Next Chunk", lambda: self.step_chunk(1), "Ctrl+]"
        )
        self.previous_chunk = self._action(
            navigate, "&Previous Chunk", lambda: self.step_chunk(-1), "Ctrl+["
        )
        self.first_chunk = self._action(
            navigate, "&First Chunk", lambda: self.go_chunk(0), "Alt+Home"
        )
        self.last_chunk = self._action(
            navigate, "&Last Chunk", lambda: self.go_chunk(-1), "Alt+End"
        )
        navigate.addSeparator()
        # the settings tried on this document (option_history.py)
        navigate.addAction(chunker.history.back_action)
        navigate.addAction(chunker.history.forward_action)
        navigate.addSeparator()
        self.next_hit = self._action(
            navigate, "Next Search &Hit", lambda: self.step_hit(1), Key.FindNext
        )
        self.previous_hit = self._action(
            navigate, "Previous Search H&it", lambda: self.step_hit(-1), Key.FindPrevious
        )
        self.next_warning = self._action(
            navigate, "Next &Warning", lambda: self.step_warning(1), "Alt+F8"
        )
        self.previous_warning = self._action(
            navigate, "Previous W&arning", lambda: self.step_warning(-1), "Alt+Shift+F8"
        )

        view = frame.menuBar().addMenu("&View")
        self.view_menu = view
        theme_menu = view.addMenu("&Theme")
        self.theme_group = QActionGroup(frame)
        self.themes: dict[ThemeMode, QAction] = {}
        theme_labels: dict[ThemeMode, str] = {
            "system": "&System",
            "light": "&Light",
            "dark": "&Dark",
        }
        for mode, label in theme_labels.items():
            action = self._action(theme_menu, label, partial(set_theme, mode))
            action.setCheckable(True)
            self.theme_group.addAction(action)
            self.themes[mode] = action
        self.white_space = self._action(view, "Show &White Space", None)
        self.white_space.setCheckable(True)
        self.white_space.toggled.connect(set_white_space)
        view.addAction(step_through_action)  # teaching mode (step_through.py)

        help_menu = frame.menuBar().addMenu("&Help")
        self.shortcuts = self._action(
            help_menu, "&Keyboard Shortcuts", self.show_shortcuts, Key.HelpContents
        )
        self.about = self._action(help_menu, "&About chunkview", self.show_about)
        self.menus = (file_menu, edit, navigate, view, help_menu)

    def _action(
        self,
        menu: QMenu,
        text: str,
        slot: Callable[[], object] | None,
        shortcut: QKeySequence.StandardKey | str | None = None,
    ) -> QAction:
        action = QAction(text, self.frame)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if slot is not None:
            action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    # ----- File -----------------------------------------------------------------------
    def new_from_clipboard_text(self) -> bool:
        """An untitled document holding the clipboard's text, its kind as the text looks
        (``kind_for_text``); said in the status bar when the clipboard holds no text."""
        text = QGuiApplication.clipboard().text()
        if not text:
            self.status_bar.showMessage("The clipboard holds no text to open", 5000)
            return False
        return self.files.new_document(text, kind_for_text(text))

    def _update_reopen(self) -> None:
        files = self.files
        enabled = reopen_supported() and bool(files.last_path or files.path_on_disk())
        for action in self.reopen_menu.actions():
            action.setEnabled(enabled)

    def reopen(self, encoding: str) -> bool:
        return self.files.reopen(encoding)

    def reopen_other(self) -> None:
        """Choose the encoding from previews of the file's text in each likely one."""
        dialog = self.encoding_dialog()
        if dialog is None:
            name, ok = QInputDialog.getText(
                self.frame, "Reopen with encoding", "Encoding name (as Python names it):"
            )
            if ok and name.strip():
                self.reopen(name.strip())
            return
        if dialog.exec() == QDialog.DialogCode.Accepted:
            chosen = dialog.encoding()
            if chosen:
                self.reopen(chosen)

    def encoding_dialog(self) -> EncodingDialog | None:
        """The dialog for the file last opened (None when it cannot be read)."""
        path = self.files.last_path or self.files.path_on_disk()
        if path is None:
            return None
        try:
            with open(path, "rb") as handle:
                data = handle.read(SAMPLE_BYTES)
        except OSError:
            return None
        return EncodingDialog(data, ENCODINGS, self.frame, os.path.basename(path))

    def export_chunks_as(self, fmt: str, path: str | None = None) -> str | None:
        return self._export(export.export_chunks_to, fmt, path, "chunks")

    def export_view_as(self, fmt: str, path: str | None = None) -> str | None:
        return self._export(export.export_view_to, fmt, path, "view")

    def _export(self, write, fmt: str, path: str | None, what: str) -> str | None:
        if self.model.result is None:
            self.show_message("Nothing to export", "There are no chunks yet.")
            return None
        try:
            written = write(self.frame, self.model, fmt, path)
        except OSError as error:
            self.show_message(f"Cannot export the {what}", f"{path}: {error}")
            return None
        if written:
            self.status_bar.showMessage(f"Exported the {what} to {written}", 8000)
        return written

    # ----- Edit -----------------------------------------------------------------------
    def focus_search(self) -> None:
        box = self.search_box
        box.setFocus()
        box.selectAll()

    def copy_selected_chunk(self) -> str | None:
        """Copy the selected chunk's text (or the one at the cursor) to the clipboard."""
        result = self.model.result
        if result is None or not result.layout.spans:
            return None
        index = self.model.selected
        if index is None:
            index = self.model.chunk_at(self._cursor_point())
        if index is None:
            self.status_bar.showMessage("No chunk selected", 5000)
            return None
        text = result.layout.spans[index].text
        QGuiApplication.clipboard().setText(text)
        self.status_bar.showMessage(f"Copied chunk #{index} ({len(text):,} chars)", 5000)
        return text

    def show_preferences(self) -> PreferencesDialog:
        """The budgets of a chunking job (time, memory), applied to the next job."""
        if self.preferences_dialog is None:
            self.preferences_dialog = PreferencesDialog(self.frame, self.settings, self.worker)
            self.preferences_dialog.applied.connect(
                lambda seconds, memory: self.status_bar.showMessage(
                    f"Chunking budgets: {seconds:g} s and {memory / 2**30:.2f} GB per job", 8000
                )
            )
        self.preferences_dialog.load()
        self.preferences_dialog.open()
        return self.preferences_dialog

    # ----- Navigate -------------------------------------------------------------------
    def _cursor_point(self) -> int:
        return self.editor.to_point(self.editor.textCursor().position())

    def go_chunk(self, index: int) -> None:
        result = self.model.result
        if result is None or not result.layout.spans:
            return
        count = len(result.layout.spans)
        index = index % count
        self.model.select_chunk(index)
        self.editor.show_position(result.layout.spans[index].start)

    def step_chunk(self, step: int) -> None:
        selected = self.model.selected
        if selected is None:
            at = self.model.chunk_at(self._cursor_point())
            selected = (at if at is not None else -1) if step > 0 else (at or 0)
        result = self.model.result
        if result is None or not result.layout.spans:
            return
        self.go_chunk(max(0, min(selected + step, len(result.layout.spans) - 1)))

    def _step_to(self, places: list[int], step: int) -> int | None:
        """The next (or previous) of ``places`` after the cursor, wrapping around."""
        if not places:
            return None
        here = self._cursor_point()
        if step > 0:
            i = bisect.bisect_right(places, here)
            return places[i % len(places)]
        i = bisect.bisect_left(places, here) - 1
        return places[i]  # -1 wraps to the last

    def step_hit(self, step: int) -> None:
        found = self.searcher.finish()  # hits are searched in slices: all of them
        if not found:
            self.status_bar.showMessage("No search hits", 5000)
            return
        hits = sorted(found, key=lambda h: h.at)
        at = self._step_to([h.at for h in hits], step)
        hit = next(h for h in hits if h.at == at)
        self.model.select_chunk(hit.chunk)
        self.editor.show_position(hit.at)

    def step_warning(self, step: int) -> None:
        result = self.model.result
        # the Warnings tab's: of the kind chosen there, with the token limit's
        shown = self.warnings_panel.shown() if result is not None else []
        if not shown:
            self.status_bar.showMessage("No warnings", 5000)
            return
        warnings = sorted(shown, key=lambda w: w.start)
        at = self._step_to([w.start for w in warnings], step)
        warning = next(w for w in warnings if w.start == at)
        if warning.chunk is not None:
            self.model.select_chunk(warning.chunk)
        self.editor.show_position(warning.start)
        self.status_bar.showMessage(warning.message, 8000)

    # ----- Help -----------------------------------------------------------------------
    def about_text(self) -> str:
        ports = "".join(f"<li><b>{library}</b>: {version}</li>" for library, version in PORTED)
        return (
            f"<h3>chunkview {__version__}</h3>"
            "<p>See where every chunk of a text begins and ends, for retrieval pipelines.</p>"
            f"<p>Faithful ports of:</p><ul>{ports}</ul>"
            f"<p><small>Qt {qVersion()} · PySide6 {pyside_version} · Python "
            f"{platform.python_version()} · MIT licence</small></p>"
        )

    def show_about(self) -> None:
        box = QMessageBox(self.frame)
        box.setWindowTitle("About chunkview")
        box.setIconPixmap(self.frame.windowIcon().pixmap(64, 64))
        box.setText(self.about_text())
        box.open()
        self.about_box = box

    def shortcut_rows(self) -> list[tuple[str, str, str]]:
        """(menu, action, shortcut) for every action with a shortcut, in menu order."""
        rows = []

        def walk(menu: QMenu, path: str) -> None:
            for action in menu.actions():
                submenu = action.menu()  # typed QObject: the C++ call is a template
                if isinstance(submenu, QMenu):
                    walk(submenu, f"{path} › {action.text().replace('&', '')}")
                elif not action.shortcut().isEmpty():
                    rows.append(
                        (
                            path,
                            action.text().replace("&", "").rstrip("…"),
                            action.shortcut().toString(QKeySequence.SequenceFormat.NativeText),
                        )
                    )

        for menu in self.menus:
            walk(menu, menu.title().replace("&", ""))
        return rows

    def show_shortcuts(self) -> None:
        rows = self.shortcut_rows()
        dialog = QDialog(self.frame)
        dialog.setWindowTitle("Keyboard shortcuts")
        table = QTableWidget(len(rows), 3)
        table.setHorizontalHeaderLabels(["Menu", "Action", "Shortcut"])
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                table.setItem(r, c, QTableWidgetItem(text))
        table.verticalHeader().hide()
        table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setStretchLastSection(True)
        table.setShowGrid(False)
        table.setAlternatingRowColors(True)
        table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(dialog.close)
        layout = QVBoxLayout(dialog)
        layout.addWidget(table)
        layout.addWidget(buttons)
        dialog.resize(520, 460)
        dialog.open()
        self.shortcuts_dialog = dialog
