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

The modules: ``limits`` (budgets, sizes, ``Stopped``), ``start`` (process contexts),
``packed`` (``PackedLayout``), ``messages`` (the requests and replies that cross the
pipe), ``child`` (the process's loop), ``handlers`` (its answer to each kind of request),
``watchdog``
(``ChunkService``), ``pool`` (``ChunkPool``, ``chunk_file``).
"""

from chunkview.core.runtime.limits import (
    DEFAULT_MEMORY_FRACTION,
    DEFAULT_TIMEOUT,
    TIMEOUT_RANGE,
    BudgetError,
    Stopped,
    check_max_memory,
    check_timeout,
    default_max_memory,
    format_bytes,
    machine_memory,
    max_memory_range,
    parse_size,
    resident_bytes,
)
from chunkview.core.runtime.messages import ChunkSpec
from chunkview.core.runtime.packed import PackedLayout
from chunkview.core.runtime.pool import ChunkPool, Job, JobOutcome, chunk_file, chunk_job
from chunkview.core.runtime.start import PRELOAD, process_context, quick_context
from chunkview.core.runtime.watchdog import (
    CANCEL_GRACE,
    SAMPLE_EVERY,
    ChunkService,
    describe_options,
)

_rss = resident_bytes  # the name the watchdog tests know

__all__ = [
    "CANCEL_GRACE",
    "DEFAULT_MEMORY_FRACTION",
    "DEFAULT_TIMEOUT",
    "PRELOAD",
    "SAMPLE_EVERY",
    "TIMEOUT_RANGE",
    "BudgetError",
    "ChunkPool",
    "ChunkService",
    "ChunkSpec",
    "Job",
    "JobOutcome",
    "PackedLayout",
    "Stopped",
    "check_max_memory",
    "check_timeout",
    "chunk_file",
    "chunk_job",
    "default_max_memory",
    "describe_options",
    "format_bytes",
    "machine_memory",
    "max_memory_range",
    "parse_size",
    "process_context",
    "quick_context",
    "resident_bytes",
]
