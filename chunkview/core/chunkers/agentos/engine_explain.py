"""Why agentos ChunkingEngine cut where it did (see core/explain.py).

The reference (engine_reference.py) tells its observer these reasons as it goes. Each is
a ``Reason`` for the chunk numbered ``at``: the next chunk the engine emits, so a reason
is told just before the chunk it explains. Positions and sizes are UTF-16 units, as the
library counts them.
"""

from __future__ import annotations

from chunkview.core.model.explain import Reason
from chunkview.core.text.js import W_CHARS, number_text

THRESHOLD = 0.3  # engine_text.SIMILARITY_THRESHOLD


def window(
    at: int,
    size: float,
    overlap: float,
    content: str,
    origin: int,
    start: int,
    end: int,
    following: int,
) -> Reason:
    """F's window [start, end) of ``content`` (at ``origin`` in the units) was emitted;
    the next starts at ``following`` (spec/agentos.md §2.2)."""
    if end < start + size:
        rule = "window-space"
        how = (
            f"the window of chunkSize {number_text(size)} from {origin + start:,} stepped "
            f"back to the white space at {origin + end:,}"
        )
    elif end < len(content) and content[end] in W_CHARS:
        rule = "window"
        how = (
            f"the window of chunkSize {number_text(size)} from {origin + start:,} ended on "
            "white space"
        )
    else:
        rule = "window-hard"
        how = (
            f"the window of chunkSize {number_text(size)} from {origin + start:,} had no "
            "white space to step back to: a hard cut"
        )
    if following < end:
        how += (
            f"; this window starts chunkOverlap {number_text(overlap)} units before that "
            f"end, at {origin + following:,}"
        )
    return Reason(at, rule, how)


def group(at: int, number: int, cut_similarities: list[float], length: int, size: float) -> Reason:
    """Semantic strategy: group ``number`` of sentences, ``length`` units, comes next."""
    if number == 0:
        words = ["the first group of sentences"]
        rule = "start"
    else:
        similarity = cut_similarities[number - 1]
        words = [
            f"similarity {similarity:.3f} of the two sentences here < {THRESHOLD}: a new group"
        ]
        rule = "similarity"
    if length > 2 * size:
        words.append(
            f"the group of {length:,} units > 2 × chunkSize {number_text(size)}: cut into windows"
        )
    return Reason(at, rule, "; ".join(words))


def section(at: int, heading: str | None, level: int, length: int, size: float) -> Reason:
    """Hierarchical strategy: a section (``heading`` as shown; None: the text before
    the first heading) with a body of ``length`` units comes next."""
    if heading is None:
        words = ["the text before the first heading"]
        rule = "preamble"
    else:
        words = [f"heading “{heading}” (level {level}) starts a section"]
        rule = "heading"
    if length > size:
        words.append(
            f"its body of {length:,} units > chunkSize {number_text(size)}: cut into windows"
        )
    return Reason(at, rule, "; ".join(words))


def block(at: int, kind: str, length: int, size: float) -> Reason:
    """Layout strategy: a code block, a table or the prose between them comes next."""
    if kind == "code":
        return Reason(
            at, "code-block", "a ``` fence at the start of a line: the code block kept whole"
        )
    if kind == "table":
        return Reason(at, "table", "lines holding “|”: the table kept whole")
    text = "prose between code blocks and tables"
    if length > size:
        text += f"; {length:,} units > chunkSize {number_text(size)}: cut into windows"
    return Reason(at, "prose", text)
