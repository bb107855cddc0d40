"""The text-splitter machinery shared by character, recursive, markdown (no headers),
latex and sentence (spec/mastra.md §4). All strings are unit strings (UTF-16 units)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chunkview.core.chunkers.mastra.jsregex import compile_js, js_split
from chunkview.core.text.js import trim

Length = Callable[[str], float]


@dataclass(frozen=True)
class Splitter:
    """The base options after defaults: maxSize 4000, overlap 200, UTF-16 length."""

    max_size: float = 4000
    overlap: float = 200
    length: Length = len
    keep_separator: Any = False  # False | True | "start" | "end"
    add_start_index: bool = False
    strip_whitespace: bool = True


def split_on_separator(text: str, pattern: str, keep: Any) -> list[str]:
    """§4.1: split ``text`` on the regex source ``pattern`` in a keepSeparator mode."""
    if pattern == "":
        return list(text)
    if not keep:
        return [p for p in js_split(compile_js(pattern), text) if p != ""]
    if text == "":
        return []
    splits = js_split(compile_js(f"({pattern})"), text)
    pieces: list[str] = []
    if keep == "end":
        pieces = [splits[i] + splits[i + 1] for i in range(0, len(splits) - 1, 2)]
        if len(splits) % 2 == 1:
            pieces.append(splits[-1])
    else:  # True or "start": a separator followed by nothing is dropped
        pieces = [splits[0]]
        pieces += [
            splits[i] + splits[i + 1]
            for i in range(1, len(splits) - 1, 2)
            if splits[i] and splits[i + 1]
        ]
    return [p for p in pieces if p != ""]


def join_pieces(pieces: list[str], joiner: str, splitter: Splitter) -> str | None:
    """§4.3: the pieces joined, trimmed when stripWhitespace is on; None when empty."""
    text = joiner.join(pieces)
    if splitter.strip_whitespace:
        text = trim(text)
    return text or None


def merge_splits(pieces: list[str], joiner: str, splitter: Splitter) -> list[str]:
    """§4.2: pack pieces up to maxSize; each new chunk starts with an overlap tail of whole
    pieces totalling at most ``overlap``."""
    length, max_size, overlap = splitter.length, splitter.max_size, splitter.overlap
    separator_len = length(joiner) if joiner else 0
    chunks: list[str] = []
    current: list[str] = []
    total: float = 0
    for piece in pieces:
        piece_len = length(piece)
        if current and total + piece_len + separator_len > max_size:
            joined = join_pieces(current, joiner, splitter)
            if joined is not None:
                chunks.append(joined)
            if overlap > 0:
                tail: list[str] = []
                size: float = 0
                for earlier in reversed(current):
                    earlier_len = length(earlier)
                    if size + earlier_len > overlap:
                        break
                    tail.insert(0, earlier)
                    size += earlier_len + (separator_len if len(tail) >= 2 else 0)
                current, total = tail, size
            else:
                current, total = [], 0
        current.append(piece)
        total += piece_len + (separator_len if len(current) >= 2 else 0)
    if current:
        joined = join_pieces(current, joiner, splitter)
        if joined is not None:
            chunks.append(joined)
    return chunks


def start_indexes(source: str, chunks: list[str], overlap: float) -> list[int]:
    """§4.4: ``source.indexOf(chunk, max(0, previous + previous length - overlap))``."""
    indexes: list[int] = []
    index, previous_len = 0, 0
    for chunk in chunks:
        start = min(int(max(0, index + previous_len - overlap)), len(source))
        index = source.find(chunk, start)
        indexes.append(index)
        previous_len = len(chunk)
    return indexes
