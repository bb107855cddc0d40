"""sentence (spec/mastra.md §6): sentences found unit by unit, grouped up to maxSize with
an overlap of whole sentences; oversized sentences fall back to words, then characters."""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

import regex

from chunkview.core.chunkers.mastra.explain import current as notes_now
from chunkview.core.chunkers.mastra.splitter import Splitter, length_function, nodes, start_indexes
from chunkview.core.text.js import W_CHARS, W_CLASS, from_units, trim

_TITLES = {"Dr", "Mr", "Mrs", "Ms", "Prof", "Sr", "Jr"}
_DOTTED_RE = re.compile(r"(?:[a-z](?:\.[a-z])*|[A-Z](?:\.[A-Z])*)")
_W_RUN_RE = re.compile(f"[{W_CLASS}]+")
_LAST_W_RE = regex.compile(f"(?r)[{W_CLASS}]")
_LAST_NON_W_RE = regex.compile(f"(?r)[^{W_CLASS}]")


def _is_abbreviation(word: str) -> bool:
    return (
        word in _TITLES
        or bool(_DOTTED_RE.fullmatch(word))
        or (word.isascii() and word.isdigit())
        or word.lower() in ("am", "pm", "a.m", "p.m")
    )


def sentences(text: str, enders: list[str]) -> list[str]:
    """§6.1: a sentence ends at an ender followed by nothing but white space, or by white
    space and an ASCII capital, unless the word before is an abbreviation."""
    found: list[str] = []
    start = 0
    units = sorted({e for e in enders if len(e) == 1})
    if not units:
        rest = trim(text)
        return [rest] if rest else []
    # nothing but white space follows the last non-white unit: one strip, not a search
    # from each ender
    white_from = len(text.rstrip(W_CHARS))
    # only the enders that may end a sentence matter (followed by white space and a
    # capital, or by nothing but white space): let the regex engine find those
    for match in _enders_re("".join(units)).finditer(text):
        i = match.start()
        if i + 1 >= white_from:  # only white space follows
            boundary = True
        else:  # white space and a capital follow
            boundary = not _is_abbreviation(_last_word(text, start, i + 1)[:-1])
        if boundary:
            sentence = trim(text[start : i + 1])
            if sentence:
                found.append(sentence)
            start = i + 1
    rest = trim(text[start:])
    if rest:
        found.append(rest)
    return found


@lru_cache(maxsize=32)
def _enders_re(units: str) -> re.Pattern[str]:
    """An ender (one of ``units``) followed by white space and an ASCII capital, or by
    nothing but white space: the two cases where ``sentences`` may end a sentence."""
    enders = "[" + "".join(re.escape(u) for u in units) + "]"
    return re.compile(f"{enders}(?=[{W_CLASS}]+[A-Z]|[{W_CLASS}]*\\Z)")


def _last_word(text: str, start: int, end: int) -> str:
    """JS: ``sentence.trim().split(/\\s+/)``'s last word, for ``text[start:end]``. The
    trim comes first, so a white-space ender is cut off: in "is\\n" the word is "is"."""
    last = _LAST_NON_W_RE.search(text, start, end)
    if last is None:
        return ""
    space = _LAST_W_RE.search(text, start, last.end())
    return text[space.end() if space else start : last.end()]


def _split_words(words_text: str) -> list[str]:
    return [w for w in _W_RUN_RE.split(words_text) if w]


def _code_points(text: str) -> list[str]:
    """Code points of a unit string (a whole surrogate pair stays together)."""
    return re.findall("[\ud800-\udbff][\udc00-\udfff]|[\\s\\S]", text)


def _fallback(sentence: str, max_size: float, length, by_words: bool, by_chars: bool) -> list[str]:
    """§6.3: pieces of an oversized sentence."""
    if by_words:
        pieces: list[str] = []
        if length is len:  # the same packing, without rebuilding the piece per word
            pieces = _pack_measured(_split_words(sentence), " ", max_size, by_chars)
            if len(pieces) > 1:
                return pieces
            return _by_code_points(sentence, max_size, length) if by_chars else [sentence]
        current = ""
        for word in _split_words(sentence):
            # the piece with the word is measured first: a length function that is not
            # additive (tokens) can take a word with it that is over maxSize alone
            candidate = f"{current} {word}" if current else word
            if length(candidate) <= max_size:
                current = candidate
                continue
            if current:
                pieces.append(current)
            if length(word) > max_size:
                pieces.extend(_by_code_points(word, max_size, length) if by_chars else [word])
                current = ""
            else:
                current = word
        if current:
            pieces.append(current)
        if len(pieces) > 1:
            return pieces
    if by_chars:
        return _by_code_points(sentence, max_size, length)
    return [sentence]


def _pack_measured(parts: list[str], glue: str, max_size: float, by_chars: bool) -> list[str]:
    """The packing of ``_fallback`` (words, ``glue`` " ") or ``_by_code_points`` (code
    points, ``glue`` "") for the UTF-16 length: the piece is a list and its length a
    sum, where the loop builds and measures a string per part (quadratic on a long
    sentence). A word over maxSize is a piece, or its code points' pieces."""
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    glue_len = len(glue)
    for part in parts:
        part_len = len(part)
        if glue and part_len > max_size:  # only words can be over it alone
            if current:
                pieces.append(glue.join(current))
                current, size = [], 0
            pieces.extend(_by_code_points(part, max_size, len) if by_chars else [part])
            continue
        candidate = size + glue_len + part_len if current else part_len
        if candidate <= max_size:
            current.append(part)
            size = candidate
        else:
            if current:
                pieces.append(glue.join(current))
            current, size = [part], part_len
    if current:
        pieces.append(glue.join(current))
    return pieces


def _by_code_points(text: str, max_size: float, length) -> list[str]:
    if length is len:
        return _pack_measured(_code_points(text), "", max_size, False)
    pieces, current = [], ""
    for point in _code_points(text):
        if length(current + point) <= max_size:
            current += point
        else:
            if current:
                pieces.append(current)
            current = point
    if current:
        pieces.append(current)
    return pieces


def sentence_chunks(units: str, options: dict[str, Any], metadata: dict[str, Any]):
    max_size = options["maxSize"]
    overlap = options.get("overlap", 0)
    target = options.get("targetSize")
    target = math.floor(max_size * 0.8) if target is None else target
    enders = options.get("sentenceEnders", [".", "!", "?"])
    by_words = options.get("fallbackToWords", True) is not False
    by_chars = options.get("fallbackToCharacters", True) is not False
    length = length_function(options.get("lengthFunction"))
    space_len = length(" ")
    chunks: list[str] = []
    group: list[str] = []
    size: float = 0
    why = notes_now()  # the run's reasons (explain.py), or None

    def emit(parts: list[str]) -> None:
        text = " ".join(parts)
        if trim(text):
            chunks.append(text)
            if why is not None:
                why.produced()

    def tail_of(parts: list[str]) -> tuple[list[str], float]:
        tail: list[str] = []
        tail_size: float = 0
        if overlap == 0:  # no tail at all, even of sentences a length function counts 0
            return tail, tail_size
        for sentence in reversed(parts):
            add = length(sentence) + (space_len if tail else 0)
            if tail_size + add > overlap:
                break
            tail.insert(0, sentence)
            tail_size += add
        return tail, tail_size

    for sentence in sentences(units, enders):  # a multi-unit ender never equals a unit
        separator = space_len if group else 0
        sentence_len = length(sentence)
        if sentence_len > max_size:
            if group:
                emit(group)
                group, size = [], 0
            for piece in _fallback(sentence, max_size, length, by_words, by_chars):
                if trim(piece):
                    if why is not None:
                        why.sentence_too_long(sentence_len, max_size, by_words, by_chars)
                    chunks.append(piece)
                    if why is not None:
                        why.produced()
            if why is not None:
                why.after_long_sentence()
            continue
        if group and size + sentence_len + separator > max_size:
            emit(group)
            if why is not None:
                why.sentence_full(size, sentence_len, separator, max_size)
            group, size = tail_of(group)
            if why is not None and group:
                why.sentence_overlap(len(group), size, overlap)
        group.append(sentence)
        size += sentence_len + separator
        if size >= target:
            emit(group)
            if why is not None:
                why.sentence_target(size, target, sentence)
            group, size = tail_of(group)
            if why is not None and group:
                why.sentence_overlap(len(group), size, overlap)
    if group:
        emit(group)
    splitter = Splitter(add_start_index=bool(options.get("addStartIndex", False)))
    if splitter.add_start_index:
        indexes = start_indexes(units, chunks, overlap)
        return [
            {"text": from_units(c), "metadata": {**metadata, "startIndex": i}}
            for c, i in zip(chunks, indexes)
        ]
    return nodes(units, chunks, metadata, splitter)
