"""Why agentos ChunkingEngine cut where it did (see core/explain.py).

chunking_engine.py calls these only when the run explains itself (``_Windows.notes`` is
``ctx.explain``). Each records a ``Reason`` for the next chunk the engine emits (``at`` is
its index), so a reason is noted just before the chunk it explains. Positions and sizes
are UTF-16 units, as the library counts them.
"""

from __future__ import annotations

from typing import Any

from chunkview.core.model.explain import Reason
from chunkview.core.text.js import W_CHARS, number_text

THRESHOLD = 0.3  # chunking_engine.SIMILARITY_THRESHOLD


def _note(windows: Any, rule: str, text: str) -> None:
    windows.notes.append(Reason(len(windows.chunks), rule, text))


def window(windows: Any, content: str, origin: int, start: int, end: int, following: int) -> None:
    """The window [start, end) was emitted; the next starts at ``following``."""
    size, overlap = windows.size, windows.overlap
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
    _note(windows, rule, how)


def group(windows: Any, number: int, cut_similarities: list[float], text: str) -> None:
    """Semantic strategy: group ``number`` of sentences is about to be emitted."""
    if number == 0:
        words = ["the first group of sentences"]
        rule = "start"
    else:
        similarity = cut_similarities[number - 1]
        words = [
            f"similarity {similarity:.3f} of the two sentences here < {THRESHOLD}: a new group"
        ]
        rule = "similarity"
    if len(text) > 2 * windows.size:
        words.append(
            f"the group of {len(text):,} units > 2 × chunkSize {number_text(windows.size)}: "
            "cut into windows"
        )
    _note(windows, rule, "; ".join(words))


def section(windows: Any, heading: str | None, level: int, body: str, ancestors: list) -> None:
    """Hierarchical strategy: a section is about to be emitted."""
    if heading is None:
        words = ["the text before the first heading"]
        rule = "preamble"
    else:
        shown = windows.text(heading)
        words = [f"heading “{shown}” (level {level}) starts a section"]
        rule = "heading"
    if len(body) > windows.size:
        words.append(
            f"its body of {len(body):,} units > chunkSize {number_text(windows.size)}: cut "
            "into windows"
        )
    _note(windows, rule, "; ".join(words))


def block(windows: Any, kind: str, size: int) -> None:
    """Layout strategy: a code block, a table or the prose between them."""
    if kind == "code":
        _note(
            windows, "code-block", "a ``` fence at the start of a line: the code block kept whole"
        )
    elif kind == "table":
        _note(windows, "table", "lines holding “|”: the table kept whole")
    else:
        text = "prose between code blocks and tables"
        if size > windows.size:
            text += f"; {size:,} units > chunkSize {number_text(windows.size)}: cut into windows"
        _note(windows, "prose", text)
