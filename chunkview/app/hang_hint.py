"""After a Hang, or a run the watchdog stopped past its time budget, the option change
that would return, searched beside the UI.

``core.batch.hang_suggestion`` tries values of the options involved in chunking processes
of a small pool of its own, from a daemon thread; the answer reaches the UI thread by a
queued signal. A change of the options, the chunker or the text (the model's STALE)
cancels the search and kills its processes: the answer would be of settings gone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Signal

from chunkview.app.background import BackgroundJob
from chunkview.core.batch.hang_suggestion import TRY_BUDGET, HangSuggestion, suggest
from chunkview.core.model.document import Document
from chunkview.core.runtime import ChunkPool
from chunkview.core.session import Failure, InspectorModel, ModelEvent


def searched_after(failure: Failure) -> bool:
    """A failure the search is for: a Hang, or a run stopped past its time budget (as
    far as the window can tell, it hangs too)."""
    return failure.name == "Hang" or failure.stop == "time"


class HangHint(BackgroundJob):
    """Searches after each Hang (or timeout) of the newest run; ``found`` carries the
    generation that hung and the suggestion, ``started`` the generation searched for."""

    started = Signal(int)
    found = Signal(int, object)

    def __init__(self, model: InspectorModel) -> None:
        super().__init__()
        self.model = model
        #: the generation searched for now (None: no search running)
        self.searching: int | None = None
        #: the window's time budget a run (None: none set); a try takes the lesser of it
        #: and TRY_BUDGET
        self.time_budget: Callable[[], float | None] = lambda: None
        model.subscribe(ModelEvent.FAILED, self._failed)
        model.subscribe(ModelEvent.STALE, self.stop)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.stop)

    def _failed(self, failure: Failure) -> None:
        self.stop()
        if not searched_after(failure) or failure.entry_id != self.model.entry_id:
            return
        model = self.model
        entry = model.entry
        self.searching = failure.generation
        self.launch(
            self._run,
            failure.generation,
            failure.entry_id,
            model.document,
            dict(model.options),
            failure.message,
            model.embedder if entry.uses_embedder else None,
            model.tokenizer if entry.uses_tokenizer else None,
            min(TRY_BUDGET, self.time_budget() or TRY_BUDGET),
        )
        self.started.emit(failure.generation)

    def _run(
        self,
        generation: int,
        entry_id: str,
        document: Document,
        options: dict[str, Any],
        message: str,
        embedder: str | None,
        tokenizer: str | None,
        budget: float,
        cancel: threading.Event,
    ) -> None:
        mine: list[ChunkPool] = []  # this search's pool

        def hold(pool: ChunkPool | None) -> None:
            if pool is not None:
                mine.append(pool)
                if not self.hold_pool(pool, cancel):  # cancelled before it was there
                    pool.kill()
            elif mine:
                self.release_pool(mine[0])  # a newer search's pool stays held

        try:
            suggestion: HangSuggestion | None = suggest(
                entry_id,
                document,
                options,
                message,
                embedder=embedder,
                tokenizer=tokenizer,
                budget=budget,
                cancel=cancel,
                on_pool=hold,
            )
        except Exception:  # a pool that broke: no suggestion, the failure stands
            suggestion = None
        if not cancel.is_set():
            self.deliver(self.found, generation, suggestion)

    def stop(self) -> None:
        """Cancel the running search (any settings change): its processes end now."""
        self.cancel.set()
        self.searching = None
        self.kill_pools()
