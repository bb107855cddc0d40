"""The first height of the docks under the panels (Sweep, Retrieval eval, Audit): a
third of the window, so the editor keeps more than half of it.

Left to Qt, the dock opened at its size hint, cut down only by the panels' least heights:
about half the window, the editor left some 300 px and the chunker panel scrolling. The
height is set when one of the docks first shows, unless the window's last state was
restored (a user's own height stands) or a user has already shown one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

#: the docks' share of the window's height when they first open
DOCK_SHARE = 0.32


def first_height(window_height: int) -> int:
    """The height a dock under the panels opens at in a window ``window_height`` tall."""
    return round(window_height * DOCK_SHARE)


class FirstDockHeight(QObject):
    """Sets the height of ``docks`` (one area of tabbed docks, so one height) to
    first_height of ``window``'s when one of them first shows while ``active``."""

    def __init__(
        self, window: QMainWindow, docks: Sequence[QDockWidget], active: bool = True
    ) -> None:
        super().__init__(window)
        self.window = window
        self.active = active
        for dock in docks:
            dock.visibilityChanged.connect(partial(self._shown, dock))

    def _shown(self, dock: QDockWidget, visible: bool) -> None:
        if not (self.active and visible) or dock.isFloating():
            return
        self.active = False  # once: what a user makes of it afterwards stands
        self.window.resizeDocks(
            [dock], [first_height(self.window.height())], Qt.Orientation.Vertical
        )
