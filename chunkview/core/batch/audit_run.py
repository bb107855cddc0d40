"""Run ``audit_file`` over many files on the chunking processes' pool (core/service/):
each file under the app's watchdog, records streamed as the files finish."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator, Mapping
from typing import Any

from chunkview.core.batch.audit import audit_file, failed_record
from chunkview.core.batch.engine import Pool
from chunkview.core.runtime import ChunkPool, Job, parse_size


def audit_records(
    paths: Iterable[str],
    entry_id: str,
    options: Mapping[str, Any],
    *,
    kind: str | None = None,
    token_limit: int | None = None,
    tokenizer: str | None = None,
    jobs: int = 1,
    timeout: float = 30.0,
    max_memory: str | int | None = None,
    pool: Pool | None = None,
) -> Generator[dict[str, Any], None, None]:
    """One record per path, in the order the files finish. A file the watchdog stops is
    a ``hang`` (past its time) or an ``error`` (past its memory, or its process died).
    ``pool``: run on the caller's pool (which it may close from another thread to stop
    at once), or on Ray (core/batch/ray_pool.py), instead of one of ``jobs`` processes
    made for the call."""
    memory = parse_size(max_memory) if isinstance(max_memory, str) else max_memory
    work = (
        Job(
            audit_file,
            (path, entry_id, dict(options), kind, token_limit, tokenizer),
            label=f"{entry_id} on {path}",
        )
        for path in paths
    )
    if pool is None:
        with ChunkPool(jobs, timeout=timeout, max_memory=memory) as own:
            yield from _records(own, work)
    else:
        yield from _records(pool, work)


def _records(pool: Pool, work: Iterable[Job]) -> Iterator[dict[str, Any]]:
    """A record per job of ``work`` on ``pool``, as the jobs finish."""
    for outcome in pool.map(work, ordered=False):
        path = outcome.job.args[0]
        if outcome.error is None:
            record = outcome.value
        else:
            error = outcome.error
            status = "hang" if getattr(error, "reason", None) == "time" else "error"
            if error.name == "Hang":
                status = "hang"
            record = failed_record(path, status, f"{error.name}: {error.message}")
        record["seconds"] = round(outcome.seconds, 3)
        yield record
