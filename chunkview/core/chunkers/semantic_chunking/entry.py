"""The semantic-chunking entries: chunkit, cramit and sentenceit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chunkview.core.chunkers.entry import NO_RAW_INPUT, Entry, Param, RunContext, js_literal
from chunkview.core.chunkers.semantic_chunking import chunker
from chunkview.core.layout.locate import locate
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span

TOKEN_HELP = (
    "tokens as the chosen tokenizer counts them (wordpunct by default, cl100k on "
    "request); the real library counts with its embedding model's tokenizer, which "
    "needs that model, so its counts differ"
)
OUTPUT = (
    Param(
        "excludeNonLetterSentences",
        "bool",
        False,
        "drop sentences without any letter",
        group="Sentences",
    ),
    Param(
        "chunkPrefix",
        "str",
        None,
        'prefix "<p>: " on each text (for embedding models that want one)',
        group="Output",
    ),
    Param(
        "excludeChunkPrefixInResults",
        "bool",
        False,
        "remove the prefix from the returned text again (it stays in embeddings and token counts)",
        group="Output",
    ),
    Param("returnEmbedding", "bool", False, "return each chunk's embedding", group="Output"),
    Param("returnTokenLength", "bool", True, "return each chunk's token count", group="Output"),
)
MAX_TOKENS = Param("maxTokenSize", "int", 500, TOKEN_HELP, 1, 100_000, group="Sizes", role="max")
SIMILARITY = (
    Param(
        "similarityThreshold",
        "float",
        0.5,
        "base threshold for a sentence to join the "
        "chunk (adjusted by the spread of similarities, clamped to the bounds)",
        0,
        1,
        step=0.05,
        group="Similarity",
    ),
    Param(
        "dynamicThresholdLowerBound",
        "float",
        0.4,
        "lowest adjusted threshold",
        0,
        1,
        step=0.05,
        group="Similarity",
    ),
    Param(
        "dynamicThresholdUpperBound",
        "float",
        0.8,
        "highest adjusted threshold",
        0,
        1,
        step=0.05,
        group="Similarity",
    ),
    Param(
        "numSimilaritySentencesLookahead",
        "int",
        3,
        "compare each sentence with this many following ones and keep the best",
        0,
        50,
        group="Similarity",
    ),
    Param(
        "combineChunks",
        "bool",
        True,
        "merge similar neighbouring chunks afterwards",
        group="Combining",
    ),
    Param(
        "combineChunksSimilarityThreshold",
        "float",
        0.5,
        "similarity needed to merge two chunks",
        0,
        1,
        step=0.05,
        group="Combining",
        when={"combineChunks": (True,)},
    ),
    Param(
        "maxMergesPerPass",
        "int",
        500,
        "cap on merges in one pass",
        0,
        100_000,
        group="Combining",
        when={"combineChunks": (True,)},
    ),
    Param(
        "maxUncappedPasses",
        "int",
        100,
        "most passes run",
        0,
        10_000,
        group="Combining",
        when={"combineChunks": (True,)},
    ),
    Param(
        "maxMergesPerPassPercentage",
        "int",
        40,
        "share of candidates merged per pass when there are many",
        0,
        100,
        group="Combining",
        when={"combineChunks": (True,)},
    ),
    Param(
        "uncappedCandidateMerges",
        "int",
        12,
        "with this many candidates or fewer, all may merge",
        0,
        100_000,
        group="Combining",
        when={"combineChunks": (True,)},
    ),
)


class _SemanticChunkingEntry(Entry):
    library = "semantic-chunking"
    size_unit = "tokens"
    uses_tokenizer = True
    function = ""
    kind = ""

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        documents = (
            ctx.raw_input
            if ctx.raw_input is not NO_RAW_INPUT
            else [
                {
                    "document_name": document.name if document.path else "",
                    "document_text": document.text,
                }
            ]
        )
        return getattr(chunker, self.function)(documents, options, ctx)

    def chunk_kind(self, chunk: Any, options: Mapping[str, Any]) -> str:
        return self.kind

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> list[Span]:
        prefix = options.get("chunkPrefix")
        texts = []
        for chunk in native:
            text = chunk["text"]
            if prefix and text.startswith(f"{prefix}: "):
                text = text[len(prefix) + 2 :]  # place the document's own text
            texts.append(text)
        spans = []
        for i, (chunk, where) in enumerate(
            zip(native, locate(document.text, texts, overlapping=False))
        ):
            meta = {
                k: v
                for k, v in chunk.items()
                if k in ("chunk_number", "sentence_number", "token_length")
            }
            # a chunk with its chunkPrefix is not the text at its place: its own text is
            located = where.located
            if located == "exact" and text is not chunk["text"]:
                located = "normalized"
            spans.append(
                Span(
                    i,
                    where.start,
                    where.end,
                    where.start,
                    self.kind,
                    chunk["text"],
                    located,
                    meta,
                )
            )
        return spans

    def code(self, options: dict[str, Any]) -> str:
        return (
            f"import {{ {self.function} }} from 'semantic-chunking';\n\n"
            f"const chunks = await {self.function}(\n"
            "  [{ document_name: 'doc', document_text: text }],\n"
            f"  {js_literal(options).replace(chr(10), chr(10) + '  ')}\n);\n"
        )


class ChunkitEntry(_SemanticChunkingEntry):
    id = "semantic-chunking.chunkit"
    title = "chunkit"
    function = "chunkit"
    kind = "semantic"
    boundary_kinds = ("semantic",)
    uses_embedder = True
    summary = (
        "Sentences (ICU) grouped while each one's best similarity to the next few "
        "passes a dynamic threshold and the chunk stays under maxTokenSize; then "
        "similar neighbours merge in passes."
    )
    params = (MAX_TOKENS, *SIMILARITY, *OUTPUT)


class CramitEntry(_SemanticChunkingEntry):
    id = "semantic-chunking.cramit"
    title = "cramit"
    function = "cramit"
    kind = "cram"
    boundary_kinds = ("cram",)
    summary = "Sentences (ICU) packed greedily up to maxTokenSize; no similarity."
    params = (MAX_TOKENS, *OUTPUT)


class SentenceitEntry(_SemanticChunkingEntry):
    id = "semantic-chunking.sentenceit"
    title = "sentenceit"
    function = "sentenceit"
    kind = "sentence"
    boundary_kinds = ("sentence",)
    summary = "One chunk per sentence, as sentence-parse (HTML-aware, ICU) splits them."
    params = OUTPUT
