"""One long-lived worker thread that owns the chunking process, latest wins.

No chunker runs in the app's process: the worker thread hands each request to a
``ChunkService`` (core/service/), whose process holds the document and builds the
layout, and blocks on its answer, so the UI thread never waits on a pipe. ``submit``
stores the request as the pending one (replacing any older pending request), supersedes
the running job (the service cancels it, or kills its process when it does not stop at
once) and wakes the worker with a queued signal. A job past its time or memory budget is
stopped by the service's watchdog and reported in words through ``failed``; the window
keeps the last good layout. Quitting kills the process; it never waits on it.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QSettings, QThread, Signal, Slot

from chunkview.core.errors import Cancelled, ChunkerError
from chunkview.core.runtime import DEFAULT_TIMEOUT, ChunkService, Stopped
from chunkview.core.runtime.gcpause import paused_gc
from chunkview.core.runtime.limits import (
    check_max_memory,
    check_timeout,
    stored_max_memory,
    stored_timeout,
)
from chunkview.core.runtime.pipeline import ChunkRequest, ChunkResult

log = logging.getLogger(__name__)

#: how long quitting waits for the worker thread to leave its slot, ms
QUIT_WAIT_MS = 400


def chunking_budgets(settings: QSettings, notes: list[str] | None = None) -> dict[str, Any]:
    """The watchdog's budgets from the settings ``chunking/timeout`` (seconds) and
    ``chunking/maxMemory`` (``2G``, ``512M``), checked as every budget is (core
    ``check_timeout``, ``check_max_memory``): the defaults where unset, and where a stored
    value is bad (nan, inf, 0, negative, out of range) the default with a note, logged
    and appended to ``notes`` for the window to show."""
    timeout, timeout_note = stored_timeout(settings.value("chunking/timeout"))
    memory, memory_note = stored_max_memory(settings.value("chunking/maxMemory"))
    for note in (timeout_note, memory_note):
        if note is not None:
            log.warning("chunkview settings: %s", note)
            if notes is not None:
                notes.append(note)
    return {"timeout": timeout, "max_memory": memory}


class _Worker(QObject):
    finished = Signal(object)  # ChunkResult
    #: generation, error name, message, position, traceback, and why the watchdog stopped
    #: the run (a StopReason; None: it was not stopped)
    failed = Signal(int, str, str, object, object, object)
    progress = Signal(int, int, int)  # generation, done, total
    tokens_ready = Signal(int, object)  # generation, list[int]
    details_ready = Signal(int, object)  # generation, LayoutDetails
    started = Signal(int)
    chunkers_described = Signal(str, object)  # path, plugins.described.FileChunkers
    chunkers_failed = Signal(str, object)  # path, ChunkerError

    def __init__(self, service: ChunkService) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._pending: ChunkRequest | None = None
        self._busy = False
        self._last_result: ChunkResult | None = None
        self.service = service
        #: send layouts without their details, which ``fetch_details`` brings after
        self.details_later = False
        #: what the chunks' tokens are counted by: cl100k, or a tokenizer file's path
        self.token_counter = "cl100k"

    def offer(self, request: ChunkRequest) -> None:
        """Called from the UI thread: make ``request`` the next job, supersede the current."""
        with self._lock:
            self._pending = request
            if self._busy:
                self.service.interrupt()

    def _take(self) -> ChunkRequest | None:
        with self._lock:
            request, self._pending = self._pending, None
            if request is not None:
                self._busy = True
                self.service.reset_interrupt()  # under the lock: a later offer still counts
            return request

    def _claim_when_idle(self) -> bool:
        """Take the worker for a follow-up job (details, token counts) unless a newer
        request waits: that one goes first and makes this job moot."""
        with self._lock:
            if self._pending is not None:
                return False
            self._busy = True
            self.service.reset_interrupt()
        return True

    def _done(self) -> None:
        with self._lock:
            self._busy = False

    @Slot()
    def start_process(self) -> None:
        """Start the chunking process ahead of the first request."""
        try:
            self.service.start()
        except (Cancelled, OSError):
            pass

    @Slot()
    def work(self) -> None:
        request = self._take()
        if request is None:
            return  # an earlier wake already took it
        generation = request.generation
        self.started.emit(generation)
        try:
            # with ``details_later`` the layout comes first and its warnings, size
            # statistics and reasons when asked (``fetch_details``): the structure checks
            # are not between a change and its paint. The collector is held off while the
            # layout arrives: its tens of thousands of new objects would start full
            # passes over the whole app's heap
            with paused_gc():
                result = self.service.run(
                    request,
                    on_progress=lambda done, total: self.progress.emit(generation, done, total),
                    details_later=self.details_later,
                )
                # the lookup tables made here, not on the UI thread; the spans stay unbuilt
                # until a view reads one (a paint reads the visible few)
                result.layout.prepare()
            result.stamps["prepared"] = time.perf_counter()
            self._last_result = result
            self.finished.emit(result)
        except Cancelled:
            pass
        except ChunkerError as error:
            stop = error.reason if isinstance(error, Stopped) else None
            self.failed.emit(
                request.generation,
                error.name,
                error.message,
                error.position,
                error.traceback,
                stop,
            )
            if isinstance(error, Stopped):
                self.start_process()  # ready for the next change at once
        except Exception as error:  # the pipe or a result that did not cross: say so
            self.failed.emit(request.generation, type(error).__name__, str(error), None, None, None)
        finally:
            self._done()

    @Slot(object)
    def call(self, call: tuple) -> None:
        """Run ``function(*args)`` in the chunking process, in turn with the jobs."""
        function, args = call
        try:
            self.service.call(function, *args)
        except (Cancelled, ChunkerError):
            pass

    @Slot(str)
    def describe_chunkers(self, path: str) -> None:
        """Load the chunker file at ``path`` in the chunking process, in turn with the
        jobs: its entries' schemas (``chunkers_described``), or why it did not load
        (``chunkers_failed``). Not superseded by a newer chunk request."""
        with self._lock:
            self.service.reset_interrupt()  # no job runs: an earlier interrupt is moot
        try:
            described = self.service.describe_file(path)
        except Cancelled:
            self.chunkers_failed.emit(path, ChunkerError("Cancelled", "the app is closing"))
        except ChunkerError as error:
            self.chunkers_failed.emit(path, error)
            if isinstance(error, Stopped):
                self.start_process()
        except Exception as error:  # the pipe or a reply that did not cross: say so
            self.chunkers_failed.emit(path, ChunkerError(type(error).__name__, str(error)))
        else:
            self.chunkers_described.emit(path, described)

    @Slot(int)
    def fetch_details(self, generation: int) -> None:
        """The warnings, size statistics and reasons of the result the window has painted,
        unless newer work waits (a new request cancels them like any job)."""
        result = self._last_result
        if result is None or result.generation != generation or result.layout.complete:
            return
        if not self._claim_when_idle():
            return
        try:
            details = self.service.details(result.layout)
            if details is not None:
                self.details_ready.emit(generation, details)
        except Cancelled:
            pass
        except ChunkerError as error:  # the layout stays shown; say why its details are not
            self.failed.emit(generation, error.name, error.message, error.position, None, None)
        finally:
            self._done()

    @Slot(int)
    def count_tokens(self, generation: int) -> None:
        """Token counts for the result the window has painted, unless newer work waits
        (asked for after painting, so counting never competes with the paint)."""
        result = self._last_result
        if result is None or result.generation != generation:
            return
        if not self._claim_when_idle():
            return
        try:
            tokens = result.tokens or self.service.tokens(result.layout, self.token_counter)
            if tokens is not None:
                self.tokens_ready.emit(generation, tokens)
        except Cancelled:
            pass
        except Exception as error:  # counts are extra; never take the app down for them
            self.failed.emit(generation, "TokenCountError", str(error), None, None, None)
        finally:
            self._done()


class ChunkWorker(QObject):
    """The UI's handle on the worker thread and its chunking process."""

    finished = Signal(object)
    failed = Signal(int, str, str, object, object, object)  # as _Worker.failed
    progress = Signal(int, int, int)
    tokens_ready = Signal(int, object)
    details_ready = Signal(int, object)
    started = Signal(int)
    #: a chunker file's entries, described by the chunking process (``describe_chunkers``)
    chunkers_described = Signal(str, object)
    chunkers_failed = Signal(str, object)
    _wake = Signal()
    _count = Signal(int)
    _details = Signal(int)
    _start_process = Signal()
    _call = Signal(object)
    _describe = Signal(str)

    def __init__(
        self,
        parent: QObject | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        max_memory: int | None = None,
        details_later: bool = False,
    ) -> None:
        """``details_later``: results come without their warnings, size statistics and
        reasons; ``request_details`` asks for them (``details_ready``) once painted."""
        super().__init__(parent)
        self.service = ChunkService(timeout=timeout, max_memory=max_memory)
        self._thread = QThread()
        self._thread.setObjectName("chunkview-worker")
        self._worker = _Worker(self.service)
        self._worker.details_later = details_later
        self._worker.moveToThread(self._thread)
        self._wake.connect(self._worker.work)
        self._count.connect(self._worker.count_tokens)
        self._details.connect(self._worker.fetch_details)
        self._start_process.connect(self._worker.start_process)
        self._call.connect(self._worker.call)
        self._describe.connect(self._worker.describe_chunkers)
        for name in (
            "finished",
            "failed",
            "progress",
            "tokens_ready",
            "details_ready",
            "started",
            "chunkers_described",
            "chunkers_failed",
        ):
            getattr(self._worker, name).connect(getattr(self, name))
        self._thread.start()
        self._start_process.emit()
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.stop)

    def submit(self, request: ChunkRequest) -> None:
        self._worker.offer(request)
        self._wake.emit()

    def request_tokens(self, generation: int) -> None:
        self._count.emit(generation)

    def request_details(self, generation: int) -> None:
        self._details.emit(generation)

    def call_in_process(self, function: Any, *args: Any) -> None:
        """Run ``function(*args)`` (importable by name) in the chunking process before
        the next job: set-up such as a test's stand-in for a port."""
        self._call.emit((function, args))

    def describe_chunkers(self, path: str) -> None:
        """Ask the chunking process for the entries of the chunker file at ``path``; the
        answer comes as ``chunkers_described`` or ``chunkers_failed``."""
        self._describe.emit(path)

    def set_token_counter(self, tokenizer: str) -> None:
        """Count the chunks' tokens by ``tokenizer`` (cl100k, or a tokenizer file's path,
        read in the chunking process) from the next count on."""
        self._worker.token_counter = tokenizer

    def set_budgets(self, timeout: float | None = None, max_memory: int | None = None) -> None:
        """Change the watchdog's budgets for the next jobs (None: leave it); BudgetError
        for a bad one (core ``check_timeout``, ``check_max_memory``)."""
        if timeout is not None:
            self.service.timeout = check_timeout(timeout)
        if max_memory is not None:
            self.service.max_memory = check_max_memory(max_memory)

    def stop(self) -> None:
        """Kill the chunking process, drop what waits and end the thread (idempotent; it
        never waits on the process, and on the thread at most QUIT_WAIT_MS)."""
        with self._worker._lock:
            self._worker._pending = None
        self.service.close()
        if self._thread.isRunning():
            self._thread.quit()
            self._thread.wait(QUIT_WAIT_MS)


__all__ = ["ChunkResult", "ChunkWorker", "chunking_budgets"]
