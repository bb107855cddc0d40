"""SpanTable: spans as columns give the same spans, overlaps and gaps as Span objects."""

import pickle
import random

import pytest
from conftest import CORPUS

from chunkview.core import registry
from chunkview.core.chunkers.agentos.semantic_chunker import _span_list, _span_table
from chunkview.core.document import Document
from chunkview.core.entry import RunContext
from chunkview.core.span_table import SpanTable
from chunkview.core.spans import Span, _gaps, _overlaps


def _fields(span: Span) -> tuple:
    return (
        span.index,
        span.start,
        span.end,
        span.own_start,
        span.kind,
        span.text,
        span.located,
        span.metadata,
        span.reported_start,
    )


def _random_markdown(rng: random.Random) -> str:
    pieces = [
        "# Title\n",
        "## Part two\n",
        "A sentence ends here. Another one!  And a third?\n",
        "short\n",
        "\n",
        "\n\n\n",
        "```js\nlet x = 1;\n```\n",
        "word " * 30 + "\n",
        "   indented line\t\n",
        "same line\n",
        "same line\n",
    ]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 400)))


def test_semantic_chunker_columns_equal_its_spans_one_by_one():
    """For a plain text and a whole overlap the SemanticChunker builds its spans as
    columns; they are the spans the one-by-one placement gives, over documents with
    rewritten white space, merged pieces, repeats, and sizes small and large."""
    rng = random.Random(11)
    entry = registry.get("agentos.SemanticChunker")
    documents = [Document(_random_markdown(rng)) for _ in range(40)]
    documents.append(Document((CORPUS / "acorn-readme.md").read_text(encoding="utf-8")))
    documents.append(Document((CORPUS / "redis-readme.md").read_text(encoding="utf-8")))
    checked = 0
    for document in documents:
        options = {
            "targetSize": rng.choice([1, 7, 7.5, 40, 120, 400, 1000]),
            "maxSize": rng.choice([5, 80, 300, 2000]),
            "minSize": rng.choice([0, 0.5, 10, 50, 200, 5000]),
            "overlap": rng.choice([0, 1, 5, 30, 100, 10_000, -4]),
        }
        context = RunContext(metadata={"source": "x"} if rng.random() < 0.3 else None)
        native = entry.run(document, options, context)
        table = _span_table(document.text, native, options["overlap"])
        one_by_one = _span_list(document, native, options["overlap"])
        assert [_fields(s) for s in table] == [_fields(s) for s in one_by_one], options
        assert table.overlaps() == _overlaps(one_by_one)
        assert table.gaps(len(document.text)) == _gaps(one_by_one, len(document.text))
        # what crosses the pipe gives the same spans on the other side
        again = pickle.loads(pickle.dumps(table)).bind(document.text)
        assert [_fields(s) for s in again] == [_fields(s) for s in one_by_one]
        checked += len(one_by_one)
    assert checked > 1000


def test_a_table_from_spans_gives_them_back_with_their_reasons():
    entry = registry.get("agentos.SemanticChunker")
    document = Document((CORPUS / "acorn-readme.md").read_text(encoding="utf-8"))
    spans = list(entry.chunk(document, {"targetSize": 300}, RunContext()).spans)
    table = SpanTable.from_spans(spans, document.text)
    assert [_fields(s) for s in table] == [_fields(s) for s in spans]
    assert table.overlaps() == _overlaps(spans)
    # a reason given to a built span crosses with the table
    table[3].reason = "because"  # type: ignore[assignment]
    again = pickle.loads(pickle.dumps(table)).bind(document.text)
    assert again[3].reason == "because" and again[2].reason is None


@pytest.mark.parametrize(
    "places",
    [
        [],
        [(0, 5, "exact"), (3, 9, "exact"), (20, 25, "exact")],
        [(0, 5, "exact"), (5, 5, "missing"), (2, 30, "normalized"), (1, 4, "exact")],
        [(10, 12, "exact"), (0, 3, "exact"), (10, 11, "exact")],
    ],
)
def test_overlaps_and_gaps_from_columns_equal_those_from_spans(places):
    text = "x" * 40
    spans = [
        Span(i, start, end, start, "k", text[start:end], located)
        for i, (start, end, located) in enumerate(places)
    ]
    table = SpanTable.from_spans(spans, text)
    assert table.overlaps() == _overlaps(spans)
    assert table.gaps(len(text)) == _gaps(spans, len(text))
