"""The window's menus and their actions: File, Edit, Navigate, View and Help.

Each action is an attribute (tests trigger them); what an action does lives here when it
only needs the window's public parts, or in files.py / export.py.
"""

from __future__ import annotations

import bisect
import inspect
import platform
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import qVersion
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QInputDialog,
    QMenu,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from chunkview import __version__
from chunkview.app import export
from chunkview.app.files import SAMPLES
from chunkview.app.preferences import PreferencesDialog
from chunkview.core.chunkers import PORTED
from chunkview.core.io.read import load_document

if TYPE_CHECKING:
    from chunkview.app.main_window import MainWindow

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
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        bar = window.menuBar()
        self.about_box: QMessageBox | None = None
        self.shortcuts_dialog: QDialog | None = None

        file_menu = bar.addMenu("&File")
        self.open = self._action(file_menu, "&Open…", window.files.open_dialog, Key.Open)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        window.files.recent_menu = self.recent_menu
        self.recent_menu.aboutToShow.connect(window.files.refresh_recent)
        samples = file_menu.addMenu("Open &Sample")
        for path in sorted(SAMPLES.glob("*")):
            action = samples.addAction(path.name)
            action.triggered.connect(lambda _c=False, p=path: window.open_path(p, sample=True))
        self.reopen_menu = file_menu.addMenu("Reopen with &Encoding")
        self.reopen_actions: dict[str, QAction] = {}
        for name in ENCODINGS:
            self.reopen_actions[name] = self._action(
                self.reopen_menu, name, partial(self.reopen, name)
            )
        self.reopen_menu.addSeparator()
        self._action(self.reopen_menu, "Other…", self.reopen_other)
        self.reopen_menu.aboutToShow.connect(self._update_reopen)
        file_menu.addSeparator()
        self.save = self._action(file_menu, "&Save", window.save, Key.Save)
        self.save_as = self._action(file_menu, "Save &As…", window.files.save_as, Key.SaveAs)
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
        file_menu.addSeparator()
        self.quit = self._action(file_menu, "&Quit", window.close, Key.Quit)
        if self.quit.shortcut().isEmpty():  # platforms without a standard Quit key
            self.quit.setShortcut(QKeySequence("Ctrl+Q"))

        edit = bar.addMenu("&Edit")
        self.find = self._action(edit, "&Find", self.focus_search, Key.Find)
        edit.addSeparator()
        self.copy_code = self._action(
            edit, "Copy as &Code", window.chunker.copy_code, "Ctrl+Shift+C"
        )
        self.copy_chunk = self._action(edit, "Copy C&hunk", self.copy_selected_chunk, "Ctrl+Alt+C")
        edit.addSeparator()
        self.preferences_dialog: PreferencesDialog | None = None
        self.preferences = self._action(
            edit, "P&references…", self.show_preferences, Key.Preferences
        )
        self.preferences.setMenuRole(QAction.MenuRole.PreferencesRole)
        if self.preferences.shortcut().isEmpty():  # platforms without a standard key
            self.preferences.setShortcut(QKeySequence("Ctrl+,"))

        navigate = bar.addMenu("&Navigate")
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

        view = bar.addMenu("&View")
        theme_menu = view.addMenu("&Theme")
        self.theme_group = QActionGroup(window)
        self.themes: dict[str, QAction] = {}
        for mode, label in (("system", "&System"), ("light", "&Light"), ("dark", "&Dark")):
            action = self._action(theme_menu, label, partial(window.set_theme, mode))
            action.setCheckable(True)
            self.theme_group.addAction(action)
            self.themes[mode] = action
        self.white_space = self._action(view, "Show &White Space", None)
        self.white_space.setCheckable(True)
        self.white_space.toggled.connect(window.set_white_space)
        view.addAction(window.step_through.toggle_action)  # teaching mode (step_through.py)

        help_menu = bar.addMenu("&Help")
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
        action = QAction(text, self.window)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if slot is not None:
            action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    # ----- File -----------------------------------------------------------------------
    def _update_reopen(self) -> None:
        files = self.window.files
        enabled = reopen_supported() and bool(files.last_path or files.path_on_disk())
        for action in self.reopen_menu.actions():
            action.setEnabled(enabled)

    def reopen(self, encoding: str) -> bool:
        return self.window.files.reopen(encoding)

    def reopen_other(self) -> None:
        name, ok = QInputDialog.getText(
            self.window, "Reopen with encoding", "Encoding name (as Python names it):"
        )
        if ok and name.strip():
            self.reopen(name.strip())

    def export_chunks_as(self, fmt: str, path: str | None = None) -> str | None:
        return self._export(export.export_chunks_to, fmt, path, "chunks")

    def export_view_as(self, fmt: str, path: str | None = None) -> str | None:
        return self._export(export.export_view_to, fmt, path, "view")

    def _export(self, write, fmt: str, path: str | None, what: str) -> str | None:
        window = self.window
        if window.model.result is None:
            window.show_message("Nothing to export", "There are no chunks yet.")
            return None
        try:
            written = write(window, window.model, fmt, path)
        except OSError as error:
            window.show_message(f"Cannot export the {what}", f"{path}: {error}")
            return None
        if written:
            window.statusBar().showMessage(f"Exported the {what} to {written}", 8000)
        return written

    # ----- Edit -----------------------------------------------------------------------
    def focus_search(self) -> None:
        box = self.window.search_box
        box.setFocus()
        box.selectAll()

    def copy_selected_chunk(self) -> str | None:
        """Copy the selected chunk's text (or the one at the cursor) to the clipboard."""
        window = self.window
        result = window.model.result
        if result is None or not result.layout.spans:
            return None
        index = window.model.selected
        if index is None:
            index = window.model.chunk_at(
                window.editor.to_point(window.editor.textCursor().position())
            )
        if index is None:
            window.statusBar().showMessage("No chunk selected", 5000)
            return None
        text = result.layout.spans[index].text
        QGuiApplication.clipboard().setText(text)
        window.statusBar().showMessage(f"Copied chunk #{index} ({len(text):,} chars)", 5000)
        return text

    def show_preferences(self) -> PreferencesDialog:
        """The budgets of a chunking job (time, memory), applied to the next job."""
        if self.preferences_dialog is None:
            window = self.window
            self.preferences_dialog = PreferencesDialog(window, window.settings, window.worker)
            self.preferences_dialog.applied.connect(
                lambda seconds, memory: window.statusBar().showMessage(
                    f"Chunking budgets: {seconds:g} s and {memory / 2**30:.2f} GB per job", 8000
                )
            )
        self.preferences_dialog.load()
        self.preferences_dialog.open()
        return self.preferences_dialog

    # ----- Navigate -------------------------------------------------------------------
    def _cursor_point(self) -> int:
        editor = self.window.editor
        return editor.to_point(editor.textCursor().position())

    def go_chunk(self, index: int) -> None:
        result = self.window.model.result
        if result is None or not result.layout.spans:
            return
        count = len(result.layout.spans)
        index = index % count
        self.window.model.select_chunk(index)
        self.window.editor.show_position(result.layout.spans[index].start)

    def step_chunk(self, step: int) -> None:
        selected = self.window.model.selected
        if selected is None:
            at = self.window.model.chunk_at(self._cursor_point())
            selected = (at if at is not None else -1) if step > 0 else (at or 0)
        result = self.window.model.result
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
        found = self.window.searcher.finish()  # hits are searched in slices: all of them
        if not found:
            self.window.statusBar().showMessage("No search hits", 5000)
            return
        hits = sorted(found, key=lambda h: h.at)
        at = self._step_to([h.at for h in hits], step)
        hit = next(h for h in hits if h.at == at)
        self.window.model.select_chunk(hit.chunk)
        self.window.editor.show_position(hit.at)

    def step_warning(self, step: int) -> None:
        result = self.window.model.result
        # the Warnings tab's: of the kind chosen there, with the token limit's
        shown = self.window.tabs.warnings_panel.shown() if result is not None else []
        if not shown:
            self.window.statusBar().showMessage("No warnings", 5000)
            return
        warnings = sorted(shown, key=lambda w: w.start)
        at = self._step_to([w.start for w in warnings], step)
        warning = next(w for w in warnings if w.start == at)
        if warning.chunk is not None:
            self.window.model.select_chunk(warning.chunk)
        self.window.editor.show_position(warning.start)
        self.window.statusBar().showMessage(warning.message, 8000)

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
        box = QMessageBox(self.window)
        box.setWindowTitle("About chunkview")
        box.setIconPixmap(self.window.windowIcon().pixmap(64, 64))
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
        dialog = QDialog(self.window)
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
