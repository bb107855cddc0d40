"""The cascade replay in step-through mode: the stages of the current chunk (first
gathered, split, merged, overlapped; core/replay.py) shown one after the other.

A QTimer moves from stage to stage; a QVariantAnimation fades each stage's highlight in,
so the eye follows what changed. The replay can be paused and resumed; moving to another
boundary stops it. What is shown is drawn by the step editor (``show_stage``) and worded
in the card (``StepThrough._show_stage``).
"""

from __future__ import annotations

from PySide6.QtCore import QEasingCurve, QObject, QTimer, QVariantAnimation, Signal

from chunkview.core.model.explain import Stage

#: how long each stage stays on screen (ms), and how long its highlight takes to fade in
STAGE_MS = 2600
FADE_MS = 450


class Replay(QObject):
    """Plays a list of stages: ``shown`` for each, ``finished`` after the last."""

    #: a stage is shown: its index in the list and the stage
    shown = Signal(int, object)
    #: the fade of the shown stage's highlight, from 0 to 1
    faded = Signal(float)
    #: the last stage is shown; it stays on screen
    finished = Signal()
    #: playing, paused or stopped (the button's text follows)
    state_changed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.stages: list[Stage] = []
        self.index = -1
        self.state = "stopped"  # stopped | playing | paused | done
        self.timer = QTimer(self, interval=STAGE_MS)
        self.timer.timeout.connect(self._advance)
        self.fade = QVariantAnimation(self)
        self.fade.setStartValue(0.0)
        self.fade.setEndValue(1.0)
        self.fade.setDuration(FADE_MS)
        self.fade.setEasingCurve(QEasingCurve.Type.OutCubic)
        self.fade.valueChanged.connect(lambda value: self.faded.emit(float(value)))

    @property
    def stage(self) -> Stage | None:
        return self.stages[self.index] if 0 <= self.index < len(self.stages) else None

    def set_interval(self, ms: int) -> None:
        self.timer.setInterval(ms)
        self.fade.setDuration(min(FADE_MS, max(ms // 3, 1)))

    def start(self, stages: list[Stage]) -> None:
        """Play ``stages`` from the first."""
        self.stages = list(stages)
        self.index = -1
        if not self.stages:
            self.stop()
            return
        self._set_state("playing")
        self._advance()
        self.timer.start()

    def toggle(self) -> None:
        """Pause a replay that plays, resume a paused one."""
        if self.state == "playing":
            self.timer.stop()
            self._set_state("paused")
        elif self.state == "paused":
            self._set_state("playing")
            self._advance()
            self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        self.fade.stop()
        self.stages, self.index = [], -1
        self._set_state("stopped")

    def _advance(self) -> None:
        if self.index + 1 >= len(self.stages):
            return
        self.index += 1
        self.fade.stop()
        self.shown.emit(self.index, self.stages[self.index])
        self.fade.start()
        if self.index + 1 == len(self.stages):  # the last stays on screen: nothing to pause
            self.timer.stop()
            self._set_state("done")
            self.finished.emit()

    def _set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self.state_changed.emit(state)
