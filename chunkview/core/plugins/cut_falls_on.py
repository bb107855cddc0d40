"""What a cut falls on: the reasons of a chunker that gives none (a function, a library).

A user's function or an installed library says nothing of why it cut where it did, so each
boundary is described by what lies at it in the text: inside a fenced block, a table or a
heading (the Markdown structure the checks compute), else a blank line, a line end, a
sentence end, a word boundary or the inside of a word. These are observations, not the
chunker's rules: their ``Reason.source`` is ``observed``, shown as "what the cut falls on"
apart from the ports' rule-based reasons ("why the library cut here"). Lives with the
plugins (not in core.analysis) because the plugin entries attach them and the layers let
a layer use only those below it.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkview.core.checks.markdown import Structure, structure
from chunkview.core.chunkers.entry import Chunking
from chunkview.core.model.explain import Reason
from chunkview.core.model.observer import RunObserver
from chunkview.core.model.span_table import SpanTable

#: the words for each kind of place a cut can fall on
_WORDS = {
    "inside-fence": "inside a code fence",
    "inside-table": "inside a table",
    "inside-heading": "inside a heading",
    "blank-line": "a blank line",
    "line-end": "a line end",
    "sentence-end": "a sentence end",
    "word-boundary": "a word boundary",
    "inside-word": "inside a word",
}
#: what may close a sentence after its stop: quotes and brackets
_CLOSERS = "\"')]}\u2019\u201d"
_LINE_BREAKS = "\n\r\u2028\u2029"


def _inside(ranges: Sequence[tuple[int, int]], at: int) -> bool:
    """``at`` is strictly within one of the ranges (a cut at a range's edge is outside)."""
    return any(start < at < end for start, end in ranges)


def _line_breaks(gap: str) -> int:
    """Line breaks in white space, with \\r\\n counted once."""
    return gap.replace("\r\n", "\n").count("\n") + sum(gap.count(c) for c in "\r\u2028\u2029")


def _plain_kind(text: str, at: int) -> str:
    """The kind of place ``at`` is outside any Markdown block: the white space around it
    decides (two line breaks: a blank line; one: a line end), then the characters either
    side (a stop before: a sentence end; a letter or digit on both sides: inside a word)."""
    before = at
    while before > 0 and text[before - 1].isspace():
        before -= 1
    after = at
    while after < len(text) and text[after].isspace():
        after += 1
    breaks = _line_breaks(text[before:after].replace(" ", "").replace("\t", ""))
    if breaks >= 2:
        return "blank-line"
    if breaks == 1:
        return "line-end"
    if before == 0 or after >= len(text):  # white space to an end of the text
        return "word-boundary"
    last = before
    while last > 0 and text[last - 1] in _CLOSERS:
        last -= 1
    stop = last > 0 and text[last - 1] in ".!?\u3002\uff01\uff1f"
    # "3.14" and "e.g" cut at the stop go on: no sentence ends where a letter follows at once
    if stop and (before < after or not text[after].isalnum()):
        return "sentence-end"
    if before == after and text[at - 1].isalnum() and text[at].isalnum():
        return "inside-word"
    return "word-boundary"


def falls_on(text: str, at: int, blocks: Structure | None = None) -> tuple[str, str]:
    """What the cut at code point ``at`` of ``text`` falls on: a rule id (``blank-line``,
    ``line-end``, ``sentence-end``, ``word-boundary``, ``inside-word``, ``inside-fence``,
    ``inside-table``, ``inside-heading``) and its words. ``blocks``: the text's Markdown
    structure (``checks.markdown.structure``), parsed here when not given."""
    blocks = structure(text) if blocks is None else blocks
    if _inside([(f.start, f.end) for f in blocks.fences], at):
        kind = "inside-fence"
    elif _inside([(t.start, t.end) for t in blocks.tables], at):
        kind = "inside-table"
    elif _inside([(h.start, h.end) for h in blocks.headings], at):
        kind = "inside-heading"
    else:
        kind = _plain_kind(text, at)
    return kind, _WORDS[kind]


def cut_reason(text: str, at: int, blocks: Structure | None = None) -> Reason:
    """The reason of a cut at ``at``, as "what the cut falls on"."""
    kind, words = falls_on(text, at, blocks)
    return Reason(at=at, rule=kind, text=words, source="observed")


def cut_reasons(text: str, own_starts: Sequence[int]) -> dict[int, Reason]:
    """A reason for each chunk after the first, by chunk index, at the chunk's own start."""
    if len(own_starts) < 2:
        return {}
    blocks = structure(text)
    return {i: cut_reason(text, own_starts[i], blocks) for i in range(1, len(own_starts))}


def explain_cuts(chunking: Chunking, observer: RunObserver) -> None:
    """When ``observer`` wants reasons, give each span after the first what its cut falls
    on, and tell the observer (as ``Entry.chunk`` does with a port's reasons)."""
    if not observer.wants_reasons:
        return
    spans = chunking.spans
    if isinstance(spans, SpanTable):
        own_starts: Sequence[int] = spans.own_starts
    else:
        own_starts = [span.own_start for span in spans]
    reasons = cut_reasons(chunking.shown.text, own_starts)
    if isinstance(spans, SpanTable):
        spans.set_reasons(reasons)
    else:
        for i, reason in reasons.items():
            spans[i].reason = reason
    for reason in reasons.values():
        observer.reason(reason)
