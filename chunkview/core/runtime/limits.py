"""The watchdog's budgets (time, memory), how sizes are read and written, and the
error it raises when it stops a job."""

from __future__ import annotations

import argparse
import math
import os
import signal
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


# ----- the budgets' one validation ---------------------------------------------------------
#
# Every way a budget arrives (the settings, Preferences, the CLI's --timeout and
# --max-memory, ChunkService and ChunkPool) goes through check_timeout and
# check_max_memory: a budget of nan, inf, 0 or below would turn the watchdog off or fail
# every job, and one past the machine's RAM would never be reached.

#: the time budget's range in seconds: a tenth of a second up to a day
TIMEOUT_RANGE = (0.1, 86_400.0)
#: the smallest memory budget: a chunking process with its libraries needs about this
MIN_MAX_MEMORY = 64 * 2**20


class BudgetError(ValueError):
    """A budget outside its range, or not a number; the message is one line saying what
    is taken."""


def max_memory_range() -> tuple[int, int]:
    """The memory budget's range in bytes: 64 MB up to the machine's RAM."""
    return MIN_MAX_MEMORY, max(machine_memory(), MIN_MAX_MEMORY)


def check_timeout(value: object) -> float:
    """A time budget in seconds (a number, or its text) within TIMEOUT_RANGE; BudgetError
    otherwise (nan, inf, 0, negative, too long, not a number)."""
    low, high = TIMEOUT_RANGE
    taken = f"a time budget from {low:g} s to {high:g} s (24 h)"
    if isinstance(value, bool):
        raise BudgetError(f"{taken}, got {value!r}")
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise BudgetError(f"{taken}, got {value!r}") from None
    if not math.isfinite(seconds) or not low <= seconds <= high:
        raise BudgetError(f"{taken}, got {value!r}")
    return seconds


def check_max_memory(value: object) -> int:
    """A memory budget in bytes (an int, or a size such as ``2G`` or ``512M``) within
    ``max_memory_range()``; BudgetError otherwise (nan, inf, 0, negative, past the RAM)."""
    low, high = max_memory_range()
    taken = f"a memory budget from {format_bytes(low)} to {format_bytes(high)} (the RAM)"
    if isinstance(value, bool):
        raise BudgetError(f"{taken}, got {value!r}")
    try:
        if isinstance(value, str):
            size = float(parse_size(value))
        elif isinstance(value, (int, float)):
            size = float(value)
        else:
            raise ValueError
    except (ValueError, OverflowError):
        raise BudgetError(f"{taken}, such as 2G or 512M; got {value!r}") from None
    if not math.isfinite(size) or not low <= size <= high:
        raise BudgetError(f"{taken}, got {value!r}")
    return int(size)


def timeout_argument(text: str) -> float:
    """``check_timeout`` for a command-line argument: argparse's ``type=`` for
    ``--timeout`` (a bad value is argparse's exit 2 with this one-line reason)."""
    try:
        return check_timeout(text)
    except BudgetError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def max_memory_argument(text: str) -> int:
    """``check_max_memory`` for ``--max-memory`` (argparse's ``type=``)."""
    try:
        return check_max_memory(text)
    except BudgetError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def stored_timeout(value: object) -> tuple[float, str | None]:
    """A time budget as stored (settings): itself when good, else the default and a note
    saying what was wrong; unset (None or "") is the default without a note."""
    if value is None or value == "":
        return DEFAULT_TIMEOUT, None
    try:
        return check_timeout(value), None
    except BudgetError as error:
        return DEFAULT_TIMEOUT, f"stored time budget ignored, {DEFAULT_TIMEOUT:g} s used: {error}"


def stored_max_memory(value: object) -> tuple[int | None, str | None]:
    """A memory budget as stored: itself when good, else None (the default, half the RAM)
    and a note saying what was wrong; unset is the default without a note."""
    if value is None or value == "":
        return None, None
    try:
        return check_max_memory(value), None
    except BudgetError as error:
        default = format_bytes(default_max_memory())
        return None, f"stored memory budget ignored, {default} used: {error}"


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


def oom_kill_count() -> int:
    """How many processes the kernel's out-of-memory killer has killed since boot
    (``oom_kill`` in /proc/vmstat, cgroup limits included; 0 where it is not kept): a
    SIGKILL is put down to memory only when this count went up meanwhile."""
    try:
        with open("/proc/vmstat", "rb") as handle:
            for line in handle:
                if line.startswith(b"oom_kill "):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def death_words(exit_code: int | None, out_of_memory: bool) -> str:
    """How a chunking process ended, in words that guess at nothing: a SIGKILL is
    "was killed" unless the kernel recorded an out-of-memory kill meanwhile."""
    if exit_code is None:
        return "the chunking process ended"
    if exit_code >= 0:
        return f"the chunking process died with status {exit_code}"
    try:
        name = signal.Signals(-exit_code).name
    except ValueError:
        name = f"signal {-exit_code}"
    if exit_code == -signal.SIGKILL and out_of_memory:
        return "the chunking process was killed by the system for want of memory (SIGKILL)"
    if exit_code == -signal.SIGKILL:
        return "the chunking process was killed (SIGKILL)"
    if exit_code == -signal.SIGTERM:
        return "the chunking process was told to end (SIGTERM)"
    return f"the chunking process died of {name}"


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
