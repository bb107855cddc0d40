"""A job that runs beside the UI in a plain daemon thread (it only waits on chunking
processes) and hands what it finds to the UI thread through queued signals: a sweep, an
audit. One runs at a time; ``cancel`` asks the running one to stop."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject


class BackgroundJob(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.cancel = threading.Event()
        # not self.thread: that is QObject.thread()
        self.job_thread: threading.Thread | None = None

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
