"""A JS string can hold a lone surrogate; every entry takes one as the original does
(no UnicodeEncodeError on the way to ICU or anywhere else)."""

import json

import pytest

import chunkview
from chunkview.core.text import segment

TEXT = (
    "Hello \ud800 world. Second sentence here.\n\n# Head\n\n"
    "More \udc00 text. <b>x\ud800</b> end \ud800"
)
DOCS = [{"document_name": "a", "document_text": TEXT}]
TURNS = json.dumps(
    [
        {"seq": 0, "itemId": "a", "text": "hi \ud800 there", "startMs": 0, "endMs": 1},
        {"seq": 1, "itemId": "b", "text": "ok \udc00.", "startMs": 1, "endMs": 2},
    ]
)
CASES = [
    ("semantic-chunking.chunkit", DOCS, {}, None),
    ("semantic-chunking.cramit", DOCS, {}, None),
    ("semantic-chunking.sentenceit", DOCS, {}, None),
    ("agentos.SemanticChunker", TEXT, {"targetSize": 10, "maxSize": 20, "minSize": 0}, None),
    ("agentos.chunkTurns", TURNS, {}, None),
    ("smartchunk", TEXT, {"maxChars": 10}, None),
    (
        "mastra.chunk",
        '{"a": "x\ud800y", "b": ["\udc00"]}',
        {"strategy": "json", "maxSize": 100},
        "json",
    ),
    ("mastra.chunk", "<h1>T</h1>" + TEXT, {"strategy": "html", "headers": [["h1", "H"]]}, "html"),
    *[
        ("agentos.ChunkingEngine", TEXT, {"strategy": s, "chunkSize": 30, "chunkOverlap": 0}, None)
        for s in ("fixed", "semantic", "hierarchical", "layout")
    ],
    *[
        ("mastra.chunk", TEXT, {"strategy": s, "maxSize": 20, "overlap": 2}, doc)
        for s, doc in (
            ("recursive", None),
            ("character", None),
            ("token", None),
            ("markdown", "markdown"),
            ("sentence", None),
            ("latex", "latex"),
            ("semantic-markdown", "markdown"),
        )
    ],
]


@pytest.mark.parametrize(("entry", "given", "options", "doc"), CASES)
def test_entry_takes_a_lone_surrogate(entry, given, options, doc):
    kwargs = {"doc": doc} if doc else {}
    shown = json.dumps(chunkview.run(entry, given, options, **kwargs))
    # tokens are made from UTF-8, which has no lone surrogates: the token strategy sees
    # U+FFFD, as TextEncoder gives it in JS; smartchunk returns byte ranges, no text
    if entry != "smartchunk":
        replaced = options.get("strategy") == "token"
        assert ("\\ufffd" if replaced else "\\ud800") in shown
    layout = chunkview.spans(entry, given, options, **kwargs)
    assert layout.spans


def test_sentences_keep_the_lone_surrogate_where_it_was():
    # Intl.Segmenter (node 20) breaks "Hello \ud800 world. Second." after "world. "
    assert segment.sentences("Hello \ud800 world. Second.") == ["Hello \ud800 world. ", "Second."]
    assert segment.boundaries("a\udc00. B", "sentence") == [(0, 4), (4, 5)]
    found = chunkview.run(
        "semantic-chunking.sentenceit",
        [{"document_name": "a", "document_text": "Hello \ud800 world. Second."}],
        {},
    )
    assert [s["text"] for s in found] == ["Hello \ud800 world.", "Second."]
