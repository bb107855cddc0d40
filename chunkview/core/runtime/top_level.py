"""A user's file's top-level code, run in the chunking process under a guard: an alarm
a little before the watchdog's budget, so a file that never finishes loading is stopped
with the file and line it was on (the watchdog, which can only kill, stays behind it for
code stuck in C); and ``os._exit`` raising there instead, so a file that would end the
process says where instead."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

#: the share of the watchdog's budget the alarm leaves the top-level code
ALARM_SHARE = 0.8


class TopLevelTimeout(Exception):
    """The file's top-level code ran past its time (raised where it was running)."""


class TopLevelExit(Exception):
    """The file's top-level code called ``os._exit`` (raised there instead)."""


@contextmanager
def guarded_top_level(seconds: float | None) -> Iterator[None]:
    """Run the ``with`` block with an alarm after ``seconds`` (None: no alarm) and
    ``os._exit`` raising ``TopLevelExit``; both as before afterwards."""
    alarm = seconds if seconds is not None and seconds > 0 and hasattr(signal, "setitimer") else 0.0

    def on_alarm(_signum: int, _frame: Any) -> None:
        raise TopLevelTimeout(f"the file's top-level code was still running after {seconds:g} s")

    def exit_called(status: int) -> NoReturn:
        raise TopLevelExit(f"the file's top-level code called os._exit({status!r})")

    real_exit = os._exit
    previous = signal.signal(signal.SIGALRM, on_alarm) if alarm else None
    os._exit = exit_called  # type: ignore[assignment]
    try:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, alarm)
        yield
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        os._exit = real_exit
