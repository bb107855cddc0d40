"""Pool jobs on Ray (``--ray``): the same jobs and the same records as the local
``ChunkPool``, run by Ray actors, one a CPU of the cluster.

Ray tasks rather than Ray Data: each actor holds a one-process ``ChunkPool``, so every
file is read and chunked on the worker in a chunking process under the same watchdog
(a hang is that file's ``hang``, the process is replaced, the actor goes on) and the
process stays warm from file to file. The driver hands out small batches of jobs, at most
two a worker ahead, and yields the outcomes as batches finish: what it holds is bounded by
the workers, not by the files. ``ray`` is imported in one place, ``load_ray``: it is the
``chunkview[ray]`` extra.
"""

from __future__ import annotations

import itertools
import os
import socket
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from chunkview.core.errors import ChunkerError
from chunkview.core.runtime import ChunkPool, Job, JobOutcome, Stopped, default_max_memory

INSTALL_HINT = "--ray needs Ray: pip install 'chunkview[ray]'"
#: jobs sent to a worker at once, and batches a worker may hold ahead
BATCH = 8
AHEAD = 2
#: seconds to wait for a cluster's address to answer before saying it cannot be reached
#: (ray.init would retry for minutes, printing its own warnings)
REACH_SECONDS = 5.0


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot do the work; one line says why."""


def load_ray() -> Any:
    """The ``ray`` module (the one import of it), or RayUnavailable saying what to install."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable(INSTALL_HINT) from None
    return ray


#: a JobOutcome as it crosses to the driver: value, error fields, seconds (a ChunkerError
#: does not survive pickling: its constructor takes more than its message)
Shipped = tuple[Any, tuple[str, str, str | None, int | None, str | None] | None, float]


def ship(outcome: JobOutcome) -> Shipped:
    error = outcome.error
    if error is None:
        return outcome.value, None, outcome.seconds
    reason = getattr(error, "reason", None)
    fields = (error.name, error.message, reason, error.position, error.traceback)
    return None, fields, outcome.seconds


def unship(index: int, job: Job, shipped: Shipped) -> JobOutcome:
    value, fields, seconds = shipped
    if fields is None:
        return JobOutcome(index, job, value=value, seconds=seconds)
    name, message, reason, position, traceback = fields
    error = Stopped(reason, message) if reason is not None else ChunkerError(name, message)  # type: ignore[arg-type]
    error.position, error.traceback = position, traceback
    return JobOutcome(index, job, error=error, seconds=seconds)


def gcs_endpoint(address: str) -> tuple[str, int] | None:
    """The host and port an address names (``host:port`` or ``ray://host:port``), or None
    for one Ray resolves itself (``auto``, ``local``, a bare name)."""
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    if not colon or not port.isdigit() or not host:
        return None
    return host.strip("[]"), int(port)  # [::1]:6379 names an IPv6 host


def check_reachable(address: str, seconds: float = REACH_SECONDS) -> None:
    """RayUnavailable in one line when nothing answers at ``address`` within ``seconds``
    (a TCP connect: no Ray message is sent)."""
    endpoint = gcs_endpoint(address)
    if endpoint is None:
        return
    try:
        with socket.create_connection(endpoint, timeout=seconds):
            pass
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else exc.strerror or str(exc)
        raise RayUnavailable(f"cannot reach the Ray cluster at {address} ({reason})") from None


class ChunkWorker:
    """A Ray actor: a one-process chunking pool on the worker, kept from batch to batch."""

    def __init__(self, timeout: float | None, max_memory: int | None) -> None:
        memory = max_memory or max(256 * 2**20, default_max_memory() // (os.cpu_count() or 1))
        self.pool = ChunkPool(1, timeout=timeout, max_memory=memory)
        self.node = os.uname().nodename

    def run(self, batch: list[tuple[int, Job]]) -> list[Shipped]:
        """Each job's value or error and its seconds, in the batch's order."""
        return [ship(outcome) for outcome in self.pool.map([job for _, job in batch])]

    def unreadable(self, paths: Sequence[str]) -> tuple[str, list[str]]:
        """This worker's node, and the paths it cannot read."""
        return self.node, [p for p in paths if not os.access(p, os.R_OK)]

    def close(self) -> None:
        self.pool.close()


class RayPool:
    """Jobs on Ray actors with ``ChunkPool.map``'s interface. ``address``: the cluster to
    join (``ray.init(address)``); None starts a local Ray, unless this process already
    runs one (then it is used as it is, and left running)."""

    def __init__(
        self,
        address: str | None = None,
        *,
        timeout: float | None = 30.0,
        max_memory: int | None = None,
        workers: int | None = None,
    ) -> None:
        self._ray = ray = load_ray()
        self._owns = not ray.is_initialized()
        if self._owns:
            if address:
                check_reachable(address)
            try:
                ray.init(
                    address=address,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level="ERROR",
                )
            except (ConnectionError, RuntimeError, ValueError) as exc:
                if not address:
                    doing = "cannot start a local Ray"
                elif isinstance(exc, ConnectionError):
                    doing = f"cannot reach the Ray cluster at {address}"
                else:
                    doing = f"cannot join the Ray cluster at {address}"
                first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                raise RayUnavailable(f"{doing}: {first_line}") from None
        count = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        actor = ray.remote(num_cpus=1)(ChunkWorker)
        self._new_actor = lambda: actor.remote(timeout, max_memory)
        self._actors = [self._new_actor() for _ in range(count)]

    def __enter__(self) -> RayPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        ray = self._ray
        try:
            ray.get([a.close.remote() for a in self._actors], timeout=30)
        except Exception:  # an actor already gone: nothing of it to close
            pass
        for actor in self._actors:
            ray.kill(actor)
        self._actors = []
        if self._owns:
            ray.shutdown()

    def check_paths(self, paths: Sequence[str]) -> None:
        """RayUnavailable when a path this process reads is out of the workers' reach, or
        is an object-store URL (files are read by path: mount the bucket on every node)."""
        for path in paths:
            if "://" in path:
                raise RayUnavailable(
                    f"{path}: chunkview reads files by path; mount the bucket at the same "
                    "path on every node (s3fs, gcsfuse) and give that path"
                )
        local = [p for p in paths if os.access(p, os.R_OK)]
        if not local:
            return
        answers = self._ray.get([a.unreadable.remote(local) for a in self._actors])
        for node, missing in answers:
            if missing:
                raise RayUnavailable(
                    f"the Ray workers on {node} cannot read {missing[0]}: put the corpus "
                    "where every node reads it at the same path"
                )

    def map(self, jobs: Iterable[Job], ordered: bool = True) -> Iterator[JobOutcome]:
        """One JobOutcome per job, in the jobs' order (``ordered``) or as batches finish."""
        ray = self._ray
        source = enumerate(jobs)
        load = [0] * len(self._actors)
        pending: dict[Any, tuple[int, list[tuple[int, Job]]]] = {}
        finished: dict[int, JobOutcome] = {}
        next_out = 0
        exhausted = False
        while True:
            while not exhausted and min(load) < AHEAD:
                batch = list(itertools.islice(source, BATCH))
                if not batch:
                    exhausted = True
                    break
                slot = load.index(min(load))
                pending[self._actors[slot].run.remote(batch)] = (slot, batch)
                load[slot] += 1
            if not pending:
                break
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                slot, batch = pending.pop(ref)
                load[slot] -= 1
                for outcome in self._outcomes(ref, slot, batch):
                    finished[outcome.index] = outcome
            if ordered:
                while next_out in finished:
                    yield finished.pop(next_out)
                    next_out += 1
            else:
                for index in list(finished):
                    yield finished.pop(index)
        for index in sorted(finished):
            yield finished.pop(index)

    def _outcomes(self, ref: Any, slot: int, batch: list[tuple[int, Job]]) -> list[JobOutcome]:
        try:
            shipped: list[Shipped] = self._ray.get(ref)
            return [unship(i, job, s) for (i, job), s in zip(batch, shipped, strict=True)]
        except Exception as exc:  # the actor died (its node lost): the batch fails, not the run
            self._actors[slot] = self._new_actor()
            message = f"the Ray worker died ({type(exc).__name__})"
            return [JobOutcome(i, job, error=Stopped("crash", message)) for i, job in batch]
