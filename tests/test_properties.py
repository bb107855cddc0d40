"""Property tests over random Unicode text: CRLF, emoji, combining marks, odd white space."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkview
from chunkview.core.layout.locate import locate

PIECES = st.sampled_from(
    [
        "word",
        "Word.",
        " ",
        "  ",
        "\n",
        "\r\n",
        "\n\n",
        "\t",
        "# Head",
        "## Sub",
        "```",
        "```js",
        "😀",
        "👍🏽",
        "e\u0301",
        "東京",
        "\u00a0",
        "\u3000",
        "\u2028",
        "\u0085",
        "!",
        "?",
        "|a|b|",
        "x" * 30,
        "Sentence one. Sentence two! ",
        "\ufeff",
    ]
)
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=60).map("".join)
SIZES = st.fixed_dictionaries(
    {
        "targetSize": st.integers(1, 300),
        "maxSize": st.integers(1, 600),
        "minSize": st.integers(0, 200),
        "overlap": st.integers(0, 120),
        "preserveCodeBlocks": st.booleans(),
        "respectHeadings": st.booleans(),
    }
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, options=SIZES)
def test_semantic_chunker_never_throws_in_range(text, options):
    chunks = chunkview.run("agentos.SemanticChunker", text, options)
    assert [c["index"] for c in chunks] == list(range(len(chunks)))
    for chunk in chunks:
        assert chunk["boundaryType"] in ("heading", "paragraph", "sentence", "code-block", "fixed")
        assert chunk["endOffset"] >= chunk["startOffset"]
    layout = chunkview.spans("agentos.SemanticChunker", text, options)
    assert len(layout.spans) == len(chunks)


@settings(max_examples=300, deadline=None)
@given(text=TEXTS, cuts=st.lists(st.integers(0, 400), max_size=12))
def test_locate_spans_inside_in_order_and_exact(text, cuts):
    bounds = sorted({min(c, len(text)) for c in cuts} | {0, len(text)})
    chunks = [text[a:b] for a, b in zip(bounds, bounds[1:]) if text[a:b]]
    found = locate(text, chunks, overlapping=False)
    previous_end = 0
    for chunk, where in zip(chunks, found):
        assert 0 <= where.start <= where.end <= len(text)
        if where.located == "exact":
            assert text[where.start : where.end] == chunk
        assert where.located in ("exact", "normalized")  # each chunk is a slice
        assert where.start >= previous_end or where.located == "normalized"
        previous_end = where.end


@settings(max_examples=200, deadline=None)
@given(text=TEXTS)
def test_layout_covers_everything_but_blank_gaps(text):
    layout = chunkview.spans(
        "agentos.SemanticChunker",
        text,
        {"targetSize": 40, "maxSize": 80, "minSize": 10, "overlap": 5},
    )
    for span in layout.spans:
        assert 0 <= span.start <= span.own_start <= span.end <= len(text)
