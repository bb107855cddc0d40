"""sentence (spec/mastra.md §6): sentences found unit by unit, grouped up to maxSize with
an overlap of whole sentences; oversized sentences fall back to words, then characters.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chunkview.core.chunkers.mastra.reference.splitter import (
    Length,
    Splitter,
    length_function,
    nodes,
    start_indexes,
)
from chunkview.core.text.js import W_CLASS, from_units, trim

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes

#: how a text is cut into sentences: ``sentences`` or one that gives what it gives
Sentences = Callable[[str, list[str]], list[str]]
#: how an oversized sentence is cut: ``fallback`` or one that gives what it gives
Fallback = Callable[[str, float, Length, bool, bool], list[str]]

_TITLES = {"Dr", "Mr", "Mrs", "Ms", "Prof", "Sr", "Jr"}
_DOTTED_RE = re.compile(r"(?:[a-z](?:\.[a-z])*|[A-Z](?:\.[A-Z])*)")
_W_RUN_RE = re.compile(f"[{W_CLASS}]+")
_SPACE_THEN_CAPITAL_RE = re.compile(f"[{W_CLASS}]+[A-Z]")


def is_abbreviation(word: str) -> bool:
    """§6.1's abbreviations: a title, one letter or dotted letters of one case, all
    digits, am/pm."""
    return (
        word in _TITLES
        or bool(_DOTTED_RE.fullmatch(word))
        or (word.isascii() and word.isdigit())
        or word.lower() in ("am", "pm", "a.m", "p.m")
    )


def last_word(sentence: str) -> str:
    """JS: ``sentence.trim().split(/\\s+/)``'s last word. The trim comes first, so a
    white-space ender is cut off: in "is\\n" the word is "is"."""
    return _W_RUN_RE.split(trim(sentence))[-1]


def sentences(text: str, enders: list[str]) -> list[str]:
    """§6.1: walk the text one unit at a time; at an ender, the position is a boundary
    when the rest is empty or white space only, or starts with white space and an ASCII
    capital and the sentence's last word (less its ender) is no abbreviation. A
    multi-unit ender never equals a unit."""
    found: list[str] = []
    start = 0  # the current sentence is text[start:i + 1]
    for i, unit in enumerate(text):
        if unit not in enders:
            continue
        rest = text[i + 1 :]
        if not trim(rest):
            boundary = True
        elif _SPACE_THEN_CAPITAL_RE.match(rest):
            boundary = not is_abbreviation(last_word(text[start : i + 1])[:-1])
        else:
            boundary = False
        if boundary:
            sentence = trim(text[start : i + 1])
            if sentence:
                found.append(sentence)
            start = i + 1
    rest = trim(text[start:])
    if rest:
        found.append(rest)
    return found


def words(sentence: str) -> list[str]:
    """The sentence split on runs of white space (§6.3), empty ones dropped."""
    return [w for w in _W_RUN_RE.split(sentence) if w]


def code_points(text: str) -> list[str]:
    """Code points of a unit string (a whole surrogate pair stays together)."""
    return re.findall("[\ud800-\udbff][\udc00-\udfff]|[\\s\\S]", text)


def by_code_points(text: str, max_size: float, length: Length) -> list[str]:
    """§6.3: ``text`` cut by code points, packed greedily while
    ``len(current + cp) <= maxSize``."""
    pieces, current = [], ""
    for point in code_points(text):
        if length(current + point) <= max_size:
            current += point
        else:
            if current:
                pieces.append(current)
            current = point
    if current:
        pieces.append(current)
    return pieces


def fallback(
    sentence: str, max_size: float, length: Length, by_words: bool, by_chars: bool
) -> list[str]:
    """§6.3: the pieces of an oversized sentence: its words packed (more than one piece,
    or none of this), else its code points, else the sentence whole."""
    if by_words:
        pieces: list[str] = []
        current = ""
        for word in words(sentence):
            # the piece with the word is measured first: a length function that is not
            # additive (tokens) can take a word with it that is over maxSize alone
            candidate = f"{current} {word}" if current else word
            if length(candidate) <= max_size:
                current = candidate
                continue
            if current:
                pieces.append(current)
            if length(word) > max_size:
                pieces.extend(by_code_points(word, max_size, length) if by_chars else [word])
                current = ""
            else:
                current = word
        if current:
            pieces.append(current)
        if len(pieces) > 1:
            return pieces
    if by_chars:
        return by_code_points(sentence, max_size, length)
    return [sentence]


class _Grouping:
    """§6.2: sentences grouped in order, joined with " ", each group emitted when the
    next sentence would pass maxSize or the group reaches targetSize; the next group
    starts with the overlap tail of whole sentences."""

    def __init__(self, options: dict[str, Any], notes: MastraNotes, cut: Fallback) -> None:
        self.max_size = options["maxSize"]
        self.overlap = options.get("overlap", 0)
        target = options.get("targetSize")
        # JS's Math.floor keeps an infinite maxSize infinite (Python's would overflow)
        default_target = self.max_size * 0.8
        if math.isfinite(default_target):
            default_target = math.floor(default_target)
        self.target = default_target if target is None else target
        self.by_words = options.get("fallbackToWords", True) is not False
        self.by_chars = options.get("fallbackToCharacters", True) is not False
        self.length = length_function(options.get("lengthFunction"))
        self.space_len = self.length(" ")
        self.notes, self.cut = notes, cut
        self.chunks: list[str] = []
        self.group: list[str] = []
        self.size: float = 0

    def emit(self, parts: list[str]) -> None:
        """A group joined by " ", kept unless it trims to nothing."""
        text = " ".join(parts)
        if trim(text):
            self.chunks.append(text)
            self.notes.produced()

    def tail_of(self, parts: list[str]) -> tuple[list[str], float]:
        """The overlap tail: the last sentences while their joined size stays within
        overlap (none at all for overlap 0)."""
        tail: list[str] = []
        tail_size: float = 0
        if self.overlap == 0:  # no tail, even of sentences a length function counts 0
            return tail, tail_size
        for sentence in reversed(parts):
            add = self.length(sentence) + (self.space_len if tail else 0)
            if tail_size + add > self.overlap:
                break
            tail.insert(0, sentence)
            tail_size += add
        return tail, tail_size

    def restart(self) -> None:
        """The group emitted; the next starts from its overlap tail."""
        self.group, self.size = self.tail_of(self.group)
        if self.group:
            self.notes.sentence_overlap(len(self.group), self.size, self.overlap)

    def too_long(self, sentence: str, sentence_len: float) -> None:
        """A sentence over maxSize: the group emitted (no overlap carried), then the
        sentence's fallback pieces (§6.3)."""
        if self.group:
            self.emit(self.group)
            self.group, self.size = [], 0
        for piece in self.cut(sentence, self.max_size, self.length, self.by_words, self.by_chars):
            if trim(piece):
                self.notes.sentence_too_long(
                    sentence_len, self.max_size, self.by_words, self.by_chars
                )
                self.chunks.append(piece)
                self.notes.produced()
        self.notes.after_long_sentence()

    def add(self, sentence: str) -> None:
        separator = self.space_len if self.group else 0  # computed before any flush
        sentence_len = self.length(sentence)
        if sentence_len > self.max_size:
            self.too_long(sentence, sentence_len)
            return
        if self.group and self.size + sentence_len + separator > self.max_size:
            self.emit(self.group)
            self.notes.sentence_full(self.size, sentence_len, separator, self.max_size)
            self.restart()
        self.group.append(sentence)
        self.size += sentence_len + separator
        if self.size >= self.target:
            self.emit(self.group)
            self.notes.sentence_target(self.size, self.target, sentence)
            self.restart()


def sentence_chunks(
    units: str,
    options: dict[str, Any],
    metadata: dict[str, Any],
    notes: MastraNotes,
    find: Sentences = sentences,
    cut: Fallback = fallback,
    make_nodes: Callable[..., list[dict[str, Any]]] = nodes,
) -> list[dict[str, Any]]:
    """The sentence strategy (§6): the sentences (§6.1, ``find``) grouped (§6.2), the
    oversized ones cut (§6.3, ``cut``); startIndex with the raw overlap (§4.4)."""
    grouping = _Grouping(options, notes, cut)
    for sentence in find(units, options.get("sentenceEnders", [".", "!", "?"])):
        grouping.add(sentence)
    if grouping.group:  # even when it is only an overlap tail
        grouping.emit(grouping.group)
    chunks = grouping.chunks
    splitter = Splitter(add_start_index=bool(options.get("addStartIndex", False)))
    if splitter.add_start_index:
        indexes = start_indexes(units, chunks, grouping.overlap)
        return [
            {"text": from_units(c), "metadata": {**metadata, "startIndex": i}}
            for c, i in zip(chunks, indexes)
        ]
    return make_nodes(units, chunks, metadata, splitter)
