"""The first widths of the three panels side by side: the editor keeps at least half the
window, the chunker panel and the result tabs share the rest.

Fixed sizes set before the window had its width (340, 620, 460) were cut down from the
editor alone when the window came up narrower (the editor is the splitter's only stretching
panel): at 1280 px it was left about a third. The sizes are set from the window's width
when it is first shown, and again as it is resized, until a user moves a splitter handle
or the window's last sizes are restored.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QMainWindow, QSplitter, QWidget

#: the editor's least share of the window's width
EDITOR_SHARE = 0.5
#: the chunker panel's share of what is left, and the most it takes
CHUNKER_SHARE = 0.42
CHUNKER_MOST = 340
#: what the document view holds beside the editor before it is laid out (the overview
#: strip and margins: 27 px at 9 pt)
BESIDE_EDITOR = 30


def first_sizes(
    width: int, window_width: int, chunker_least: int, tabs_least: int, beside_editor: int
) -> list[int]:
    """(chunker panel, document view, result tabs) for a splitter ``width`` wide in a
    window ``window_width`` wide; ``beside_editor``: what the document view holds beside
    the editor (the overview strip, margins), so the editor itself gets its share."""
    editor = math.ceil(window_width * EDITOR_SHARE) + beside_editor
    rest = max(width - editor, chunker_least + tabs_least)
    chunker = min(max(round(rest * CHUNKER_SHARE), chunker_least), CHUNKER_MOST)
    tabs = max(rest - chunker, tabs_least)
    return [chunker, width - chunker - tabs, tabs]


class FirstPanelSizes(QObject):
    """Sets ``splitter``'s sizes from ``window``'s width (see the module's words) while
    ``active``: once laid out after each show or resize of the window. A user's drag of a
    handle ends it, and so does anything else that sets the side panels' widths (the
    presentation mode, the step-through)."""

    def __init__(self, window: QMainWindow, splitter: QSplitter, active: bool = True) -> None:
        super().__init__(window)
        self.window, self.splitter = window, splitter
        self.active = active
        #: the side panels' widths as last fitted (another width: someone else set it)
        self._fitted: tuple[int, int] | None = None
        self._setting = False
        # after the window's layout has passed the new width on to the splitter
        self._later = QTimer(self, singleShot=True, interval=0)
        self._later.timeout.connect(self._refit)
        splitter.splitterMoved.connect(self._moved_by_hand)
        window.installEventFilter(self)

    def _moved_by_hand(self, *_: object) -> None:
        if not self._setting:
            self.active = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.active and event.type() in (QEvent.Type.Show, QEvent.Type.Resize):
            self._later.start()
        return False

    def _sides(self) -> tuple[int, int]:
        sizes = self.splitter.sizes()
        return (sizes[0], sizes[-1]) if sizes else (0, 0)

    def _refit(self) -> None:
        if not self.active or not self.splitter.isVisible():
            return
        if self._fitted is not None and self._sides() != self._fitted:
            self.active = False  # set by something else since: theirs stands
            return
        self.fit()
        self._fitted = self._sides()

    def fit(self) -> None:
        splitter = self.splitter
        panels = [splitter.widget(i) for i in range(splitter.count())]
        if len(panels) != 3 or None in panels:
            return
        chunker, view, tabs = panels[0], panels[1], panels[2]
        assert chunker is not None and view is not None and tabs is not None
        editor = getattr(view, "editor", None)
        # measured once laid out; before, the overview strip and margins, about
        beside = BESIDE_EDITOR
        if editor is not None and editor.isVisible() and view.width() > editor.width() > 0:
            beside = view.width() - editor.width()
        handles = 2 * splitter.handleWidth()
        width = splitter.width() if splitter.isVisible() else self.window.width()
        sizes = first_sizes(
            width - handles,
            self.window.width(),
            least_width(chunker),
            least_width(tabs),
            beside,
        )
        self._setting = True
        try:
            splitter.setSizes(sizes)
        finally:
            self._setting = False


def least_width(widget: QWidget) -> int:
    """The narrowest a splitter lets ``widget`` be: its minimum width when set, else its
    minimum size hint's."""
    return widget.minimumWidth() or widget.minimumSizeHint().width()
