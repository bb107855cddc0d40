"""The agentos entries: ``SemanticChunker`` (spec/agentos.md §1) and ``chunkTurns``
(§5.3). The algorithms live in semantic_chunker.py (with its reference and fast paths)
and turns_reference.py; their spans in semantic_spans.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chunkview.core.chunkers.agentos.semantic_chunker import is_plain, semantic_chunk
from chunkview.core.chunkers.agentos.semantic_spans import span_list, span_table
from chunkview.core.chunkers.agentos.turns_reference import chunk_turns, ordered_turns, parse_turns
from chunkview.core.chunkers.entry import Entry, Param, RunContext, js_literal
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span
from chunkview.core.text.js import option


class SemanticChunkerEntry(Entry):
    id = "agentos.SemanticChunker"
    library = "agentos"
    title = "SemanticChunker"
    summary = (
        "Structure first (fences, headings, blank lines), then paragraphs, sentences "
        "and fixed windows for long segments; small pieces merge; overlap prefix."
    )
    size_unit = "units"
    boundary_kinds = ("heading", "code-block", "paragraph", "sentence", "fixed")
    params = (
        Param(
            "targetSize",
            "int",
            1000,
            "size at which a blank line ends a chunk, and the "
            "packing size of paragraphs and sentences (UTF-16 units)",
            1,
            100_000,
            group="Sizes",
            role="target",
        ),
        Param(
            "maxSize",
            "int",
            2000,
            "a segment longer than this is split again (not a hard "
            "limit: merged chunks may exceed it)",
            1,
            200_000,
            group="Sizes",
            role="max",
        ),
        Param(
            "minSize",
            "int",
            200,
            "a segment shorter than this (trimmed) joins the one before it",
            0,
            100_000,
            group="Sizes",
            role="min",
        ),
        Param(
            "overlap",
            "int",
            100,
            "units of the previous chunk repeated in front of each chunk",
            0,
            100_000,
            group="Sizes",
            role="overlap",
        ),
        Param(
            "preserveCodeBlocks", "bool", True, "keep ``` fenced blocks together", group="Structure"
        ),
        Param(
            "respectHeadings",
            "bool",
            True,
            "start a chunk at each # heading line",
            group="Structure",
        ),
    )

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        return semantic_chunk(document.text, options, ctx.metadata, ctx.observer)

    def chunk_kind(self, chunk: Any, options: Mapping[str, Any]) -> str:
        return chunk["boundaryType"]

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> Sequence[Span]:
        overlap = option(options, "overlap", 100)
        if type(overlap) is int and is_plain(document.text):
            # the usual case: units are code points and every prefix is the last
            # ``overlap`` of them, so the spans are columns, made without a Span
            return span_table(document.text, native, overlap, places)
        return span_list(document, native, overlap)

    def code(self, options: dict[str, Any]) -> str:
        return (
            "import { SemanticChunker } from '@framers/agentos';\n\n"
            f"const chunker = new SemanticChunker({js_literal(options)});\n"
            "const chunks = chunker.chunk(text);\n"
        )


class ChunkTurnsEntry(Entry):
    id = "agentos.chunkTurns"
    library = "agentos"
    title = "chunkTurns"
    summary = (
        "Transcript passages of whole turns joined by line feeds, each opening with "
        "the last turns of the passage before. Input: JSON array or JSON Lines of "
        "{seq, itemId, text, startMs, endMs}."
    )
    size_unit = "units"
    boundary_kinds = ("turns",)
    params = (
        Param(
            "maxChars",
            "int",
            1200,
            "a passage holds at most this many UTF-16 units, unless one turn alone is longer",
            1,
            1_000_000,
            group="Sizes",
            role="max",
        ),
        Param(
            "overlapTurns",
            "int",
            1,
            "turns from the end of the previous passage that "
            "open the next (fewer when they would not fit)",
            0,
            100,
            group="Sizes",
            role="overlap",
        ),
    )

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        return chunk_turns(parse_turns(document.text), options, ctx.observer)

    def view_document(self, document: Document) -> Document:
        """The transcript as text: one turn per line, in seq order."""
        try:
            turns = ordered_turns(parse_turns(document.text))
        except ChunkerError:
            return document
        return Document("\n".join(t.text for t in turns), document.path, "text")

    def chunk_kind(self, chunk: Any, options: Any) -> str:
        return "turns"

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> list[Span]:
        spans = self.located_spans(document, native, options)
        for span, passage in zip(spans, native):
            span.metadata = {
                key: passage[key] for key in ("firstSeq", "lastSeq", "itemIds", "startMs", "endMs")
            }
        return spans

    def code(self, options: dict[str, Any]) -> str:
        return (
            "import { chunkTurns } from '@framers/agentos';\n\n"
            f"const passages = chunkTurns(turns, {js_literal(options)});\n"
        )
