"""``ChunkService``: one chunking process and the watchdog over its jobs."""

from __future__ import annotations

import itertools
import json
import math
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from typing import Any, Literal, overload

from chunkview.core import registry
from chunkview.core.analysis.search import SearchHit
from chunkview.core.errors import Cancelled, ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Layout, LayoutDetails
from chunkview.core.plugins.described import FileChunkers
from chunkview.core.runtime.child import child_main, send_document
from chunkview.core.runtime.limits import (
    DEFAULT_TIMEOUT,
    Stopped,
    check_max_memory,
    check_timeout,
    death_words,
    default_max_memory,
    format_bytes,
    oom_kill_count,
    resident_bytes,
)
from chunkview.core.runtime.messages import (
    CallRequest,
    ChunkSpec,
    DescribeFileRequest,
    DetailsRequest,
    JobCancelled,
    JobDone,
    JobFailed,
    JobProgress,
    Output,
    PackedResult,
    Request,
    TokensRequest,
)
from chunkview.core.runtime.packed import PackedDetails
from chunkview.core.runtime.pipeline import ChunkRequest, ChunkResult
from chunkview.core.runtime.start import CancelFlag, process_context, start_without_main
from chunkview.core.runtime.top_level import ALARM_SHARE
from chunkview.core.text.offsets import EditorOffsets

CANCEL_GRACE = 0.25
#: how often the watchdog reads the child's resident set while it waits, seconds
SAMPLE_EVERY = 0.05


def describe_options(entry_id: str, options: Mapping[str, Any], limit: int = 6) -> str:
    """``agentos.ChunkingEngine with strategy fixed, chunkSize 1, chunkOverlap 64``: the
    entry and the options that decide the chunks (sizes first, then what differs from the
    defaults, with the defaults a size relies on)."""
    # a function id is not loaded for its options' names: its file's code runs in the
    # chunking process only
    entry = registry.registered(entry_id)
    params = list(entry.params) if entry is not None else []
    values = {**{p.name: p.default for p in params}, **options}
    shown: dict[str, Any] = {}
    for p in params:  # the strategy first, then the sizes, then what the caller changed
        if p.kind == "choice" and p.applies(values):
            shown[p.name] = values[p.name]
    for p in params:
        given = p.name in options and options[p.name] is not None
        if p.role is not None and p.applies(values):
            shown[p.name] = values[p.name]
        elif given and options[p.name] != p.default:
            shown[p.name] = options[p.name]
    for name, value in options.items():
        if name not in shown and not any(p.name == name for p in params):
            shown[name] = value
    parts = [f"{k} {json.dumps(v, default=str)}" for k, v in list(shown.items())[:limit]]
    return f"{entry_id} with {', '.join(parts)}" if parts else entry_id


@contextmanager
def _reading(conn: Connection) -> Iterator[None]:
    """Reading the process's pipe: its end (the process died or was killed) is no error
    here, nor a read cut short by ``close`` from another thread (the window closing while
    the worker thread waits for a reply): the connection was closed under it."""
    try:
        yield
    except (EOFError, OSError):
        pass
    except (TypeError, ValueError):  # multiprocessing reading a handle set to None
        if not conn.closed:
            raise


@dataclass
class _Running:
    job: int
    began: float
    deadline: float
    what: str  # for the watchdog's message
    on_progress: Callable[[int, int], None] | None = None
    budget: float | None = None


class ChunkService:
    """One chunking process and its watchdog. Not thread-safe except ``interrupt`` and
    ``close``, which another thread may call while ``run`` waits."""

    def __init__(
        self,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        max_memory: int | None = None,
        context: Any = None,
    ) -> None:
        #: budgets are checked (check_timeout, check_max_memory): BudgetError when bad
        self.timeout = timeout
        self.max_memory = max_memory  # type: ignore[assignment]  # None: the default
        self._context = context or process_context()
        self._process: Any = None
        self._conn: Connection | None = None
        self._cancel: Any = None
        self._document: Document | None = None  # what the child holds
        self._jobs = itertools.count(1)
        self._running: _Running | None = None
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._interrupted = threading.Event()
        self._closed = False
        self._lock = threading.Lock()
        self._starting: threading.Event | None = None
        #: how long the last job that ended took (the grace of a superseded job)
        self._last_seconds = 0.0
        self._start_error: Exception | None = None
        #: how many times the process was started (restarts after kills count), and how
        #: many times a document was sent to it
        self.starts = 0
        self.documents_sent = 0
        #: the kernel's out-of-memory kill count when the running job was sent
        self._oom_kills = 0

    # -- lifetime

    @property
    def timeout(self) -> float | None:
        """The time budget per job in seconds; None: no time budget (only Python
        callers can ask for that: nan, inf, 0 or a negative one is a BudgetError)."""
        return self._timeout

    @timeout.setter
    def timeout(self, seconds: float | None) -> None:
        self._timeout = None if seconds is None else check_timeout(seconds)

    @property
    def max_memory(self) -> int:
        """The memory budget of the chunking process in bytes."""
        return self._max_memory

    @max_memory.setter
    def max_memory(self, size: int | None) -> None:
        self._max_memory = default_max_memory() if size is None else check_max_memory(size)

    def start(self) -> None:
        """Start the process now (otherwise the first job does). The start itself runs
        on a helper thread (the first one waits for the forkserver to come up), so that
        ``close`` from another thread ends this wait at once."""
        with self._lock:
            if self._closed:
                raise Cancelled()
            if self._process is not None:
                return
            # a fork is instant, and best made by the caller with no other thread about
            forking = created = False
            if self._starting is None:
                self._starting, self._start_error = threading.Event(), None
                forking = self._context.get_start_method() == "fork"
                created = True
                if not forking:
                    threading.Thread(
                        target=self._spawn, args=(self._starting,), daemon=True
                    ).start()
            starting = self._starting
        if forking and created:
            self._spawn(starting)
        while not starting.wait(SAMPLE_EVERY):
            if self._closed:
                raise Cancelled()
        if self._closed:
            raise Cancelled()
        if self._process is None:
            raise Stopped("crash", f"the chunking process did not start: {self._start_error}")

    def _spawn(self, done: threading.Event) -> None:
        process = parent = None
        try:
            parent, child = self._context.Pipe()
            cancel = CancelFlag(self._context)
            process = self._context.Process(
                target=child_main, args=(child, cancel), name="chunkview-chunking"
            )
            process.daemon = True
            start_without_main(process)
            child.close()
        except Exception as error:  # reported by ``start``
            self._start_error = error
            process = None
        with self._lock:
            self._starting = None
            if process is not None and self._closed:
                process.kill()
            elif process is not None:
                self._process, self._conn, self._document = process, parent, None
                self._cancel = cancel
                self.starts += 1
        done.set()

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def _kill(self) -> None:
        """Kill the process at once (no waiting on it); the next job starts a new one."""
        with self._lock:
            process, conn = self._process, self._conn
            self._process = self._conn = None
            self._document = None
        if process is not None:
            try:
                process.kill()
            except (OSError, ValueError, AttributeError):
                pass
            # no join: multiprocessing reaps it when the next process starts

        if conn is not None:
            conn.close()

    def close(self) -> None:
        """Kill the process and refuse further jobs (any thread; returns at once)."""
        self._closed = True
        self.interrupt()
        self._kill()

    def __enter__(self) -> ChunkService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
        self._close_wake_pipe()

    def _close_wake_pipe(self) -> None:
        fds, self._wake_r, self._wake_w = (self._wake_r, self._wake_w), -1, -1
        for fd in fds:
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass

    def __del__(self) -> None:  # a service dropped without ``with`` keeps no descriptors
        try:
            self._kill()
            self._close_wake_pipe()
        except Exception:
            pass

    # -- latest wins
    def interrupt(self) -> None:
        """Supersede the job that runs (any thread): it ends with Cancelled quickly."""
        self._interrupted.set()
        try:
            if self._wake_w >= 0:
                os.write(self._wake_w, b"!")
        except OSError:
            pass

    def reset_interrupt(self) -> None:
        """Forget earlier interrupts (call before taking the next request)."""
        self._interrupted.clear()
        try:
            while os.read(self._wake_r, 512):
                pass
        except (BlockingIOError, OSError):
            pass

    # -- jobs
    @overload
    def run(
        self,
        request: ChunkRequest,
        on_progress: Callable[[int, int], None] | None = ...,
        output: Literal["layout"] = ...,
        details_later: bool = ...,
    ) -> ChunkResult: ...

    @overload
    def run(
        self,
        request: ChunkRequest,
        on_progress: Callable[[int, int], None] | None = ...,
        *,
        output: Literal["native", "spans"],
        details_later: bool = ...,
    ) -> str: ...

    def run(
        self,
        request: ChunkRequest,
        on_progress: Callable[[int, int], None] | None = None,
        output: Output = "layout",
        details_later: bool = False,
    ) -> ChunkResult | str:
        """Chunk ``request`` (a ChunkRequest) in the process.

        ``output="layout"``: a ChunkResult with the layout unpacked lazily (``native`` is
        None); ``native`` / ``spans``: the JSON text of the library's result / the layout.
        Raises ChunkerError (the port's), Stopped (the watchdog's), Cancelled (superseded).
        """
        have_layout = self._last_layout[0] if self._last_layout else 0
        spec = ChunkSpec.of(request, output, have_layout, details_later)
        what = describe_options(request.entry_id, request.options)
        sent = time.perf_counter()
        answer = self._job(spec, what, on_progress, document=request.document)
        replied = time.perf_counter()
        if output != "layout":
            return answer  # JSON text
        assert isinstance(answer, PackedResult)
        if answer.packed is None:  # the chunks we hold: only the search changed
            assert self._last_layout is not None
            layout = self._last_layout[1]
        else:
            layout = answer.packed.unpack(request.document)
            self._last_layout = (answer.layout_id, layout)
            self._last_what = what
        offsets = self._editor_offsets(layout.document)
        stamps = answer.stamps
        stamps.update(sent=sent, replied=replied, unpacked=time.perf_counter())
        return ChunkResult(
            request=request,
            native=None,
            layout=layout,
            offsets=offsets,
            seconds=answer.seconds,
            hits=[SearchHit(chunk, at, snippet) for chunk, at, snippet in answer.hits],
            stamps=stamps,
        )

    def tokens(self, layout: Layout | None = None, tokenizer: str = "cl100k") -> list[int] | None:
        """Token counts of every chunk of the last layout (or of ``layout``, when it is
        the last one; None otherwise), counted in the process by ``tokenizer`` (cl100k,
        or a tokenizer file's path, read there)."""
        if self._last_layout is None or (layout is not None and layout is not self._last_layout[1]):
            return None
        what = f"counting the tokens of {self._last_what}"
        return self._job(TokensRequest(self._last_layout[0], tokenizer), what, None)

    def details(self, layout: Layout | None = None) -> LayoutDetails | None:
        """The warnings and size statistics of the last layout (or of ``layout``, when it
        is the last one; None otherwise), when it was sent without them
        (``run(details_later=True)``)."""
        if self._last_layout is None or (layout is not None and layout is not self._last_layout[1]):
            return None
        what = f"checking the chunks of {self._last_what}"
        packed: PackedDetails | None = self._job(DetailsRequest(self._last_layout[0]), what, None)
        return None if packed is None else packed.unpack()

    def call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``function(*args, **kwargs)`` in the process, under the watchdog (the function
        must be importable by name, its arguments and result picklable)."""
        name = getattr(function, "__qualname__", repr(function))
        return self._job(CallRequest(function, args, kwargs), name, None)

    def call_as(self, label: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``call``, with ``label`` naming the job in the watchdog's messages (the entry
        and its options, as ``describe_options`` writes them)."""
        return self._job(CallRequest(function, args, kwargs), label, None)

    def describe_file(self, path: str) -> FileChunkers:
        """The entries of the chunker file at ``path``, loaded in the process (its
        top-level code never runs in the caller's): ChunkerError naming the file and line
        where it raises, exits or runs out of time (an alarm in the process at
        ``ALARM_SHARE`` of the budget), Stopped where it ends the process past that."""
        seconds = self.timeout * ALARM_SHARE if self.timeout else None
        what = f"the top-level code of {os.path.basename(path)}"
        return self._job(DescribeFileRequest(path, seconds), what, None)

    _last_layout: tuple[int, Layout] | None = None
    _last_what = "the last chunks"  # the entry and options that made _last_layout
    _offsets: tuple[str, Any] | None = None

    def _editor_offsets(self, shown: Document) -> Any:
        if self._offsets is None or self._offsets[0] is not shown.text:
            self._offsets = (shown.text, EditorOffsets(shown.text))
        return self._offsets[1]

    def _job(
        self,
        message: Request,
        what: str,
        on_progress: Callable[[int, int], None] | None,
        document: Document | None = None,
    ) -> Any:
        self.begin(message, what, on_progress, document)
        while True:
            try:
                ready = wait(self._waitables(), timeout=self._wait_time())
                if self._interrupted.is_set() or self._closed:
                    self._supersede()
                done, value = self.step(ready)
            except (OSError, ValueError):  # closed under us by ``close``
                if self._closed:
                    raise Cancelled() from None
                raise
            if done:
                return value

    def begin(
        self,
        message: Request,
        what: str,
        on_progress: Callable[[int, int], None] | None = None,
        document: Document | None = None,
        timeout: float | None = None,
    ) -> int:
        """Send one job (the pool's way in; ``run`` and ``call`` wait on it themselves).
        ``timeout`` replaces the service's budget for this job."""
        if self._closed or (
            self._interrupted.is_set()
            and not isinstance(message, (CallRequest, DescribeFileRequest))
        ):
            raise Cancelled()
        if self._process is not None and not self._process.is_alive():
            self._kill()  # it died while idle (killed, or ended): a new one, silently
        job = next(self._jobs)
        try:
            self._send(message, job, document)
        except (BrokenPipeError, OSError):
            # the process died as the job was sent, before it could have started it: once
            # more on a new one (a process that dies at once again is reported)
            self._kill()
            try:
                self._send(message, job, document)
            except (BrokenPipeError, OSError):
                self._kill()
                raise Stopped(
                    "crash", f"the chunking process ended as the job was sent: {what}"
                ) from None
        self._oom_kills = oom_kill_count()
        now = time.monotonic()
        budget = check_timeout(timeout) if timeout is not None else self.timeout
        deadline = now + budget if budget else math.inf
        self._running = _Running(job, now, deadline, what, on_progress, budget)
        return job

    def _send(self, message: Request, job: int, document: Document | None) -> None:
        """Send job ``job`` (and ``document``, when the process lacks it), starting the
        process when there is none."""
        if self._process is None:
            self.start()
        assert self._conn is not None
        try:
            self._cancel.clear()
            if document is not None and not (
                self._document is document or self._document == document
            ):
                send_document(self._conn, document)
                self._document = document
                self.documents_sent += 1
            self._conn.send(replace(message, job=job))
        except (BrokenPipeError, OSError):
            raise
        except BaseException:
            # stopped half-way through a message (an interrupt, out of memory): the rest of
            # it would never come, and the process would read the next one as its rest
            self._kill()
            raise

    def _waitables(self) -> list:
        items: list = [self._wake_r] if self._wake_r >= 0 else []
        if self._conn is not None:
            items.append(self._conn)
        if self._process is not None:
            items.append(self._process.sentinel)
        return items

    def _wait_time(self) -> float:
        running = self._running
        if running is None:
            return SAMPLE_EVERY
        return max(0.0, min(SAMPLE_EVERY, running.deadline - time.monotonic()))

    def step(self, ready: Sequence[Any]) -> tuple[bool, Any]:
        """Handle what ``wait`` found ready and check the budgets: (True, value) when the
        running job is over; raises its error or Stopped."""
        running = self._running
        assert running is not None
        conn = self._conn
        if conn is not None and (conn in ready or conn.poll()):
            with _reading(conn):  # the process died: the sentinel says how
                while conn.poll():
                    reply = conn.recv()
                    if reply.job != running.job:
                        continue  # a late reply of a superseded job
                    if isinstance(reply, JobProgress):
                        if running.on_progress is not None:
                            running.on_progress(reply.done, reply.total)
                        continue
                    self._running = None
                    if isinstance(reply, JobDone):
                        self._last_seconds = time.monotonic() - running.began
                        return True, reply.value
                    if isinstance(reply, JobCancelled):
                        raise Cancelled()
                    assert isinstance(reply, JobFailed)
                    error = ChunkerError(reply.name, reply.message, reply.position)
                    error.traceback = reply.traceback
                    raise error
        process = self._process
        if process is None or not process.is_alive():
            code = None if process is None else process.exitcode
            self._running = None
            self._kill()
            if self._closed:
                raise Cancelled()
            out_of_memory = oom_kill_count() > self._oom_kills
            raise Stopped("crash", f"{death_words(code, out_of_memory)}: {running.what}")
        now = time.monotonic()
        if now >= running.deadline:
            self._running = None
            self._kill()
            raise Stopped(
                "time",
                f"stopped after {now - running.began:.3g} s: {running.what} did not finish "
                f"within the {running.budget:g} s budget: with these settings the original "
                "may never return, or this document needs a larger budget",
            )
        rss = resident_bytes(process.pid)
        if rss > self.max_memory:
            self._running = None
            self._kill()
            raise Stopped(
                "memory",
                f"stopped at {format_bytes(rss)}: {running.what} went past the "
                f"{format_bytes(self.max_memory)} memory budget after "
                f"{now - running.began:.3g} s",
            )
        return False, None

    def _supersede(self) -> None:
        """Cancel the running job: at once where the process can be signalled, else
        cooperatively if it notices (or ends) within the grace time; failing both, by
        killing the process.

        The grace is CANCEL_GRACE, or longer when the last job took longer: a port that
        never checks for cancellation is then usually about to finish, and a killed
        process costs more than the wait (the document crosses again and its caches are
        rebuilt). It never runs past the job's budget; ``close`` ends it at once."""
        running = self._running
        self._running = None
        if running is None or self._process is None or self._closed:
            self._kill()
            raise Cancelled()
        self._cancel.set()
        if hasattr(signal, "SIGUSR1"):  # stops a port that never checks (child._stop_on_signal)
            try:
                os.kill(self._process.pid, signal.SIGUSR1)
            except OSError:
                pass  # it has just ended
        now = time.monotonic()
        expected_end = running.began + 1.5 * self._last_seconds
        deadline = min(max(now + CANCEL_GRACE, expected_end), running.deadline)
        conn = self._conn
        if conn is not None:
            with _reading(conn):
                while (left := deadline - time.monotonic()) > 0:
                    if not conn.poll(left):
                        break
                    reply = conn.recv()
                    if reply.job == running.job and not isinstance(reply, JobProgress):
                        raise Cancelled()  # the process is free again
        self._kill()
        raise Cancelled()

    @property
    def busy(self) -> bool:
        return self._running is not None
