"""Changes made to the open file by another program: watched, reloaded when nothing here
would be lost, otherwise offered in a bar above the editor (Reload or Keep mine); a file
deleted or replaced on disk is said to be so. Save asks before replacing a file that
changed since it was read (files.py)."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QFileSystemWatcher, QObject, Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QStyle

from chunkview.app.files import DocumentFiles
from chunkview.core.io.stamp import DiskChange, FileStamp, disk_change, file_stamp

#: a writer often writes a file in pieces: look once it has been quiet this long, ms
SETTLE_MS = 150
#: while the file is gone, how often to look whether it is back, ms (a deleted path is
#: no longer watched)
GONE_POLL_MS = 1000


class OutsideChangeBar(QFrame):
    """A bar above the editor (not a dialog: the window stays usable) saying what
    happened to the file on disk, with Reload and Keep mine where there is a choice."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("outsideChangeBar")
        self.setStyleSheet(
            "#outsideChangeBar { background: palette(alternate-base); "
            "border: 1px solid palette(mid); border-left: 4px solid #d9a400; }"
        )
        icon = QLabel()
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        icon.setPixmap(
            self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(size)
        )
        # the file's name comes from the file system: plain text, never markup
        self.message = QLabel()
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        self.reload_button = QPushButton("Reload")
        self.reload_button.setToolTip("Read the file again; the edits made here are dropped")
        self.keep_button = QPushButton("Keep mine")
        self.keep_button.setToolTip(
            "Keep the text here; Save asks before it replaces the file on disk"
        )
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        row.addWidget(icon)
        row.addWidget(self.message, 1)
        row.addWidget(self.reload_button)
        row.addWidget(self.keep_button)
        self.hide()

    def show_changed(self, name: str, change: DiskChange) -> None:
        what = "was replaced by another file" if change == "replaced" else "changed"
        self.message.setText(
            f"{name} {what} on disk, and the text here has unsaved edits. Reload it "
            "(dropping the edits), or keep yours?"
        )
        self.reload_button.show()
        self.keep_button.setText("Keep mine")
        self.show()

    def show_deleted(self, name: str) -> None:
        self.message.setText(
            f"{name} was deleted or moved away on disk. The text here is kept; Save writes "
            "the file again."
        )
        self.reload_button.hide()
        self.keep_button.setText("Close")
        self.show()


class FileWatch(QObject):
    """Watches the open document's file (QFileSystemWatcher) for ``files`` and acts on
    what changed, through ``bar`` and ``status`` (a passing message)."""

    def __init__(
        self,
        files: DocumentFiles,
        bar: OutsideChangeBar,
        status: Callable[[str], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.files = files
        self.bar = bar
        self.status = status
        self._settle = QTimer(self, singleShot=True, interval=SETTLE_MS)
        self._settle.timeout.connect(self.check)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(lambda _path: self._settle.start())
        self._gone_poll = QTimer(self, interval=GONE_POLL_MS)
        self._gone_poll.timeout.connect(self.check)
        #: the file as it was when the user chose Keep mine (that change is not offered again)
        self._kept: FileStamp | None = None
        self._said_gone = False
        files.disk_listeners.append(self.rewatch)
        bar.reload_button.clicked.connect(self.reload)
        bar.keep_button.clicked.connect(self.keep_mine)

    def rewatch(self) -> None:
        """The document was read or written: watch its file (if it has one) afresh."""
        self._gone_poll.stop()
        self._kept = None
        self._said_gone = False
        self.bar.hide()
        self._watch(self.files.path_on_disk())

    def _watch(self, path: str | None) -> None:
        watched = self.watcher.files()
        if path is not None and watched == [path]:
            return
        if watched:
            self.watcher.removePaths(watched)
        if path is not None and os.path.exists(path):
            self.watcher.addPath(path)

    def check(self) -> None:
        """Compare the file with what was read or written, and act on the difference."""
        path, stamp = self.files.path_on_disk(), self.files.stamp
        if path is None or stamp is None:
            return
        change = disk_change(stamp, path)
        self._watch(path)  # a rename or a deletion drops the path from the watcher
        name = os.path.basename(path)
        if change == "same":
            return
        if change == "deleted":
            self._gone_poll.start()
            if not self._said_gone:
                self._said_gone = True
                self.bar.show_deleted(name)
                self.status(f"{name} was deleted or moved away on disk")
            return
        self._gone_poll.stop()
        self._said_gone = False
        if not self.files.model.modified:
            if self.files.reload():
                replaced = "was replaced on disk" if change == "replaced" else "changed on disk"
                self.status(f"{name} {replaced}: reloaded")
            return
        if self._kept is not None and self._kept == file_stamp(path):
            return
        self.bar.show_changed(name, change)

    def reload(self) -> None:
        self.bar.hide()
        self.files.reload()

    def keep_mine(self) -> None:
        self.bar.hide()
        self._kept = file_stamp(self.files.path_on_disk() or "")
