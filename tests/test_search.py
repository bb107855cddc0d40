"""Sliced search gives the same hits as searching each chunk in one go."""

import pytest

from chunkview.core.analysis.search import FoldedBlocks, HitSearch, SearchHit, search
from chunkview.core.build import build_layout
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span
from chunkview.core.text.kept import forget
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


def test_folding_block_by_block_equals_folding_the_whole_text(monkeypatch):
    # the UI thread folds a long text a block at a time, each ending after a line feed
    import random
    import unicodedata

    from chunkview.core.analysis import search as module

    def whole(text):
        if not unicodedata.is_normalized("NFC", text):
            return None
        lowered = text.lower()
        return lowered if len(lowered) == len(text) else None

    monkeypatch.setattr(module, "_FOLD_BLOCK", 5)
    rng = random.Random(8)
    atoms = ["Ab", "ΟΔΟΣ", "Σ", "σ", " ", "\n", "\n\n", "e\u0301", "\u0301", "É", "x", "İ", "ß"]
    folded = 0
    for _ in range(3000):
        text = "".join(rng.choice(atoms) for _ in range(rng.randrange(0, 30)))
        forget()
        folding = module.Folding(text)
        steps = 0
        while not folding.step(0.0):  # a deadline already past: one block a step
            steps += 1
        assert folding.folded == whole(text), repr(text)
        assert module.folded_text(text) == whole(text)
        folded += folding.folded is not None and steps > 0  # in two steps or more
    assert folded > 100


def test_a_chunk_is_read_from_where_a_query_word_first_occurs_with_the_same_hits():
    # each matching chunk's words are read from the start of the word that holds the
    # first place a query word occurs in the folded text, not from the chunk's start:
    # random texts where query words occur inside other words, overlap each other (one
    # starts before another's first place and ends after it), follow marks and digits
    import random

    rng = random.Random(31)
    atoms = [
        "sec", "section", "tion", "ionic", "Sect", "ab", "abc", "b", "x1", "1x", "é",
        "e\u0301", "\u0301b", "Ω", " ", " ", "\n", ", ", "-", "_", "'", "😀",
    ]  # fmt: skip
    queries = ["sec", "section tion", "tion sec", "ion", "ab b", "b ab", "x", "1", "ωb", "é"]
    compared = hits = 0
    for _ in range(400):
        text = "".join(rng.choice(atoms) for _ in range(rng.randrange(1, 120)))
        layout = layout_of(text, rng.randrange(3, 40))
        for query in rng.sample(queries, 3):
            expected = naive(layout, query)
            assert search(layout, query) == expected, (text, query)
            compared += 1
            hits += len(expected)
    assert compared == 1200 and hits > 1000


def test_a_word_is_found_in_the_folded_blocks_as_in_the_joined_text():
    # the folded text stays in the blocks it was folded in (each ending after a line
    # feed): a word without one is found in them where the joined text has it
    import random

    rng = random.Random(5)
    atoms = ["ab", "b", "a", "ba", " ", "x"]
    for _ in range(2000):
        blocks = [
            "".join(rng.choice(atoms) for _ in range(rng.randrange(0, 6))) + "\n"
            for _ in range(rng.randrange(1, 5))
        ]
        blocks[-1] = blocks[-1].rstrip("\n") if rng.random() < 0.5 else blocks[-1]
        folded = FoldedBlocks(blocks)
        joined = folded.joined()
        assert joined == "".join(blocks)
        word = rng.choice(["a", "ab", "ba", "bab", "x"])
        start = rng.randrange(0, len(joined) + 2)
        stop = rng.randrange(0, len(joined) + 3)
        assert folded.find(word, start, stop) == joined.find(word, start, stop)
