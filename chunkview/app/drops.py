"""A file dropped anywhere on the window opens it.

Widgets that take text drops themselves (the editor, the search box, the option fields)
would insert the file's ``file:///`` address instead; a filter on the window's platform
window sees the drag first (before it is handed to the widget under the mouse) and opens
the file. It filters that one window's events only: an application-wide filter would call
into Python for every event of every widget (each paint, timer and layout request).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QMimeData, QObject
from PySide6.QtGui import QWindow
from PySide6.QtWidgets import QWidget

_DRAGS = frozenset((QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop))


def dropped_file(mime: QMimeData) -> str | None:
    """The first local file of a drop, if it carries one."""
    if not mime.hasUrls():
        return None
    for url in mime.urls():
        if url.isLocalFile():
            return url.toLocalFile()
    return None


class FileDrops(QObject):
    """Opens the files dropped on ``window`` (the filter's parent); ``attach`` once the
    window has its platform window (on show: it is made anew with some flag changes)."""

    def __init__(self, window: QWidget, open_path: Callable[[str], object]) -> None:
        super().__init__(window)
        self.window = window
        self.open_path = open_path
        self._watched: QWindow | None = None
        self.attach()

    def attach(self) -> None:
        handle = self.window.windowHandle()
        if handle is not None and handle is not self._watched:
            handle.installEventFilter(self)
            self._watched = handle

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in _DRAGS:
            return False
        path = dropped_file(event.mimeData())  # type: ignore[attr-defined]
        if path is None:
            return False  # text and other drops go where they were going
        event.acceptProposedAction()  # type: ignore[attr-defined]
        if kind == QEvent.Type.Drop:
            self.open_path(path)
        return True
