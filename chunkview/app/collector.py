"""Python's cyclic garbage collection on the UI thread only, from a timer.

pyqtgraph's ``GarbageCollector`` does the same in as many lines; importing pyqtgraph for
it made every start-up load the plotting library (a third of a second) before the
window showed, where the plots are built only when their tab or dock is first seen.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QTimer


class UiThreadCollector:
    """Stops the automatic collection and collects from a timer on the thread that made
    this object, each generation when its count is over the automatic threshold; the
    timer runs while this object lives (the automatic collection stays off after)."""

    def __init__(self, interval: float = 1.0) -> None:
        self.threshold = gc.get_threshold()
        gc.disable()
        self.timer = QTimer()
        self.timer.timeout.connect(self.collect)
        self.timer.start(int(interval * 1000))

    def collect(self) -> None:
        young, middle, old = gc.get_count()
        if young > self.threshold[0]:
            gc.collect(0)
            if middle > self.threshold[1]:
                gc.collect(1)
                if old > self.threshold[2]:
                    gc.collect(2)
