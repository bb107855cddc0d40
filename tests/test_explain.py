"""Reasons: why each boundary is where it is, recorded only when asked, never changing a
result. Each port's reasons are checked on documents written so that each one occurs."""

import json
import pickle
import subprocess
import sys

import pytest

from chunkview import api
from chunkview.core import registry
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.model.explain import Reason, attach_by_chunk, attach_by_point, combine
from chunkview.core.model.observer import NOBODY, RunNotes
from chunkview.core.model.spans import Span
from tests.conftest import CORPUS, ROOT


def explained(entry_id: str, text: str, options: dict | None = None, **ctx) -> list[Span]:
    entry = registry.get(entry_id)
    return entry.chunk(
        Document(text), dict(options or {}), RunContext(observer=RunNotes(places=False), **ctx)
    ).spans


def reasons(spans: list[Span]) -> list[tuple[str, str]]:
    return [(s.reason.rule, s.reason.text) if s.reason else ("", "") for s in spans]


# ----- the core ---------------------------------------------------------------------------
def test_combine_keeps_the_first_rule_and_joins_the_words_once():
    cut, note = Reason(5, "full-word", "words packed"), Reason(5, "overlap-word", "overlap")
    assert combine([cut, note, note]) == Reason(5, "full-word", "words packed; overlap")


def test_attach_by_point_uses_own_starts_and_drops_merged_away_points():
    spans = [Span(0, 0, 5, 0, "k", "aaaaa"), Span(1, 3, 9, 5, "k", "aabbbb")]
    attach_by_point(spans, [Reason(5, "cut", "here"), Reason(3, "gone", "not a boundary")])
    assert spans[0].reason is None
    assert spans[1].reason == Reason(5, "cut", "here")


def test_attach_by_chunk_uses_native_indexes():
    spans = [Span(0, 0, 5, 0, "k", "aaaaa"), Span(1, 5, 9, 5, "k", "bbbb")]
    attach_by_chunk(spans, [Reason(1, "cut", "second")])
    assert [s.reason for s in spans] == [None, Reason(1, "cut", "second")]


def test_reasons_are_plain_data_that_pickle():
    spans = explained("smartchunk", "One.\n\nTwo is here.\n\n" * 3, {"maxSize": 20})
    again = pickle.loads(pickle.dumps(spans))
    assert [s.reason for s in again] == [s.reason for s in spans]
    assert all(s.reason is not None for s in spans[1:])


def test_no_reason_is_recorded_when_nobody_asks():
    entry = registry.get("smartchunk")
    spans = entry.chunk(
        Document("a b c d e f g h\n\n" * 9), {"maxSize": 12, "minSize": 0}, RunContext()
    ).spans
    assert len(spans) > 3
    assert all(s.reason is None for s in spans)
    assert all("reason" not in s.to_json() for s in spans)


# ----- results never change -----------------------------------------------------------------
CASES = [
    ("agentos.SemanticChunker", {}),
    ("agentos.SemanticChunker", {"targetSize": 300, "maxSize": 500, "minSize": 100}),
    ("agentos.ChunkingEngine", {"strategy": "fixed"}),
    ("agentos.ChunkingEngine", {"strategy": "semantic"}),
    ("agentos.ChunkingEngine", {"strategy": "hierarchical"}),
    ("agentos.ChunkingEngine", {"strategy": "layout", "chunkOverlap": 0}),
    ("smartchunk", {}),
    ("smartchunk", {"maxSize": 64, "minSize": 30}),
    ("mastra.chunk", {}),
    ("mastra.chunk", {"strategy": "markdown"}),
    ("mastra.chunk", {"strategy": "sentence", "maxSize": 300}),
    ("mastra.chunk", {"strategy": "token", "maxSize": 100}),
    ("mastra.chunk", {"strategy": "character", "maxSize": 300, "overlap": 20}),
    ("mastra.chunk", {"strategy": "markdown", "headers": [["#", "h1"], ["##", "h2"]]}),
    ("semantic-chunking.chunkit", {}),
    ("semantic-chunking.cramit", {}),
    ("semantic-chunking.sentenceit", {}),
    ("agentos.chunkTurns", {}),
    ("mastra.chunk", {"strategy": "latex", "maxSize": 500}),
    ("mastra.chunk", {"strategy": "semantic-markdown"}),
    ("mastra.chunk", {"strategy": "semantic-markdown", "joinThreshold": 60}),
    ("mastra.chunk", {"strategy": "html", "headers": [["h1", "title"], ["h2", "section"]]}),
    (
        "mastra.chunk",
        {"strategy": "html", "headers": [["h2", "b"], ["h3", "c"]], "returnEachLine": True},
    ),
    ("mastra.chunk", {"strategy": "html", "sections": [["h2", "s"], ["h3", "t"]], "overlap": 0}),
    ("mastra.chunk", {"strategy": "json", "maxSize": 300}),
    ("mastra.chunk", {"strategy": "json", "maxSize": 120, "minSize": 80, "convertLists": True}),
]
FILES = sorted(p.name for p in CORPUS.iterdir())


def _outcome(entry_id: str, text: str, kind: str, options: dict, explain: bool):
    entry = registry.get(entry_id)
    observer = RunNotes(places=False) if explain else NOBODY
    ctx = RunContext(embedder="hash64", tokenizer="wordpunct", observer=observer)
    try:
        chunking = entry.chunk(Document(text, kind=kind), dict(options), ctx)
    except ChunkerError as error:
        return error.to_json(), None
    spans = [
        (s.index, s.start, s.end, s.own_start, s.kind, s.text, s.located, s.metadata)
        for s in chunking.spans
    ]
    # semantic-chunking stamps each document with the clock (its document_id)
    native = [
        {k: v for k, v in c.items() if k != "document_id"} if isinstance(c, dict) else c
        for c in (chunking.native if isinstance(chunking.native, list) else [chunking.native])
    ]
    return json.dumps(native, sort_keys=True, default=str), spans


@pytest.mark.parametrize("entry_id,options", CASES, ids=[f"{e}{o}" for e, o in CASES])
def test_results_are_identical_with_and_without_reasons(entry_id, options):
    for name in FILES:
        text = (CORPUS / name).read_text(encoding="utf-8")
        kind = "markdown" if name.endswith(".md") else "text"
        if entry_id == "mastra.chunk" and options.get("strategy") in ("html", "json"):
            kind = name.rsplit(".", 1)[-1] if name.endswith((".html", ".json")) else "text"
        plain = _outcome(entry_id, text, kind, options, explain=False)
        with_reasons = _outcome(entry_id, text, kind, options, explain=True)
        assert plain == with_reasons, name


# ----- smartchunk ---------------------------------------------------------------------------
def by_rule(spans: list[Span]) -> dict[str, str]:
    found: dict[str, str] = {}
    for span in spans:
        if span.reason is not None:
            found.setdefault(span.reason.rule, span.reason.text)
    return found


def test_smartchunk_first_level_paragraphs_that_fit():
    spans = explained(
        "smartchunk", "First paragraph here.\n\nSecond one, short.\n", {"maxSize": 60, "minSize": 0}
    )
    assert reasons(spans) == [
        ("start", "the start of the text"),
        (
            "paragraph",
            "new paragraph: at the first level every paragraph that fits is a chunk of its "
            "own (19 bytes ≤ maxSize 60)",
        ),
    ]


def test_smartchunk_cascade_down_to_words_with_overlap():
    text = "Intro line.\n\n" + " ".join(f"word{i}" for i in range(20)) + "\n"
    spans = explained("smartchunk", text, {"maxSize": 40, "minSize": 0})
    first_cut = spans[1].reason
    assert first_cut.rule == "paragraph"
    assert first_cut.text == (
        "new paragraph, 130 bytes > maxSize 40: cut at lines; its first line, 130 bytes > "
        "maxSize 40: cut at sentences; its first sentence, 130 bytes > maxSize 40: cut at words"
    )
    packed = spans[2].reason
    assert packed.rule == "full-word"
    assert "words packed up to 36 bytes; the next word (5 bytes) would make 41 > maxSize 40" in (
        packed.text
    )
    assert "overlap: the last 3 word segments of the chunk before are repeated " in packed.text
    assert "(7 bytes ≤ 20% of maxSize = 8)" in packed.text
    assert spans[2].start < spans[2].own_start  # the overlap really is there


def test_smartchunk_packed_lines_and_a_line_too_large():
    lines = ["short line one", "short line two", "x" * 10 + ". " + "Y" * 10 + ".", "tail"]
    text = "\n".join(lines) + "\n"
    spans = explained("smartchunk", text, {"maxSize": 20, "minSize": 0})
    rules = by_rule(spans)
    assert rules["full-line"] == (
        "lines packed up to 15 bytes; the next line (15 bytes) would make 30 > maxSize 20"
    )
    assert rules["large-line"] == (
        "the next line is 24 bytes > maxSize 20: it is cut at sentences, not packed"
    )
    assert rules["after-large-line"] == (
        "the line before was over maxSize 20 and was cut at a lower level; lines are "
        "packed again from here"
    )


def test_smartchunk_merges_a_small_chunk_into_the_next():
    text = "Tiny.\n\nA paragraph of more words.\n\nAnother paragraph here.\n"
    spans = explained("smartchunk", text, {"maxSize": 64, "minSize": 10})
    assert len(spans) == 2
    assert spans[1].reason.rule == "paragraph"
    assert spans[1].reason.text.endswith(
        "; merged: the chunk before was only 7 bytes < minSize 10, so it took in the next "
        "one (together 35 ≤ maxSize 64)"
    )


def test_smartchunk_merges_a_small_last_chunk_into_the_one_before():
    text = "A first paragraph.\n\nA second paragraph.\n\nEnd."
    spans = explained("smartchunk", text, {"maxSize": 64, "minSize": 10})
    assert len(spans) == 2
    assert spans[1].reason.text.endswith(
        "; merged: the last chunk, 4 bytes < minSize 10, joined this one (together 25 ≤ maxSize 64)"
    )


def test_smartchunk_reasons_use_bytes_not_characters():
    spans = explained("smartchunk", "ééééé\n\nüüüüü\n", {"maxSize": 20, "minSize": 0})
    assert "(11 bytes ≤ maxSize 20)" in spans[1].reason.text


# ----- headless ------------------------------------------------------------------------------
def test_api_spans_explain_adds_reasons_and_keeps_the_layout():
    text = (CORPUS / "smartchunk-readme.txt").read_text(encoding="utf-8")
    plain = api.spans("smartchunk", text, {"maxSize": 120}).to_json()
    explained_json = api.spans("smartchunk", text, {"maxSize": 120}, explain=True).to_json()
    for span in explained_json["spans"]:
        assert span.pop("reason")["text"]
    assert explained_json == plain


def test_cli_spans_explain():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "chunkview",
            "spans",
            "smartchunk",
            "-",
            "--explain",
            "--options",
            '{"minSize": 0}',
        ],
        input=b"Para one.\n\nPara two is longer.\n",
        capture_output=True,
        cwd=ROOT,
        check=True,
    )
    spans = json.loads(done.stdout)["spans"]
    assert spans[1]["reason"] == {
        "rule": "paragraph",
        "text": "new paragraph: at the first level every paragraph that fits is a chunk of its "
        "own (20 bytes ≤ maxSize 200)",
    }


# ----- across the process boundary -----------------------------------------------------------
def test_reasons_cross_the_chunking_process():
    from chunkview.core.runtime import ChunkService, PackedLayout
    from chunkview.core.runtime.pipeline import ChunkRequest

    text = (CORPUS / "smartchunk-readme.txt").read_text(encoding="utf-8")
    document = Document(text)
    request = ChunkRequest(1, "smartchunk", document, {"maxSize": 120}, explain=True)
    local = api.spans("smartchunk", document, {"maxSize": 120}, explain=True)
    expected = [s.reason for s in local.spans]
    assert all(expected[1:])
    unpacked = PackedLayout.pack(local, document).unpack(document)
    assert [s.reason for s in unpacked.spans] == expected
    with ChunkService(timeout=30) as service:
        result = service.run(request)
    assert [s.reason for s in result.layout.spans] == expected


# ----- semantic-chunking ---------------------------------------------------------------------
SENTENCES = "One two three. Four five six. Seven eight nine. Ten eleven twelve."


def test_cramit_token_limit():
    spans = explained("semantic-chunking.cramit", SENTENCES, {"maxTokenSize": 7})
    assert len(spans) == 4
    assert reasons(spans)[1] == (
        "token-limit",
        "token limit: the chunk's 4 tokens + the next sentence's 4 = 8 > maxTokenSize 7",
    )


def test_chunkit_similarity_against_the_threshold_and_its_bounds():
    from chunkview.core.chunkers.semantic_chunking.chunker import similarities
    from chunkview.core.text.embed import embed_cached

    options = {
        "similarityThreshold": 0.99,
        "dynamicThresholdLowerBound": 0.5,
        "dynamicThresholdUpperBound": 0.5,
        "combineChunks": False,
    }
    spans = explained("semantic-chunking.chunkit", SENTENCES, options, embedder="hash64")
    sentences = [s + "." for s in SENTENCES.rstrip(".").split(". ")]
    sims = similarities(embed_cached("hash64", sentences), 3)[0]
    assert len(spans) == 4
    assert reasons(spans)[2] == (
        "similarity",
        f"similarity {sims[1]:.3f} < dynamic threshold 0.990: sentence 2's best similarity "
        "with the next 3 sentences is too low (similarityThreshold 0.99, unadjusted: the "
        "bounds 0.5 ≥ 0.5)",
    )


def test_chunkit_dynamic_threshold_steps():
    from chunkview.core.chunkers.semantic_chunking.explain import threshold_words

    options = {
        "similarityThreshold": 0.5,
        "dynamicThresholdLowerBound": 0.4,
        "dynamicThresholdUpperBound": 0.8,
    }

    class Call:
        def get(self, name):
            return options[name]

    assert threshold_words(Call(), 0.2, 0.004, 0.45) == (
        "similarityThreshold 0.5 − 0.1 (similarities vary little: variance 0.0040 < 0.01) "
        "+ 0.05 (mean similarity 0.200 < 0.3), kept within the bounds 0.4–0.8"
    )


def test_chunkit_rebalancing_merges_and_keeps():
    options = {
        "similarityThreshold": 0.99,
        "dynamicThresholdLowerBound": 0.5,
        "dynamicThresholdUpperBound": 0.5,
        "combineChunksSimilarityThreshold": 0,
        "maxTokenSize": 9,
    }
    spans = explained("semantic-chunking.chunkit", SENTENCES, options, embedder="hash64")
    assert [s.text for s in spans] == [
        "One two three. Four five six.",
        "Seven eight nine. Ten eleven twelve.",
    ]
    rule, text = reasons(spans)[1]
    assert rule == "similarity"
    assert (
        "; merged in rebalancing pass 1: a boundary inside the chunk before went, "
        "similarity " in text
    )
    assert "≥ combineChunksSimilarityThreshold 0 and together 8 tokens ≤ maxTokenSize 9" in text
    assert text.endswith("; kept by the rebalancing: together 16 tokens > maxTokenSize 9")


def test_chunkit_rebalancing_keeps_dissimilar_chunks():
    options = {
        "similarityThreshold": 0.99,
        "dynamicThresholdLowerBound": 0.5,
        "dynamicThresholdUpperBound": 0.5,
        "combineChunksSimilarityThreshold": 1,
    }
    spans = explained("semantic-chunking.chunkit", SENTENCES, options, embedder="hash64")
    assert len(spans) == 4
    text = reasons(spans)[1][1]
    assert "; kept by the rebalancing: the two chunks' similarity " in text
    assert text.endswith(" < combineChunksSimilarityThreshold 1")


def test_sentenceit_and_a_second_document():
    entry = registry.get("semantic-chunking.sentenceit")
    documents = [
        {"document_name": "a", "document_text": "First one. Second one."},
        {"document_name": "b", "document_text": "Third one."},
    ]
    notes = RunNotes(places=False)
    spans = entry.chunk(Document(""), {}, RunContext(observer=notes, raw_input=documents)).spans
    assert [r.rule for r in notes.reasons] == ["sentence", "document"]
    assert notes.reasons[0].at == 1 and notes.reasons[1].at == 2
    assert notes.reasons[1].text == "a new document (b): each is split on its own"
    assert len(spans) == 3


# ----- agentos SemanticChunker -------------------------------------------------------------------
CHUNKER = "agentos.SemanticChunker"
NO_EXTRAS = {"minSize": 0, "overlap": 0}


def test_semantic_chunker_heading():
    spans = explained(CHUNKER, "# Title\n\nSome text.\n\n# Second\n\nMore text.\n", NO_EXTRAS)
    assert reasons(spans) == [
        ("start", "the start of the text"),
        ("heading", "a heading line starts a chunk (respectHeadings)"),
    ]


def test_semantic_chunker_blank_line_after_target_size():
    text = "Paragraph one is long enough here.\n\nParagraph two.\n"
    spans = explained(CHUNKER, text, {"targetSize": 20, **NO_EXTRAS})
    assert reasons(spans)[1] == ("blank-line", "a blank line after 35 units ≥ targetSize 20")


def test_semantic_chunker_code_block_and_after_it():
    spans = explained(CHUNKER, "Intro text.\n\n```\ncode\n```\n\nAfter.\n", NO_EXTRAS)
    assert reasons(spans)[1:] == [
        ("code-block", "a fence opens a code block, kept whole (preserveCodeBlocks)"),
        ("after-code", "the code block before ended at its closing fence"),
    ]


def test_semantic_chunker_split_again_into_sentences():
    text = "First sentence is here. Second sentence follows. Third one ends it."
    options = {"targetSize": 30, "maxSize": 40, **NO_EXTRAS}
    spans = explained(CHUNKER, text, options)
    assert reasons(spans) == [
        (
            "start",
            "the start of the text; split again: a segment of 68 units > maxSize 40, "
            "sentences packed up to targetSize 30",
        ),
        (
            "full-sentences",
            "sentences packed up to 23 units; the next (24 units) would make 48 > targetSize 30",
        ),
        (
            "full-sentences",
            "sentences packed up to 24 units; the next (18 units) would make 43 > targetSize 30",
        ),
    ]


def test_semantic_chunker_fixed_windows_moved_back_to_a_space():
    text = "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk"
    options = {"targetSize": 20, "maxSize": 25, "minSize": 5, "overlap": 0}
    spans = explained(CHUNKER, text, options)
    assert [s.text for s in spans] == [
        "aaaa bbbb cccc dddd",
        "eeee ffff gggg hhhh",
        "iiii jjjj kkkk",
    ]
    assert reasons(spans)[2] == (
        "fixed-space",
        "fixed window of targetSize 20: the window before (from offset 20) moved back to the "
        "last space at 39, more than minSize 5 in",
    )


def test_semantic_chunker_fixed_window_without_a_space():
    spans = explained(CHUNKER, "x" * 50, {"targetSize": 20, "maxSize": 25, **NO_EXTRAS})
    assert reasons(spans)[1] == (
        "fixed",
        "fixed window of targetSize 20: the window before (from offset 0) had no space more "
        "than minSize 0 in to move back to",
    )


def test_semantic_chunker_merge_and_overlap():
    text = "A long first paragraph here.\n\nTiny.\n\nAnother long paragraph.\n"
    spans = explained(CHUNKER, text, {"targetSize": 5, "minSize": 10, "overlap": 5})
    assert len(spans) == 2
    assert reasons(spans)[1] == (
        "blank-line",
        "a blank line after 6 units ≥ targetSize 5; merged: a paragraph piece of 5 units "
        "(trimmed) < minSize 10 joined the chunk before; overlap: the last 5 units of chunk 0 "
        "repeated in front (overlap 5)",
    )


# ----- agentos ChunkingEngine ------------------------------------------------------------------
ENGINE = "agentos.ChunkingEngine"
WORDS = "aaaa bbbb cccc dddd eeee ffff gggg"


def test_engine_window_steps_back_to_white_space_and_overlaps():
    spans = explained(ENGINE, WORDS, {"strategy": "fixed", "chunkSize": 12, "chunkOverlap": 5})
    assert [s.text for s in spans[:2]] == ["aaaa bbbb", "bbbb cccc"]
    assert reasons(spans)[1] == (
        "window-space",
        "the window of chunkSize 12 from 0 stepped back to the white space at 9; this window "
        "starts chunkOverlap 5 units before that end, at 4",
    )


def test_engine_hard_cut_without_white_space():
    spans = explained(ENGINE, "x" * 30, {"strategy": "fixed", "chunkSize": 12, "chunkOverlap": 0})
    assert reasons(spans)[2] == (
        "window-hard",
        "the window of chunkSize 12 from 12 had no white space to step back to: a hard cut",
    )


def test_engine_hierarchical_sections():
    text = "Intro.\n\n# One\n\nBody one.\n\n## Two\n\n" + "word " * 30
    options = {"strategy": "hierarchical", "chunkSize": 100, "chunkOverlap": 0}
    spans = explained(ENGINE, text, options)
    assert reasons(spans)[:3] == [
        ("preamble", "the text before the first heading"),
        ("heading", "heading “One” (level 1) starts a section"),
        (
            "heading",
            "heading “Two” (level 2) starts a section; its body of 149 units > chunkSize 100: "
            "cut into windows",
        ),
    ]


def test_engine_layout_blocks():
    text = "Prose here.\n```\ncode\n```\n| a | b |\n| 1 | 2 |\nMore prose."
    spans = explained(ENGINE, text, {"strategy": "layout", "chunkSize": 100, "chunkOverlap": 0})
    assert [r[0] for r in reasons(spans)] == ["prose", "code-block", "table", "prose"]
    assert reasons(spans)[2][1] == "lines holding “|”: the table kept whole"


def test_engine_semantic_similarity_below_the_threshold():
    from chunkview.core.text.embed import cosine, embed_cached

    text = "Cats purr softly. Cats nap often. Quantum fields fluctuate."
    options = {"strategy": "semantic", "chunkSize": 100, "chunkOverlap": 0}
    spans = explained(ENGINE, text, options, embedder="hash64")
    a, b = embed_cached("hash64", ["Cats nap often.", "Quantum fields fluctuate."])
    assert [s.text for s in spans] == ["Cats purr softly. Cats nap often.", text[34:]]
    assert reasons(spans)[1] == (
        "similarity",
        f"similarity {cosine(a, b):.3f} of the two sentences here < 0.3: a new group",
    )


# ----- Mastra --------------------------------------------------------------------------------
MASTRA = "mastra.chunk"


def test_mastra_recursive_separator_and_where_merging_stopped():
    text = "Para one is here.\n\nPara two is here too.\n\nThird para."
    spans = explained(MASTRA, text, {"strategy": "recursive", "maxSize": 30, "overlap": 0})
    assert reasons(spans) == [
        ("start", 'the text split at "\\n\\n"'),
        (
            "merge-full",
            'merging pieces between "\\n\\n" stopped: length 17 + the next piece\'s 21 + 2 = '
            "40 > maxSize 30",
        ),
        (
            "merge-full",
            'merging pieces between "\\n\\n" stopped: length 21 + the next piece\'s 11 + 2 = '
            "34 > maxSize 30",
        ),
    ]


def test_mastra_recursive_overlap_of_whole_pieces():
    spans = explained(MASTRA, "word " * 20, {"strategy": "recursive", "maxSize": 30, "overlap": 10})
    assert reasons(spans)[1][1].endswith(
        "; overlap: the last 2 pieces (length 9 ≤ overlap 10) start this chunk"
    )


def test_mastra_recursive_piece_too_large_goes_down_the_list():
    text = "Short.\n\n" + "x" * 50 + "\n\nEnd."
    spans = explained(MASTRA, text, {"strategy": "recursive", "maxSize": 20, "overlap": 0})
    assert reasons(spans)[1] == (
        "too-large",
        'a piece of length 50 ≥ maxSize 20 between "\\n\\n" goes down the separator list; '
        'split again at "" (every character)',
    )
    assert reasons(spans)[-1] == (
        "after-large",
        'after a piece too long for maxSize, pieces between "\\n\\n" are merged again from here',
    )


def test_mastra_recursive_with_a_length_function():
    text = "Para one is here.\n\nPara two is here too."
    options = {"strategy": "recursive", "maxSize": 7, "overlap": 0}
    options["lengthFunction"] = {"$fn": "wordpunct"}
    spans = explained(MASTRA, text, options)
    assert reasons(spans)[1][1] == (
        'merging pieces between "\\n\\n" stopped: length 5 + the next piece\'s 6 = 11 > maxSize 7'
    )


def test_mastra_character_pieces_and_windows():
    text = "One.\n\nTwo is longer than it.\n\nEnd."
    spans = explained(MASTRA, text, {"strategy": "character", "maxSize": 20, "overlap": 5})
    assert reasons(spans) == [
        ("separator", 'split at "\\n\\n": each piece that fits is a chunk (length 4 ≤ maxSize 20)'),
        ("separator", "a piece of length 22 > maxSize 20: cut into windows"),
        (
            "window",
            "windows of at most maxSize 20: this one starts overlap 5 before the end of the one "
            "before",
        ),
        ("separator", 'split at "\\n\\n": each piece that fits is a chunk (length 4 ≤ maxSize 20)'),
    ]


def test_mastra_markdown_header_that_started_a_section():
    text = "# A\n\ntext a\n\n## B\n\ntext b\n\n# C\n\ntext c"
    options = {"strategy": "markdown", "headers": [["#", "h1"], ["##", "h2"]]}
    spans = explained(MASTRA, text, options)
    assert reasons(spans) == [
        ("start", "the start of the text"),
        ("header", "the header “B” (h2) starts a section"),
        ("header", "the header “C” (h1) starts a section"),
    ]


def test_mastra_sentence_groups_target_and_overlap():
    text = "One short sentence. Two short sentence. Three short one. Four is here."
    options = {"strategy": "sentence", "maxSize": 45, "targetSize": 30, "overlap": 20}
    spans = explained(MASTRA, text, options)
    assert reasons(spans)[1] == (
        "sentence-target",
        "the group reached length 39 ≥ targetSize 30 at a sentence ender “.”; overlap: the "
        "last sentence (length 19 ≤ overlap 20) starts this chunk",
    )


def test_mastra_sentence_full_and_too_long():
    text = "First one is here. Second one here! " + "word " * 12 + "end. Next."
    options = {"strategy": "sentence", "maxSize": 30, "targetSize": 100, "overlap": 0}
    spans = explained(MASTRA, text, options)
    rules = [r[0] for r in reasons(spans)]
    assert rules[1] == "sentence-too-long"
    assert reasons(spans)[1][1] == (
        "a sentence of length 81 > maxSize 30: cut at words (fallbackToWords true, "
        "fallbackToCharacters true)"
    )
    assert reasons(spans)[-1] == (
        "after-long",
        "after a sentence too long for maxSize, grouping starts again",
    )
    spans = explained(
        MASTRA,
        "Aaaa bbbb. Cccc dddd. Eeee ffff.",
        {"strategy": "sentence", "maxSize": 22, "targetSize": 100},
    )
    assert reasons(spans)[1] == (
        "sentence-full",
        "sentences grouped up to length 21; the next sentence's 10 + 1 would make 32 > maxSize 22",
    )


def test_mastra_token_windows():
    text = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
    spans = explained(MASTRA, text, {"strategy": "token", "maxSize": 4, "overlap": 1})
    assert reasons(spans)[1] == (
        "token-window",
        "token window 2: maxSize 4 tokens from token 3, each window 3 tokens after the one "
        "before (overlap 1)",
    )


# ----- agentos chunkTurns ----------------------------------------------------------------------
def test_chunk_turns_passage_full_and_the_turn_carried():
    turns = [
        {"seq": 1, "itemId": "a", "text": "Hi there"},
        {"seq": 2, "itemId": "a", "text": "Hello! How are you?"},
        {"seq": 3, "itemId": "b", "text": "Fine, thanks."},
        {"seq": 4, "itemId": "b", "text": "Bye."},
    ]
    spans = explained("agentos.chunkTurns", json.dumps(turns), {"maxChars": 40, "overlapTurns": 1})
    assert reasons(spans)[1] == (
        "turns-full",
        "the passage before was full: 28 chars + the next turn's (seq 3) 13 + 1 = 42 > "
        "maxChars 40; overlap: the last turn of the passage before carried (overlapTurns 1)",
    )


def test_html_page_marks_say_why():
    from chunkview.core.runtime.pipeline import ChunkRequest, Pipeline
    from chunkview.export_html import render_html

    text = "First paragraph here.\n\nSecond one, short.\n"
    request = ChunkRequest(1, "smartchunk", Document(text), {"maxSize": 60, "minSize": 0})
    plain = render_html(Pipeline().run(request, RunContext()), "t")
    assert 'class="mark" title="paragraph"' in plain
    explained_request = ChunkRequest(
        1, "smartchunk", Document(text), {"maxSize": 60, "minSize": 0}, explain=True
    )
    page = render_html(Pipeline().run(explained_request, RunContext()), "t")
    assert (
        'class="mark" title="paragraph: new paragraph: at the first level every paragraph '
        'that fits is a chunk of its own (19 bytes ≤ maxSize 60)"' in page
    )


# ----- Mastra html, json and semantic-markdown ------------------------------------------------
PAGE = (
    "<html><body><h1>Guide</h1><p>Intro para.</p><h2>Install</h2><p>Run it.</p>"
    "<p>Then more.</p><h2>Install</h2><p>Again.</p><div><h1>Late</h1></div><h2>Empty</h2>"
    "</body></html>"
)


def html_reasons(options: dict) -> list[tuple[str, str]]:
    entry = registry.get(MASTRA)
    chunking = entry.chunk(
        Document(PAGE, kind="html"),
        {"strategy": "html", **options},
        RunContext(observer=RunNotes(places=False)),
    )
    return reasons(chunking.spans)


def test_mastra_html_header_selector_section_walk_merge_and_query_order():
    found = html_reasons({"headers": [["h2", "section"], ["h1", "title"]]})
    assert found == [
        (
            "header",
            'the <h1> “Guide” matched the header selector "h1" (key "title"); its section is '
            "the text of the node after it, up to the header <h2>",
        ),
        (
            "header",
            'the <h1> “Late” matched the header selector "h1" (key "title"); its section is '
            "empty: nothing follows it in its parent <div>",
        ),
        (
            "header",
            'the <h2> “Install” matched the header selector "h2" (key "section"); its section '
            "is the text of the 2 nodes after it, up to the header <h2>; the next match in "
            "query order with the same section “Install” merged into it (contents joined with "
            '"  \\n"); it comes earlier in the page than the chunk before: the library lists '
            'the matches selector by selector ("h1" before "h2"), not in page order',
        ),
        (
            "header",
            'the <h2> “Empty” matched the header selector "h2" (key "section"); its section is '
            "empty: nothing follows it in its parent <body>",
        ),
    ]


def test_mastra_html_return_each_line_and_a_selector_that_is_no_tag():
    found = html_reasons({"headers": [["h2", "section"]], "returnEachLine": True})
    assert len(found) == 3
    assert found[1] == (
        "header",
        'the <h2> “Install” matched the header selector "h2" (key "section"); its section is '
        "the text of the 2 nodes after it, up to the header <h2>; one chunk per matched "
        "element (returnEachLine)",
    )
    found = html_reasons({"headers": [["body h1", "deep"]]})
    assert found[0][1].startswith(
        'the <h1> “Guide” matched the header selector "body h1" (key "undefined")'
    )


def test_mastra_html_sections_mode_says_why_the_text_is_empty():
    found = html_reasons({"sections": [["h2", "part"]], "overlap": 0})
    assert [rule for rule, _ in found] == ["section"] * 3
    assert found[2][1] == (
        'the <h2> “Empty” matched the sections selector "h2" (key "part"); in sections mode '
        "the chunk text is always empty: the library's sibling walk needs nextElementSibling, "
        "which its HTML parser lacks"
    )


def json_reasons(data, options: dict) -> list[tuple[str, str]]:
    entry = registry.get(MASTRA)
    chunking = entry.chunk(
        Document(json.dumps(data), kind="json"),
        {"strategy": "json", **options},
        RunContext(observer=RunNotes(places=False)),
    )
    assert len(chunking.spans) == len(chunking.native)
    return reasons(chunking.spans)


def test_mastra_json_paths_and_the_size_checks_that_closed_each_chunk():
    data = {
        "name": "Ada",
        "tags": [{"t": "x" * 30, "n": i} for i in range(4)],
        "address": {"street": "Main " * 5, "city": "Paris", "zip": "75001", "geo": {"lat": 1}},
    }
    found = json_reasons(data, {"maxSize": 100, "minSize": 40})
    assert found[0] == (
        "json-items",
        "2 items of the array at “tags”, from item 0, gathered while the chunk fit maxSize 100",
    )
    assert found[1] == (
        "json-items",
        "2 items of the array at “tags”, from item 2, gathered while the chunk fit maxSize "
        "100; the chunk before closed: adding item 2 would make size 145 > maxSize 100; at "
        "size 100 ≥ minSize 40 it was saved",
    )
    assert found[2] == (
        "json-object",
        "the object at “address” fits whole: size 95 ≤ maxSize 100; the chunk before closed: "
        "“tags” ended; at size 100 ≥ minSize 40 it was saved",
    )
    assert found[3] == (
        "json-top",
        "the top-level value “name”: the top-level values that fit come last, after every "
        "nested chunk",
    )


def test_mastra_json_keys_packed_a_long_string_and_values_lost_under_min_size():
    data = {"deep": {f"k{i}": "v" * 20 for i in range(5)}, "bio": "word " * 30}
    found = json_reasons(data, {"maxSize": 80, "minSize": 50})
    assert found[0] == (
        "json-keys",
        "the keys “k0” to “k1” (2 of them) of “deep”, gathered while the chunk fit maxSize 80",
    )
    assert found[1][1].endswith(
        "the chunk before closed: adding “k2” would make size 94 > maxSize 80; at size 66 ≥ "
        "minSize 50 it was saved"
    )
    assert found[2] == (
        "json-long-string",
        "the string “bio” has size 160 > maxSize 80: piece 1 of 3, at most floor(maxSize − 20) "
        "= 60 units, cut after the last space within them; the chunk before closed: adding "
        "“k4” would make size 94 > maxSize 80; at size 66 ≥ minSize 50 it was saved; the key "
        "“k4” of “deep” (size 38 < minSize 50) never saved: lost when “deep” ended, as in the "
        "library",
    )
    assert found[-1][1].endswith(
        "piece 3 of 3, at most floor(maxSize − 20) = 60 units, the rest of the string"
    )


def test_mastra_json_top_level_values_full_and_a_value_dropped():
    data = {"a": "x" * 30, "b": "y" * 30, "a_very_long_key_name_here_xxxxxxxxx": 1, "c": "z"}
    found = json_reasons(data, {"maxSize": 40})
    assert found == [
        ("json-top", "the top-level value “a”, gathered while the chunk fit maxSize 40"),
        (
            "json-top",
            "the top-level value “b”, gathered while the chunk fit maxSize 40; the chunk before "
            "closed: adding “b” would make size 75 > maxSize 40 (no minSize check at the top "
            "level); the value of “a_very_long_key_name_here_xxxxxxxxx” (size 41 > maxSize 40, "
            "not a string) was dropped, as in the library",
        ),
        (
            "json-top",
            "the top-level value “c”: the top-level values that fit come last, after every "
            "nested chunk; the chunk before closed: adding “c” would make size 46 > maxSize 40 "
            "(no minSize check at the top level)",
        ),
    ]


def test_mastra_json_reasons_for_every_chunk_of_a_real_file():
    text = (CORPUS / "protobuf-type.json").read_text(encoding="utf-8")
    for options in ({"maxSize": 300}, {"maxSize": 120, "minSize": 80, "convertLists": True}):
        spans = explained(MASTRA, text, {"strategy": "json", **options})
        assert len(spans) > 5
        assert all(s.reason is not None and s.reason.rule.startswith("json-") for s in spans)


def test_mastra_semantic_markdown_headers_merges_and_sections_kept():
    text = (
        "Intro text here.\n\n# Alpha\nalpha body one two three.\n\n## Beta\nbeta body.\n\n"
        "### Gamma\ngamma.\n\n# Delta\n"
        + "delta words " * 30
        + "\n\n### Deep\ndeep\n\n## Zeta\nzeta"
    )
    options = {"strategy": "semantic-markdown", "joinThreshold": 20}
    spans = explained(MASTRA, text, options)
    found = reasons(spans)
    assert found[0] == ("start", "the text before the first header")
    into_start = explained(MASTRA, text, {**options, "joinThreshold": 40})
    assert reasons(into_start)[0][1].endswith(
        "; merged: “# Alpha” joined the text before the first header, 4 + 17 = 21 tokens < "
        "joinThreshold 40"
    )
    assert found[1] == (
        "header",
        "the header “# Alpha” (level 1) starts a section; not merged into the section before: "
        "4 + 17 = 21 tokens ≥ joinThreshold 20; merged: “### Gamma” joined “## Beta”, 3 + 2 = 5 "
        "tokens < joinThreshold 20; merged: “## Beta” joined “# Alpha”, 6 + 8 = 14 tokens < "
        "joinThreshold 20",
    )
    assert found[2][1].startswith("the header “# Delta” (level 1) starts a section; not merged")
    assert found[3] == (
        "header",
        "the header “### Deep” (level 3) starts a section; not merged into the section before: "
        "60 + 1 = 61 tokens ≥ joinThreshold 20",
    )
    assert found[4] == (
        "header",
        "the header “## Zeta” (level 2) starts a section; not merged into the section before: "
        "that one is level 3, deeper than this level 2 (a section joins only one at its level "
        "or above)",
    )
