"""A failed run, or another chunker not yet run, leaves the last good layout on view:
dimmed and labelled "last good: ENTRY {options}" in the editor, the overview strip, the
chunk table and the statistics (histogram included) until a run of the current settings
succeeds, so an old layout is never read as the answer to the new settings."""

from __future__ import annotations

import json

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.session import Failure, InspectorModel, ModelEvent

#: how much of the page's colour lies over a stale layout (0-255)
VEIL_ALPHA = 150
#: another chunker's run shows its layout within this time mostly; the veil waits that
#: long, so a quick switch does not flash
ENTRY_SWITCH_GRACE_MS = 400
#: the label's options are cut after this many characters (the tooltip has them all)
LABEL_OPTIONS_UP_TO = 120


def last_good_label(result: ChunkResult) -> str:
    options = json.dumps(result.request.options, separators=(", ", ": "), default=str)
    if len(options) > LABEL_OPTIONS_UP_TO:
        options = options[: LABEL_OPTIONS_UP_TO - 1] + "…"
    return f"last good: {result.request.entry_id} {options}"


class StaleVeil(QWidget):
    """A see-through cover over ``target`` (over its viewport, for a scroll area: the
    scroll bars stay usable) with the label at its top. Clicks and wheel go through."""

    def __init__(self, target: QWidget, labelled: bool = True) -> None:
        super().__init__(target)
        self.target = target
        self.labelled = labelled
        self.text = ""
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

    def show_stale(self, text: str) -> None:
        self.text = text
        self.setToolTip(text)
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
        if not self.labelled or not self.text:
            return
        metrics = painter.fontMetrics()
        width = self.width() - 8
        shown = metrics.elidedText(self.text, Qt.TextElideMode.ElideRight, width - 12)
        box = QRect(4, 4, min(metrics.horizontalAdvance(shown) + 12, width), metrics.height() + 8)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(palette.color(QPalette.ColorRole.Mid))
        painter.setBrush(palette.color(QPalette.ColorRole.ToolTipBase))
        painter.drawRoundedRect(box, 4, 4)
        painter.setPen(palette.color(QPalette.ColorRole.ToolTipText))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, shown)


class StaleLayouts(QObject):
    """Shows the veils while the layout on view is not of the current settings: the
    newest run failed, or another chunker was chosen and has not answered yet."""

    def __init__(self, model: InspectorModel, labelled: list[QWidget], plain: list[QWidget]):
        super().__init__()
        self.model = model
        self.veils = [StaleVeil(w) for w in labelled] + [StaleVeil(w, False) for w in plain]
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

    def _show(self, result: ChunkResult) -> None:
        self.label = last_good_label(result)
        for veil in self.veils:
            veil.show_stale(self.label)

    def clear(self) -> None:
        self._entry_timer.stop()
        if self.label:
            self.label = ""
            for veil in self.veils:
                veil.cover_no_more()
