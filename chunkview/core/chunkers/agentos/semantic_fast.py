"""The SemanticChunker's steps 2 to 4 fast (spec/agentos.md §1.3), and the run that
takes every fast path (``semantic_chunk``: replaces ``semantic_reference.semantic_chunk``
when nobody asks for reasons; it tells its observer the places, not the reasons).

Each function here replaces the reference function of the same name, and why it is
equal:

- ``sentence_cuts``: the look-behind split tries every character; this finds each
  ``.!?`` followed by W and cuts after the mark, which are the same cuts (a cut's white
  space run is the longest after its mark, as the greedy ``+`` takes it).
- ``fixed_split``: for whole sizes, targetSize >= 1 and minSize >= 0 every window ends
  past its start, so the loop cannot hang and needs no record of where it stepped back
  from; only a space past p + minSize can end a window, so the search for the last space
  stops there instead of running back to the start. Other sizes: the reference loop.
- ``resplit_long``: the segments not over maxSize go over as they are (the reference
  copies them one by one, to note where each begins).
- ``merge_small``: finds the small segments first and joins them in place: nothing reads
  the segments afterwards (the reference copies them, as the reasons read them).
- ``with_overlap``: for a whole overlap, a text of plain code points and no metadata,
  the chunk objects are made column by column.

tests/test_semantic_properties.py checks each against its reference.
"""

from __future__ import annotations

import re
from operator import add
from typing import Any

from chunkview.core.chunkers.agentos import semantic_reference as reference
from chunkview.core.chunkers.agentos.semantic_line_pass import line_pass
from chunkview.core.chunkers.agentos.semantic_reference import (
    Cascade,
    Config,
    Notes,
    Segment,
    join_segment,
    json_number,
    paragraph_split,
)
from chunkview.core.model.observer import NOBODY, RunObserver
from chunkview.core.text.js import W_CHARS, W_CLASS, is_blank, unit_string

_SENTENCE_END_AT_RE = re.compile(f"[.!?][{W_CLASS}]+")


def semantic_chunk(
    text: str,
    options: dict[str, Any] | None = None,
    metadata: Any = None,
    observer: RunObserver = NOBODY,
) -> list[dict[str, Any]]:
    """``semantic_reference.semantic_chunk`` on the fast paths: the same chunks and
    places; no reasons."""
    config = Config.from_options(options)
    units = unit_string(text or "")
    if is_blank(units):
        observer.placed([])
        return []
    segments = resplit_long(line_pass(units, config), config)
    merged = merge_small(segments, config.min_size, units)
    chunks = with_overlap(merged, config.overlap, metadata, astral=units is not text)
    observer.placed(merged)
    return chunks


def sentence_cuts(text: str) -> tuple[list[str], list[str]]:
    """``semantic_reference.sentence_cuts``, found from each mark on."""
    parts: list[str] = []
    cuts: list[str] = []
    begin = 0
    for end in _SENTENCE_END_AT_RE.finditer(text):
        mark = end.start() + 1
        parts.append(text[begin:mark])
        cuts.append(text[mark : end.end()])
        begin = end.end()
    parts.append(text[begin:])
    return parts, cuts


def fixed_split(
    text: str, base: int, config: Config, notes: Notes, exact: bool = False
) -> list[Segment]:
    """``semantic_reference.fixed_split``: whole sizes that cannot hang by
    ``fixed_split_whole``, any other by the reference loop."""
    target, minimum = config.target_size, config.min_size
    if type(target) is int and target >= 1 and type(minimum) is int and minimum >= 0:
        return fixed_split_whole(text, base, target, minimum, exact)
    return reference.fixed_split(text, base, config, notes, exact)


def fixed_split_whole(
    text: str, base: int, target: int, minimum: int, exact: bool = False
) -> list[Segment]:
    """FixedSplit for whole sizes, target >= 1 and minSize >= 0 (see the module's top).
    ``exact``: ``text`` is the source as it is from ``base``."""
    pieces: list[Segment] = []
    length, position = len(text), 0
    find_space = text.rfind
    while position < length:
        end = position + target
        if end < length:
            space = find_space(" ", position + minimum + 1, end + 1)
            if space >= 0:
                end = space
        else:
            end = length
        piece = text[position:end].strip(W_CHARS)
        if piece:  # where the text is the source as it is: the window is there
            end_there = base + end if exact else -1
            as_is = exact and len(piece) == end - position
            pieces.append(Segment(piece, base + position, "fixed", end_there, as_is))
        position = end
        while position < length and text[position] == " ":
            position += 1
    return pieces


#: the fast sentence cut and fixed split, for step 2's cascade
FAST = Cascade(sentence_cuts, fixed_split)


def resplit_long(structural: list[Segment], config: Config) -> list[Segment]:
    """``semantic_reference.resplit_long``: only the long segments are visited."""
    max_size = config.max_size
    # NaN re-splits everything, as in JS; the line pass's offsets are whole numbers
    long = [i for i, segment in enumerate(structural) if not len(segment.text) <= max_size]
    if not long:
        return structural
    unheard: Notes = []  # the fast path tells no reasons
    segments: list[Segment] = []
    done = 0  # the segments before this index are in ``segments``
    for i in long:
        segments.extend(structural[done:i])
        one = structural[i]
        segments.extend(
            paragraph_split(one.text, int(one.offset), config, unheard, one.exact, FAST)
        )
        done = i + 1
    segments.extend(structural[done:])
    return segments


def merge_small(segments: list[Segment], min_size: Any, source: str) -> list[Segment]:
    """``semantic_reference.merge_small`` (without notes), merging in place."""
    if len(segments) < 2:
        return [Segment(s.text, s.offset, s.boundary, s.source_end, s.exact) for s in segments]
    whole = ("heading", "code-block")
    # the first segment has none before it to join
    small = [
        i
        for i, segment in enumerate(segments)
        if i and segment.boundary not in whole and len(segment.text.strip(W_CHARS)) < min_size
    ]
    merged: list[Segment] = []
    done = 0  # the segments before this index are in ``merged``
    for i in small:  # the segments between two small ones go over as they are
        merged.extend(segments[done:i])
        join_segment(merged[-1], segments[i], source)
        done = i + 1
    merged.extend(segments[done:])
    return merged


def with_overlap(
    segments: list[Segment], overlap: Any, metadata: Any, astral: bool = True
) -> list[dict[str, Any]]:
    """``semantic_reference.with_overlap``: by columns where it can."""
    if type(overlap) is int and not astral and metadata is None:
        return _with_whole_overlap(segments, max(overlap, 0))
    return reference.with_overlap(segments, overlap, metadata, astral)


def _with_whole_overlap(segments: list[Segment], overlap: int) -> list[dict[str, Any]]:
    """The chunk objects column by column, for a whole overlap (0: none) on a text of
    plain code points, without metadata."""
    texts = [segment.text for segment in segments]
    starts = [segment.offset for segment in segments]
    ends = list(map(add, starts, map(len, texts)))
    if type(sum(starts)) is not int:  # a fractional offset (from the options) somewhere
        ends = [end if type(end) is int else json_number(end) for end in ends]
    if overlap and texts:  # each after the first: the last ``overlap`` of the one before
        texts[1:] = map(add, [text[-overlap:] for text in texts[:-1]], texts[1:])
    return [
        {
            "text": text,
            "index": index,
            "startOffset": start,
            "endOffset": end,
            "boundaryType": segment.boundary,
        }
        for index, (text, start, end, segment) in enumerate(zip(texts, starts, ends, segments))
    ]
