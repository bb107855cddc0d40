"""Chunking processes the app can kill, a watchdog over them, and a pool for many jobs.

No chunker runs in the caller's process. ``ChunkService`` owns one child process (started
with forkserver or spawn, never a fork of a Qt process) that holds the current document
(sent once per document version; an option change sends only the request), runs the entry,
builds the Layout there and sends it back as compact arrays (``PackedLayout``). A watchdog
stops a job past its time budget or its memory budget (the child's resident set, read from
/proc), kills and restarts the process and says what happened in words. A new request
while one runs supersedes it: ``interrupt`` asks the child to cancel, and kills it when it
does not stop within a fraction of a second (a port stuck in C code cannot cancel).

``ChunkPool`` runs many jobs (sweeps, audits) on several such processes, each job under the
same watchdog, yielding one outcome per job.
"""

from __future__ import annotations

import itertools
import json
import math
import multiprocessing
import os
import sys
import threading
import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from chunkview.core.document import Document
from chunkview.core.errors import Cancelled, ChunkerError
from chunkview.core.explain import Reason
from chunkview.core.spans import LOCATED, Layout, SizeStats, Span, Warning

#: time budget of one job, seconds
DEFAULT_TIMEOUT = 10.0
#: memory budget of one chunking process, as a fraction of the machine's RAM
DEFAULT_MEMORY_FRACTION = 0.5
#: how long a superseded job may take to notice its cancellation before it is killed
CANCEL_GRACE = 0.25
#: how often the watchdog reads the child's resident set while it waits, seconds
SAMPLE_EVERY = 0.05
#: modules the forkserver imports once (the ports among them), so a new or restarted
#: process is ready in milliseconds
PRELOAD = (
    "chunkview.core.service",
    "chunkview.core.pipeline",
    "chunkview.core.registry",
    "chunkview.jsonout",
    "chunkview.core.process_warmup",
)


class Stopped(ChunkerError):
    """The watchdog stopped a job: ``reason`` is ``time``, ``memory`` or ``crash``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__("Stopped", message)
        self.reason = reason


# ----- budgets and process context -------------------------------------------------------


def machine_memory() -> int:
    """Total RAM in bytes (4 GiB when the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def default_max_memory() -> int:
    return int(machine_memory() * DEFAULT_MEMORY_FRACTION)


def parse_size(text: str) -> int:
    """``2G``, ``512M``, ``1.5g``, ``300000000`` -> bytes; ValueError saying what it takes."""
    units = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    raw = text.strip().upper().removesuffix("IB").removesuffix("B")
    number, unit = (raw[:-1], raw[-1]) if raw and raw[-1] in units else (raw, "")
    try:
        value = float(number) * units[unit]
    except ValueError:
        raise ValueError(f"a size such as 2G or 512M, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"a size above zero such as 2G or 512M, got {text!r}")
    return int(value)


def format_bytes(size: float) -> str:
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size:.0f} bytes"


_context_lock = threading.Lock()
_context: Any = None


def process_context() -> Any:
    """forkserver where the platform has it (restarts are then cheap), else spawn."""
    global _context
    with _context_lock:
        if _context is None:
            if "forkserver" in multiprocessing.get_all_start_methods():
                _context = multiprocessing.get_context("forkserver")
                _context.set_forkserver_preload(list(PRELOAD))
            else:
                _context = multiprocessing.get_context("spawn")
        return _context


def quick_context() -> Any:
    """fork for a plain single-threaded program such as the CLI (the child is ready at
    once, with everything the parent imported); the safe context anywhere else (threads,
    Qt: never fork those)."""
    if (
        "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and not any(name.startswith(("PySide6", "PyQt")) for name in sys.modules)
    ):
        return multiprocessing.get_context("fork")
    return process_context()


_main_lock = threading.Lock()


def _start_without_main(process: Any) -> None:
    """Start ``process`` without making it import the caller's main script again (as
    spawn and forkserver do): the chunking process needs only chunkview, and a script
    read from stdin, or one that imports Qt at the top, must not run in it."""
    from multiprocessing import spawn

    original = spawn.get_preparation_data

    def without_main(name: str) -> dict:
        data = original(name)
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
        return data

    with _main_lock:
        spawn.get_preparation_data = without_main
        try:
            process.start()
        finally:
            spawn.get_preparation_data = original


def _rss(pid: int) -> int:
    """Resident set of process ``pid`` in bytes (0 when unknown)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


# ----- the compact layout that crosses the process boundary ------------------------------


def _ints(values: Iterable[int]) -> array:
    return array("q", values)


@dataclass
class PackedLayout:
    """A Layout as flat arrays: no per-chunk Python objects cross the pipe.

    Span texts travel only where they differ from the slice of the shown text; spans are
    rebuilt on first access (``LazySpans``).
    """

    shown: Document | None  # None: the document of the request
    starts: array
    ends: array
    own_starts: array
    indexes: array | None  # None: span i has index i
    kinds: tuple[str, ...]
    kind_ids: array
    located_ids: array
    #: the texts that differ from their slice, joined: span i's is
    #: ``text_blob[text_starts[i]:text_ends[i]]`` when ``text_starts[i] >= 0`` (one
    #: string unpickles as one copy, thousands of them as thousands of objects)
    text_blob: str
    text_starts: array
    text_ends: array
    metadata: dict[int, dict]
    reported: dict[int, int]
    overlaps: array
    gaps: array
    warning_kinds: tuple[str, ...]
    warning_kind_ids: array
    warning_messages: list[str]
    warning_places: array  # start, end, chunk (-1: none) per warning
    chars: tuple
    bytes: tuple
    size_unit: str
    sizes: array
    #: span index -> why its boundary is there (plain named tuples), when asked
    reasons: dict[int, Reason] = field(default_factory=dict)

    @classmethod
    def pack(cls, layout: Layout, request_document: Document | None = None) -> PackedLayout:
        shown = layout.document
        text = shown.text
        spans = layout.spans
        kinds: dict[str, int] = {}
        metadata, reported = {}, {}
        pieces: list[str] = []
        text_starts = array("q", [-1]) * len(spans)
        text_ends = array("q", [-1]) * len(spans)
        offset = 0
        for i, span in enumerate(spans):
            if span.text != text[span.start : span.end]:
                pieces.append(span.text)
                text_starts[i] = offset
                offset += len(span.text)
                text_ends[i] = offset
            if span.metadata:
                metadata[i] = span.metadata
            if span.reported_start is not None:
                reported[i] = span.reported_start
            kinds.setdefault(span.kind, len(kinds))
        indexes = None
        if any(span.index != i for i, span in enumerate(spans)):
            indexes = _ints(s.index for s in spans)
        warning_kinds: dict[str, int] = {}
        for w in layout.warnings:
            warning_kinds.setdefault(w.kind, len(warning_kinds))
        same = request_document is not None and (
            shown is request_document or shown == request_document
        )
        return cls(
            shown=None if same else shown,
            starts=_ints(s.start for s in spans),
            ends=_ints(s.end for s in spans),
            own_starts=_ints(s.own_start for s in spans),
            indexes=indexes,
            kinds=tuple(kinds),
            kind_ids=array("I", (kinds[s.kind] for s in spans)),
            located_ids=array("B", (LOCATED.index(s.located) for s in spans)),
            text_blob="".join(pieces),
            text_starts=text_starts,
            text_ends=text_ends,
            metadata=metadata,
            reported=reported,
            overlaps=_ints(itertools.chain.from_iterable(layout.overlaps)),
            gaps=_ints(itertools.chain.from_iterable(layout.gaps)),
            warning_kinds=tuple(warning_kinds),
            warning_kind_ids=array("I", (warning_kinds[w.kind] for w in layout.warnings)),
            warning_messages=[w.message for w in layout.warnings],
            warning_places=_ints(
                itertools.chain.from_iterable(
                    (w.start, w.end, -1 if w.chunk is None else w.chunk) for w in layout.warnings
                )
            ),
            chars=tuple(vars(layout.chars).values()),
            bytes=tuple(vars(layout.bytes).values()),
            size_unit=layout.size_unit,
            sizes=_ints(layout.sizes),
            reasons={i: s.reason for i, s in enumerate(spans) if s.reason is not None},
        )

    def unpack(self, request_document: Document) -> Layout:
        document = self.shown if self.shown is not None else request_document
        pairs = lambda flat: list(zip(flat[0::2], flat[1::2]))  # noqa: E731
        places = self.warning_places
        warnings = [
            Warning(
                self.warning_kinds[kind],
                message,
                places[3 * i],
                places[3 * i + 1],
                None if places[3 * i + 2] < 0 else places[3 * i + 2],
            )
            for i, (kind, message) in enumerate(zip(self.warning_kind_ids, self.warning_messages))
        ]
        return Layout(
            document=document,
            spans=LazySpans(self, document.text),  # type: ignore[arg-type]
            overlaps=pairs(self.overlaps),
            gaps=pairs(self.gaps),
            warnings=warnings,
            chars=SizeStats(*self.chars),
            bytes=SizeStats(*self.bytes),
            size_unit=self.size_unit,
            sizes=list(self.sizes),
        )


class LazySpans(Sequence[Span]):
    """The spans of a PackedLayout, each built the first time it is read."""

    def __init__(self, packed: PackedLayout, text: str) -> None:
        self._packed = packed
        self._text = text
        self._built: list[Span | None] = [None] * len(packed.starts)

    def __len__(self) -> int:
        return len(self._built)

    def columns(self) -> tuple[Sequence[int], Sequence[int], Sequence[int], list[bool], list[str]]:
        """Starts, ends, own starts, placed or not, and the kinds in order of first
        appearance, without building a span (Layout.prepare indexes a layout with these)."""
        p = self._packed
        missing = LOCATED.index("missing")
        placed = [located != missing for located in p.located_ids]
        kinds = [p.kinds[k] for k in dict.fromkeys(p.kind_ids)]
        return p.starts, p.ends, p.own_starts, placed, kinds

    def _build(self, i: int) -> Span:
        p = self._packed
        start, end = p.starts[i], p.ends[i]
        at = p.text_starts[i]
        text = None if at < 0 else p.text_blob[at : p.text_ends[i]]
        span = Span(
            p.indexes[i] if p.indexes is not None else i,
            start,
            end,
            p.own_starts[i],
            p.kinds[p.kind_ids[i]],
            self._text[start:end] if text is None else text,
            LOCATED[p.located_ids[i]],
            p.metadata.get(i, {}),
            p.reported.get(i),
            p.reasons.get(i),
        )
        self._built[i] = span
        return span

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._built)))]
        span = self._built[i]
        return span if span is not None else self._build(i if i >= 0 else i + len(self))

    def __iter__(self) -> Iterator[Span]:
        for i, span in enumerate(self._built):
            yield span if span is not None else self._build(i)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LazySpans({len(self)} spans)"


# ----- the child process ----------------------------------------------------------------


@dataclass(frozen=True)
class ChunkSpec:
    """A chunking request without its document (the child holds that)."""

    entry_id: str
    options: dict[str, Any]
    query: str = ""
    embedder: str | None = None
    tokenizer: str | None = None
    metadata: Any = None
    #: what to send back: ``layout`` (packed), ``native`` (JSON text), ``spans`` (JSON text)
    output: str = "layout"
    #: the id of the layout the caller holds: sent again only when the chunks changed
    have_layout: int = 0
    #: record why each boundary is where it is (Span.reason)
    explain: bool = False


def _die_with_parent() -> None:
    """Linux: have the kernel kill this process when the forkserver that forked it ends
    (it ends with the app), so a hung port never outlives a crashed app."""
    # a forkserver child holds the write end of the pipe the forkserver watches to learn
    # that the app has ended: drop it, or a hung child keeps the forkserver alive
    try:
        from multiprocessing import forkserver
    except ImportError:  # no forkserver on this platform
        forkserver = None  # type: ignore[assignment]
    server = getattr(forkserver, "_forkserver", None)
    alive_fd = getattr(server, "_forkserver_alive_fd", None)
    if alive_fd is not None:
        try:
            os.close(alive_fd)
        except OSError:
            pass
        server._forkserver_alive_fd = None  # type: ignore[union-attr]
    # the signal follows the thread that forked us: only a forkserver's lives as long as
    # its process (a fork from the CLI comes from a short-lived starting thread)
    if alive_fd is None or not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        parent = os.getppid()
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent ended before the call took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


def _child_main(conn: Connection, cancel: Any) -> None:
    """The chunking process: documents, requests and calls in, results out."""
    _die_with_parent()
    from chunkview.core.entry import RunContext
    from chunkview.core.pipeline import ChunkRequest, Pipeline

    pipeline = Pipeline(editor_offsets=False)
    document: Document | None = None
    layout_id = 0  # the job whose run made the pipeline's last layout
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        kind, job = message[0], message[1]
        if kind == "document":
            document = message[2]
            continue

        last_sent = [0.0]

        def progress(done: int, total: int, job: int = job, last_sent: list = last_sent) -> None:
            now = time.monotonic()
            if now - last_sent[0] > 0.05 or done >= total:
                last_sent[0] = now
                conn.send(("progress", job, done, total))

        ctx = RunContext(cancel_event=cancel, on_progress=progress)
        try:
            if kind == "chunk":
                spec: ChunkSpec = message[2]
                ctx.metadata, ctx.embedder, ctx.tokenizer = (
                    spec.metadata,
                    spec.embedder,
                    spec.tokenizer,
                )
                assert document is not None, "no document was sent"
                request = ChunkRequest(
                    0,
                    spec.entry_id,
                    document,
                    spec.options,
                    spec.query,
                    spec.embedder,
                    spec.tokenizer,
                    spec.metadata,
                    explain=spec.explain,
                )
                if pipeline.last_key() != request.chunking_key():
                    layout_id = job
                result = pipeline.run(request, ctx)
                hits = [(h.chunk, h.at, h.snippet) for h in result.hits]
                if spec.output == "native":
                    from chunkview.jsonout import dumps

                    payload: Any = dumps(result.native)
                elif spec.output == "spans":
                    from chunkview.jsonout import dumps

                    payload = dumps(result.layout.to_json())
                else:
                    packed = (
                        None
                        if spec.have_layout == layout_id
                        else PackedLayout.pack(result.layout, document)
                    )
                    payload = (layout_id, packed, hits, result.seconds)
                reply: tuple = ("ok", job, payload)
            elif kind == "tokens":  # of the layout the caller holds, if still the last one
                last = pipeline.last_result()
                tokens = None
                if last is not None and message[2] == layout_id:
                    tokens = pipeline.tokens(last, ctx)
                reply = ("ok", job, tokens)
            elif kind == "call":
                function, args, kwargs = message[2]
                reply = ("ok", job, function(*args, **kwargs))
            else:
                reply = ("error", job, "ValueError", f"unknown message {kind!r}", None)
        except Cancelled:
            reply = ("cancelled", job)
        except ChunkerError as error:
            reply = ("error", job, error.name, error.message, error.position)
        except RecursionError as error:
            reply = ("error", job, "RecursionError", str(error), None)
        except MemoryError:
            reply = ("error", job, "MemoryError", "out of memory", None)
        except Exception as error:  # a port's bug is reported, the process lives on
            reply = ("error", job, type(error).__name__, _where(error), None)
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return
        except Exception as error:  # an unpicklable result
            conn.send(("error", job, type(error).__name__, str(error), None))


def _where(error: BaseException) -> str:
    import traceback

    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return str(error)
    where = frames[-1]
    return f"{error} (in {where.name}, {where.filename.rsplit('/', 1)[-1]}:{where.lineno})"


# ----- the parent side ------------------------------------------------------------------


def describe_options(entry_id: str, options: Mapping[str, Any], limit: int = 6) -> str:
    """``agentos.ChunkingEngine with strategy fixed, chunkSize 1, chunkOverlap 64``: the
    entry and the options that decide the chunks (sizes first, then what differs from the
    defaults, with the defaults a size relies on)."""
    try:
        from chunkview.core import registry

        entry = registry.get(entry_id)
        params = list(entry.params)
    except (KeyError, ImportError):
        params = []
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
        self.timeout = timeout
        self.max_memory = max_memory if max_memory is not None else default_max_memory()
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

    # -- lifetime
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
            cancel = self._context.Event()
            process = self._context.Process(
                target=_child_main, args=(child, cancel), name="chunkview-chunking"
            )
            process.daemon = True
            _start_without_main(process)
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
    def run(
        self,
        request: Any,
        on_progress: Callable[[int, int], None] | None = None,
        output: str = "layout",
    ) -> Any:
        """Chunk ``request`` (a ChunkRequest) in the process.

        ``output="layout"``: a ChunkResult with the layout unpacked lazily (``native`` is
        None); ``native`` / ``spans``: the JSON text of the library's result / the layout.
        Raises ChunkerError (the port's), Stopped (the watchdog's), Cancelled (superseded).
        """
        from chunkview.core.pipeline import ChunkResult, SearchHit

        spec = ChunkSpec(
            request.entry_id,
            dict(request.options),
            request.query,
            request.embedder,
            request.tokenizer,
            request.metadata,
            output,
            self._last_layout[0] if self._last_layout else 0,
            explain=getattr(request, "explain", False),
        )
        what = describe_options(request.entry_id, request.options)
        payload = self._job(("chunk", spec), what, on_progress, document=request.document)
        if output != "layout":
            return payload
        layout_id, packed, hits, seconds = payload
        if packed is None:  # the chunks we hold: only the search changed
            assert self._last_layout is not None
            layout = self._last_layout[1]
        else:
            layout = packed.unpack(request.document)
            self._last_layout = (layout_id, layout)
        offsets = self._editor_offsets(layout.document)
        return ChunkResult(
            request,
            None,
            layout,
            offsets,
            seconds,
            hits=[SearchHit(*hit) for hit in hits],
        )

    def tokens(self, layout: Layout | None = None) -> list[int] | None:
        """cl100k token counts of every chunk of the last layout (or of ``layout``, when
        it is the last one; None otherwise), counted in the process."""
        if self._last_layout is None or (layout is not None and layout is not self._last_layout[1]):
            return None
        return self._job(("tokens", self._last_layout[0]), "counting tokens", None)

    def call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``function(*args, **kwargs)`` in the process, under the watchdog (the function
        must be importable by name, its arguments and result picklable)."""
        name = getattr(function, "__qualname__", repr(function))
        return self._job(("call", (function, args, kwargs)), name, None)

    def call_as(self, label: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``call``, with ``label`` naming the job in the watchdog's messages (the entry
        and its options, as ``describe_options`` writes them)."""
        return self._job(("call", (function, args, kwargs)), label, None)

    _last_layout: tuple[int, Layout] | None = None
    _offsets: tuple[str, Any] | None = None

    def _editor_offsets(self, shown: Document) -> Any:
        from chunkview.core.offsets import EditorOffsets

        if self._offsets is None or self._offsets[0] is not shown.text:
            self._offsets = (shown.text, EditorOffsets(shown.text))
        return self._offsets[1]

    def _job(
        self,
        message: tuple,
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
        message: tuple,
        what: str,
        on_progress: Callable[[int, int], None] | None = None,
        document: Document | None = None,
        timeout: float | None = None,
    ) -> int:
        """Send one job (the pool's way in; ``run`` and ``call`` wait on it themselves).
        ``timeout`` replaces the service's budget for this job."""
        if self._closed or (self._interrupted.is_set() and message[0] != "call"):
            raise Cancelled()
        if self._process is None:
            self.start()
        assert self._conn is not None
        job = next(self._jobs)
        try:
            self._cancel.clear()
            if document is not None and not (
                self._document is document or self._document == document
            ):
                self._conn.send(("document", 0, document))
                self._document = document
                self.documents_sent += 1
            self._conn.send((message[0], job, message[1]))
        except (BrokenPipeError, OSError):
            self._kill()
            raise Stopped("crash", f"the chunking process ended unexpectedly: {what}") from None
        now = time.monotonic()
        budget = timeout if timeout is not None else self.timeout
        deadline = now + budget if budget else math.inf
        self._running = _Running(job, now, deadline, what, on_progress, budget)
        return job

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
            try:
                while conn.poll():
                    reply = conn.recv()
                    if reply[1] != running.job:
                        continue  # a late reply of a superseded job
                    if reply[0] == "progress":
                        if running.on_progress is not None:
                            running.on_progress(reply[2], reply[3])
                        continue
                    self._running = None
                    if reply[0] == "ok":
                        self._last_seconds = time.monotonic() - running.began
                        return True, reply[2]
                    if reply[0] == "cancelled":
                        raise Cancelled()
                    raise ChunkerError(reply[2], reply[3], reply[4])
            except (EOFError, OSError):
                pass  # the process died: the sentinel says how
        process = self._process
        if process is None or not process.is_alive():
            code = None if process is None else process.exitcode
            self._running = None
            self._kill()
            if self._closed:
                raise Cancelled()
            how = f"signal {-code}" if code is not None and code < 0 else f"status {code}"
            hint = " (likely out of memory)" if code == -9 else ""
            raise Stopped("crash", f"the chunking process died with {how}{hint}: {running.what}")
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
        rss = _rss(process.pid)
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
        """Cancel the running job: cooperatively if it notices (or ends) within the grace
        time, else by killing the process.

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
        now = time.monotonic()
        expected_end = running.began + 1.5 * self._last_seconds
        deadline = min(max(now + CANCEL_GRACE, expected_end), running.deadline)
        conn = self._conn
        try:
            while (left := deadline - time.monotonic()) > 0 and conn is not None:
                if not conn.poll(left):
                    break
                reply = conn.recv()
                if reply[1] == running.job and reply[0] != "progress":
                    raise Cancelled()  # the process is free again
        except (EOFError, OSError):
            pass
        self._kill()
        raise Cancelled()

    @property
    def busy(self) -> bool:
        return self._running is not None


# ----- the pool --------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """One pool job: ``function(*args, **kwargs)`` in a chunking process.

    The function must be importable by name (a module-level function) and its arguments
    and result picklable; keep results small (a summary, not the chunks) for big runs.
    """

    function: Callable[..., Any]
    args: tuple = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    #: what the watchdog's message names (the file, the entry and options)
    label: str = ""
    #: this job's time budget in seconds, when not the pool's
    timeout: float | None = None


@dataclass
class JobOutcome:
    """What became of one job: ``value`` or ``error`` (a ChunkerError; Stopped when the
    watchdog stopped it)."""

    index: int
    job: Job
    value: Any = None
    error: ChunkerError | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None


def chunk_file(
    entry_id: str,
    source: str | Document,
    options: Mapping[str, Any] | None = None,
    output: str = "native",
    kind: str | None = None,
) -> Any:
    """Chunk a file (by path, loaded in the process) or a Document: the native result
    (``native``), the packed layout (``layout``) or the layout's JSON data (``spans``).
    The function pool jobs most often run."""
    from chunkview.core import registry
    from chunkview.core.document import load_document
    from chunkview.core.entry import RunContext
    from chunkview.core.gcpause import paused_gc
    from chunkview.core.spans import chunk_layout

    document = source if isinstance(source, Document) else load_document(source, kind)
    entry = registry.get(entry_id)
    options = {k: v for k, v in dict(options or {}).items() if v is not None}
    entry.check_options(options)
    if output == "native":
        with paused_gc():
            return entry.run(document, options, RunContext())
    with paused_gc():
        layout = chunk_layout(entry, document, options, RunContext())[1]
    return layout.to_json() if output == "spans" else PackedLayout.pack(layout, document)


def chunk_job(
    entry_id: str,
    source: str | Document,
    options: Mapping[str, Any] | None = None,
    output: str = "native",
    kind: str | None = None,
) -> Job:
    name = source if isinstance(source, str) else source.name
    return Job(
        chunk_file,
        (entry_id, source, dict(options or {}), output, kind),
        label=f"{describe_options(entry_id, options or {})} on {name}",
    )


class ChunkPool:
    """Several chunking processes for many jobs, each job under the same watchdog.

    ``map`` reads the jobs lazily and runs at most four per process ahead of the next
    outcome it yields, so ten thousand files run in flat memory; a process is replaced
    after ``jobs_per_process`` jobs (and whenever the watchdog kills it), so a leak in a
    port cannot pile up. Functions run by name and must live in an importable module
    (not in the ``__main__`` script: the processes do not import it).
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        max_memory: int | None = None,
        jobs_per_process: int = 500,
    ) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        per_process = max_memory or max(256 * 2**20, default_max_memory() // self.workers)
        self._services = [
            ChunkService(timeout=timeout, max_memory=per_process) for _ in range(self.workers)
        ]
        self.jobs_per_process = jobs_per_process
        self._done_by: dict[int, int] = {}

    def __enter__(self) -> ChunkPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for service in self._services:
            service.__exit__()

    def map(self, jobs: Iterable[Job], ordered: bool = True) -> Iterator[JobOutcome]:
        """One JobOutcome per job: in the jobs' order (``ordered``) or as they finish."""
        source = enumerate(jobs)
        idle = list(self._services)
        running: dict[int, tuple[int, Job, float]] = {}  # service slot -> job
        finished: dict[int, JobOutcome] = {}
        next_out = taken = 0
        exhausted = False
        # in order, a slow job holds back the outcomes after it: bound how far ahead we run
        ahead = 4 * self.workers if ordered else math.inf
        while True:
            while idle and not exhausted and taken - next_out < ahead:
                item = next(source, None)
                taken += 1
                if item is None:
                    exhausted = True
                    break
                index, job = item
                service = idle.pop()
                slot = self._services.index(service)
                if self._done_by.get(slot, 0) >= self.jobs_per_process:
                    service._kill()
                    self._done_by[slot] = 0
                try:
                    service.begin(
                        ("call", (job.function, job.args, job.kwargs)),
                        job.label or getattr(job.function, "__qualname__", "job"),
                        timeout=job.timeout,
                    )
                    running[slot] = (index, job, time.monotonic())
                except ChunkerError as error:
                    finished[index] = JobOutcome(index, job, error=error)
                    idle.append(service)
            if not running:
                break
            ready = wait(
                [w for slot in running for w in self._services[slot]._waitables()],
                timeout=min(self._services[slot]._wait_time() for slot in running),
            )
            for slot in list(running):
                service = self._services[slot]
                index, job, began = running[slot]
                try:
                    done, value = service.step(ready)
                    outcome = JobOutcome(index, job, value=value) if done else None
                except ChunkerError as error:
                    outcome = JobOutcome(index, job, error=error)
                except Cancelled:
                    outcome = JobOutcome(index, job, error=Stopped("crash", "cancelled"))
                if outcome is None:
                    continue
                outcome.seconds = time.monotonic() - began
                del running[slot]
                idle.append(service)
                self._done_by[slot] = self._done_by.get(slot, 0) + 1
                finished[index] = outcome
            if ordered:
                while next_out in finished:
                    yield finished.pop(next_out)
                    next_out += 1
            else:
                for index in list(finished):
                    yield finished.pop(index)
        for index in sorted(finished):
            yield finished.pop(index)
