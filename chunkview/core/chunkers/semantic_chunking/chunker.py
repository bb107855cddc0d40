"""chunkit, cramit and sentenceit (spec/semantic-chunking.md §1 to §13): the calls.

This module takes the library's arguments (§2, §4), runs each document through the steps
of ``reference`` (§5 to §9) or the fast path that replaces a step (``sentences``,
``similarity``, ``packing``: each names the step it replaces), and builds the results
(§3). Sentences are kept per text, embeddings per text (``chunkview.core.text.embed``), so
moving maxTokenSize or a threshold re-runs only the cheap steps. Token counts use the
tokenizer chosen (wordpunct by default, as the golden cases; the real library counts
with its model's tokenizer). When the run's observer wants reasons, ``explain`` tells
them from what the steps worked out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from chunkview.core.chunkers.entry import RunContext
from chunkview.core.chunkers.semantic_chunking import packing, reference
from chunkview.core.chunkers.semantic_chunking.explain import (
    Chunked,
    tell_chunk_reasons,
    tell_sentence_reasons,
)
from chunkview.core.chunkers.semantic_chunking.sentences import split_sentences
from chunkview.core.chunkers.semantic_chunking.similarity import (
    as_arrays,
    pair_similarities,
    similarities,
)
from chunkview.core.errors import ChunkerError
from chunkview.core.text.embed import embed_cached
from chunkview.core.text.js import js_string, number_text, option, truthy
from chunkview.core.text.tokens import counter

DEFAULTS: dict[str, Any] = {
    "maxTokenSize": 500,
    "similarityThreshold": 0.5,
    "dynamicThresholdLowerBound": 0.4,
    "dynamicThresholdUpperBound": 0.8,
    "numSimilaritySentencesLookahead": 3,
    "combineChunks": True,
    "combineChunksSimilarityThreshold": 0.5,
    "maxMergesPerPass": 500,
    "maxUncappedPasses": 100,
    "maxMergesPerPassPercentage": 40,
    "uncappedCandidateMerges": 12,
    "returnEmbedding": False,
    "returnTokenLength": True,
    "chunkPrefix": None,
    "excludeChunkPrefixInResults": False,
    "excludeNonLetterSentences": False,
}
PROVIDER_SUFFIX = ":provider"


@dataclass
class Call:
    """What one call needs besides the documents."""

    options: dict[str, Any]
    embedder: str
    via_provider: bool  # the library's local-provider path (labels from onnxEmbeddingModel)
    count: Callable[[str], int]
    ctx: RunContext
    #: §6.4's packing: with a running count where the counter adds up across a space
    #: (wordpunct: ``packing``), else counting each chunk's text again (``reference``)
    create_chunks: Callable[..., list[list[str]]] = reference.create_chunks
    #: the run's observer wants reasons (read once, at the top of the call)
    explaining: bool = False

    def get(self, name: str) -> Any:
        return option(self.options, name, DEFAULTS.get(name))

    def embed(self, texts: list[str]) -> list[list[float]]:
        return embed_cached(self.embedder, texts, progress=self.ctx.progress, check=self.ctx.check)

    def labels(self) -> tuple[Any, Any]:
        if self.via_provider:  # destructuring defaults: a null model or dtype stays null
            return (
                self.options.get("onnxEmbeddingModel", "Xenova/all-MiniLM-L6-v2"),
                self.options.get("dtype", "q8"),
            )
        return (
            option(self.options, "modelName", "custom-embedding"),
            option(self.options, "dtypeLabel", "custom"),
        )


def _call(options: dict[str, Any] | None, ctx: RunContext) -> Call:
    options = dict(options or {})
    cache = options.get("cache", "request")  # only a missing key takes the default
    if not _is_cache_mode(cache):
        raise ChunkerError(
            "Error",
            f"Invalid cache mode \"{js_string(cache)}\". Expected 'request', 'instance', or false.",
        )
    embedder = ctx.embedder or "hash64"
    via_provider = embedder.endswith(PROVIDER_SUFFIX) or embedder == "minilm"
    tokenizer = ctx.tokenizer or "wordpunct"
    return Call(
        options,
        embedder.removesuffix(PROVIDER_SUFFIX),
        via_provider,
        _cached_counter(tokenizer),
        ctx,
        create_chunks=(
            packing.create_chunks if tokenizer == "wordpunct" else reference.create_chunks
        ),
        explaining=ctx.observer.wants_reasons,
    )


def _is_cache_mode(value: Any) -> bool:
    """Membership in ``new Set(['request', 'instance', false])``: 0 and null are not false."""
    return value is False or (isinstance(value, str) and value in ("request", "instance"))


@lru_cache(maxsize=4)
def _cached_counter(tokenizer: str) -> Callable[[str], int]:
    """The tokenizer's count, remembered per text (re-runs count the same sentences)."""
    return lru_cache(maxsize=200_000)(counter(tokenizer))


def _documents(raw: Any, entry: str, call: Call) -> Iterator[tuple[Any, str]]:
    """The (name, text) pairs of the documents argument, or the library's error.

    The documents are handled at once (Promise.all of async functions), and the first
    to reject wins. A missing document or text fails before the function's first await;
    chunkit's ``.replace`` on a text that is no string fails there too. In cramit and
    sentenceit that text fails inside cheerio, which rejects at the first await: there
    an earlier document whose prefix is no valid regex fails on the same tick (its
    results are built right after that await, unless returnEmbedding awaits more), so
    the documents before the refused text are worked through first."""
    if not isinstance(raw, list):
        raise ChunkerError("Error", "Input must be an array of document objects")
    documents: list[tuple[Any, str]] = []
    late: ChunkerError | None = None
    late_position = 0  # how many documents come before the refused text
    for doc in raw:
        if doc is None:
            raise ChunkerError(
                "TypeError", "Cannot read properties of null (reading 'document_text')"
            )
        text = doc.get("document_text") if isinstance(doc, dict) else None
        if not truthy(text):
            raise ChunkerError("Error", "Each document must have a document_text property")
        if not isinstance(text, str):
            if entry == "chunkit":
                raise ChunkerError("TypeError", "doc.document_text.replace is not a function")
            if late is None:
                late, late_position = _cheerio_type_error(text), len(documents)
            continue
        name = doc.get("document_name")
        documents.append((name if truthy(name) else "", text))
    if late is not None and truthy(call.get("returnEmbedding")):
        raise late
    for position, document in enumerate(documents):
        if late is not None and position == late_position:
            raise late
        yield document
    if late is not None:
        raise late


def _cheerio_type_error(text: Any) -> ChunkerError:
    """cheerio's error on a text that is no string: it sets ``prev`` on the value, or on
    the first item of an array."""
    value = text[0] if isinstance(text, list) and text else text
    kind = {bool: "boolean", int: "number", float: "number", str: "string"}.get(type(value))
    shown = value if isinstance(value, str) else number_text(value)
    if kind is None:  # an object: cheerio takes it as a node (not reproduced)
        kind, shown = "object", "[object Object]"
    return ChunkerError("TypeError", f"Cannot create property 'prev' on {kind} '{shown}'")


# ----- §6 chunkit, §7 cramit, §8 sentenceit: one document ----------------------------------
def _chunkit_document(text: str, call: Call, first: int, name: Any) -> list[str]:
    """§5.1, §5, §6.1 to §6.5: one document's chunk texts."""
    sentences = split_sentences(
        reference.join_line_breaks(text), bool(call.get("excludeNonLetterSentences"))
    )
    distinct = list(dict.fromkeys(sentences))  # §6.1: one vector per distinct sentence
    vectors = dict(zip(distinct, call.embed(distinct)))
    sims, average, variance = similarities(
        [vectors[s] for s in sentences], call.get("numSimilaritySentencesLookahead")
    )
    threshold = reference.adjust_threshold(
        average,
        variance,
        call.get("similarityThreshold"),
        call.get("dynamicThresholdLowerBound"),
        call.get("dynamicThresholdUpperBound"),
    )
    groups = call.create_chunks(sentences, sims, threshold, call.get("maxTokenSize"), call.count)
    chunks = [" ".join(group) for group in groups]
    combined = None
    if call.get("combineChunks"):
        known = [c for c in dict.fromkeys(chunks) if c in vectors]  # a chunk that is a sentence
        combined = reference.combine(
            chunks,
            dict(zip(known, as_arrays([vectors[c] for c in known]))),
            reference.merge_limits(call.get),
            lambda texts: as_arrays(call.embed(texts)),
            call.count,
            call.ctx.check,
            pair_similarities,
        )
        chunks = combined.chunks
    if call.explaining:
        chunked = Chunked(name, first, groups, sims, (average, variance, threshold), combined)
        tell_chunk_reasons(call.ctx.observer, call, chunked)
    return chunks


def _cramit_document(text: str, call: Call, first: int, name: Any) -> list[str]:
    """§5, §7: one document's sentences packed up to maxTokenSize."""
    sentences = split_sentences(text, bool(call.get("excludeNonLetterSentences")))
    groups = call.create_chunks(sentences, None, 0, call.get("maxTokenSize"), call.count)
    if call.explaining:
        tell_chunk_reasons(call.ctx.observer, call, Chunked(name, first, groups))
    return [" ".join(group) for group in groups]


# ----- §3 the results, §9 the prefix --------------------------------------------------------
def _assemble(name: Any, texts: list[str], call: Call, kind: str) -> list[dict[str, Any]]:
    """§3: one document's results, with §9's prefix (and its removal) and §6.6's
    embeddings of the prefixed texts."""
    prefix = call.get("chunkPrefix")
    prefixed = [reference.apply_prefix(prefix, t) for t in texts]
    embeddings = call.embed(prefixed) if call.get("returnEmbedding") else None
    shown = prefixed
    if call.get("excludeChunkPrefixInResults") and reference.has_prefix(prefix):
        shown = reference.strip_prefix(str(prefix), prefixed)
    model_name, dtype = call.labels()
    document_id = int(time.time() * 1000)
    results: list[dict[str, Any]] = []
    for i, text in enumerate(shown):
        item: dict[str, Any] = {"document_id": document_id, "document_name": name}
        if kind == "sentence":
            item.update(number_of_sentences=len(texts), sentence_number=i + 1, text=text)
            if embeddings is not None:
                item.update(model_name=model_name, dtype=dtype, embedding=embeddings[i])
        else:
            item.update(number_of_chunks=len(texts), chunk_number=i + 1)
            item.update(model_name=model_name, dtype=dtype, text=text)
            if embeddings is not None:
                item["embedding"] = embeddings[i]
        if call.get("returnTokenLength"):
            item["token_length"] = call.count(prefixed[i])
        results.append(item)
    return results


# ----- §1 the entry points --------------------------------------------------------------------
def chunkit(
    documents: Any, options: dict[str, Any] | None = None, ctx: RunContext | None = None
) -> list[dict[str, Any]]:
    """``await chunkit(documents, options)``: semantic chunks of every document."""
    call = _call(options, ctx or RunContext())
    results: list[dict[str, Any]] = []
    for name, text in _documents(documents, "chunkit", call):
        chunks = _chunkit_document(text, call, len(results), name)
        results += _assemble(name, chunks, call, "chunk")
    return results


def cramit(
    documents: Any, options: dict[str, Any] | None = None, ctx: RunContext | None = None
) -> list[dict[str, Any]]:
    """``await cramit(documents, options)``: sentences packed up to maxTokenSize."""
    call = _call(options, ctx or RunContext())
    results: list[dict[str, Any]] = []
    for name, text in _documents(documents, "cramit", call):
        chunks = _cramit_document(text, call, len(results), name)
        results += _assemble(name, chunks, call, "chunk")
    return results


def sentenceit(
    documents: Any, options: dict[str, Any] | None = None, ctx: RunContext | None = None
) -> list[dict[str, Any]]:
    """``await sentenceit(documents, options)``: one result per sentence (§8)."""
    call = _call(options, ctx or RunContext())
    results: list[dict[str, Any]] = []
    for name, text in _documents(documents, "sentenceit", call):
        sentences = split_sentences(text, bool(call.get("excludeNonLetterSentences")))
        if call.explaining:
            tell_sentence_reasons(call.ctx.observer, len(sentences), len(results), name)
        results += _assemble(name, sentences, call, "sentence")
    return results
