"""The watchdog's budgets (time, memory), how sizes are read and written, and the
error it raises when it stops a job."""

from __future__ import annotations

import math
import os
from typing import Literal, TypeAlias

from chunkview.core.errors import ChunkerError

DEFAULT_TIMEOUT = 10.0
#: memory budget of one chunking process, as a fraction of the machine's RAM
DEFAULT_MEMORY_FRACTION = 0.5


#: why the watchdog stopped a job: past its time budget, past its memory budget, or its
#: process died (or could not start)
StopReason: TypeAlias = Literal["time", "memory", "crash"]


class Stopped(ChunkerError):
    """The watchdog stopped a job, for ``reason``."""

    def __init__(self, reason: StopReason, message: str) -> None:
        super().__init__("Stopped", message)
        self.reason = reason


# ----- budgets and process context -------------------------------------------------------


def machine_memory() -> int:
    """Total RAM in bytes (4 GiB when the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def default_max_memory() -> int:
    return int(machine_memory() * DEFAULT_MEMORY_FRACTION)


def parse_size(text: str) -> int:
    """``2G``, ``512M``, ``1.5g``, ``300000000`` -> bytes; ValueError saying what it takes."""
    units = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    raw = text.strip().upper().removesuffix("IB").removesuffix("B")
    number, unit = (raw[:-1], raw[-1]) if raw and raw[-1] in units else (raw, "")
    try:
        value = float(number) * units[unit]
    except ValueError:
        raise ValueError(f"a size such as 2G or 512M, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"a size above zero such as 2G or 512M, got {text!r}")
    return int(value)


def format_bytes(size: float) -> str:
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size:.0f} bytes"


def resident_bytes(pid: int) -> int:
    """Resident set of process ``pid`` in bytes (0 when unknown)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
