"""What every painter draws: a layout, a range, a query and a comparison, turned into runs.

The editor, the HTML export and the PNG render all paint from ``decorations``, so they
cannot disagree on where a chunk, an overlap, a boundary or a search hit is.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from chunkview.core.spans import Layout
from chunkview.core.text.lexical import WORD_RE, fold, lexical_tokens

#: the run kinds, in the order they are painted (later ones on top)
RUN_KINDS = ("chunk", "overlap", "hit", "boundary", "pinned")


@dataclass(frozen=True)
class Run:
    """One thing to paint over ``start..end`` (code points; a boundary has start == end).

    ``chunk`` is the chunk the run belongs to (its own part, its overlap prefix, the
    boundary where its own part starts); ``label`` is the boundary kind for a boundary,
    and for a pinned boundary whether the current layout ``kept`` it or it is ``gone``.
    """

    kind: str
    start: int
    end: int
    chunk: int | None = None
    label: str = ""
    selected: bool = False


def matching_words(
    text: str, query: str, start: int = 0, end: int | None = None
) -> list[tuple[int, int]]:
    """Ranges of the words of ``text[start:end]`` that begin with a query word."""
    prefixes = tuple(lexical_tokens(query))
    if not prefixes:
        return []
    stop = len(text) if end is None else end
    return [
        (m.start(), m.end())
        for m in WORD_RE.finditer(text, start, stop)
        if fold(m.group()).startswith(prefixes)
    ]


def decorations(
    layout: Layout,
    start: int = 0,
    end: int | None = None,
    query: str = "",
    pinned: Sequence[int] = (),
    selected: int | None = None,
) -> list[Run]:
    """The runs meeting ``start..end`` of ``layout.document.text``, in painting order:
    each chunk's own part and the overlap it repeats, the search hits, the boundaries
    (where each chunk's own part starts, after the first) and the boundaries of a pinned
    layout (``pinned``: sorted code points). The cost follows the range, not the text."""
    text = layout.document.text
    end = len(text) if end is None else end
    chunks: list[Run] = []
    overlaps: list[Run] = []
    boundaries: list[Run] = []
    current: set[int] = set()
    for span in layout.spans_between(start, end):
        if span.located == "missing":
            continue
        is_selected = span.index == selected
        if span.own_start < span.end:
            chunks.append(Run("chunk", span.own_start, span.end, span.index, "", is_selected))
        if span.start < span.own_start:
            overlaps.append(Run("overlap", span.start, span.own_start, span.index))
        if span.index > 0 and start <= span.own_start <= end:
            boundaries.append(
                Run("boundary", span.own_start, span.own_start, span.index, span.kind)
            )
        current.add(span.own_start)
    hits = []
    if query:
        # a word cut by the range's start still counts as a whole word
        word_start = start
        while word_start > max(0, start - 256) and text[word_start - 1].isalnum():
            word_start -= 1
        hits = [Run("hit", a, b) for a, b in matching_words(text, query, word_start, end)]
    marks = []
    for point in pinned[bisect.bisect_left(pinned, start) : bisect.bisect_right(pinned, end)]:
        marks.append(Run("pinned", point, point, None, "kept" if point in current else "gone"))
    return chunks + overlaps + hits + boundaries + marks
