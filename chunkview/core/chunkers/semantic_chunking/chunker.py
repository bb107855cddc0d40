"""chunkit, cramit and sentenceit (spec/semantic-chunking.md §1 to §13).

Sentences come from ``sentences.split_sentences`` (cached); embeddings from
``chunkview.core.text.embed`` (cached per text), so moving maxTokenSize or a threshold re-runs
only the cheap steps. Token counts use the tokenizer chosen (wordpunct by default, as the
golden cases; the real library counts with its model's tokenizer).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from chunkview.core.chunkers.entry import RunContext
from chunkview.core.chunkers.semantic_chunking.explain import explain_chunks, explain_sentences
from chunkview.core.chunkers.semantic_chunking.sentences import split_sentences
from chunkview.core.errors import ChunkerError
from chunkview.core.text.embed import cosine_rows, embed_cached
from chunkview.core.text.js import W_CLASS, is_blank, js_string, number_text, option, truthy
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
_LINE_BREAK_RE = re.compile(r"([^\n])\n([^\n])")
_W_RUNS_RE = re.compile(f"[{W_CLASS}]{{2,}}")
PROVIDER_SUFFIX = ":provider"


@dataclass
class Call:
    """What one call needs besides the documents."""

    options: dict[str, Any]
    embedder: str
    via_provider: bool  # the library's local-provider path (labels from onnxEmbeddingModel)
    count: Callable[[str], int]
    ctx: RunContext
    additive: bool = False  # the counter adds up across a space (wordpunct)

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
        additive=tokenizer == "wordpunct",
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


# ----- chunkit ------------------------------------------------------------------------------
def similarities(vectors: list[list[float]], lookahead: float) -> tuple[list[float], float, float]:
    """§6.2: each sentence's best similarity with the next ones, their mean and variance."""
    n = len(vectors)
    if n == 0:
        return [], 0.0, 0.0
    if n == 1:
        return [], math.nan, math.nan
    matrix = np.asarray(vectors, dtype=np.float64)
    best = cosine_rows(matrix[:-1], matrix[1:])  # the next sentence, always
    distance = 2
    while distance <= lookahead and distance < n:  # then j <= i + lookahead, j <= n - 1
        best[: n - distance] = np.maximum(
            best[: n - distance], cosine_rows(matrix[:-distance], matrix[distance:])
        )
        distance += 1
    sims = best.tolist()
    total = 0.0
    for sim in sims:  # left to right, as the library sums
        total += sim
    average = total / (n - 1)
    spread = 0.0
    for sim in sims:
        spread += (sim - average) ** 2
    return sims, average, spread / (n - 1)


def adjust_threshold(
    average: float, variance: float, base: float, lower: float, upper: float
) -> float:
    """§6.3: the dynamic threshold (unchanged and unclamped when the bounds are invalid)."""
    if lower >= upper:
        return base
    threshold = base
    if variance < 0.01:
        threshold -= 0.1
    elif variance > 0.05:
        threshold += 0.1
    if average < 0.3:
        threshold += 0.05
    elif average > 0.7:
        threshold -= 0.05
    return min(max(threshold, lower), upper)


def create_chunks(
    sentences: list[str],
    sims: list[float] | None,
    threshold: float,
    max_tokens: float,
    count: Callable[[str], int],
    additive: bool = False,
    notes: list | None = None,
) -> list[str]:
    """§6.4 (and §7 with every similarity passing): sentences packed under maxTokenSize.

    With an ``additive`` counter (wordpunct: count(a + " " + b) = count(a) + count(b)) the
    chunk's count is kept as a running sum instead of counting the joined text again."""
    if not sentences:
        return [""]
    chunks, current = [], [sentences[0]]
    current_count = count(sentences[0]) if additive else 0
    for i in range(1, len(sentences)):
        passes = sims is None or sims[i - 1] >= threshold
        sentence_count = count(sentences[i])
        joined_count = current_count if additive else count(" ".join(current))
        if passes and joined_count + sentence_count <= max_tokens:
            current.append(sentences[i])
            current_count += sentence_count
        else:
            if notes is not None:  # why a chunk starts at sentence i (explain.py)
                sim = sims[i - 1] if sims is not None else None
                notes.append(("cut", i, passes, sim, joined_count, sentence_count))
            chunks.append(" ".join(current))
            current, current_count = [sentences[i]], sentence_count
    chunks.append(" ".join(current))
    return chunks


class _Node:
    __slots__ = ("next", "text", "tokens", "vector")

    def __init__(self, text: str, tokens: int, vector: np.ndarray) -> None:
        self.text, self.tokens, self.vector = text, tokens, vector
        self.next: _Node | None = None


def combine(
    chunks: list[str],
    sentence_vectors: dict[str, list[float]],
    call: Call,
    notes: list | None = None,
) -> list[str]:
    """§6.5: passes of highest-similarity-first merges of neighbours, with the library's
    limits and its phantom-merge quirk."""
    if len(chunks) <= 1:
        return chunks
    max_tokens = call.get("maxTokenSize")
    threshold = call.get("combineChunksSimilarityThreshold")
    missing = [c for c in dict.fromkeys(chunks) if c not in sentence_vectors]
    vectors = dict(zip(missing, call.embed(missing))) if missing else {}
    nodes = [
        _Node(
            c, call.count(c), np.asarray(sentence_vectors.get(c, vectors.get(c)), dtype=np.float64)
        )
        for c in chunks
    ]
    for a, b in zip(nodes, nodes[1:]):
        a.next = b
    head = nodes[0]
    if notes is not None:
        notes.append(("nodes", [id(n) for n in nodes]))
    most_passes = call.get("maxUncappedPasses")
    # `while (passCount < maxUncappedPasses)`: 0.001 allows one pass, 2.5 three
    for _ in range(math.ceil(most_passes) if most_passes > 0 else 0):
        call.ctx.check()
        listed = []
        node: _Node | None = head
        while node is not None:
            listed.append(node)
            node = node.next
        pairs = [(a, b) for a, b in zip(listed, listed[1:]) if a.tokens + b.tokens <= max_tokens]
        sims: np.ndarray | list[float] = (
            cosine_rows(
                np.stack([a.vector for a, _ in pairs]), np.stack([b.vector for _, b in pairs])
            )
            if pairs
            else []
        )
        candidates = [
            (a, b, float(similarity), a.tokens + b.tokens)
            for (a, b), similarity in zip(pairs, sims)
            if similarity >= threshold
        ]
        if notes is not None:  # the pass's view of every neighbour pair (explain.py)
            notes.append(("pass", listed, pairs, sims))
        if not candidates:
            break
        candidates.sort(key=lambda c: -c[2])  # stable: ties keep their order
        k = len(candidates)
        limit = (
            k
            if k <= call.get("uncappedCandidateMerges")
            else min(
                math.floor(k * call.get("maxMergesPerPassPercentage") / 100),
                call.get("maxMergesPerPass"),
            )
        )
        merges, absorbed = 0, []
        marked: set[int] = set()
        for a, b, _similarity, size in candidates:
            if merges >= limit:  # a negative limit allows none, 2.5 allows three
                break
            if id(a) in marked or id(b) in marked:
                continue
            # b is not marked: a later (b, c) still "merges" b, which is no longer listed
            if notes is not None:
                notes.append(("merge", id(a), id(b), _similarity, a.tokens, b.tokens))
            a.text = f"{a.text} {b.text}"
            a.tokens = size  # its vector is embedded again after the pass
            a.next = b.next
            marked.add(id(a))
            absorbed.append(a)
            merges += 1
        for node, vector in zip(absorbed, call.embed([n.text for n in absorbed])):
            node.vector = np.asarray(vector, dtype=np.float64)
        if merges == 0:
            break
    texts: list[str] = []
    node = head
    while node is not None:
        texts.append(node.text)
        node = node.next
    if notes is not None:
        notes.append(("final", head))
    return texts


def _prefixed(prefix: Any, text: str) -> str:
    return f"{prefix}: {text}" if truthy(prefix) and not is_blank(str(prefix)) else text


def _strip_prefix(prefix: str, texts: list[str]) -> list[str]:
    from chunkview.core.text.jsregex import compile_js

    source = f"^{prefix}:\\s*"
    if not texts:  # JS builds the regex per chunk: none, no SyntaxError
        return []
    try:
        pattern = compile_js(source)
    except re.error as error:
        raise ChunkerError(
            "SyntaxError", f"Invalid regular expression: /{source}/: {error.msg}"
        ) from None
    return [pattern.sub("", t, count=1) for t in texts]


def _assemble(name: Any, texts: list[str], call: Call, kind: str) -> list[dict[str, Any]]:
    prefix = call.get("chunkPrefix")
    prefixed = [_prefixed(prefix, t) for t in texts]
    embeddings = call.embed(prefixed) if call.get("returnEmbedding") else None
    shown = prefixed
    if call.get("excludeChunkPrefixInResults") and truthy(prefix) and not is_blank(str(prefix)):
        shown = _strip_prefix(str(prefix), prefixed)
    model_name, dtype = call.labels()
    document_id = int(time.time() * 1000)
    results: list[dict[str, Any]] = []
    for i, text in enumerate(shown):
        if kind == "sentence":
            item: dict[str, Any] = {
                "document_id": document_id,
                "document_name": name,
                "number_of_sentences": len(texts),
                "sentence_number": i + 1,
                "text": text,
            }
            if embeddings is not None:
                item.update(model_name=model_name, dtype=dtype, embedding=embeddings[i])
        else:
            item = {
                "document_id": document_id,
                "document_name": name,
                "number_of_chunks": len(texts),
                "chunk_number": i + 1,
                "model_name": model_name,
                "dtype": dtype,
                "text": text,
            }
            if embeddings is not None:
                item["embedding"] = embeddings[i]
        if call.get("returnTokenLength"):
            item["token_length"] = call.count(prefixed[i])
        results.append(item)
    return results


def chunkit(
    documents: Any, options: dict[str, Any] | None = None, ctx: RunContext | None = None
) -> list[dict[str, Any]]:
    """``await chunkit(documents, options)``: semantic chunks of every document."""
    call = _call(options, ctx or RunContext())
    results: list[dict[str, Any]] = []
    for name, text in _documents(documents, "chunkit", call):
        text = _W_RUNS_RE.sub(" ", _LINE_BREAK_RE.sub(r"\1 \2", text))  # §5.1
        sentences = split_sentences(text, bool(call.get("excludeNonLetterSentences")))
        distinct = list(dict.fromkeys(sentences))  # one vector per distinct sentence
        vectors = dict(zip(distinct, call.embed(distinct)))
        sims, average, variance = similarities(
            [vectors[s] for s in sentences], call.get("numSimilaritySentencesLookahead")
        )
        threshold = adjust_threshold(
            average,
            variance,
            call.get("similarityThreshold"),
            call.get("dynamicThresholdLowerBound"),
            call.get("dynamicThresholdUpperBound"),
        )
        notes: list | None = [] if call.ctx.explain is not None else None
        chunks = create_chunks(
            sentences, sims, threshold, call.get("maxTokenSize"), call.count, call.additive, notes
        )
        if call.get("combineChunks"):
            chunks = combine(chunks, vectors, call, notes)
        if notes is not None:
            explain_chunks(call, notes, len(results), name, (average, variance, threshold))
        results += _assemble(name, chunks, call, "chunk")
    return results


def cramit(
    documents: Any, options: dict[str, Any] | None = None, ctx: RunContext | None = None
) -> list[dict[str, Any]]:
    """``await cramit(documents, options)``: sentences packed up to maxTokenSize."""
    call = _call(options, ctx or RunContext())
    results: list[dict[str, Any]] = []
    for name, text in _documents(documents, "cramit", call):
        sentences = split_sentences(text, bool(call.get("excludeNonLetterSentences")))
        notes: list | None = [] if call.ctx.explain is not None else None
        chunks = create_chunks(
            sentences, None, 0, call.get("maxTokenSize"), call.count, call.additive, notes
        )
        if notes is not None:
            explain_chunks(call, notes, len(results), name)
        results += _assemble(name, chunks, call, "chunk")
    return results


def sentenceit(
    documents: Any, options: dict[str, Any] | None = None, ctx: RunContext | None = None
) -> list[dict[str, Any]]:
    """``await sentenceit(documents, options)``: one result per sentence."""
    call = _call(options, ctx or RunContext())
    results: list[dict[str, Any]] = []
    for name, text in _documents(documents, "sentenceit", call):
        sentences = split_sentences(text, bool(call.get("excludeNonLetterSentences")))
        if call.ctx.explain is not None:
            explain_sentences(call, len(sentences), len(results), name)
        results += _assemble(name, sentences, call, "sentence")
    return results
