"""Zoom (Ctrl+= / Ctrl+- / Ctrl+0, Ctrl+wheel) of the editor and the result views,
remembered; and Presentation Mode (F5): large type across the whole window, the options
panel included, thicker boundary bars, a high-contrast palette, the result views cut down
to what a room can read, full screen with F11. Esc leaves. Step-through (F9) and replay
work inside it, with their own zoom keys."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QColor, QFont, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QDockWidget,
    QMainWindow,
    QMenu,
    QSplitter,
    QTabWidget,
    QWidget,
)

from chunkview.app.chunk_table import ChunkTable
from chunkview.app.editor import ChunkEditor
from chunkview.app.settings import AppSettings

#: each zoom step scales the type by this much
ZOOM_FACTOR = 1.1
ZOOM_STEPS = (-5, 15)
#: presentation mode scales the whole window's type by this much (the editor's on top of
#: its zoom)
PRESENTATION_SCALE = 1.7
PRESENTATION_BAR_WIDTH = 7
#: the options panel's, the editor's and the results' shares of the width while presenting
PRESENTATION_SHARES = (0.23, 0.52, 0.25)
#: the chunk table's columns a room reads
PRESENTATION_COLUMNS = ("#", "kind", "chars", "tokens")
#: the result tabs a room reads (by the start of their names)
PRESENTATION_TABS = ("Chunks", "Stats")
#: a light palette at the highest contrast: black on white, and a blue (Okabe-Ito) for
#: what is selected, which every common colour-vision deficiency tells from the text
HIGH_CONTRAST = {
    QPalette.ColorRole.Window: "#ffffff",
    QPalette.ColorRole.WindowText: "#000000",
    QPalette.ColorRole.Base: "#ffffff",
    QPalette.ColorRole.AlternateBase: "#f0f0f0",
    QPalette.ColorRole.Text: "#000000",
    QPalette.ColorRole.Button: "#ffffff",
    QPalette.ColorRole.ButtonText: "#000000",
    QPalette.ColorRole.ToolTipBase: "#ffffff",
    QPalette.ColorRole.ToolTipText: "#000000",
    QPalette.ColorRole.Highlight: "#0072B2",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.PlaceholderText: "#4d4d4d",
    QPalette.ColorRole.Mid: "#000000",
    QPalette.ColorRole.Link: "#0072B2",
}


def high_contrast_palette() -> QPalette:
    palette = QPalette()
    for role, colour in HIGH_CONTRAST.items():
        palette.setColor(role, QColor(colour))
    return palette


def scaled(font: QFont, factor: float) -> QFont:
    font = QFont(font)
    font.setPointSizeF(round(font.pointSizeF() * factor, 1))
    return font


class ZoomAndPresentation(QObject):
    """The zoom and presentation actions of ``window``, added to ``menu`` (View)."""

    def __init__(
        self,
        window: QMainWindow,
        menu: QMenu,
        remembered: AppSettings,
        editors: list[ChunkEditor],
        result_views: list[QWidget],
        step_through_action: QAction,
        tabs: QTabWidget,
        table: ChunkTable,
        set_aside_when_presenting: list[QWidget],
        splitter: QSplitter,
    ) -> None:
        super().__init__(window)
        self.window = window
        self.remembered = remembered
        self.editors = editors
        self.result_views = result_views
        self.step_through_action = step_through_action
        self.tabs, self.table = tabs, table
        self.set_aside_when_presenting = set_aside_when_presenting
        self._hidden_tabs: list[int] = []
        self.splitter = splitter
        self._splitter_sizes: list[int] = []
        self._base_fonts = {id(w): QFont(w.font()) for w in [*editors, *result_views]}
        self._bar_width = editors[0].bar_width
        self.steps = min(max(remembered.zoom(), ZOOM_STEPS[0]), ZOOM_STEPS[1])
        self.presenting = False
        self._set_aside: list[QWidget] = []
        self._was_maximized = False
        menu.addSeparator()
        self.zoom_in = self._action(menu, "Zoom &In", lambda: self.zoom(1), "Ctrl+=")
        self.zoom_in.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
        self.zoom_out = self._action(menu, "Zoom &Out", lambda: self.zoom(-1), "Ctrl+-")
        self.zoom_reset = self._action(menu, "&Actual Size", self.reset_zoom, "Ctrl+0")
        menu.addSeparator()
        self.presentation = self._action(menu, "&Presentation Mode", None, "F5")
        self.presentation.setCheckable(True)
        self.presentation.toggled.connect(self.set_presenting)
        self.full_screen = self._action(menu, "&Full Screen", None, "F11")
        self.full_screen.setCheckable(True)
        self.full_screen.toggled.connect(self.set_full_screen)
        # Esc leaves presentation mode; step-through's own Esc comes first while it runs
        self.leave = self._action(menu, "Leave Presentation", self.leave_presentation, "Esc")
        self.leave.setEnabled(False)
        step_through_action.toggled.connect(lambda _on: self._update_actions())
        for view in [*editors, table]:
            view.zoom_asked.connect(self.zoom)  # type: ignore[attr-defined]
        self._apply()

    def _action(self, menu: QMenu, text: str, slot, shortcut: str) -> QAction:
        action = QAction(text, self.window)
        action.setShortcut(QKeySequence(shortcut))
        if slot is not None:
            action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    # ----- zoom -------------------------------------------------------------------------
    def zoom(self, steps: int) -> None:
        self.steps = min(max(self.steps + steps, ZOOM_STEPS[0]), ZOOM_STEPS[1])
        self.remembered.set_zoom(self.steps)
        self._apply()

    def reset_zoom(self) -> None:
        self.zoom(-self.steps)

    def _apply(self) -> None:
        factor = ZOOM_FACTOR**self.steps * (PRESENTATION_SCALE if self.presenting else 1)
        for widget in [*self.editors, *self.result_views]:
            widget.setFont(scaled(self._base_fonts[id(widget)], factor))
        for editor in self.editors:
            editor._gutter_widths.clear()  # the gutter holds two bars
            editor.bar_width = PRESENTATION_BAR_WIDTH if self.presenting else self._bar_width
            editor.strong_tints = self.presenting
            editor._update_margins()
            editor._schedule()
            editor.viewport().update()

    # ----- presentation -------------------------------------------------------------------
    def set_presenting(self, presenting: bool) -> None:
        if presenting == self.presenting:
            return
        self.presenting = presenting
        window = self.window
        if presenting:
            window.setFont(scaled(QFont(), PRESENTATION_SCALE))
            window.setPalette(high_contrast_palette())
            # the text the room looks at takes half the width; the options panel and
            # the table (four columns) the room their large type needs
            self._splitter_sizes = self.splitter.sizes()
            width = sum(self._splitter_sizes)
            self.splitter.setSizes([int(width * share) for share in PRESENTATION_SHARES])
            self._set_aside = [
                w for w in window.findChildren(QDockWidget) if w.isVisible()
            ] + self._cut_down_views(hide=True)
            for widget in self._set_aside:
                widget.hide()
        else:
            window.setFont(QFont())  # the application's again
            window.setPalette(QPalette())
            if self._splitter_sizes:
                self.splitter.setSizes(self._splitter_sizes)
            for widget in self._set_aside:
                widget.show()
            self._set_aside = []
            self._cut_down_views(hide=False)
            self.set_full_screen(False)
        if self.presentation.isChecked() != presenting:
            self.presentation.setChecked(presenting)
        self._apply()
        self._update_actions()

    def _cut_down_views(self, hide: bool) -> list[QWidget]:
        """Hide (or show again) the table's columns and the tabs beyond what a room
        reads; the widgets to set aside (the inspector)."""
        # the columns left share the room
        self.table.set_only_columns(PRESENTATION_COLUMNS if hide else None)
        if hide:
            self._hidden_tabs = [
                i
                for i in range(self.tabs.count())
                if self.tabs.isTabVisible(i)
                and not self.tabs.tabText(i).startswith(PRESENTATION_TABS)
            ]
        for index in self._hidden_tabs:
            self.tabs.setTabVisible(index, not hide)
        return [w for w in self.set_aside_when_presenting if w.isVisible()] if hide else []

    def set_full_screen(self, full: bool) -> None:
        window = self.window
        if full and not window.isFullScreen():
            self._was_maximized = window.isMaximized()
            window.showFullScreen()
        elif not full and window.isFullScreen():
            window.showMaximized() if self._was_maximized else window.showNormal()
        if self.full_screen.isChecked() != full:
            self.full_screen.setChecked(full)

    def leave_presentation(self) -> None:
        if self.presenting:
            self.set_presenting(False)
        else:
            self.set_full_screen(False)

    def _update_actions(self) -> None:
        stepping = self.step_through_action.isChecked()
        self.leave.setEnabled((self.presenting or self.full_screen.isChecked()) and not stepping)
        for action in (self.zoom_in, self.zoom_out, self.zoom_reset):
            action.setEnabled(not stepping)  # step-through zooms its own text


def attach(window: Any) -> ZoomAndPresentation:
    """Zoom and presentation mode for the main window (its View menu, editors, result
    tabs and inspector)."""
    views = window.views
    return ZoomAndPresentation(
        window,
        window.menus.menus[3],  # View
        window.remembered,
        editors=[window.editor, views.compare.b_editor],
        result_views=[window.tabs, views.inspector],
        step_through_action=window.step_through.toggle_action,
        tabs=window.tabs,
        table=window.table,
        set_aside_when_presenting=[views.inspector],
        splitter=window.splitter,
    )
