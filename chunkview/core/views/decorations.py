"""What every painter draws: a layout, a range, a query and a comparison, turned into runs.

The editor, the HTML export and the PNG render all paint from ``decorations``, so they
cannot disagree on where a chunk, an overlap, a boundary or a search hit is.
"""

from __future__ import annotations

from dataclasses import dataclass

from chunkview.core.analysis.compare import BoundaryComparison
from chunkview.core.model.explain import reason_label
from chunkview.core.model.spans import Layout, Span
from chunkview.core.text.lexical import WORD_RE, fold, lexical_tokens

#: the run kinds, in the order they are painted (later ones on top)
RUN_KINDS = ("chunk", "overlap", "moved", "hit", "boundary", "diff")

#: how each kind of boundary change is drawn everywhere (Okabe-Ito colours, told apart
#: under the common colour-vision deficiencies, and a line style each so they differ
#: without colour too): colour, line style, legend text
DIFF_STYLES = {
    "kept": ("#8C8C8C", "dotted", "kept"),
    "moved": ("#0072B2", "solid", "moved"),
    "added": ("#009E73", "solid", "added in B"),
    "removed": ("#D55E00", "dashed", "removed in B"),
}


@dataclass(frozen=True)
class Run:
    """One thing to paint over ``start..end`` (code points; a boundary has start == end).

    ``chunk`` is the chunk the run belongs to (its own part, its overlap prefix, the
    boundary where its own part starts); ``label`` is the boundary kind for a boundary,
    and for a ``diff`` mark (a boundary of the comparison, at its B place or, removed,
    its A place) the change: kept, moved, added or removed. A ``moved`` run is the
    stretch a moved boundary travelled, from its A place to its B place.
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


def boundary_label(span: Span, by_reason: bool = False) -> str:
    """What a boundary is coloured and listed by: its kind, or the rule of its reason (the
    kind when it has none)."""
    if by_reason and span.reason is not None:
        return reason_label(span.reason)
    return span.kind


def decorations(
    layout: Layout,
    start: int = 0,
    end: int | None = None,
    query: str = "",
    diff: BoundaryComparison | None = None,
    selected: int | None = None,
    by_reason: bool = False,
) -> list[Run]:
    """The runs meeting ``start..end`` of ``layout.document.text``, in painting order:
    each chunk's own part and the overlap it repeats, the stretches moved boundaries
    travelled, the search hits, the boundaries (where each chunk's own part starts, after
    the first) and the changes of a comparison with a layout B (``diff``, from
    compare.py). The cost follows the range, not the text. A boundary's label is its kind,
    or with ``by_reason`` the rule of its reason (``boundary_label``)."""
    text = layout.document.text
    end = len(text) if end is None else end
    chunks: list[Run] = []
    overlaps: list[Run] = []
    boundaries: list[Run] = []
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
                Run(
                    "boundary",
                    span.own_start,
                    span.own_start,
                    span.index,
                    boundary_label(span, by_reason),
                )
            )
    hits = []
    if query:
        # a word cut by the range's start still counts as a whole word
        word_start = start
        while word_start > max(0, start - 256) and text[word_start - 1].isalnum():
            word_start -= 1
        hits = [Run("hit", a, b) for a, b in matching_words(text, query, word_start, end)]
    moved, marks = [], []
    for change in diff.changes_between(start, end) if diff is not None else ():
        # a moved boundary has a position on both sides
        if change.kind == "moved" and change.a is not None and change.b is not None:
            low, high = sorted((change.a, change.b))
            moved.append(Run("moved", low, high, None, "moved"))
        if start <= change.at <= end:
            marks.append(Run("diff", change.at, change.at, None, change.kind))
    return chunks + overlaps + moved + hits + boundaries + marks
