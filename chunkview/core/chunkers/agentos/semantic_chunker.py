"""Port of agentos ``SemanticChunker`` (spec/agentos.md §1), quirks included.

The algorithm is ``semantic_reference`` (the spec step by step); ``semantic_line_pass``
and ``semantic_fast`` are its fast paths. A run takes the reference when someone asks
for its reasons (it tells them all), the fast paths otherwise; both tell the run's
observer where each chunk's own part came from (its ``Segment``).
"""

from __future__ import annotations

from typing import Any

from chunkview.core.chunkers.agentos import semantic_fast, semantic_reference
from chunkview.core.model.observer import NOBODY, RunObserver
from chunkview.core.text.kept import kept


def semantic_chunk(
    text: str,
    options: dict[str, Any] | None = None,
    metadata: Any = None,
    observer: RunObserver = NOBODY,
) -> list[dict[str, Any]]:
    """``new SemanticChunker(options).chunk(text, metadata)``: the chunk objects, in order.

    ``observer`` is told the merged segments (``placed``: each chunk's own part, with
    where it came from in ``text``, in units; -1 where the port does not know) and, when
    it wants them, the reasons. Raises ChunkerError("Hang") where the original would
    loop forever."""
    if observer.wants_reasons:
        return semantic_reference.semantic_chunk(text, options, metadata, observer)
    return semantic_fast.semantic_chunk(text, options, metadata, observer)


#: the name the plain test of the last long text is kept under (text/kept.py)
PLAIN = "agentos.plain"


def is_plain(text: str) -> bool:
    """True when ``text`` has no character outside the BMP and no surrogate half, so unit
    strings cut from it are plain texts (kept for the last long text: a slider moving
    over one document asks again and again)."""
    return kept(PLAIN, text, _is_plain)


def _is_plain(text: str) -> bool:
    # one pass in C: strict UTF-16 refuses a surrogate half; an astral character takes
    # four bytes
    try:
        return text.isascii() or len(text.encode("utf-16-le")) == 2 * len(text)
    except UnicodeEncodeError:
        return False
