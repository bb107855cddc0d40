"""Back and Forward through the settings tried on the open document (Alt+Left, Alt+Right),
so a user can flip between two settings and watch the boundaries move."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction, QKeySequence

from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.session import Failure, InspectorModel, ModelEvent

#: a setting becomes a step once it has stood this long (a drag's values pass through)
SETTLE_SECONDS = 1.0
#: the oldest steps go first beyond this many
MAX_STEPS = 200

Setting = tuple[str, dict[str, Any]]


def _key(setting: Setting) -> str:
    return json.dumps(setting, sort_keys=True, default=str)


class OptionHistory(QObject):
    """The settings (entry and options) whose run ended, newest last, and where Back and
    Forward stand among them. ``apply`` shows a setting in the panel and runs it."""

    def __init__(self, model: InspectorModel, apply: Callable[[str, dict[str, Any]], None]) -> None:
        super().__init__()
        self.model = model
        self._apply = apply
        self.steps: list[Setting] = []
        self.index = -1
        self.settle_seconds = SETTLE_SECONDS
        #: the setting shown, until it has stood long enough to be a step
        self._pending: Setting | None = None
        self._settle = QTimer(self, singleShot=True)
        self._settle.timeout.connect(self.commit)
        self.back_action = QAction("Back to Earlier Settings", self)
        self.back_action.setIconText("Back")
        self.back_action.setShortcut(QKeySequence("Alt+Left"))
        self.back_action.setToolTip("the settings tried before these (Alt+Left)")
        self.back_action.triggered.connect(self.back)
        self.forward_action = QAction("Forward to Later Settings", self)
        self.forward_action.setIconText("Forward")
        self.forward_action.setShortcut(QKeySequence("Alt+Right"))
        self.forward_action.setToolTip("the settings tried after these (Alt+Right)")
        self.forward_action.triggered.connect(self.forward)
        model.subscribe(ModelEvent.DOCUMENT, self.clear)
        model.subscribe(ModelEvent.RESULT, self._result)
        model.subscribe(ModelEvent.FAILED, self._failed)
        self._update_actions()

    def clear(self) -> None:
        """A new document starts a new history."""
        self.steps, self.index, self._pending = [], -1, None
        self._settle.stop()
        self._update_actions()

    def _result(self, result: ChunkResult) -> None:
        if result.generation == self.model.generation:
            self.record((result.request.entry_id, dict(result.request.options)))

    def _failed(self, failure: Failure) -> None:
        self.record((failure.entry_id, self.model.options))

    def record(self, setting: Setting) -> None:
        """A run of ``setting`` ended. It becomes a step once it has stood for
        ``settle_seconds`` (the values a drag passes through are not steps), or when
        Back or Forward leaves it; the step shown (Back and Forward's own runs) adds
        nothing."""
        if self.index >= 0 and _key(self.steps[self.index]) == _key(setting):
            self._pending = None
            self._settle.stop()
        else:
            self._pending = setting
            self._settle.start(round(self.settle_seconds * 1000))
            if not self.steps:  # the document's first setting is a step at once
                self.commit()
        self._update_actions()

    def commit(self) -> None:
        """The setting shown is a step: the steps ahead of the shown one go."""
        self._settle.stop()
        if self._pending is None:
            return
        del self.steps[self.index + 1 :]
        self.steps.append(self._pending)
        del self.steps[:-MAX_STEPS]
        self.index = len(self.steps) - 1
        self._pending = None
        self._update_actions()

    def back(self) -> None:
        self._walk(-1)

    def forward(self) -> None:
        self._walk(1)

    def _walk(self, step: int) -> None:
        self.commit()
        index = self.index + step
        if not 0 <= index < len(self.steps):
            return
        self.index = index
        entry_id, options = self.steps[index]
        self._update_actions()
        self._apply(entry_id, dict(options))

    def _update_actions(self) -> None:
        ahead = self.index + (self._pending is not None)
        self.back_action.setEnabled(ahead > 0)
        self.forward_action.setEnabled(self._pending is None and ahead < len(self.steps) - 1)
