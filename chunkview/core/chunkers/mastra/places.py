"""Where the recursive split cut each chunk from the text, noted as it cuts.

The app places every chunk in the text to draw it. Searching for each of the ten
thousand chunks of a long text costs more than the run that made them, and the split
knows where each one came from: the offset of its first piece. A run that places its
chunks next sets a ``PlaceNotes`` for the current context (``noting_places``), as a run
that explains itself sets its notes (explain.py); the measured split (recursive.py)
fills it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class PlaceNotes:
    """Each chunk's start in the text, in UTF-16 units (-1: not known), and whether the
    chunk is the text there as it is (``verbatim``: 1) or was joined otherwise (0: empty
    pieces dropped between its pieces, or a regex's source as the glue), in chunk order.
    ``rewritten``: by chunk number, where a chunk joined otherwise ends in the text (its
    first piece to its last), when known. ``complete``: the split noted every chunk of
    the run (a run that falls back to the library's loop at its top notes none).
    ``for_reasons``: the split took the loop only because the run gives reasons; the
    measured split would have noted the places."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.verbatim = bytearray()
        self.rewritten: dict[int, int] = {}
        self.complete = False
        self.for_reasons = False

    def unknown(self, count: int) -> None:
        """``count`` chunks whose places are not known."""
        self.starts += [-1] * count
        self.verbatim += bytes(count)


_current: ContextVar[PlaceNotes | None] = ContextVar("mastra_places", default=None)


@contextmanager
def noting_places() -> Iterator[PlaceNotes]:
    """Notes the places of the run inside the block, for whoever places its chunks."""
    notes = PlaceNotes()
    token = _current.set(notes)
    try:
        yield notes
    finally:
        _current.reset(token)


def current() -> PlaceNotes | None:
    """The notes of the run in progress, or None when nobody asked for them."""
    return _current.get()
