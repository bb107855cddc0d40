"""Where batch jobs run: the local chunking pool (the default, on all cores) or Ray
(``--ray``). Both give ``map(jobs, ordered)`` of ``JobOutcome``s, so a batch command's
records do not depend on the engine."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Protocol

from chunkview.core.runtime import ChunkPool, Job, JobOutcome


class Pool(Protocol):
    def map(self, jobs: Iterable[Job], ordered: bool = True) -> Iterator[JobOutcome]: ...


@contextmanager
def open_pool(
    jobs: int | None,
    *,
    timeout: float | None,
    max_memory: int | None = None,
    ray: str | None = None,
    paths: Sequence[str] = (),
) -> Iterator[Pool]:
    """``jobs`` local chunking processes; with ``ray`` (an address, or "" for a local
    Ray) Ray workers instead, checked first to read ``paths`` (RayUnavailable when Ray is
    missing or they cannot)."""
    if ray is None:
        with ChunkPool(jobs, timeout=timeout, max_memory=max_memory) as local:
            yield local
        return
    from chunkview.core.batch.ray_pool import RayPool

    with RayPool(ray or None, timeout=timeout, max_memory=max_memory) as remote:
        remote.check_paths(paths)
        yield remote
