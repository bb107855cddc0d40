"""The chunking process's answers: one handler per kind of request, found by the request's
type (``HANDLERS``), and ``answer``, which runs one and sends its reply.

Imported by the process only (``child_main``): it brings in the pipeline and through it
every port, which the app's side of the pipe does not need.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import Cancelled, ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.plugins.described import FileChunkers, describe_file
from chunkview.core.runtime.messages import (
    CallRequest,
    ChunkSpec,
    DescribeFileRequest,
    DetailsRequest,
    JobCancelled,
    JobDone,
    JobFailed,
    JobProgress,
    PackedResult,
    Reply,
    Request,
    TokensRequest,
)
from chunkview.core.runtime.packed import PackedDetails, PackedLayout
from chunkview.core.runtime.pipeline import ChunkRequest, Pipeline
from chunkview.core.runtime.top_level import guarded_top_level
from chunkview.core.text.jsonout import dumps

#: at most one progress message in this many seconds (and one at the end)
PROGRESS_EVERY = 0.05


@dataclass
class ChildState:
    """What the process keeps from one message to the next."""

    conn: Connection
    cancel: Any  # start.CancelFlag
    #: whether a job is running (``child._stop_on_signal`` only interrupts one then)
    in_job: list[bool]
    pipeline: Pipeline = field(default_factory=lambda: Pipeline(editor_offsets=False))
    document: Document | None = None
    #: the job whose run made the pipeline's last layout
    layout_id: int = 0
    #: a result kept alive until the reply is sent, then let go: the one a run replaced
    #: (tens of thousands of chunks take 10-15 ms to free at 10 MB, which the window
    #: would otherwise wait for), or the one a tokens or details request read
    held: Any = None


def run_chunk(state: ChildState, spec: ChunkSpec, ctx: RunContext, received: float) -> Any:
    """Chunk the document held: a ``PackedResult``, or JSON text (``native``, ``spans``)."""
    document = state.document
    assert document is not None, "no document was sent"
    ctx.metadata, ctx.embedder, ctx.tokenizer = spec.metadata, spec.embedder, spec.tokenizer
    request = ChunkRequest(
        generation=0,
        entry_id=spec.entry_id,
        document=document,
        options=spec.options,
        query=spec.query,
        embedder=spec.embedder,
        tokenizer=spec.tokenizer,
        metadata=spec.metadata,
        explain=spec.explain,
    )
    pipeline = state.pipeline
    if pipeline.last_key() != request.chunking_key():
        state.layout_id = spec.job
    state.held = pipeline.last_result()
    later = spec.details_later and spec.output == "layout"
    result = pipeline.run(request, ctx, details=not later)
    result.stamps["received"] = received
    if spec.output == "native":
        return dumps(result.native)
    if spec.output == "spans":
        return dumps(result.layout.to_json())
    packed = (
        None if spec.have_layout == state.layout_id else PackedLayout.pack(result.layout, document)
    )
    result.stamps["packed"] = time.perf_counter()
    hits = [(h.chunk, h.at, h.snippet) for h in result.hits]
    return PackedResult(state.layout_id, packed, hits, result.seconds, result.stamps)


def count_tokens(
    state: ChildState, request: TokensRequest, ctx: RunContext, _received: float
) -> list[int] | None:
    """Token counts of the layout the caller holds, if it is still the last one."""
    state.held = result = state.pipeline.last_result()
    if result is None or request.layout_id != state.layout_id:
        return None
    return state.pipeline.tokens(result, ctx, request.tokenizer)


def find_details(
    state: ChildState, request: DetailsRequest, ctx: RunContext, _received: float
) -> PackedDetails | None:
    """The details of the layout the caller holds, if it is still the last one."""
    state.held = result = state.pipeline.last_result()
    if result is None or request.layout_id != state.layout_id:
        return None
    return PackedDetails.pack(state.pipeline.details(result, ctx))


def call_function(
    _state: ChildState, request: CallRequest, _ctx: RunContext, _received: float
) -> Any:
    return request.function(*request.args, **request.kwargs)


def describe_chunkers(
    _state: ChildState, request: DescribeFileRequest, _ctx: RunContext, _received: float
) -> FileChunkers:
    """The entries of a user's chunker file, loaded here under the top-level guard."""
    with guarded_top_level(request.seconds):
        return describe_file(request.path)


Handler = Callable[[ChildState, Any, RunContext, float], Any]

#: the handler of each kind of request
HANDLERS: dict[type, Handler] = {
    ChunkSpec: run_chunk,
    TokensRequest: count_tokens,
    DetailsRequest: find_details,
    CallRequest: call_function,
    DescribeFileRequest: describe_chunkers,
}


def answer(state: ChildState, request: Request, received: float) -> bool:
    """Run ``request`` and send its reply; False when the pipe is gone."""
    ctx = RunContext(cancel_event=state.cancel, on_progress=_progress(state, request.job))
    reply = _reply(state, request, ctx, received)
    try:
        state.conn.send(reply)
    except (BrokenPipeError, OSError):
        return False
    except Exception as error:  # an unpicklable result
        state.conn.send(JobFailed(request.job, type(error).__name__, str(error), None))
    # the result the run replaced (or the one the request read) is freed now, while the
    # window takes the reply
    del reply
    state.held = None
    return True


def _reply(state: ChildState, request: Request, ctx: RunContext, received: float) -> Reply:
    job = request.job
    handler = HANDLERS.get(type(request))
    try:
        state.in_job[0] = True
        try:
            if handler is None:
                name = type(request).__name__
                return JobFailed(job, "ValueError", f"unknown message {name}", None)
            return JobDone(job, handler(state, request, ctx, received))
        finally:
            state.in_job[0] = False
    except Cancelled:
        return JobCancelled(job)
    except ChunkerError as error:
        return JobFailed(job, error.name, error.message, error.position, error.traceback)
    except RecursionError as error:
        return JobFailed(job, "RecursionError", str(error), None)
    except MemoryError:
        return JobFailed(job, "MemoryError", "out of memory", None)
    except Exception as error:  # a port's bug is reported, the process lives on
        return JobFailed(job, type(error).__name__, _where(error), None)


def _progress(state: ChildState, job: int) -> Callable[[int, int], None]:
    """The job's progress callback: a message now and then, and at the end."""
    last_sent = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last_sent
        now = time.monotonic()
        if now - last_sent > PROGRESS_EVERY or done >= total:
            last_sent = now
            state.in_job[0] = False  # a message cut off half sent would break the pipe
            state.conn.send(JobProgress(job, done, total))
            state.in_job[0] = True
            if state.cancel.is_set():  # the signal came while sending
                raise Cancelled()

    return progress


def _where(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return str(error)
    where = frames[-1]
    return f"{error} (in {where.name}, {where.filename.rsplit('/', 1)[-1]}:{where.lineno})"
