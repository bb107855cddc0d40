"""File > Open Chunker…: a ``.py`` file's chunker functions in the picker, and the file
watched, so saving it in an editor runs the new code on the shown document.

The file is never imported here: its top-level code may do anything (write files, change
the environment, exit). The chunking process loads it, under the watchdog, and sends
back its entries' schemas (``ChunkWorker.describe_chunkers``); the picker lists a
``DescribedEntry`` of each, and runs go to the chunking process by id like every run. A
file that raises, hangs or exits at its top level is a message naming its file and line;
the window keeps what it shows.

The files opened are remembered between launches (``restore`` opens them again; one gone
since is left out with a note). Editors often save by writing a new file and renaming it
over the old one; the watcher then forgets the path, so it is watched again after each
change. A change is read a moment later (``RELOAD_AFTER_MS``): a save may come as a
truncation and a write.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from enum import Enum

from PySide6.QtCore import QFileSystemWatcher, QObject, QSettings, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from chunkview.app.chunker_panel import ChunkerPanel, escape
from chunkview.app.settings import AppSettings
from chunkview.app.worker import ChunkWorker
from chunkview.core import registry
from chunkview.core.chunkers.entry import Entry
from chunkview.core.errors import ChunkerError
from chunkview.core.plugins.described import DescribedEntry, FileChunkers
from chunkview.core.session import InspectorModel

#: how long after a change on disk the file is read again (one save, one reload)
RELOAD_AFTER_MS = 120


class _Then(Enum):
    """What to choose in the picker when a file's description arrives."""

    FIRST = "first"  # opened by the user: its first function
    KEEP = "keep"  # reloaded after a save: the chosen function again, with the new code
    LIST = "list"  # reopened at launch: listed, chosen only if it was the last entry


class ChunkerFiles(QObject):
    """The chunker files opened in the window, watched for saves and remembered."""

    #: a file's functions are listed (its absolute path)
    loaded = Signal(str)
    #: a file did not load (its absolute path, why in words)
    load_failed = Signal(str, str)

    def __init__(
        self,
        parent: QWidget,
        model: InspectorModel,
        panel: ChunkerPanel,
        show_status: Callable[[str], None],
        worker: ChunkWorker,
        settings: QSettings,
    ) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.model = model
        self.panel = panel
        self.show_status = show_status
        self.worker = worker
        self.remembered = AppSettings(settings)
        #: absolute path -> the ids of its functions listed in the picker
        self.files: dict[str, list[str]] = {}
        #: absolute path -> what to choose when its description arrives
        self._then: dict[str, _Then] = {}
        #: the entry to choose when its file, reopened at launch, is listed
        self._wanted: str | None = None
        worker.chunkers_described.connect(self._described)
        worker.chunkers_failed.connect(self._failed)
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
        """Ask the chunking process for the chunkers of ``path``: when they come
        (``loaded``), they are listed in the picker, the first chosen, the file watched
        and remembered; when it does not load, why is shown (``load_failed``). False
        (the reason shown) when there is no such file."""
        absolute = os.path.abspath(path)
        if not os.path.isfile(absolute):
            self._show_load_error(absolute, "there is no such file")
            return False
        self._ask(absolute, _Then.FIRST)
        self.show_status(f"Loading {os.path.basename(absolute)}…")
        return True

    def load(self, path: str) -> None:
        """List the chunkers of ``path`` (watched and remembered) and choose none: a
        session chooses its own once the file is listed (``loaded``)."""
        self._ask(os.path.abspath(path), _Then.LIST)

    def restore(self, wanted_entry: str | None = None) -> None:
        """Open the chunker files of the last session again; choose ``wanted_entry`` once
        its file is listed. A file gone since is left out (and forgotten) with a note."""
        self._wanted = wanted_entry
        stored = self.remembered.chunker_files()
        here = [path for path in stored if os.path.isfile(path)]
        gone = [os.path.basename(path) for path in stored if path not in here]
        if gone:
            self.remembered.set_chunker_files(here)
            self.show_status(
                f"Chunker file{'s' if len(gone) > 1 else ''} gone since last time, "
                f"left out: {', '.join(gone)}"
            )
        for path in here:
            self._ask(path, _Then.LIST)

    def reload(self, absolute: str) -> None:
        """Read the file again; when the chosen chunker is one of its functions, run the
        new code on the shown document."""
        self._ask(absolute, _Then.KEEP)

    def _ask(self, absolute: str, then: _Then) -> None:
        if self._then.get(absolute) is not _Then.FIRST:  # an open is not undone by a save
            self._then[absolute] = then
        self.worker.describe_chunkers(absolute)

    # ----- the chunking process's answers ----------------------------------------------
    def _described(self, path: str, described: FileChunkers) -> None:
        then = self._then.pop(path, _Then.KEEP)
        entries: list[Entry] = [DescribedEntry(schema) for schema in described.entries]
        for entry in entries:
            registry.register(entry)  # a new revision's entry replaces the old one
        name = os.path.basename(path)
        self.panel.show_file_entries(path, name, entries)
        ids = [entry.id for entry in entries]
        self.files[path] = ids
        self._watch(path)
        self._remember(path)
        if then is _Then.FIRST:
            self.model.select_entry(ids[0])
            chunkers = "1 chunker" if len(ids) == 1 else f"{len(ids)} chunkers"
            self.show_status(f"Opened {chunkers} from {name}")
        elif then is _Then.LIST:
            if self._wanted in ids:
                self.model.select_entry(self._wanted)
                self._wanted = None
        else:
            self._follow_the_save(path, ids)
            self.show_status(f"Reloaded {name}")
        self.loaded.emit(path)

    def _follow_the_save(self, path: str, ids: list[str]) -> None:
        current = self.model.entry_id
        if current.rpartition(":")[0] == path or current in ids:
            # its options form and a run of the new code; the first function when the
            # chosen one is gone from the file
            self.model.select_entry(current if current in ids else ids[0])

    def _failed(self, path: str, error: ChunkerError) -> None:
        self._then.pop(path, None)
        self._show_load_error(path, f"{error.name}: {error.message}", error.traceback)
        if path in self.files:  # listed before: watched still, so a fix is read
            self._watch(path)
        self.load_failed.emit(path, error.message)

    def _remember(self, path: str) -> None:
        stored = self.remembered.chunker_files()
        if path not in stored:
            self.remembered.set_chunker_files([*stored, path])

    def _show_load_error(self, absolute: str, why: str, traceback: str | None = None) -> None:
        name = os.path.basename(absolute)
        self.panel.show_load_error(f"<b>Cannot load {escape(name)}</b><br>{escape(why)}", traceback)
        self.show_status(f"Cannot load {name}: {why}")

    # ----- watching ------------------------------------------------------------------
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
