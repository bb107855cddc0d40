"""The chunking process: it holds the document, answers requests (``handlers``), sends
the replies; and how a document crosses to it."""

from __future__ import annotations

import gc
import signal
import time
from dataclasses import replace
from multiprocessing.connection import Connection
from typing import Any

from chunkview.core.errors import Cancelled
from chunkview.core.model.document import Document
from chunkview.core.runtime.messages import DocumentShell
from chunkview.core.runtime.start import die_with_parent, ignore_interrupts
from chunkview.core.text.kept import forget


def child_main(conn: Connection, cancel: Any) -> None:
    """The chunking process: documents and requests in, replies out (one handler per kind
    of request: ``handlers.HANDLERS``)."""
    ignore_interrupts()
    die_with_parent()
    # the handlers bring in the pipeline and every port: the app's side needs neither
    from chunkview.core.runtime.handlers import ChildState, answer

    state = ChildState(conn, cancel, _stop_on_signal(cancel))
    gc.disable()  # collected between jobs (collect_between_jobs)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        received = time.perf_counter()
        if isinstance(message, DocumentShell):
            state.document = None
            forget()  # the last text's kept readings: a new text is coming
            try:
                state.document = receive_document(conn, message)
            except (EOFError, OSError):
                return
            continue
        if not answer(state, message, received):
            return
        collect_between_jobs()


#: a document crosses in pieces of this many characters, each pickled on its own: one
#: pickle of a 10 MB text holds the interpreter lock for 30 ms or more (its UTF-8
#: encoding), which the UI thread waits out; between pieces the lock changes hands
DOCUMENT_PIECE = 1 << 20


def send_document(conn: Connection, document: Document) -> None:
    """Send ``document`` as a ``DocumentShell`` (its fields but the text, and the number
    of pieces), then its text piece by piece (``receive_document`` puts it together)."""
    text = document.text
    starts = range(0, len(text), DOCUMENT_PIECE)
    conn.send(DocumentShell(replace(document, text=""), len(starts)))
    for start in starts:
        conn.send(text[start : start + DOCUMENT_PIECE])


def receive_document(conn: Connection, shell: DocumentShell) -> Document:
    """The document ``send_document`` sent, whose first message is ``shell``."""
    pieces = [conn.recv() for _ in range(shell.pieces)]
    return replace(shell.document, text="".join(pieces))


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
