"""Every span a built-in port marks ``exact`` is the text at its place (docs/architecture.md,
Span glossary): ``span.text == document.text[span.start:span.end]`` for the shown
document. Texts hold astral characters, lone surrogates, CRLF and control characters;
options come from the conformance harness's generator (conformance/cases.py), drawn by
its seed, or from the ranges of the entries the harness does not run."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkview
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from conformance.cases import Generator, documents

PIECES = st.sampled_from(
    [
        "word",
        "Dr. Smith",
        "Word. ",
        "Sentence one. Sentence two! ",
        " ",
        "  ",
        "\n",
        "\r\n",
        "\n\n",
        "\r\n\r\n",
        "\t",
        "\x0b",
        "\x0c",
        "\x00",
        "\x1c",
        "\x85",
        "\u2028",
        "\u00a0",
        "\u3000",
        "\ufeff",
        "# Head\n",
        "## Sub\n",
        "```\n",
        "\n```js\n",
        "| a | b |\n",
        "- item\n",
        "😀",
        "👍🏽",
        "\ud800",
        "\udc00x",
        "e\u0301",
        "東京。",
        "Æ¥§",
        "x" * 30,
    ]
)
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=6)), min_size=1, max_size=40).map("".join)
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DOCS = documents(None)


def _harness_case(entry: str, seed: int) -> dict[str, Any]:
    return Generator(seed, DOCS, [entry]).case(0)


def assert_exact_places(layout: Any) -> None:
    text = layout.document.text
    for span in layout.spans:
        if span.located == "exact":
            assert span.text == text[span.start : span.end], (
                span.index,
                span.start,
                span.end,
                span.text,
                text[span.start : span.end],
            )


def _spans(entry: str, input: Any, options: dict[str, Any], **kwargs: Any) -> None:
    try:
        layout = chunkview.spans(entry, input, options, **kwargs)
    except ChunkerError:
        return  # the original's error: nothing placed
    assert_exact_places(layout)


def _mixed(harness_text: str, text: str, use_harness: bool) -> str:
    return harness_text[:400] + text if use_harness else text


@SETTINGS
@given(seed=st.integers(0, 10**6), text=TEXTS, use_harness=st.booleans())
def test_semantic_chunker(seed: int, text: str, use_harness: bool) -> None:
    case = _harness_case("agentos.SemanticChunker", seed)
    _spans("agentos.SemanticChunker", _mixed(case["input"], text, use_harness), case["options"])


def test_semantic_chunker_issue_case() -> None:
    text = b"\xc3\x86\x0b\xc2\xa5\xc2\xa7Dr. Smith".decode()
    options = {"targetSize": 1, "maxSize": 1, "minSize": 0, "overlap": 36}
    layout = chunkview.spans("agentos.SemanticChunker", text, {**options, "respectHeadings": False})
    assert_exact_places(layout)
    second = layout.spans[1]
    assert (second.text, second.start, second.end, second.located) == (
        "Æ¥",
        1,
        3,
        "normalized",
    )


@SETTINGS
@given(seed=st.integers(0, 10**6), text=TEXTS, use_harness=st.booleans())
def test_chunking_engine(seed: int, text: str, use_harness: bool) -> None:
    case = _harness_case("agentos.ChunkingEngine", seed)
    _spans(
        "agentos.ChunkingEngine",
        _mixed(case["input"], text, use_harness),
        case["options"],
        embedder=case.get("embedder"),
    )


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    text=TEXTS,
    use_harness=st.booleans(),
    json_text=st.booleans(),
)
def test_mastra(seed: int, text: str, use_harness: bool, json_text: bool) -> None:
    case = _harness_case("mastra.chunk", seed)
    input = _mixed(case["input"], text, use_harness)
    if case["doc"] == "json" and json_text:
        input = json.dumps({"a": text, "b": [text, {"c": text}]}, ensure_ascii=False)
    _spans("mastra.chunk", input, case["options"], doc=case["doc"], metadata=case.get("metadata"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    text=TEXTS,
    use_harness=st.booleans(),
    entry=st.sampled_from(["chunkit", "cramit", "sentenceit"]),
)
def test_semantic_chunking(seed: int, text: str, use_harness: bool, entry: str) -> None:
    entry = f"semantic-chunking.{entry}"
    case = _harness_case(entry, seed)
    document = Document(_mixed(case["input"] or "", text, use_harness))
    _spans(entry, document, case["options"], embedder="hash64", tokenizer="wordpunct")


def test_semantic_chunking_prefix_is_not_exact() -> None:
    document = Document("Hello there. This is a test.")
    layout = chunkview.spans(
        "semantic-chunking.cramit", document, {"chunkPrefix": "doc"}, tokenizer="wordpunct"
    )
    assert layout.spans and all(s.located == "normalized" for s in layout.spans)
    assert all(s.text.startswith("doc: ") for s in layout.spans)


SIZES = st.one_of(st.integers(1, 400), st.sampled_from([4, 5, 10, 10**6]))


@SETTINGS
@given(
    text=TEXTS,
    max_size=SIZES,
    min_size=st.one_of(st.integers(0, 100), st.just(0)),
    strategies=st.one_of(
        st.none(),
        st.lists(
            st.sampled_from(["paragraph", "line", "sentence", "word", "grapheme"]),
            min_size=1,
            max_size=5,
            unique=True,
        ),
    ),
)
def test_smartchunk(text: str, max_size: int, min_size: int, strategies: Any) -> None:
    options: dict[str, Any] = {"maxSize": max(max_size, 4), "minSize": min_size}
    if strategies is not None:
        options["strategies"] = strategies
    _spans("smartchunk", text, options)


@SETTINGS
@given(
    turns=st.lists(TEXTS, min_size=1, max_size=8),
    max_chars=st.one_of(st.integers(1, 300), st.just(1200)),
    overlap=st.integers(0, 4),
    lines=st.booleans(),
)
def test_chunk_turns(turns: list[str], max_chars: int, overlap: int, lines: bool) -> None:
    items = [
        {"seq": i, "itemId": f"t{i}", "text": t, "startMs": i * 10, "endMs": i * 10 + 5}
        for i, t in enumerate(turns)
    ]
    transcript = (
        "\n".join(json.dumps(t) for t in items) if lines else json.dumps(items, ensure_ascii=False)
    )
    _spans("agentos.chunkTurns", transcript, {"maxChars": max_chars, "overlapTurns": overlap})
