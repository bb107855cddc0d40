"""One long-lived worker thread that runs chunking requests, latest wins.

``submit`` stores the request as the pending one (replacing any older pending request),
cancels the running job cooperatively and wakes the worker with a queued signal; the
worker takes whatever is pending when it gets to it. Results carry the generation of
their request, and the window drops any older than what it shows. No polling anywhere.
"""

from __future__ import annotations

import threading
import traceback

from PySide6.QtCore import QCoreApplication, QObject, QThread, Signal, Slot

from chunkview.core.entry import RunContext
from chunkview.core.errors import Cancelled, ChunkerError
from chunkview.core.offsets import EditorOffsets
from chunkview.core.pipeline import ChunkRequest, ChunkResult, Pipeline


class _Worker(QObject):
    finished = Signal(object)  # ChunkResult
    failed = Signal(int, str, str, object)  # generation, error name, message, position
    progress = Signal(int, int, int)  # generation, done, total
    tokens_ready = Signal(int, object)  # generation, list[int]
    started = Signal(int)

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._pending: ChunkRequest | None = None
        self._running_ctx: RunContext | None = None
        self._pipeline = Pipeline()

    def _offsets(self, text: str) -> EditorOffsets:
        """The editor offsets of ``text`` (kept for the same text object)."""
        cached = getattr(self, "_last_offsets", None)
        if cached is None or cached[0] is not text:
            cached = self._last_offsets = (text, EditorOffsets(text))
        return cached[1]

    def offer(self, request: ChunkRequest) -> None:
        """Called from the UI thread: make ``request`` the next job, cancel the current."""
        with self._lock:
            self._pending = request
            if self._running_ctx is not None:
                self._running_ctx.cancel_event.set()

    @Slot()
    def work(self) -> None:
        with self._lock:
            request, self._pending = self._pending, None
            if request is None:
                return  # an earlier wake already took it
            ctx = RunContext(
                metadata=request.metadata,
                embedder=request.embedder,
                tokenizer=request.tokenizer,
                on_progress=lambda done, total, g=request.generation: self.progress.emit(
                    g, done, total
                ),
            )
            self._running_ctx = ctx
        self.started.emit(request.generation)
        try:
            result = self._pipeline.run(request, ctx)
            result.layout.prepare()  # lookup tables here, not on the UI thread
            if result.offsets is None:
                result.offsets = self._offsets(result.layout.document.text)
            self._last_result = result
            self.finished.emit(result)
        except Cancelled:
            pass
        except ChunkerError as error:
            self.failed.emit(request.generation, error.name, error.message, error.position)
        except Exception as error:  # a port's bug must not take the app down
            where = traceback.extract_tb(error.__traceback__)[-1]
            self.failed.emit(
                request.generation,
                type(error).__name__,
                f"{error} (in {where.name}, {where.filename.rsplit('/', 1)[-1]}:{where.lineno})",
                None,
            )
        finally:
            with self._lock:
                self._running_ctx = None

    @Slot(int)
    def count_tokens(self, generation: int) -> None:
        """Token counts for the result the window has painted, unless newer work waits
        (asked for after painting, so counting never competes with the paint)."""
        result = getattr(self, "_last_result", None)
        if result is None or result.generation != generation or self._superseded():
            return
        ctx = RunContext()
        with self._lock:
            self._running_ctx = ctx
        try:
            tokens = result.tokens or self._pipeline.tokens(result, ctx)
            self.tokens_ready.emit(generation, tokens)
        except Cancelled:
            pass
        except Exception as error:  # counts are extra; never take the app down for them
            self.failed.emit(generation, "TokenCountError", str(error), None)
        finally:
            with self._lock:
                self._running_ctx = None

    def _superseded(self) -> bool:
        with self._lock:
            return self._pending is not None


class ChunkWorker(QObject):
    """The UI's handle on the worker thread."""

    finished = Signal(object)
    failed = Signal(int, str, str, object)
    progress = Signal(int, int, int)
    tokens_ready = Signal(int, object)
    started = Signal(int)
    _wake = Signal()
    _count = Signal(int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread = QThread()
        self._thread.setObjectName("chunkview-worker")
        self._worker = _Worker()
        self._worker.moveToThread(self._thread)
        self._wake.connect(self._worker.work)
        self._count.connect(self._worker.count_tokens)
        for name in ("finished", "failed", "progress", "tokens_ready", "started"):
            getattr(self._worker, name).connect(getattr(self, name))
        self._thread.start()
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.stop)

    def submit(self, request: ChunkRequest) -> None:
        self._worker.offer(request)
        self._wake.emit()

    def request_tokens(self, generation: int) -> None:
        self._count.emit(generation)

    def stop(self) -> None:
        """Cancel what runs, drop what waits, and end the thread (idempotent)."""
        if not self._thread.isRunning():
            return
        with self._worker._lock:
            self._worker._pending = None
            if self._worker._running_ctx is not None:
                self._worker._running_ctx.cancel_event.set()
        self._thread.quit()
        self._thread.wait(5000)


__all__ = ["ChunkResult", "ChunkWorker"]
