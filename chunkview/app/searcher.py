"""Search hits found on the UI thread in slices of a few milliseconds, latest query wins.

Each query or new layout starts a ``HitSearch``; a zero-delay timer runs one slice per
event-loop turn, so paints and keystrokes go between slices, and a new query simply
replaces the running search (the old one is dropped: that is its cancellation).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from chunkview.core.analysis.search import HitSearch, SearchHit
from chunkview.core.session import InspectorModel, ModelEvent

#: the time one slice may take on the UI thread, seconds
SLICE = 0.008


class SliceSearch(QObject):
    #: a new search began (the hits shown so far are void): (query,)
    started = Signal(str)
    #: hits found by one slice: (list[SearchHit],)
    found = Signal(list)
    #: the search is complete: (number of hits,)
    finished = Signal(int)

    def __init__(self, model: InspectorModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.search: HitSearch | None = None
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._slice)
        model.subscribe(ModelEvent.QUERY, lambda _query: self.restart())
        model.subscribe(ModelEvent.RESULT, lambda _result: self.restart())

    @property
    def hits(self) -> list[SearchHit]:
        return self.search.hits if self.search is not None else []

    @property
    def running(self) -> bool:
        return self._timer.isActive()

    def restart(self) -> None:
        """Search the shown layout for the model's query, dropping any search under way."""
        result, query = self.model.result, self.model.query
        self.search = HitSearch(result.layout, query) if result is not None else None
        self.started.emit(query)
        self._slice()

    def finish(self) -> list[SearchHit]:
        """Search the rest at once (for a user waiting on the answer); all the hits."""
        if self.search is not None and not self.search.done:
            self._timer.stop()
            found = self.search.step()
            if found:
                self.found.emit(found)
            self.finished.emit(len(self.search.hits))
        return self.hits

    def _slice(self) -> None:
        search = self.search
        if search is None or search.done:
            self.finished.emit(len(self.hits))
            return
        found = search.step(SLICE)
        if found:
            self.found.emit(found)
        if search.done:
            self.finished.emit(len(search.hits))
        else:
            self._timer.start()
