"""A chunk that ends inside a sentence (ICU sentence boundaries, as Intl.Segmenter).

A line break ends a sentence for ICU, so chunks cut at a heading, a list item, a table row
or a hard-wrapped line do not count; only a cut inside a line of running text does.
"""

from __future__ import annotations

import bisect

from chunkview.core.checks.context import PROSE_KINDS, CheckInput
from chunkview.core.checks.markdown import first_ink
from chunkview.core.model.spans import Warning
from chunkview.core.text.segment import boundaries

KIND = "mid-sentence"
#: characters of context before and after a chunk end given to the segmenter (ICU's
#: sentence rules look back over a terminator, closing marks and spaces only)
BEFORE, AFTER = 100, 50
_SEPARATORS = "\n\r\u2029\x85"  # ICU breaks after each of these, always (rule SB4)


def ends_sentence(text: str, end: int) -> bool:
    """True when a sentence boundary lies at ``end`` (white space around it aside)."""
    low = end
    while low > 0 and text[low - 1].isspace():
        low -= 1
    high = first_ink(text, end)
    if low == 0 or high >= len(text):
        return True
    if any(c in _SEPARATORS for c in text[low:high]):
        return True
    begin = max(0, low - BEFORE)
    window = text[begin : min(len(text), high + AFTER)]
    return any(low <= begin + stop <= high for _, stop in boundaries(window, "sentence"))


def check(given: CheckInput) -> list[Warning]:
    if given.document.kind not in PROSE_KINDS:
        return []
    text = given.document.text
    # a cut inside a table or a code block is those checks' business, not a sentence's
    blocks = sorted(
        [(t.start, t.end) for t in given.structure.tables]
        + [(f.start, f.end) for f in given.structure.fences]
    )
    block_starts = [start for start, _ in blocks]

    def in_block(position: int) -> bool:
        i = bisect.bisect_right(block_starts, position) - 1
        return i >= 0 and position < blocks[i][1]

    cut = [
        s
        for s in given.located
        if s.end > s.start and not in_block(s.end) and not ends_sentence(text, s.end)
    ]
    total = len(given.located)
    warnings = []
    for span in cut:
        tail = text[max(span.start, span.end - 30) : span.end].lstrip().replace("\n", " ")
        head = text[span.end : span.end + 20].rstrip().replace("\n", " ")
        warnings.append(
            Warning(
                KIND,
                f"chunk {span.index} ends mid-sentence: “…{tail}|{head}…” "
                f"({len(cut)} of {total} chunks, {100 * len(cut) / total:.0f}%)",
                max(span.start, span.end - 1),
                span.end,
                span.index,
            )
        )
    return warnings
