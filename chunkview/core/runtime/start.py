"""How chunking processes are started: forkserver (with the ports preloaded) or spawn,
fork for a plain single-threaded program, never the caller's main script again; and how a
child ends with the app."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: modules the forkserver imports once (the ports among them), so a new or restarted
#: process is ready in milliseconds
PRELOAD = (
    "chunkview.core.runtime",
    "chunkview.core.runtime.pipeline",
    "chunkview.core.registry",
    "chunkview.core.text.jsonout",
    "chunkview.core.runtime.warmup",
)


_context_lock = threading.Lock()
_context: Any = None


def process_context() -> Any:
    """forkserver where the platform has it (restarts are then cheap), else spawn."""
    global _context
    with _context_lock:
        if _context is None:
            if "forkserver" in multiprocessing.get_all_start_methods():
                _context = multiprocessing.get_context("forkserver")
                _context.set_forkserver_preload(list(PRELOAD))
            else:
                _context = multiprocessing.get_context("spawn")
        return _context


def quick_context() -> Any:
    """fork for a plain single-threaded program such as the CLI (the child is ready at
    once, with everything the parent imported); the safe context anywhere else (threads,
    Qt: never fork those)."""
    if (
        "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and not any(name.startswith(("PySide6", "PyQt")) for name in sys.modules)
    ):
        return multiprocessing.get_context("fork")
    return process_context()


_main_lock = threading.Lock()


def start_without_main(process: Any) -> None:
    """Start ``process`` without making it import the caller's main script again (as
    spawn and forkserver do): the chunking process needs only chunkview, and a script
    read from stdin, or one that imports Qt at the top, must not run in it."""
    from multiprocessing import spawn

    original = spawn.get_preparation_data

    def without_main(name: str) -> dict:
        data = original(name)
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
        return data

    if getattr(process, "_start_method", None) in ("forkserver", "spawn"):
        # the resource tracker they need: started first, as starting it unblocks SIGINT
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    with _main_lock, _sigint_blocked():
        spawn.get_preparation_data = without_main
        try:
            process.start()
        finally:
            spawn.get_preparation_data = original


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT held back in this thread while it starts a process: a Ctrl-C reaches the
    whole process group, and a process starting then (the forkserver importing the
    ports, a child not yet in ``child_main``) would die of it with a traceback. The
    mask is inherited: the forkserver and its children start with SIGINT blocked, and
    ``child_main`` ignores it (the app stops its children itself). A SIGINT that came
    meanwhile reaches this process when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def ignore_interrupts() -> None:
    """In a chunking process: Ctrl-C, which the terminal sends to the whole process
    group, is the app's or the command's to handle (they kill this process); then let
    the signals ``_sigint_blocked`` held back through (they are now ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def die_with_parent() -> None:
    """Linux: have the kernel kill this process when the forkserver that forked it ends
    (it ends with the app), so a hung port never outlives a crashed app."""
    # a forkserver child holds the write end of the pipe the forkserver watches to learn
    # that the app has ended: drop it, or a hung child keeps the forkserver alive
    try:
        from multiprocessing import forkserver
    except ImportError:  # no forkserver on this platform
        forkserver = None  # type: ignore[assignment]
    server = getattr(forkserver, "_forkserver", None)
    alive_fd = getattr(server, "_forkserver_alive_fd", None)
    if alive_fd is not None:
        try:
            os.close(alive_fd)
        except OSError:
            pass
        server._forkserver_alive_fd = None  # type: ignore[union-attr]
    # the signal follows the thread that forked us: only a forkserver's lives as long as
    # its process (a fork from the CLI comes from a short-lived starting thread)
    if alive_fd is None or not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        parent = os.getppid()
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent ended before the call took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


class CancelFlag:
    """Set by the app, read by the chunking process (``RunContext.check``): one byte of
    shared memory, passed to the child as a file descriptor when it starts.

    Not a ``multiprocessing.Event``: that is made of named semaphores, which the app
    unlinks when it exits, so a process still starting then fails to open them and
    prints a FileNotFoundError traceback (quitting right after launch)."""

    def __init__(self, context: Any) -> None:
        self._byte = context.RawValue("b", 0)

    def set(self) -> None:
        self._byte.value = 1

    def clear(self) -> None:
        self._byte.value = 0

    def is_set(self) -> bool:
        return bool(self._byte.value)
