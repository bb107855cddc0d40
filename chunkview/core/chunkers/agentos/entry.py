"""The agentos entries: SemanticChunker, chunkTurns and ChunkingEngine, each the library's
call, its options and where its chunks lie."""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from itertools import compress, count, repeat
from operator import itemgetter, lt
from typing import Any

import numpy as np

from chunkview.core.chunkers.agentos.chunking_engine import STRATEGIES, chunking_engine
from chunkview.core.chunkers.agentos.engine_places import EnginePlaces
from chunkview.core.chunkers.agentos.semantic_chunker import is_plain, semantic_chunk
from chunkview.core.chunkers.agentos.semantic_spans import span_list, span_table
from chunkview.core.chunkers.agentos.turns_reference import chunk_turns, ordered_turns, parse_turns
from chunkview.core.chunkers.entry import Entry, Param, RunContext, chunk_metadata, js_literal
from chunkview.core.errors import ChunkerError
from chunkview.core.layout.placing import located_table, placed_table
from chunkview.core.model.document import Document
from chunkview.core.model.span_table import ChunkTexts, KindColumn, SpanTable
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


def _kind(chunk: dict[str, Any], metadata: Mapping[str, Any], strategy: str) -> str:
    """A chunk's boundary kind: a layout block's type, a section, else the strategy."""
    if "type" in metadata:
        return metadata["type"]
    return "heading" if "heading" in chunk else strategy


def _kind_column(
    strategy: str, count: int, chunks_by_kind: dict[str, list[int]], typed: bool = False
) -> KindColumn:
    """Each chunk's kind: the strategy's, but for the chunks of ``chunks_by_kind`` (their
    numbers, by kind), named in the order they first come. ``typed``: those chunks carry
    their kind as their metadata's "type" (layout blocks), given once for each kind."""
    ids = np.zeros(count, dtype=np.uint32)
    chunks_by_kind = {kind: numbers for kind, numbers in chunks_by_kind.items() if numbers}
    firsts = {kind: numbers[0] for kind, numbers in chunks_by_kind.items()}
    if count > sum(map(len, chunks_by_kind.values())):  # some chunk is the strategy's own
        for numbers in chunks_by_kind.values():
            ids[numbers] = 1  # marked, to find the first unmarked one
        firsts[strategy] = int(np.argmin(ids))
    names = tuple(sorted(firsts, key=firsts.__getitem__))
    ids[:] = names.index(strategy) if strategy in firsts else 0
    for kind, numbers in chunks_by_kind.items():
        ids[numbers] = names.index(kind)
    metadata = {names.index(kind): {"type": kind} for kind in chunks_by_kind} if typed else {}
    return KindColumn(names, array("I", ids.tobytes()), metadata)


def _kinds_and_metadata(
    native: Any, strategy: str, places: EnginePlaces | None
) -> tuple[KindColumn | list[str], dict[int, dict]]:
    """Each chunk's kind and, by chunk number, the metadata its span carries: what
    ``chunk_metadata`` and ``_kind`` say. From what the port noted while it cut them
    (``EnginePlaces``), where it did, reading no chunk; else from each chunk."""
    block_chunks = places.block_chunks if places is not None else None
    if block_chunks is not None:  # the strategy's windows, and the layout blocks
        return _kind_column(strategy, len(native), block_chunks, typed=True), {}
    section_chunks = places.section_chunks if places is not None else None
    if section_chunks is not None:  # each section's chunks carry its metadata and heading
        by_chunk: dict[int, dict] = {}
        for first, end, meta, heading in section_chunks:
            told = {**meta, "heading": heading}  # one object for each section
            by_chunk.update(dict.fromkeys(range(first, end), told))
        return _kind_column(strategy, len(native), {"heading": list(by_chunk)}), by_chunk
    # a run whose places were not told: read from each chunk.
    # Only sections and layout blocks carry more than their content and index (the
    # others are passed over in C: a dict's len)
    kinds = [strategy] * len(native)
    metadata: dict[int, dict] = {}
    for i in compress(count(), map(lt, repeat(2), map(len, native))):
        chunk = native[i]
        if "heading" in chunk or "metadata" in chunk:
            meta = chunk_metadata(chunk)
            kinds[i] = _kind(chunk, meta, strategy)
            if "heading" in chunk:
                meta["heading"] = chunk["heading"]
            if meta:
                metadata[i] = meta
    return kinds, metadata


class ChunkingEngineEntry(Entry):
    id = "agentos.ChunkingEngine"
    library = "agentos"
    title = "ChunkingEngine"
    summary = (
        "Four strategies over one fixed-window routine: fixed windows with overlap, "
        "embedding-similarity groups, heading sections, and code/table/prose blocks."
    )
    size_unit = "units"
    boundary_kinds = ("fixed", "semantic", "hierarchical", "layout", "heading", "code", "table")
    uses_embedder = True  # the semantic strategy's embedFn
    params = (
        Param(
            "strategy",
            "choice",
            "fixed",
            "how the content is cut",
            choices=STRATEGIES,
            group="Strategy",
            preset=True,
        ),
        Param(
            "chunkSize",
            "int",
            512,
            "window size in UTF-16 units (the original never returns for 0 or less)",
            1,
            100_000,
            group="Sizes",
            role="max",
        ),
        Param(
            "chunkOverlap",
            "int",
            64,
            "units each window repeats from the one before",
            0,
            100_000,
            group="Sizes",
            role="overlap",
        ),
    )

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        """The DocumentChunk list; tells ``ctx.observer`` the places (``EnginePlaces``)."""
        try:
            return chunking_engine(document.text, options, ctx.embedder, ctx)
        except ChunkerError as error:
            if error.name == "Hang" and error.position is not None:
                line = document.text.count("\n", 0, error.position) + 1
                error.message += f" (line {line})"
                error.args = (f"{error.name}: {error.message}",)
            raise

    def chunk_texts(self, native: Any) -> list[str]:
        return list(map(itemgetter("content"), native))

    def chunk_kind(self, chunk: Any, options: Mapping[str, Any]) -> str:
        return _kind(chunk, chunk.get("metadata") or {}, str(options.get("strategy") or "fixed"))

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> SpanTable:
        """The located spans as columns: tens of thousands of windows on a long text."""
        told = places if isinstance(places, EnginePlaces) else None
        kinds, metadata = _kinds_and_metadata(native, str(options.get("strategy") or "fixed"), told)
        if told is not None and told.starts:
            contents = ChunkTexts(native, "content")
            table = placed_table(
                document.text, contents, told.starts, kinds, metadata, told.lengths
            )
            if table is not None:
                return table
        return located_table(document.text, self.chunk_texts(native), kinds, metadata)

    def code(self, options: dict[str, Any]) -> str:
        return (
            "import { ChunkingEngine } from '@framers/agentos';\n\n"
            f"const chunks = await new ChunkingEngine().chunk(text, "
            f"{js_literal(options)});\n"
        )
