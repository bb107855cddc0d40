"""Search hits of a query in a layout: the first matching word of each chunk.

``search`` gives them all at once (the CLI, the pipeline); ``HitSearch`` gives them in
slices of bounded time, so the app can search a 10 MB document on its UI thread between
two paints and drop the search when the next keystroke comes. Both give the same hits:
agentos ``lexicalTokens`` + ``snippetAround`` on each chunk's text, in chunk order.
"""

from __future__ import annotations

import bisect
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from chunkview.core.model.span_table import SpanTable
from chunkview.core.model.spans import LOCATED, Layout, Span
from chunkview.core.text.kept import keep, kept_for
from chunkview.core.text.lexical import lexical_tokens, snippet_around

_MISSING = LOCATED.index("missing")
#: the name the folded text of the last long document searched is kept under (kept.py),
#: as a 1-tuple (None: folding would move offsets)
FOLDED = "folded text"


@dataclass(frozen=True)
class SearchHit:
    chunk: int
    at: int  # code point in the document
    snippet: str


def folded_text(text: str) -> str | None:
    """``text`` in lower case, aligned with it character for character, or None when
    folding would move offsets (text not in NFC, or a character lowering to several)."""
    folding = Folding(text)
    folding.step(float("inf"))
    return folding.folded


#: how much text one step of a Folding folds before it looks at the clock
_FOLD_BLOCK = 1 << 19


class FoldedBlocks:
    """A folded text as the blocks it was folded in, each ending after a line feed:
    joined, 10 MB took 15-20 ms of the UI thread at once. A query word (letters, digits
    and marks) never holds a line feed, so it never crosses from one block to the next,
    and ``find`` in the blocks finds what it would in the joined text."""

    def __init__(self, blocks: list[str]) -> None:
        self.blocks = blocks
        self.starts: list[int] = []
        at = 0
        for block in blocks:
            self.starts.append(at)
            at += len(block)

    def find(self, word: str, start: int, stop: int) -> int:
        """``joined().find(word, start, stop)`` for a word without a line feed."""
        blocks, starts = self.blocks, self.starts
        i = max(bisect.bisect_right(starts, start) - 1, 0)
        while i < len(blocks) and starts[i] < stop:
            base = starts[i]
            at = blocks[i].find(word, max(start - base, 0), stop - base)
            if at >= 0:
                return base + at
            i += 1
        return -1

    def joined(self) -> str:
        return "".join(self.blocks)


class Folding:
    """``folded_text`` a block at a time, so the UI thread folds 10 MB (about 50 ms)
    between paints. Each block ends after a line feed: neither NFC composition nor the
    final sigma's context (what ``lower`` looks at around a sigma) reaches across one,
    so the blocks fold as the whole text does. ``blocks`` is the result as those blocks
    (None: folding would move offsets); ``folded`` the same joined."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.blocks: FoldedBlocks | None = None
        folded = kept_for(FOLDED, text)
        self.done = folded is not None
        if self.done:
            (self.blocks,) = folded
        self._at = 0
        self._blocks: list[str] = []

    @property
    def folded(self) -> str | None:
        return None if self.blocks is None else self.blocks.joined()

    def step(self, deadline: float) -> bool:
        """Fold on until ``deadline`` (perf_counter seconds); True once done."""
        text = self.text
        while not self.done:
            end = text.find("\n", self._at + _FOLD_BLOCK)
            end = len(text) if end < 0 else end + 1
            block = text[self._at : end]
            lowered = block.lower() if unicodedata.is_normalized("NFC", block) else None
            if lowered is None or len(lowered) != len(block):
                self._blocks, self._at = [], len(text) + 1  # offsets would move: None
            else:
                self._blocks.append(lowered)
                self._at = end
            if self._at >= len(text):
                if self._at == len(text):
                    self.blocks = FoldedBlocks(self._blocks)
                self.done = True
                keep(FOLDED, text, (self.blocks,))
            elif time.perf_counter() > deadline:
                break
        return self.done


class HitSearch:
    """An incremental search: call ``step`` until ``done``; ``hits`` holds what is found."""

    def __init__(self, layout: Layout, query: str) -> None:
        self.layout = layout
        self.query = query
        self.words = lexical_tokens(query)
        self.hits: list[SearchHit] = []
        self._next = 0
        self._folded: FoldedBlocks | None = None
        self._prefiltered = False
        self._folding: Folding | None = None
        self._columns: tuple[Sequence[int], Sequence[int], Sequence[int], Sequence[int]] | None
        self._columns = None

    @property
    def done(self) -> bool:
        return not self.words or self._next >= len(self.layout.spans)

    def step(self, seconds: float = float("inf")) -> list[SearchHit]:
        """Search on for about ``seconds``; the hits found in this step."""
        if self.done:
            return []
        deadline = time.perf_counter() + seconds
        text = self.layout.document.text
        if not self._prefiltered:
            # a chunk without any query word in its folded text cannot match: skip it
            # with a C-level find instead of walking its words (the final sigma folds by
            # context, so a query with sigma walks every chunk)
            if not any(c in word for word in self.words for c in "σς"):
                if self._folding is None:
                    self._folding = Folding(text)
                if not self._folding.step(deadline):
                    return []  # folding the text takes this step: the search goes on next
                self._folded = self._folding.blocks
            self._prefiltered = True
        folded, words = self._folded, self.words
        if self._columns is None:
            self._columns = _span_columns(self.layout.spans)
        starts, ends, located, indexes = self._columns
        found: list[SearchHit] = []
        first = i = self._next
        count = len(starts)
        while i < count:
            if i % 64 == 0 and i > first and time.perf_counter() > deadline:
                break
            start, end = starts[i], ends[i]
            i += 1
            if located[i - 1] == _MISSING:
                continue
            near = 0  # no matching word starts before this offset in the chunk
            if folded is not None:
                # where a query word first occurs in the folded text: a matching word
                # starts there or later (none: the chunk cannot match)
                near = end
                for word in words:  # (one that starts before ``near`` ends before this)
                    at = folded.find(word, start, min(end, near + len(word) - 1))
                    if at >= 0:
                        near = at
                if near == end:
                    continue
                near -= start
            snippet = snippet_around(text[start:end], words, near=near)
            if snippet.at >= 0:
                found.append(SearchHit(indexes[i - 1], start + snippet.at, snippet.text))
        self._next = i
        self.hits.extend(found)
        return found


def _span_columns(
    spans: Sequence[Span],
) -> tuple[Sequence[int], Sequence[int], Sequence[int], Sequence[int]]:
    """Each span's start, end, placement (``_MISSING``: missing) and index: read from a
    table's columns without building a Span (a search of 25,000 would make as many
    objects for the UI thread's collector to walk), or from the spans."""
    if isinstance(spans, SpanTable):
        indexes = spans.indexes if spans.indexes is not None else range(len(spans))
        return spans.starts, spans.ends, spans.located_ids, indexes
    return (
        [s.start for s in spans],
        [s.end for s in spans],
        [_MISSING if s.located == "missing" else -1 for s in spans],
        [s.index for s in spans],
    )


def search(layout: Layout, query: str) -> list[SearchHit]:
    """All the hits at once: the first matching word of each chunk, in chunk order."""
    searcher = HitSearch(layout, query)
    while not searcher.done:
        searcher.step()
    return searcher.hits
