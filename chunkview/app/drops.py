"""A file dropped anywhere on the window opens it.

Widgets that take text drops themselves (the editor, the search box, the option fields)
would insert the file's ``file:///`` address instead; an application-wide event filter
sees the drop first and opens the file when the drop lands inside the window.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QMimeData, QObject
from PySide6.QtWidgets import QApplication, QWidget


def dropped_file(mime: QMimeData) -> str | None:
    """The first local file of a drop, if it carries one."""
    if not mime.hasUrls():
        return None
    for url in mime.urls():
        if url.isLocalFile():
            return url.toLocalFile()
    return None


class FileDrops(QObject):
    """Installed on the application while ``window`` lives (it is the filter's parent)."""

    def __init__(self, window: QWidget, open_path: Callable[[str], object]) -> None:
        super().__init__(window)
        self.window = window
        self.open_path = open_path
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        if not isinstance(watched, QWidget) or watched.window() is not self.window:
            return False
        path = dropped_file(event.mimeData())  # type: ignore[attr-defined]
        if path is None:
            return False  # text and other drops go where they were going
        event.acceptProposedAction()  # type: ignore[attr-defined]
        if kind == QEvent.Type.Drop:
            self.open_path(path)
        return True
