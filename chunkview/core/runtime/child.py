"""The chunking process: it holds the document, runs requests and calls, sends results."""

from __future__ import annotations

import gc
import signal
import time
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from typing import Any

from chunkview.core.errors import Cancelled, ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.runtime.packed import PackedDetails, PackedLayout
from chunkview.core.runtime.start import die_with_parent
from chunkview.core.text.kept import forget


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
    #: a layout without its warnings and size statistics, sent sooner; a ``details``
    #: message asks for them
    details_later: bool = False


def child_main(conn: Connection, cancel: Any) -> None:
    """The chunking process: documents, requests and calls in, results out."""
    die_with_parent()
    from chunkview.core.chunkers.entry import RunContext
    from chunkview.core.runtime.pipeline import ChunkRequest, Pipeline

    pipeline = Pipeline(editor_offsets=False)
    document: Document | None = None
    layout_id = 0  # the job whose run made the pipeline's last layout
    in_job = _stop_on_signal(cancel)
    gc.disable()  # collected between jobs (collect_between_jobs)
    answered_from: Any = None  # the result a tokens or details message was answered from
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        received = time.perf_counter()
        kind, job = message[0], message[1]
        if kind == "document":
            document = None
            forget()  # the last text's kept readings: a new text is coming
            try:
                document = receive_document(conn, message)
            except (EOFError, OSError):
                return
            continue

        last_sent = [0.0]
        replaced: Any = None

        def progress(done: int, total: int, job: int = job, last_sent: list = last_sent) -> None:
            now = time.monotonic()
            if now - last_sent[0] > 0.05 or done >= total:
                last_sent[0] = now
                in_job[0] = False  # a message cut off half sent would break the pipe
                conn.send(("progress", job, done, total))
                in_job[0] = True
                if cancel.is_set():  # the signal came while sending
                    raise Cancelled()

        ctx = RunContext(cancel_event=cancel, on_progress=progress)
        try:
            in_job[0] = True
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
                    # the result this run replaces is freed after the reply is sent:
                    # tens of thousands of chunks take 10-15 ms to free at 10 MB, which
                    # the window would otherwise wait for
                    replaced = pipeline.last_result()
                    later = spec.details_later and spec.output == "layout"
                    result = pipeline.run(request, ctx, details=not later)
                    result.stamps["received"] = received
                    hits = [(h.chunk, h.at, h.snippet) for h in result.hits]
                    if spec.output == "native":
                        from chunkview.core.text.jsonout import dumps

                        payload: Any = dumps(result.native)
                    elif spec.output == "spans":
                        from chunkview.core.text.jsonout import dumps

                        payload = dumps(result.layout.to_json())
                    else:
                        packed = (
                            None
                            if spec.have_layout == layout_id
                            else PackedLayout.pack(result.layout, document)
                        )
                        result.stamps["packed"] = time.perf_counter()
                        payload = (layout_id, packed, hits, result.seconds, result.stamps)
                    reply: tuple = ("ok", job, payload)
                elif kind == "tokens":  # of the layout the caller holds, if still the last one
                    answered_from = pipeline.last_result()
                    tokens = None
                    if answered_from is not None and message[2] == layout_id:
                        tokens = pipeline.tokens(answered_from, ctx)
                    reply = ("ok", job, tokens)
                elif kind == "details":  # of the layout the caller holds, if still the last one
                    answered_from = pipeline.last_result()
                    details = None
                    if answered_from is not None and message[2] == layout_id:
                        details = PackedDetails.pack(pipeline.details(answered_from, ctx))
                    reply = ("ok", job, details)
                elif kind == "call":
                    function, args, kwargs = message[2]
                    reply = ("ok", job, function(*args, **kwargs))
                else:
                    reply = ("error", job, "ValueError", f"unknown message {kind!r}", None)
            finally:
                in_job[0] = False
        except Cancelled:
            reply = ("cancelled", job)
        except ChunkerError as error:
            reply = ("error", job, error.name, error.message, error.position, error.traceback)
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
        # a result the run replaced (or the one the last message read) is freed now,
        # while the window takes the reply
        del replaced, reply
        answered_from = None
        collect_between_jobs()


#: a document crosses in pieces of this many characters, each pickled on its own: one
#: pickle of a 10 MB text holds the interpreter lock for 30 ms or more (its UTF-8
#: encoding), which the UI thread waits out; between pieces the lock changes hands
DOCUMENT_PIECE = 1 << 20


def send_document(conn: Connection, document: Document) -> None:
    """Send ``document`` as ``("document", 0, its fields but the text, piece count)``,
    then its text piece by piece (``receive_document`` puts it together)."""
    text = document.text
    starts = range(0, len(text), DOCUMENT_PIECE)
    conn.send(("document", 0, replace(document, text=""), len(starts)))
    for start in starts:
        conn.send(text[start : start + DOCUMENT_PIECE])


def receive_document(conn: Connection, message: tuple) -> Document:
    """The document ``send_document`` sent, whose first message is ``message``."""
    shell, pieces = message[2], message[3]
    return replace(shell, text="".join([conn.recv() for _ in range(pieces)]))


def collect_between_jobs() -> None:
    """The cyclic collection the interpreter would start by its thresholds, run after a
    reply is sent. A job makes tens of thousands of objects (chunks, spans); left on, the
    collector would walk them right after the job, before its reply (and now and then
    the whole heap: 30-45 ms at 10 MB), where a change waits for it."""
    young, middle, old = gc.get_count()
    first, second, third = gc.get_threshold()
    if young > first:
        gc.collect(0)
        if middle + 1 > second:
            gc.collect(1)
            if old + 1 > third:
                gc.collect(2)


def _stop_on_signal(cancel: Any) -> list[bool]:
    """Let a newer request stop the running job at once, even in a port that never
    checks for it: the app sends SIGUSR1 after setting the cancel flag, and the handler
    raises Cancelled in the job, between two of its Python steps. The returned flag says
    whether a job is running; outside one the signal is ignored. Where there is no
    SIGUSR1 the app waits for the job to check or end, then stops the process."""
    in_job = [False]

    def on_signal(_signum: int, _frame: Any) -> None:
        if in_job[0] and cancel.is_set():
            in_job[0] = False  # once, and not in the except clauses that follow
            raise Cancelled()

    if hasattr(signal, "SIGUSR1"):
        signal.signal(signal.SIGUSR1, on_signal)
    return in_job


def _where(error: BaseException) -> str:
    import traceback

    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return str(error)
    where = frames[-1]
    return f"{error} (in {where.name}, {where.filename.rsplit('/', 1)[-1]}:{where.lineno})"
