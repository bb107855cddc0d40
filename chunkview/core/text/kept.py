"""What a port reads from a long text before any option counts, kept for its next run.

The app runs one document again at every option change. A reading of the text alone (an
outline, its layout blocks, where its fence lines are) is made once and kept by the
text's identity: one text for each kind of reading. ``forget`` lets go of them all, as
the chunking process does when a new document comes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

#: a text this long or longer is worth keeping readings of; shorter ones are read in
#: microseconds
LONG_TEXT = 65_536

Reading = TypeVar("Reading")

#: by kind of reading: the text it was made of, and the reading
_kept: dict[str, tuple[str, Any]] = {}


def kept(name: str, text: str, read: Callable[[str], Reading]) -> Reading:
    """``read(text)``, kept under ``name`` while ``text`` is the last long text read
    so (the same object: not to be changed by the caller)."""
    if len(text) < LONG_TEXT:
        return read(text)
    entry = _kept.get(name)
    if entry is not None and entry[0] is text:
        return entry[1]
    reading = read(text)
    _kept[name] = (text, reading)
    return reading


def forget() -> None:
    """Let go of every kept reading and the texts they were made of."""
    _kept.clear()


def kept_names() -> list[str]:
    """The kinds of reading kept now."""
    return sorted(_kept)
