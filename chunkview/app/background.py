"""A job that runs beside the UI in a plain daemon thread (it only waits on chunking
processes) and hands what it finds to the UI thread through queued signals: a sweep, an
audit. One runs at a time; ``cancel`` asks the running one to stop, and ``kill_pools``
ends the processes of the pools its runs hold (a stop between results would wait for the
ones being chunked)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject

from chunkview.core.runtime import ChunkPool


class BackgroundJob(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.cancel = threading.Event()
        # not self.thread: that is QObject.thread()
        self.job_thread: threading.Thread | None = None
        #: the pools of the runs still going (an older run may not have left yet)
        self._pools: list[ChunkPool] = []
        self._pools_lock = threading.Lock()

    def launch(self, run: Callable[..., None], *args: Any) -> None:
        """Run ``run(*args, cancel)`` in a new thread, with a cancel event of its own."""
        self.cancel = threading.Event()
        self.job_thread = threading.Thread(target=run, args=(*args, self.cancel), daemon=True)
        self.job_thread.start()

    def wait(self, timeout: float) -> None:
        if self.job_thread is not None:
            self.job_thread.join(timeout)

    @staticmethod
    def deliver(signal: Any, *args: Any) -> None:
        """``signal.emit(*args)``, or nothing when its panel is gone (the app quit while
        the job ran)."""
        try:
            signal.emit(*args)
        except RuntimeError:
            pass

    def hold_pool(self, pool: ChunkPool, cancel: threading.Event) -> bool:
        """Keep ``pool`` where ``kill_pools`` finds it while its run uses it; False (not
        held) when the run was cancelled already: nothing would kill it then."""
        with self._pools_lock:
            if cancel.is_set():
                return False
            self._pools.append(pool)
            return True

    def release_pool(self, pool: ChunkPool) -> None:
        """Forget ``pool`` (its run is done with it; a newer run's stays held)."""
        with self._pools_lock:
            if pool in self._pools:
                self._pools.remove(pool)

    def kill_pools(self) -> None:
        """End the processes of every pool held (any thread)."""
        with self._pools_lock:
            pools = list(self._pools)
        for pool in pools:
            pool.kill()

    @property
    def idle(self) -> bool:
        """True when no run holds chunking processes."""
        with self._pools_lock:
            return not self._pools
