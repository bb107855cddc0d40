"""A failed run, or another chunker not yet run, leaves the last good layout on view:
dimmed in the editor, the overview strip, the chunk table and the statistics (histogram
included), and labelled "last good: ENTRY {options}" in a bar above the editor and one
above the results, until a run of the current settings succeeds, so an old layout is
never read as the answer to the new settings. The bars take their own room in the
layout: they push the views down and cover no line of them."""

from __future__ import annotations

import json

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import QAbstractScrollArea, QLabel, QSizePolicy, QWidget

from chunkview.app.markup import as_rich_text
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.session import Failure, InspectorModel, ModelEvent

#: how much of the page's colour lies over a stale layout (0-255)
VEIL_ALPHA = 150
#: another chunker's run shows its layout within this time mostly; the veil waits that
#: long, so a quick switch does not flash
ENTRY_SWITCH_GRACE_MS = 400
#: the label's options are cut after this many characters (the tooltip has them all)
LABEL_OPTIONS_UP_TO = 120


def last_good_label(result: ChunkResult, up_to: int | None = LABEL_OPTIONS_UP_TO) -> str:
    """``last good: ENTRY {options}``, the options cut after ``up_to`` characters."""
    options = json.dumps(result.request.options, separators=(", ", ": "), default=str)
    if up_to is not None and len(options) > up_to:
        options = options[: up_to - 1] + "…"
    return f"last good: {result.request.entry_id} {options}"


class StaleBar(QLabel):
    """The label of a stale layout, in a bar of its own above the views of it: shown
    only while the layout is stale, on one line cut short at the bar's width (the
    tooltip has it whole)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("staleBar")
        # palette(): a theme switch sets the sheet again (theme.apply_theme)
        self.setStyleSheet(
            "#staleBar { background: palette(alternate-base); "
            "border: 1px solid palette(mid); border-left: 4px solid #d9a400; "
            "padding: 2px 6px; }"
        )
        self.setTextFormat(Qt.TextFormat.PlainText)  # options are a user's text
        # as wide as the views under it, whatever the text's length
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.label = ""
        self.hide()

    def show_stale(self, label: str, whole: str) -> None:
        self.label = label
        self.setToolTip(
            as_rich_text(
                f"{whole}\nThe run of the current settings failed, or has not answered "
                "yet: the chunks shown are those of this earlier run."
            )
        )
        self._elide()
        self.show()

    def cover_no_more(self) -> None:
        self.label = ""
        self.hide()

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        room = self.contentsRect().width()
        shown = self.fontMetrics().elidedText(self.label, Qt.TextElideMode.ElideRight, room)
        if shown != self.text():
            self.setText(shown)


class StaleVeil(QWidget):
    """A see-through cover over ``target`` (over its viewport, for a scroll area: the
    scroll bars stay usable). Clicks and wheel go through."""

    def __init__(self, target: QWidget) -> None:
        super().__init__(target)
        self.target = target
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest):
            self._fit()
        return False

    def _fit(self) -> None:
        target = self.target
        if isinstance(target, QAbstractScrollArea):  # the editor's gutter too
            page = target.viewport().geometry()
            self.setGeometry(QRect(0, page.top(), page.right() + 1, page.height()))
        else:
            self.setGeometry(target.rect())

    def show_stale(self) -> None:
        # followed while shown only: a filter costs a call into Python per event
        self.target.installEventFilter(self)
        self._fit()
        self.raise_()
        self.show()
        self.update()

    def cover_no_more(self) -> None:
        self.target.removeEventFilter(self)
        self.hide()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        veil = QColor(palette.color(QPalette.ColorRole.Base))
        veil.setAlpha(VEIL_ALPHA)
        painter.fillRect(self.rect(), veil)


class StaleLayouts(QObject):
    """Shows the veils over ``covered`` and the label in ``bars`` while the layout on
    view is not of the current settings: the newest run failed, or another chunker was
    chosen and has not answered yet."""

    def __init__(self, model: InspectorModel, covered: list[QWidget], bars: list[StaleBar]):
        super().__init__()
        self.model = model
        self.veils = [StaleVeil(w) for w in covered]
        self.bars = bars
        self.label = ""
        self._entry_timer = QTimer(self, singleShot=True, interval=ENTRY_SWITCH_GRACE_MS)
        self._entry_timer.timeout.connect(self._entry_still_running)
        model.subscribe(ModelEvent.FAILED, self._failed)
        model.subscribe(ModelEvent.RESULT, self._result)
        model.subscribe(ModelEvent.ENTRY, lambda _entry: self._entry_timer.start())
        model.subscribe(ModelEvent.DOCUMENT, self.clear)

    @property
    def stale(self) -> bool:
        return bool(self.label)

    def _failed(self, failure: Failure) -> None:
        result = self.model.result
        if failure.kept_layout and result is not None and result.layout.spans:
            self._show(result)

    def _entry_still_running(self) -> None:
        result = self.model.result
        if self.model.running and result is not None and result.layout.spans:
            if result.request.entry_id != self.model.entry_id:
                self._show(result)

    def _result(self, result: ChunkResult) -> None:
        if result.generation == self.model.generation:
            self.clear()  # a run of the current settings succeeded
        elif self.label and result.layout.spans:
            # a run of settings since changed (another chunker's, answering while its
            # options moved on) is on view now, still stale: the label names it
            self._show(result)

    def _show(self, result: ChunkResult) -> None:
        self.label = last_good_label(result)
        whole = last_good_label(result, up_to=None)
        for bar in self.bars:
            bar.show_stale(self.label, whole)
        for veil in self.veils:
            veil.show_stale()

    def clear(self) -> None:
        self._entry_timer.stop()
        if self.label:
            self.label = ""
            for bar in self.bars:
                bar.cover_no_more()
            for veil in self.veils:
                veil.cover_no_more()
