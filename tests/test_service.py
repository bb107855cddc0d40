"""The chunking process, its watchdog and the pool: real processes, small budgets."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from conftest import CORPUS, ROOT

from chunkview.core import registry
from chunkview.core.build import add_details, chunk_layout
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import Cancelled, ChunkerError
from chunkview.core.io.read import load_document
from chunkview.core.model.document import Document
from chunkview.core.runtime import (
    CANCEL_GRACE,
    ChunkPool,
    ChunkService,
    Job,
    PackedLayout,
    Stopped,
    chunk_job,
    describe_options,
    parse_size,
)
from chunkview.core.runtime.pipeline import ChunkRequest, Pipeline

MB = 2**20


# ----- functions the child runs (importable by name) --------------------------------------


def sleep_then(seconds: float, value: object = "done") -> object:
    time.sleep(seconds)
    return value


def grow(step_mb: int = 20, pause: float = 0.01) -> None:
    """Allocate (and touch) memory until stopped."""
    hoard = []
    while True:
        hoard.append(bytearray(os.urandom(16)) * (step_mb * MB // 16))
        time.sleep(pause)


def exit_with(code: int) -> None:
    os._exit(code)


def boom() -> None:
    raise TypeError("a port's bug")


def pid() -> int:
    return os.getpid()


FREED: list[int] = []


def make_cycles(count: int) -> int:
    """Leave ``count`` reference cycles behind, each noting when it is freed."""
    import gc
    import weakref

    for i in range(count):
        node: dict = {}
        node["self"] = node
        holder = type("Node", (), {})()
        holder.ring = holder
        weakref.finalize(holder, FREED.append, i)
    return len(FREED) if gc.isenabled() else -len(FREED) - 1


def freed() -> int:
    return len(FREED)


def results_alive() -> int:
    """How many chunking results the process holds (each ChunkResult, found by the
    collector, which tracks every container)."""
    import gc

    from chunkview.core.runtime.pipeline import ChunkResult

    return sum(isinstance(o, ChunkResult) for o in gc.get_objects())


@pytest.fixture(scope="module")
def service():
    with ChunkService(timeout=20, max_memory=1500 * MB) as svc:
        yield svc


@pytest.fixture(autouse=True)
def _fresh_budget(service):
    service.timeout, service.max_memory = 20, 1500 * MB
    service.reset_interrupt()


# ----- compact layout ----------------------------------------------------------------------


def _span_fields(s):
    return (
        [s.index, s.start, s.end, s.own_start, s.kind, s.text, s.located],
        s.metadata,
        [s.reported_start],
    )


def _fields(layout):
    return (
        [_span_fields(s) for s in layout.spans],
        layout.overlaps,
        layout.gaps,
        layout.warnings,
        layout.chars,
        layout.bytes,
        layout.size_unit,
        list(layout.sizes),
        layout.document,
    )


@pytest.mark.parametrize(
    "entry_id, document",
    [
        ("agentos.SemanticChunker", load_document(CORPUS / "acorn-readme.md")),
        ("semantic-chunking.sentenceit", Document("First line\nstill first. Second. Third.")),
        (
            "agentos.chunkTurns",
            Document(
                '[{"id":"a","role":"user","text":"hi there"},'
                '{"id":"b","role":"assistant","text":"hello"}]',
                kind="turns",
            ),
        ),
        ("smartchunk", load_document(CORPUS / "what-is-rustdoc.html")),
    ],
)
def test_packed_layout_gives_back_every_field(entry_id, document):
    entry = registry.get(entry_id)
    layout = chunk_layout(entry, document, {}, RunContext())[1]
    again = PackedLayout.pack(layout, document).unpack(document)
    assert _fields(again) == _fields(layout)
    assert again.span_at(layout.spans[-1].start) == layout.span_at(layout.spans[-1].start)


def test_packed_layout_sends_texts_only_where_needed():
    document = load_document(CORPUS / "acorn-readme.md")
    layout = chunk_layout(registry.get("agentos.SemanticChunker"), document, {}, RunContext())[1]
    # spans as any entry gives them (the SemanticChunker builds its own table)
    layout.spans = list(layout.spans)
    packed = PackedLayout.pack(layout, document)
    text = document.text
    differ = [i for i, s in enumerate(layout.spans) if s.text != text[s.start : s.end]]
    # an overlap prefix from before the white space and an own part found as it is: two
    # slices of the text, nothing sent
    sliced = [
        i
        for i in differ
        if layout.spans[i].text.endswith(text[layout.spans[i].own_start : layout.spans[i].end])
    ]
    sent = [i for i, at in enumerate(packed.spans.text_starts) if at >= 0]
    two_slices = [i for i, at in enumerate(packed.spans.head_starts) if at >= 0]
    assert differ and sliced and len(differ) < len(layout.spans)
    assert two_slices and set(two_slices) <= set(sliced)
    assert sent == [i for i in differ if i not in two_slices]
    assert len(packed.spans.text_blob) == sum(len(layout.spans[i].text) for i in sent)
    again = packed.unpack(document)
    assert [s.text for s in again.spans] == [s.text for s in layout.spans]
    assert packed.shown is None  # the document itself is not sent back


# ----- the service -----------------------------------------------------------------------


def test_result_equals_the_in_process_pipeline(service):
    document = load_document(CORPUS / "redis-readme.md")
    request = ChunkRequest(1, "agentos.SemanticChunker", document, {"targetSize": 400}, "redis")
    result = service.run(request)
    local = Pipeline().run(request, RunContext())
    assert _fields(result.layout) == _fields(local.layout)
    assert result.hits == local.hits and result.hits
    assert result.offsets is not None and result.generation == 1


@pytest.mark.skipif(not hasattr(signal, "SIGUSR1"), reason="no signal to stop a job with")
def test_jobs_stopped_anywhere_leave_the_process_whole(service):
    """Jobs stopped by the signal at any point of their work (the chunking, the placing,
    the packing, the details) leave the process and its pipe whole: the next job's
    answer equals the one made in this process."""
    import random

    rng = random.Random(5)
    text = "\n\n".join(
        (CORPUS / name).read_text(encoding="utf-8")
        for name in ("redis-readme.md", "acorn-readme.md", "debug-readme.md")
    )
    document = Document(text * 20)
    before, stopped = service.call(pid), 0
    for target in range(300, 1500, 60):
        request = ChunkRequest(1, "agentos.SemanticChunker", document, {"targetSize": target})
        timer = threading.Timer(rng.uniform(0.0, 0.08), service.interrupt)
        timer.start()
        try:
            result = service.run(request, details_later=bool(target % 120))
            if not result.layout.complete:
                service.details(result.layout)
        except Cancelled:
            stopped += 1
        timer.join()
        service.reset_interrupt()
    assert stopped  # some were stopped, at different points
    request = ChunkRequest(1, "agentos.SemanticChunker", document, {"targetSize": 777})
    assert _fields(service.run(request).layout) == _fields(
        Pipeline().run(request, RunContext()).layout
    )
    assert service.call(pid) == before  # stopped in the process, never killed


def test_details_follow_the_layout_and_equal_the_in_process_ones(service):
    """The app's way: the spans first, the warnings and size statistics in a second job;
    together they are the layout the pipeline makes in one go."""
    document = load_document(CORPUS / "redis-readme.md")
    request = ChunkRequest(1, "agentos.SemanticChunker", document, {"targetSize": 300})
    local = Pipeline().run(request, RunContext()).layout
    assert local.complete and local.warnings
    result = service.run(request, details_later=True)
    layout = result.layout
    assert not layout.complete and layout.warnings == [] and layout.sizes == []
    assert [(s.start, s.end) for s in layout.spans] == [(s.start, s.end) for s in local.spans]
    details = service.details(layout)
    assert details is not None
    add_details(layout, details)
    assert layout.complete and _fields(layout) == _fields(local)
    # the details of a layout that is no longer the last one are not sent
    service.run(ChunkRequest(2, "agentos.SemanticChunker", document, {"targetSize": 500}))
    assert service.details(layout) is None


def test_a_replaced_result_is_not_kept_after_the_reply(service):
    """The result a run replaces is freed once its reply is sent, also when a details or
    tokens message read it: at 10 MB one is tens of MB of chunks."""
    document = load_document(CORPUS / "redis-readme.md")
    first = service.run(
        ChunkRequest(1, "agentos.SemanticChunker", document, {}), details_later=True
    )
    assert service.details(first.layout) is not None  # the process reads its result
    assert service.tokens(first.layout) is not None
    for size in (300, 500):
        service.run(ChunkRequest(size, "agentos.SemanticChunker", document, {"targetSize": size}))
        assert service.call(results_alive) == 1


def test_a_new_document_lets_go_of_what_was_kept_of_the_last_text(service):
    """A long text's readings (layout blocks, outline) are kept for its next run in the
    process; a new document lets go of them and of the text they were made of."""
    from chunkview.core.text.kept import kept_names

    long_text = (CORPUS / "redis-readme.md").read_text(encoding="utf-8") * 8
    assert len(long_text) >= 65536
    options = {"strategy": "layout", "chunkSize": 300, "chunkOverlap": 0}
    engine = "agentos.ChunkingEngine"
    service.run(ChunkRequest(1, engine, Document(long_text), options))
    assert "agentos.layout-blocks" in service.call(kept_names)
    short = Document("# A short one\n\nNothing here is kept.\n")
    service.run(ChunkRequest(2, engine, short, options))
    assert service.call(kept_names) == []


def test_reasons_follow_the_layout_and_equal_the_in_process_ones(service):
    """Recording why each boundary is there costs about a chunking run: a run whose details
    come later records the reasons later too, and they are the ones of a run in one go."""
    document = load_document(CORPUS / "acorn-readme.md")
    request = ChunkRequest(
        1, "agentos.SemanticChunker", document, {"targetSize": 300}, explain=True
    )
    local = Pipeline().run(request, RunContext()).layout
    assert all(s.reason is not None for s in local.spans)
    layout = service.run(request, details_later=True).layout
    assert not layout.complete and all(s.reason is None for s in layout.spans[:3])
    details = service.details(layout)
    assert details is not None and details.reasons
    add_details(layout, details)
    assert [s.reason for s in layout.spans] == [s.reason for s in local.spans]
    assert _fields(layout) == _fields(local)


def test_an_option_change_sends_no_document(service):
    document = load_document(CORPUS / "debug-readme.md")
    sent = service.documents_sent
    for size in (300, 500, 700):
        service.run(ChunkRequest(size, "agentos.SemanticChunker", document, {"targetSize": size}))
    assert service.documents_sent == sent + 1
    # a query change reuses the layout already here
    before = service.run(ChunkRequest(9, "agentos.SemanticChunker", document, {}))
    after = service.run(ChunkRequest(10, "agentos.SemanticChunker", document, {}, "debug"))
    assert after.layout is before.layout and after.hits
    service.run(ChunkRequest(11, "agentos.SemanticChunker", Document(document.text + "x"), {}))
    assert service.documents_sent == sent + 2


def test_a_long_document_crosses_in_pieces_whole():
    """A document crosses as its fields and then its text in pieces of DOCUMENT_PIECE
    characters, each pickled on its own (so no one pickle holds the interpreter lock for
    long): put together it is the text sent, astral characters and lone surrogates at the
    joins included, with every other field."""
    from multiprocessing import Pipe

    from chunkview.core.runtime.child import DOCUMENT_PIECE, receive_document, send_document
    from chunkview.core.runtime.messages import DocumentShell

    piece = DOCUMENT_PIECE
    text = "ab\U0001f600 c\n" * (piece // 2)
    text = text[: piece - 1] + "\U0001f600\ud800" + text[piece + 1 : 2 * piece] + "\udc00x"
    document = Document(text, "/tmp/a.md", "markdown", bom=True, encoding="utf-16")
    sending, receiving = Pipe()
    sender = threading.Thread(target=send_document, args=(sending, document), daemon=True)
    sender.start()
    first = receiving.recv()
    assert isinstance(first, DocumentShell)
    assert first.document.text == "" and first.pieces == 3
    got = receive_document(receiving, first)
    sender.join()
    assert got == document and got.text == text and got.newline == document.newline
    assert not receiving.poll()  # nothing left over


def test_a_document_stopped_half_way_across_leaves_no_broken_process(service, monkeypatch):
    """An interrupt (or any error but a broken pipe) while a document crosses piece by
    piece: the process, which would read the next job as the rest of the text, is
    replaced, and the next job runs."""
    from chunkview.core.runtime import child

    monkeypatch.setattr(child, "DOCUMENT_PIECE", 1000)  # the sending side's pieces
    service.run(ChunkRequest(1, "agentos.SemanticChunker", Document("one two. " * 100), {}))
    conn, sent = service._conn, [0]
    real_send = conn.send

    def send(message):
        sent[0] += 1
        if sent[0] == 3:  # the shell and one piece have gone
            raise KeyboardInterrupt
        return real_send(message)

    monkeypatch.setattr(conn, "send", send)
    with pytest.raises(KeyboardInterrupt):
        service.run(ChunkRequest(2, "agentos.SemanticChunker", Document("four five. " * 300), {}))
    assert service._conn is None  # the half-fed process is gone
    result = service.run(
        ChunkRequest(3, "agentos.SemanticChunker", Document("Seven eight. " * 300), {})
    )
    assert result.layout.document.text == "Seven eight. " * 300 and result.layout.spans


def test_tokens_are_counted_in_the_process(service):
    document = Document("one two three. " * 50)
    result = service.run(ChunkRequest(1, "agentos.SemanticChunker", document, {"targetSize": 100}))
    tokens = service.tokens()
    assert len(tokens) == len(result.layout.spans) and all(t > 0 for t in tokens)


def test_port_errors_keep_their_name(service):
    request = ChunkRequest(
        1,
        "agentos.SemanticChunker",
        Document("abc def ghi"),
        {"targetSize": 0, "maxSize": 1, "minSize": 0},
    )
    with pytest.raises(ChunkerError) as caught:
        service.run(request)
    assert caught.value.name == "Hang"
    with pytest.raises(ChunkerError, match="a port's bug") as caught:
        service.call(boom)
    assert caught.value.name == "TypeError"
    assert service.call(sleep_then, 0, 42) == 42  # the same process goes on


def test_time_budget_stops_restarts_and_says_so(service):
    first = service.call(pid)
    service.timeout = 0.5
    began = time.monotonic()
    with pytest.raises(Stopped) as caught:
        service.call_as("agentos.ChunkingEngine with chunkSize 1", sleep_then, 30)
    assert time.monotonic() - began < 3
    service.timeout = 20
    assert caught.value.reason == "time"
    assert caught.value.message.startswith("stopped after ")
    assert "within the 0.5 s budget" in caught.value.message
    assert "agentos.ChunkingEngine with chunkSize 1" in caught.value.message
    assert service.call(pid) != first  # a new process took over


def test_memory_budget_stops_the_process(service):
    service.max_memory = 300 * MB
    began = time.monotonic()
    with pytest.raises(Stopped) as caught:
        service.call(grow)
    assert time.monotonic() - began < 10
    assert caught.value.reason == "memory"
    assert caught.value.message.startswith("stopped at ")
    assert "MB" in caught.value.message and "300.0 MB memory budget" in caught.value.message
    assert service.call(sleep_then, 0) == "done"


def test_the_process_collects_its_garbage_between_jobs_not_in_them(service):
    """The chunking process keeps the cyclic collector off while a job runs and runs it
    after the reply is sent: cycles a job leaves are freed before the next job."""
    before = service.call(freed)
    # collection off during the job: none of its 5,000 cycles was freed within it
    assert service.call(make_cycles, 5000) == -before - 1
    assert service.call(freed) == before + 5000


def test_a_dying_process_is_reported(service):
    with pytest.raises(Stopped, match="died with status 3") as caught:
        service.call(exit_with, 3)
    assert caught.value.reason == "crash"
    assert service.call(sleep_then, 0) == "done"


def test_interrupt_supersedes_a_stuck_job_quickly(service):
    timer = threading.Timer(0.3, service.interrupt)
    timer.start()
    began = time.monotonic()
    with pytest.raises(Cancelled):
        service.call(sleep_then, 30)
    assert time.monotonic() - began < 2
    service.reset_interrupt()
    assert service.call(sleep_then, 0) == "done"


@pytest.mark.skipif(not hasattr(signal, "SIGUSR1"), reason="no signal to stop a job with")
def test_a_job_that_never_checks_is_stopped_in_its_process_not_killed(service):
    """A superseded job is stopped where it is, at once, though it never looks at the
    cancel flag; the process lives on, with what it holds (the document, its caches)."""
    before = service.call(pid)
    for _ in range(3):
        threading.Timer(0.2, service.interrupt).start()
        began = time.monotonic()
        with pytest.raises(Cancelled):
            service.call(sleep_then, 30)
        assert time.monotonic() - began < 0.2 + CANCEL_GRACE  # not the grace, then a kill
        service.reset_interrupt()
        assert service.call(pid) == before


def test_close_from_another_thread_ends_a_wait_at_once():
    with ChunkService(timeout=30) as svc:
        svc.start()
        threading.Timer(0.3, svc.close).start()
        began = time.monotonic()
        with pytest.raises(Cancelled):
            svc.call(sleep_then, 30)
        assert time.monotonic() - began < 0.8
        with pytest.raises(Cancelled):
            svc.call(sleep_then, 0)


def test_chunking_engine_that_never_returns_is_stopped(service):
    """Whatever the port does (Hang or looping), the caller gets a clear answer in time."""
    service.timeout = 2
    request = ChunkRequest(
        1,
        "agentos.ChunkingEngine",
        Document("word " * 20),
        {"strategy": "fixed", "chunkSize": 1, "chunkOverlap": 2},
    )
    began = time.monotonic()
    with pytest.raises(ChunkerError) as caught:
        service.run(request)
    assert time.monotonic() - began < 5
    assert caught.value.name in ("Hang", "Stopped")
    if caught.value.name == "Stopped":
        assert 'strategy "fixed", chunkSize 1, chunkOverlap 2' in caught.value.message


# ----- the pool ----------------------------------------------------------------------------


def test_pool_gives_one_outcome_per_job_in_order():
    files = sorted(CORPUS.iterdir())
    jobs = [chunk_job("agentos.SemanticChunker", str(f), {"targetSize": 500}) for f in files]
    jobs.insert(2, Job(sleep_then, (30,), label="a stuck job", timeout=0.5))
    jobs.insert(4, Job(boom))
    with ChunkPool(2, timeout=60, jobs_per_process=3) as pool:
        outcomes = list(pool.map(jobs))
    assert [o.index for o in outcomes] == list(range(len(jobs)))
    assert outcomes[2].error.name == "Stopped" and "a stuck job" in outcomes[2].error.message
    assert outcomes[4].error.name == "TypeError"
    good = [o for i, o in enumerate(outcomes) if i not in (2, 4)]
    assert all(o.ok and o.value for o in good)
    assert good[0].value == __import__("chunkview").run(
        "agentos.SemanticChunker", load_document(files[0]), {"targetSize": 500}
    )


def test_pool_reads_jobs_lazily():
    taken = []

    def jobs():
        for i in range(1000):
            taken.append(i)
            yield Job(sleep_then, (0, i))

    with ChunkPool(2) as pool:
        outcomes = pool.map(jobs())
        first = next(outcomes)
        assert first.value == 0 and len(taken) <= 4 * 2 + 1
        rest = [o.value for o in outcomes]
    assert rest == list(range(1, 1000))


# ----- words ------------------------------------------------------------------------------


def test_describe_names_strategy_and_sizes():
    text = describe_options(
        "agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 1, "chunkOverlap": 64}
    )
    assert text == 'agentos.ChunkingEngine with strategy "fixed", chunkSize 1, chunkOverlap 64'


def test_parse_size():
    assert parse_size("2G") == 2 * 2**30
    assert parse_size("512m") == 512 * MB
    assert parse_size("1.5GB") == int(1.5 * 2**30)
    assert parse_size("1000") == 1000
    for bad in ("", "abc", "-1G", "0", "nan"):
        with pytest.raises(ValueError):
            parse_size(bad)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal")
def test_a_hung_job_does_not_outlive_a_killed_app():
    code = (
        "import time\n"
        "from chunkview.core.runtime import ChunkService\n"
        "service = ChunkService(timeout=600)\n"
        "service.start()\n"
        "print(service.pid, flush=True)\n"
        "service.call(time.sleep, 600)\n"
    )
    app = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    child = int(app.stdout.readline())
    time.sleep(1.0)  # the job runs
    app.kill()
    app.wait()

    def running() -> bool:
        try:
            with open(f"/proc/{child}/stat") as handle:
                return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
        except OSError:
            return False

    deadline = time.monotonic() + 5
    while running() and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = running()
    if alive:
        os.kill(child, 9)
    assert not alive, "the chunking process outlived the app"


def test_a_read_cut_short_by_close_from_another_thread_is_the_pipe_ending():
    """``close`` from the UI thread (the window closing) closes the pipe while the worker
    thread may be reading a reply: multiprocessing then reads a handle set to None
    (TypeError). On a connection closed under it that is the pipe's end, as EOFError
    is; on an open one the error stays an error."""
    from multiprocessing import Pipe

    from chunkview.core.runtime.watchdog import _reading

    mine, theirs = Pipe()
    theirs.close()
    with _reading(mine):
        mine.recv()  # EOFError: the other end is gone
    mine.close()
    with _reading(mine):
        raise TypeError("'NoneType' object cannot be interpreted as an integer")
    reader, _writer = Pipe()
    with pytest.raises(TypeError), _reading(reader):
        raise TypeError("a bug, not a closed pipe")


def test_every_kind_of_request_has_its_handler():
    from typing import get_args

    from chunkview.core.runtime.handlers import HANDLERS
    from chunkview.core.runtime.messages import Request

    assert set(HANDLERS) == set(get_args(Request))


def test_a_request_of_no_known_kind_is_answered_with_an_error():
    """The process answers a message it has no handler for with a JobFailed naming it,
    and lives on."""
    from dataclasses import dataclass
    from multiprocessing import Pipe

    from chunkview.core.runtime.handlers import ChildState, answer
    from chunkview.core.runtime.messages import JobFailed

    @dataclass(frozen=True)
    class Unknown:
        job: int = 7

    parent, child = Pipe()
    state = ChildState(child, threading.Event(), [False])
    assert answer(state, Unknown(), 0.0)  # type: ignore[arg-type]
    reply = parent.recv()
    assert isinstance(reply, JobFailed) and reply.job == 7 and reply.name == "ValueError"
    assert "Unknown" in reply.message and state.in_job == [False]
