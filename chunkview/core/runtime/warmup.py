"""Imported once by the forkserver (service.PRELOAD), never by the app: the ports and the
cl100k token table are loaded there, so every chunking process forked from it starts
ready (a new or restarted process then costs milliseconds, not a second)."""

from chunkview.core import registry
from chunkview.core.text.tokens import count_many

registry.entries()
try:
    count_many(["warm up"], "cl100k")
except Exception:  # counting is optional; a missing table shows when it is used
    pass
