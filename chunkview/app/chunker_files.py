"""File > Open Chunker…: a ``.py`` file's chunker functions in the picker, and the file
watched, so saving it in an editor runs the new code on the shown document.

Editors often save by writing a new file and renaming it over the old one; the watcher
then forgets the path, so it is watched again after each change. A change is read a
moment later (``RELOAD_AFTER_MS``): a save may come as a truncation and a write.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer
from PySide6.QtWidgets import QFileDialog, QWidget

from chunkview.app.chunker_panel import ChunkerPanel, escape
from chunkview.core import registry
from chunkview.core.chunkers.entry import Entry
from chunkview.core.errors import ChunkerError
from chunkview.core.plugins.load import load_file
from chunkview.core.session import InspectorModel

#: how long after a change on disk the file is read again (one save, one reload)
RELOAD_AFTER_MS = 120


class ChunkerFiles(QObject):
    """The chunker files opened in the window, watched for saves."""

    def __init__(
        self,
        parent: QWidget,
        model: InspectorModel,
        panel: ChunkerPanel,
        show_status: Callable[[str], None],
    ) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.model = model
        self.panel = panel
        self.show_status = show_status
        #: absolute path -> the ids of its functions listed in the picker
        self.files: dict[str, list[str]] = {}
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._changed)
        self._pending: set[str] = set()
        self._reload_timer = QTimer(self, singleShot=True, interval=RELOAD_AFTER_MS)
        self._reload_timer.timeout.connect(self._reload_pending)

    def open_dialog(self) -> str | None:
        path, _ = QFileDialog.getOpenFileName(
            self.parent_widget, "Open Chunker", "", "Python files (*.py)"
        )
        if path and self.open_file(path):
            return path
        return None

    def open_file(self, path: str) -> bool:
        """List the chunkers of ``path`` in the picker, choose the first, and watch the
        file; False (the reason shown) when it has none or does not load."""
        absolute = os.path.abspath(path)
        entries = self._load(absolute)
        if not entries:
            return False
        self.files[absolute] = [entry.id for entry in entries]
        self._watch(absolute)
        self.model.select_entry(entries[0].id)
        self.show_status(f"Opened {len(entries)} chunker(s) from {os.path.basename(absolute)}")
        return True

    def _load(self, absolute: str) -> list[Entry] | None:
        """The file's entries, registered and listed; None when it does not load."""
        try:
            entries = load_file(absolute)
        except ChunkerError as error:
            self._show_load_error(absolute, f"{error.name}: {error.message}")
            return None
        if not entries:
            self._show_load_error(absolute, "it defines no function taking a text")
            return None
        for entry in entries:
            registry.register(entry)  # a new revision's entry replaces the old one
        self.panel.show_file_entries(absolute, os.path.basename(absolute), entries)
        return entries

    def _show_load_error(self, absolute: str, why: str) -> None:
        name = os.path.basename(absolute)
        self.panel.show_error(f"<b>Cannot load {escape(name)}</b><br>{escape(why)}")
        self.show_status(f"Cannot load {name}: {why}")

    def _watch(self, absolute: str) -> None:
        if os.path.exists(absolute) and absolute not in self.watcher.files():
            self.watcher.addPath(absolute)

    def _changed(self, path: str) -> None:
        self._pending.add(os.path.abspath(path))
        self._reload_timer.start()

    def _reload_pending(self) -> None:
        pending, self._pending = self._pending, set()
        for absolute in sorted(pending):
            # replaced on save: watched again (a file not yet back is watched when it is
            # reloaded on the next change of another, or opened again)
            self._watch(absolute)
            self.reload(absolute)

    def reload(self, absolute: str) -> None:
        """Read the file again; when the chosen chunker is one of its functions, run the
        new code on the shown document."""
        entries = self._load(absolute)
        if entries is None:
            return
        self.files[absolute] = [entry.id for entry in entries]
        current = self.model.entry_id
        if current.rpartition(":")[0] == absolute or current in self.files[absolute]:
            if current in self.files[absolute]:
                self.model.select_entry(current)  # its options form and a run of the new code
            else:  # the chosen function is gone from the file: its first one
                self.model.select_entry(entries[0].id)
        self.show_status(f"Reloaded {os.path.basename(absolute)}")
