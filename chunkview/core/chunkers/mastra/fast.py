"""Fast paths of the character and sentence strategies and of the chunk nodes, for the
UTF-16 length (``len``). Each gives what the reference function it replaces gives:

- ``windows`` replaces ``reference.character.windows`` (§5.1 step 3). With ``len`` the
  window grown one unit at a time while ``len(window) <= maxSize`` is ``min(rest,
  floor(maxSize))`` units (at least none): its length is worked out at once.
- ``character_split`` replaces ``reference.character.character_split`` (§5.1) for a run
  nobody asks reasons of, with ``len``: the pieces are measured in one pass, and those
  that fit are the chunks as they are, in order, as the loop keeps them; the others are
  cut by ``windows``. A split with an undefined piece is left to the loop, where the
  library's error comes.
- ``sentences`` replaces ``reference.sentence.sentences`` (§6.1). Only an ender followed
  by white space and a capital, or by nothing but white space, can end a sentence: one
  regex finds just those, where the walk looks at every unit; the last word is read
  backwards from the ender, not by splitting the whole sentence.
- ``fallback`` replaces ``reference.sentence.fallback`` (§6.3). With ``len`` the piece
  being packed is a list and its length a running sum (the length of a join is the sum
  of the parts' and the glue's), where the loop builds and measures a string per part.
- ``nodes`` replaces ``reference.splitter.nodes``: it copies flat metadata with ``dict``
  (a deep copy of strings and numbers is the same), and skips ``from_units`` for a
  chunk that has no surrogate to join (an ASCII one, or every one cut from a text known
  to hold none, where a chunk holds the text's units and ASCII glue only).

tests/test_mastra_fast_paths.py checks each against its reference on generated texts
and options.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

import regex

from chunkview.core.chunkers.mastra.reference.character import character_split as split_loop
from chunkview.core.chunkers.mastra.reference.character import windows as unit_windows
from chunkview.core.chunkers.mastra.reference.sentence import (
    code_points,
    is_abbreviation,
    words,
)
from chunkview.core.chunkers.mastra.reference.sentence import fallback as fallback_loop
from chunkview.core.chunkers.mastra.reference.splitter import (
    Length,
    Splitter,
    split_on_separator,
)
from chunkview.core.chunkers.mastra.reference.splitter import (
    nodes as plain_nodes,
)
from chunkview.core.text.js import W_CHARS, W_CLASS, from_units, known_whole, trim
from chunkview.core.text.jsregex import escape

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes

_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_LAST_W_RE = regex.compile(f"(?r)[{W_CLASS}]")
_LAST_NON_W_RE = regex.compile(f"(?r)[^{W_CLASS}]")


# ----- character ------------------------------------------------------------------------
def windows(piece: str, splitter: Splitter) -> list[str]:
    """``reference.character.windows``, each window's end worked out at once for ``len``."""
    if splitter.length is not len:
        return unit_windows(piece, splitter)
    max_size = splitter.max_size
    found: list[str] = []
    start: float = 0
    while start < len(piece):
        end = start + min(math.ceil(len(piece) - start), max(0, math.floor(max_size)))
        window = piece[int(start) : int(end)]
        found.append(window)
        if end >= len(piece):
            break
        start += max(1, len(window) - splitter.overlap)
    return found


def character_split(
    text: str,
    splitter: Splitter,
    notes: MastraNotes,
    separator: str = "\n\n",
    is_regex: bool = False,
) -> list[str | None]:
    """``reference.character.character_split`` with these windows; measured in one pass
    for a run nobody asks reasons of, with ``len``."""
    if notes.telling or splitter.length is not len:
        return split_loop(text, splitter, notes, separator, is_regex, windows)
    pattern = separator if is_regex else escape(separator)
    pieces = split_on_separator(text, pattern, splitter.keep_separator)
    try:
        lengths = list(map(len, pieces))  # type: ignore[arg-type]
    except TypeError:  # an undefined piece: the loop, where the library's error comes
        return split_loop(text, splitter, notes, separator, is_regex, windows)
    max_size = splitter.max_size
    if not lengths or max(lengths) <= max_size:  # every piece a chunk as it is
        return pieces
    chunks: list[str | None] = []
    for piece, piece_len in zip(pieces, lengths):
        if piece_len <= max_size:
            chunks.append(piece)
        else:
            chunks.extend(windows(piece, splitter))  # type: ignore[arg-type]
    return chunks


# ----- sentence -------------------------------------------------------------------------
def sentences(text: str, enders: list[str]) -> list[str]:
    """``reference.sentence.sentences``: the enders that may end a sentence found by one
    regex, the white space after the last non-white unit found by one strip."""
    found: list[str] = []
    start = 0
    units = sorted({e for e in enders if len(e) == 1})
    if not units:
        rest = trim(text)
        return [rest] if rest else []
    white_from = len(text.rstrip(W_CHARS))
    for match in _enders_re("".join(units)).finditer(text):
        i = match.start()
        if i + 1 >= white_from:  # only white space follows
            boundary = True
        else:  # white space and a capital follow
            boundary = not is_abbreviation(_last_word(text, start, i + 1)[:-1])
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
    nothing but white space: the two cases where a sentence may end."""
    enders = "[" + "".join(re.escape(u) for u in units) + "]"
    return re.compile(f"{enders}(?=[{W_CLASS}]+[A-Z]|[{W_CLASS}]*\\Z)")


def _last_word(text: str, start: int, end: int) -> str:
    """``reference.sentence.last_word(text[start:end])``, read backwards from ``end``:
    the last non-white unit, and the white space before it."""
    last = _LAST_NON_W_RE.search(text, start, end)
    if last is None:
        return ""
    space = _LAST_W_RE.search(text, start, last.end())
    return text[space.end() if space else start : last.end()]


def fallback(
    sentence: str, max_size: float, length: Length, by_words: bool, by_chars: bool
) -> list[str]:
    """``reference.sentence.fallback``, packed as lists with running sums for ``len``."""
    if length is not len:
        return fallback_loop(sentence, max_size, length, by_words, by_chars)
    if by_words:
        pieces = _pack_measured(words(sentence), " ", max_size, by_chars)
        if len(pieces) > 1:
            return pieces
    if by_chars:
        return _pack_measured(code_points(sentence), "", max_size, False)
    return [sentence]


def _pack_measured(parts: list[str], glue: str, max_size: float, by_chars: bool) -> list[str]:
    """The word packing (``glue`` " ") or the code-point packing (``glue`` "") of the
    fallback for ``len``. A word over maxSize is a piece, or its code points' pieces."""
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
            pieces.extend(
                _pack_measured(code_points(part), "", max_size, False) if by_chars else [part]
            )
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


# ----- the chunk nodes --------------------------------------------------------------------
def nodes(
    source: str,
    chunks: list[str | None],
    metadata: dict[str, Any],
    splitter: Splitter,
    overlap: float | None = None,
    glue: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """``reference.splitter.nodes`` without a deep copy of flat metadata, and without
    ``from_units`` where a chunk has no surrogate pair to join: the text's slices need
    none when the text is known to hold no surrogate, and the ``glue`` holds none."""
    flat = all(isinstance(v, (str, int, float, bool, type(None))) for v in metadata.values())
    if splitter.add_start_index or not flat or None in chunks:
        return plain_nodes(source, chunks, metadata, splitter, overlap)
    texts = cast(list[str], chunks)  # none is undefined
    whole = known_whole(source) and not any(map(_SURROGATE_RE.search, glue))
    if not metadata and whole:  # its slices and its glue need no from_units
        return [{"text": text, "metadata": {}} for text in texts]
    if not metadata:
        return [
            {"text": text if text.isascii() else from_units(text), "metadata": {}} for text in texts
        ]
    return [{"text": from_units(text), "metadata": metadata.copy()} for text in texts]
