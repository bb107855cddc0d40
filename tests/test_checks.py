"""Every structure check on small documents written for it (spans laid by hand)."""

from __future__ import annotations

import pytest

from chunkview import api
from chunkview.core.build import build_layout
from chunkview.core.checks import KINDS, CheckSettings, parse_token_limit, run_checks
from chunkview.core.checks.overlap import repeated
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span


def cut(text: str, *ranges: tuple[int, int]) -> list[Span]:
    """Spans over the given (start, end) ranges of ``text``."""
    spans = []
    for i, (start, end) in enumerate(ranges):
        own = max(start, spans[-1].end) if spans else start
        spans.append(Span(i, start, end, min(own, end), "test", text[start:end]))
    return spans


def at(text: str, needle: str) -> int:
    return text.index(needle)


def kinds(warnings, kind):
    return [w for w in warnings if w.kind == kind]


def test_the_checks_run_in_a_fixed_order_with_distinct_kinds():
    assert KINDS == (
        "stranded-heading",
        "table-cut",
        "block-cut",
        "mid-sentence",
        "overlap",
        "over-limit",
    )


HEADED = "# Title\n\nIntro text here.\n\n## Setup\n\nRun the installer first.\n"


def test_a_heading_left_at_the_end_of_a_chunk_is_stranded():
    doc = Document(HEADED, kind="markdown")
    split = at(HEADED, "Run")
    warnings = kinds(
        run_checks(doc, cut(HEADED, (0, split), (split, len(HEADED)))), "stranded-heading"
    )
    assert len(warnings) == 1
    w = warnings[0]
    assert "“Setup” (level 2) ends chunk 0" in w.message and "starts in chunk 1" in w.message
    assert (w.start, w.end, w.chunk) == (at(HEADED, "## Setup"), at(HEADED, "## Setup") + 8, 0)


def test_a_heading_that_opens_its_chunk_is_not_stranded():
    doc = Document(HEADED, kind="markdown")
    split = at(HEADED, "## Setup")
    assert not kinds(
        run_checks(doc, cut(HEADED, (0, split), (split, len(HEADED)))), "stranded-heading"
    )


def test_an_overlap_that_repeats_the_heading_in_front_of_its_section_is_fine():
    doc = Document(HEADED, kind="markdown")
    split = at(HEADED, "Run")
    spans = cut(HEADED, (0, split), (at(HEADED, "## Setup"), len(HEADED)))
    assert not kinds(run_checks(doc, spans), "stranded-heading")


def test_a_setext_heading_is_found_and_a_hash_in_a_fence_is_no_heading():
    text = "Intro\n=====\n\nBody one.\n\n```\n# not a heading\n```\n\nEnd.\n"
    doc = Document(text, kind="markdown")
    first = at(text, "Body")
    warnings = run_checks(doc, cut(text, (0, first), (first, len(text))))
    (w,) = kinds(warnings, "stranded-heading")
    assert "“Intro” (level 1)" in w.message
    inside = at(text, "not a heading") + len("not a heading") + 1
    assert not kinds(
        run_checks(doc, cut(text, (0, inside), (inside, len(text)))), "stranded-heading"
    )


TABLE = (
    "Prices:\n\n"
    "| Item | Price |\n"
    "| ---- | ----- |\n"
    "| tea  | 2     |\n"
    "| cake | 3     |\n"
    "| soup | 5     |\n"
    "\nThat is all.\n"
)


def test_a_table_cut_whose_later_part_lost_its_header_row():
    doc = Document(TABLE, kind="markdown")
    split = at(TABLE, "| cake")
    (w,) = kinds(run_checks(doc, cut(TABLE, (0, split), (split, len(TABLE)))), "table-cut")
    assert w.message == (
        f"a table of 3 rows is cut into 2 parts at offset {split}; "
        "the later part lost the header row"
    )
    assert (w.start, w.chunk) == (at(TABLE, "| Item"), 0)
    assert w.end == at(TABLE, "\nThat")  # the blank line after the last row


def test_a_table_cut_whose_later_part_repeats_the_header_keeps_it():
    header = "| Item | Price |\n| ---- | ----- |\n"
    split = at(TABLE, "| cake")
    text = TABLE
    doc = Document(text, kind="markdown")
    spans = cut(text, (0, split), (split, len(text)))
    # a chunker that writes the header again in front of the later part
    spans[1] = Span(1, split, len(text), split, "test", header + text[split:], "normalized")
    (w,) = kinds(run_checks(doc, spans), "table-cut")
    assert "every later part keeps the header row" in w.message


def test_a_table_in_three_parts_counts_each_later_part():
    doc = Document(TABLE, kind="markdown")
    a, b = at(TABLE, "| cake"), at(TABLE, "| soup")
    (w,) = kinds(run_checks(doc, cut(TABLE, (0, a), (a, b), (b, len(TABLE)))), "table-cut")
    assert "cut into 3 parts" in w.message and "2 of the 2 later parts lost" in w.message


def test_a_whole_table_in_one_chunk_is_not_cut():
    doc = Document(TABLE, kind="markdown")
    end = at(TABLE, "\nThat") + 1
    assert not kinds(run_checks(doc, cut(TABLE, (0, end), (end, len(TABLE)))), "table-cut")


FENCED = "Code:\n\n```python\nx = 1\ny = 2\n```\n\nDone.\n"


def test_a_fenced_block_cut_in_two():
    doc = Document(FENCED, kind="markdown")
    split = at(FENCED, "y = 2")
    (w,) = kinds(run_checks(doc, cut(FENCED, (0, split), (split, len(FENCED)))), "block-cut")
    assert w.message == f"a code block (python) of 4 lines is cut in two at offset {split}"
    assert (w.start, w.end, w.chunk) == (at(FENCED, "```python"), at(FENCED, "\nDone"), 0)


def test_a_boundary_after_the_closing_fence_cuts_nothing():
    doc = Document(FENCED, kind="markdown")
    split = at(FENCED, "Done")
    assert not kinds(run_checks(doc, cut(FENCED, (0, split), (split, len(FENCED)))), "block-cut")


def test_json_documents_get_no_markdown_checks():
    doc = Document(FENCED, kind="json")
    split = at(FENCED, "y = 2")
    assert not run_checks(doc, cut(FENCED, (0, split), (split, len(FENCED))))


PROSE = "The cat sat on the mat. It was warm and the sun was out. Then it slept.\nNew line"


def test_chunks_that_end_mid_sentence_with_their_share():
    doc = Document(PROSE)
    mid = at(PROSE, "the sun")  # inside the second sentence
    whole = at(PROSE, "Then")  # a sentence boundary
    spans = cut(PROSE, (0, mid), (mid, whole), (whole, len(PROSE)))
    (w,) = kinds(run_checks(doc, spans), "mid-sentence")
    assert w.chunk == 0 and w.end == mid
    assert "(1 of 3 chunks, 33%)" in w.message
    assert "warm and |the sun" in w.message


def test_a_cut_at_a_line_break_or_at_the_end_is_not_mid_sentence():
    doc = Document(PROSE)
    line = at(PROSE, "New")
    assert not kinds(run_checks(doc, cut(PROSE, (0, line), (line, len(PROSE)))), "mid-sentence")


def test_overlap_repeated_per_boundary_against_the_configured_overlap():
    text = "abcdefghijklmnopqrstuvwxyz"
    spans = cut(text, (0, 10), (7, 18), (18, 26))
    assert repeated(spans, text) == [3, 0]
    settings = CheckSettings(overlap=2, overlap_unit="chars")
    found = kinds(run_checks(Document(text), spans, settings), "overlap")
    assert [w.message for w in found] == [
        "chunks 1|2 repeat nothing though overlap is 2 (1 of 2 boundaries)",
        "chunks 0|1 repeat 3 chars, more than overlap 2",
    ]
    assert (found[1].start, found[1].end) == (7, 10)


def test_overlap_in_another_unit_is_only_judged_when_nothing_is_repeated():
    text = "abcdefghijklmnopqrstuvwxyz"
    spans = cut(text, (0, 10), (2, 18))
    for settings in (
        CheckSettings(overlap=1, overlap_unit=None),
        CheckSettings(overlap=0, overlap_unit="chars"),
    ):
        assert not kinds(run_checks(Document(text), spans, settings), "overlap")


def test_chunks_over_the_models_token_limit_counted_with_the_tokenizer():
    text = "One two three four five. Six seven."
    spans = cut(text, (0, 24), (24, len(text)))
    settings = CheckSettings(token_limit=4, tokenizer="wordpunct")
    (w,) = kinds(run_checks(Document(text), spans, settings), "over-limit")
    # wordpunct: five words and a full stop
    assert w.message == (
        "chunk 0 is 6 wordpunct tokens, over the model's limit of 4 (2 cut off; 1 of 2 chunks over)"
    )
    assert not run_checks(Document(text), spans, CheckSettings(token_limit=None))


def test_token_limits_from_a_setting():
    assert [parse_token_limit(v) for v in ("256", 512, "8191", "1000", None, "off")] == [
        256,
        512,
        8191,
        1000,
        None,
        None,
    ]
    for bad in ("many", "-3", 0):
        with pytest.raises(ValueError):
            parse_token_limit(bad)


def test_the_layout_carries_the_checks_of_an_entry_run():
    text = "# Guide\n\n" + "Words go here and on. " * 30 + "\n\n## Next\n\nMore words here.\n"
    options = {"strategy": "character", "maxSize": 100, "overlap": 0}
    layout = api.spans("mastra.chunk", Document(text, kind="markdown"), options)
    assert layout.warnings == sorted(layout.warnings, key=lambda w: (w.start, w.end))
    assert any(w.kind == "mid-sentence" for w in layout.warnings)


def test_build_layout_runs_the_checks_with_its_settings():
    spans = cut(PROSE, (0, 10), (10, len(PROSE)))
    layout = build_layout(
        Document(PROSE), spans, checks=CheckSettings(token_limit=3, tokenizer="wordpunct")
    )
    assert {w.kind for w in layout.warnings} >= {"mid-sentence", "over-limit"}


def test_structure_places_are_right_with_crlf_and_lone_cr_line_breaks():
    from chunkview.core.checks.markdown import structure

    text = (
        "# Title\r\n\r\nText.\r\n\r\n| a | b |\r\n|---|---|\r\n| 1 | 2 |\r\n\r\n```\r\nx\r\n```\r\n"
    )
    found = structure(text)
    assert [text[h.start : h.end] for h in found.headings] == ["# Title"]
    (table,) = found.tables
    assert text[table.start : table.header_end] == "| a | b |\r\n|---|---|\r\n"
    assert table.header == "| a | b |" and table.rows == 1
    assert [text[f.start : f.end] for f in found.fences] == ["```\r\nx\r\n```\r\n"]
    old_mac = "Intro\rmore\r# Head\rbody\r"
    assert [old_mac[h.start : h.end] for h in structure(old_mac).headings] == ["# Head"]


def test_a_prefix_embedded_but_stripped_from_the_results_counts_towards_the_limit():
    text = "One two three. Four five six."
    spans = cut(text, (0, 14), (14, len(text)))
    bare = CheckSettings(token_limit=4, tokenizer="wordpunct")
    assert not kinds(run_checks(Document(text), spans, bare), "over-limit")  # 4 tokens each
    prefixed = CheckSettings(token_limit=4, tokenizer="wordpunct", embedded_prefix="query: ")
    found = kinds(run_checks(Document(text), spans, prefixed), "over-limit")
    assert [w.chunk for w in found] == [0, 1]  # "query", ":" and the 4 words
    assert "is 6 wordpunct tokens" in found[0].message


def test_settings_from_semantic_chunking_options_carry_the_stripped_prefix():
    from chunkview.core import registry
    from chunkview.core.checks import settings_for

    entry = registry.get("semantic-chunking.chunkit")
    kept = settings_for(entry, {"chunkPrefix": "passage"})
    stripped = settings_for(
        entry, {"chunkPrefix": "passage", "excludeChunkPrefixInResults": True}, 512
    )
    assert kept.embedded_prefix == "" and stripped.embedded_prefix == "passage: "
    assert stripped.token_limit == 512
