"""Sliced search gives the same hits as searching each chunk in one go."""

import pytest

from chunkview.core.document import Document
from chunkview.core.search import HitSearch, SearchHit, search
from chunkview.core.spans import Span, build_layout
from chunkview.core.text.lexical import lexical_tokens, snippet_around


def layout_of(text: str, size: int):
    spans = [
        Span(i, start, min(start + size, len(text)), start, "fixed", text[start : start + size])
        for i, start in enumerate(range(0, len(text), size))
    ]
    return build_layout(Document(text), spans)


def naive(layout, query):
    words = lexical_tokens(query)
    hits = []
    for span in layout.spans:
        found = snippet_around(layout.document.text[span.start : span.end], words)
        if found.at >= 0:
            hits.append(SearchHit(span.index, span.start + found.at, found.text))
    return hits


TEXTS = [
    "Apples and pears. " * 200,
    "ΟΔΟΣ και οδός, Straße STRASSE İstanbul ıi " * 50,  # sigma, sharp s, dotted I
    "cafe\u0301 café Cafe\u0301s 😀 naïve " * 80,  # not NFC, astral
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("query", ["apple", "PEAR s", "οδος", "οδοσ", "istanbul", "café", "naïve"])
def test_sliced_search_matches_the_whole_search(text, query):
    layout = layout_of(text, 97)
    expected = naive(layout, query)
    assert search(layout, query) == expected
    searcher = HitSearch(layout, query)
    slices = 0
    while not searcher.done:
        searcher.step(0)  # the smallest slices: 64 chunks at most
        slices += 1
    assert searcher.hits == expected
    if len(layout.spans) > 64:
        assert slices > 1


def test_an_empty_query_is_done_at_once():
    searcher = HitSearch(layout_of("some text here", 4), "  ")
    assert searcher.done and searcher.step() == []
