"""``ChunkPool``: many jobs (sweeps, audits) on several chunking processes, each under the
watchdog; and the job most of them run, chunking one file."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any

from chunkview.core import registry
from chunkview.core.build import chunk_layout
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import Cancelled, ChunkerError
from chunkview.core.io.read import load_document
from chunkview.core.model.document import Document
from chunkview.core.runtime.gcpause import paused_gc
from chunkview.core.runtime.limits import (
    DEFAULT_TIMEOUT,
    Stopped,
    check_max_memory,
    default_max_memory,
)
from chunkview.core.runtime.messages import CallRequest, Output
from chunkview.core.runtime.packed import PackedLayout
from chunkview.core.runtime.watchdog import ChunkService, describe_options


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
    output: Output = "native",
    kind: str | None = None,
) -> Any:
    """Chunk a file (by path, loaded in the process) or a Document: the native result
    (``native``), the packed layout (``layout``) or the layout's JSON data (``spans``).
    The function pool jobs most often run."""
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
    output: Output = "native",
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
        per_process = (
            check_max_memory(max_memory)
            if max_memory is not None
            else max(256 * 2**20, default_max_memory() // self.workers)
        )
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
        """End the processes and free the pipes (the thread running ``map``)."""
        for service in self._services:
            service.__exit__()

    def kill(self) -> None:
        """End the processes at once (any thread): the running ``map`` then ends its jobs
        as stopped; the thread running it still calls ``close``."""
        for service in self._services:
            service.close()

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
                        CallRequest(job.function, job.args, job.kwargs),
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
