"""semantic-chunking's fast paths give what the reference gives (reference.py, the spec
step by step): one property test for each, on generated texts and the option ranges of
the conformance harness (conformance/cases.py: zero, negatives, fractions, huge values,
a bool where a number goes)."""

import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chunkview.core.chunkers.entry import RunContext
from chunkview.core.chunkers.semantic_chunking import (
    chunker,
    packing,
    reference,
    sentences,
    similarity,
)
from chunkview.core.text.embed import hash64_vector
from chunkview.core.text.js import option, to_units
from chunkview.core.text.tokens import wordpunct_count

PIECES = st.sampled_from(
    [
        "word",
        "Word.",
        " ",
        "  ",
        ". ",
        ". . y",
        ". ƛ",
        ". ßeta",
        "Dr.",
        "e.g.",
        "etc. then",
        "(see note.)",
        "x)",
        "Hello!Bye",
        "3.14",
        "Really? yes.",
        "...",
        "!",
        "?",
        "ß",
        "ŉ",
        "ﬀ",
        "ƛ",
        "ɤ",
        "😀",
        "👍🏽",
        "𝔘",
        "e\u0301",
        "中文句子。",
        "\ud800",
        "\udfff",
        "\r\n",
        "\r",
        "\n",
        "\n\n",
        "\t",
        "\u0085",
        "\u2028",
        "\xa0",
        "\u3000",
        "\ufeff",
        "x" * 30,
    ]
)
MARKUP = st.sampled_from(
    [
        "<div>",
        "</div>",
        "<p>",
        "</p>",
        "<br>",
        "<ul><li>a<li>b</ul>",
        "<ol>",
        "<b>",
        "<!-- c -->",
        "<!DOCTYPE html>",
        "<table><tr><td>c",
        "<pre>\n",
        "<noscript><b>",
        "<svg><p>",
        "&amp;",
        "&copy",
        "&#13;",
        "&#xD83D;&#xDE00;",
        "a < b",
        "\x00",
    ]
)
TEXTS = st.lists(st.one_of(PIECES, PIECES, MARKUP, st.text(max_size=6)), max_size=40).map("".join)


def numbers(low: int, high: int) -> st.SearchStrategy:
    """``CaseMaker.number`` of conformance/cases.py, and ``_coerced``'s bools."""
    return st.one_of(
        st.integers(low, high),
        st.sampled_from([0, 1, -1, -2, -10, -50, -200, 10**6, 10**9, 0.001, 2.5, True, False]),
        st.floats(0, high).map(lambda x: round(x, 2)),
    )


THRESHOLDS = st.one_of(st.floats(0, 1), st.sampled_from([0, 1, -0.5, 1.5, True, False]))


def bits(values) -> list[str]:
    """Floats as their exact bits (a sign of zero and NaN compare too)."""
    return [float(v).hex() for v in values]


# ----- sentences.py -------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(text=TEXTS, exclude=st.booleans())
def test_sentence_split_gives_the_references(text, exclude):
    assert sentences.split_sentences(text, exclude) == reference.split_sentences(text, exclude)


@settings(max_examples=200, deadline=None)
@given(text=TEXTS)
def test_html_text_gives_the_references_up_to_white_space_at_its_ends(text):
    fast = reference.normalize(to_units(sentences.html_text(text)))
    assert fast == reference.normalize(to_units(reference.html_text(text)))


@settings(max_examples=200, deadline=None)
@given(text=TEXTS)
def test_uppercasing_after_a_period_gives_the_references(text):
    normalized = reference.normalize(to_units(text))
    fast = sentences.uppercase_after_period(normalized)
    assert fast == reference.uppercase_after_period(normalized)


@settings(max_examples=200, deadline=None)
@given(segment=TEXTS)
def test_last_word_gives_the_references(segment):
    assert sentences.last_word(segment) == reference.last_word(segment)


# ----- similarity.py ------------------------------------------------------------------------
COMPONENTS = st.one_of(
    st.floats(-1, 1, allow_nan=False), st.sampled_from([0.0, -0.0, 1e-200, -1e-170])
)


def vectors(size: int) -> st.SearchStrategy:
    made_up = st.lists(st.lists(COMPONENTS, min_size=size, max_size=size), max_size=12)
    embedded = st.lists(TEXTS, max_size=12).map(lambda texts: [hash64_vector(t) for t in texts])
    return made_up if size != 64 else embedded


@settings(max_examples=200, deadline=None)
@given(rows=st.one_of(vectors(3), vectors(64)), lookahead=numbers(0, 8))
def test_similarities_give_the_references_bit_for_bit(rows, lookahead):
    fast, fast_average, fast_variance = similarity.similarities(rows, lookahead)
    sims, average, variance = reference.similarities(rows, lookahead)
    assert bits(fast) == bits(sims)
    assert bits([fast_average, fast_variance]) == bits([average, variance])


@settings(max_examples=200, deadline=None)
@given(rows=st.one_of(vectors(3), vectors(64)))
def test_pair_similarities_give_the_references_bit_for_bit(rows):
    firsts, seconds = rows[:-1], rows[1:]
    fast = similarity.pair_similarities(firsts, seconds)
    assert bits(fast) == bits(reference.pair_similarities(firsts, seconds))


# ----- packing.py ---------------------------------------------------------------------------
SENTENCES = st.lists(st.one_of(TEXTS, PIECES), max_size=15)


@settings(max_examples=200, deadline=None)
@given(
    listed=SENTENCES,
    sims=st.none() | st.lists(st.floats(-1, 1), min_size=15, max_size=15),
    threshold=THRESHOLDS,
    max_tokens=numbers(1, 800),
)
def test_running_count_packing_gives_the_references(listed, sims, threshold, max_tokens):
    fast = packing.create_chunks(listed, sims, threshold, max_tokens, wordpunct_count)
    slow = reference.create_chunks(listed, sims, threshold, max_tokens, wordpunct_count)
    assert fast == slow


# ----- the port as a whole ------------------------------------------------------------------
CHUNKIT_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "maxTokenSize": numbers(1, 800),
        "similarityThreshold": THRESHOLDS,
        "dynamicThresholdLowerBound": THRESHOLDS,
        "dynamicThresholdUpperBound": THRESHOLDS,
        "combineChunksSimilarityThreshold": THRESHOLDS,
        "numSimilaritySentencesLookahead": numbers(0, 8),
        "combineChunks": st.booleans(),
        "maxMergesPerPass": numbers(0, 50),
        "maxUncappedPasses": numbers(0, 50),
        "uncappedCandidateMerges": numbers(0, 50),
        "maxMergesPerPassPercentage": numbers(0, 100),
        "excludeNonLetterSentences": st.booleans(),
    },
)


def _embed(texts: list[str]) -> list[list[float]]:
    return [hash64_vector(t) for t in texts]


def _texts(entry, text: str, options: dict) -> list[str]:
    ctx = RunContext(embedder="hash64", tokenizer="wordpunct")
    return [r["text"] for r in entry([{"document_text": text}], options, ctx)]


@settings(max_examples=150, deadline=None)
@given(text=TEXTS, options=CHUNKIT_OPTIONS)
def test_combining_with_vectorised_similarities_gives_the_references(text, options):
    def get(name):
        return option(options, name, chunker.DEFAULTS.get(name))

    sentences_ = reference.split_sentences(text)
    chunks = reference.create_chunks(sentences_, None, 0, get("maxTokenSize"), wordpunct_count)
    texts = [" ".join(c) for c in chunks]
    vectors = dict(zip(sentences_, _embed(sentences_)))
    limits = reference.merge_limits(get)

    def combine(similarities_of):
        return reference.combine(
            texts, vectors, limits, _embed, wordpunct_count, lambda: None, similarities_of
        )

    fast, slow = combine(similarity.pair_similarities), combine(reference.pair_similarities)
    assert (fast.chunks, fast.firsts, fast.tokens) == (slow.chunks, slow.firsts, slow.tokens)
    assert [p.merges for p in fast.passes] == [p.merges for p in slow.passes]


@settings(max_examples=150, deadline=None)
@given(text=TEXTS, options=CHUNKIT_OPTIONS)
def test_chunkit_and_cramit_give_what_the_reference_gives(text, options):
    assume(text)

    def get(name):
        return option(options, name, chunker.DEFAULTS.get(name))

    assert _texts(chunker.chunkit, text, options) == reference.chunkit_chunks(
        text, get, _embed, wordpunct_count
    )
    assert _texts(chunker.cramit, text, options) == reference.cramit_chunks(
        text, get, wordpunct_count
    )
    assert _texts(chunker.sentenceit, text, options) == reference.sentenceit_sentences(text, get)


def test_similarities_of_one_sentence_and_of_none():
    assert math.isnan(similarity.similarities([[1.0]], 3)[1])
    assert similarity.similarities([], 3) == reference.similarities([], 3) == ([], 0.0, 0.0)
