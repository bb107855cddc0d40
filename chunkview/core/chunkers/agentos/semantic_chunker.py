"""Port of agentos ``SemanticChunker`` (spec/agentos.md §1), quirks included.

All lengths and offsets are UTF-16 code units: the work is done on a unit string
(``chunkview.core.text.js``) and converted back at the end.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import repeat
from operator import add, getitem, itemgetter, sub
from typing import Any

import regex

from chunkview.core.document import Document
from chunkview.core.entry import Entry, Param, RunContext, chunk_metadata, js_literal
from chunkview.core.errors import ChunkerError, OptionError
from chunkview.core.locate import locate, locate_columns
from chunkview.core.span_table import SpanTable, head_of
from chunkview.core.spans import LOCATED, Span
from chunkview.core.text.js import (
    NON_W_RE,
    W_CHARS,
    W_CLASS,
    char_at,
    from_units,
    is_blank,
    js_slice,
    last_index_of,
    number_text,
    option,
    to_number,
    to_units,
    trim,
    truthy,
    unit_view,
)

_HEADING_RE = re.compile(f"#{{1,6}}[{W_CLASS}]")
_PARAGRAPH_SEP_RE = re.compile(f"\n[{W_CLASS}]*\n")
_SENTENCE_END_AT_RE = re.compile(f"[.!?][{W_CLASS}]+")


@dataclass(frozen=True)
class Config:
    target_size: Any = 1000
    max_size: Any = 2000
    min_size: Any = 200
    overlap: Any = 100
    preserve_code_blocks: bool = True
    respect_headings: bool = True
    #: where the splits note their cuts when the run explains itself (explain.py)
    notes: list | None = field(default=None, compare=False)

    @classmethod
    def from_options(cls, options: dict[str, Any] | None) -> Config:
        return cls(
            target_size=_number(options, "targetSize", 1000),
            max_size=_number(options, "maxSize", 2000),
            min_size=_number(options, "minSize", 200),
            overlap=_number(options, "overlap", 100),
            preserve_code_blocks=truthy(option(options, "preserveCodeBlocks", True)),
            respect_headings=truthy(option(options, "respectHeadings", True)),
        )


def _number(options: dict[str, Any] | None, name: str, default: int) -> int | float:
    """A size option as JS uses it: booleans count as 0 and 1, any number goes through."""
    value = option(options, name, default)
    try:
        return to_number(value)
    except TypeError:
        raise OptionError(name, f"takes a number, got {js_literal(value)}") from None


def _offset(value: int | float) -> int | float:
    """An offset as JSON shows a JS number: whole values without a fraction."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


@dataclass
class Segment:
    text: str
    offset: int | float  # a JS number: fractional where the options are
    boundary: str
    #: where the text ends in the source (units), when the text is the source from
    #: ``offset`` to there but for its white space (a line-pass segment, and merges of
    #: ones with only white space between them); -1: not known (a re-split piece, whose
    #: offset is reckoned)
    source_end: int = -1


def semantic_chunk(
    text: str,
    options: dict[str, Any] | None = None,
    metadata: Any = None,
    explain: list | None = None,
    places: list[Segment] | None = None,
) -> list[dict[str, Any]]:
    """``new SemanticChunker(options).chunk(text, metadata)``: the chunk objects, in order.

    ``places``, when given, gets the segment each chunk's own part is, with where it came
    from in ``text`` (``Segment.offset`` and ``source_end``, in units; -1 where the port
    does not know). Raises ChunkerError("Hang") where the original would loop
    forever.
    """
    config = Config.from_options(options)
    units = unit_view(text or "")[0]
    if is_blank(units):
        return []
    if explain is not None:
        config = replace(config, notes=[])
    segments: list[Segment] = []
    length = len(units)
    for segment in line_pass(units, config):
        if config.notes is not None:  # where each structural segment's pieces begin
            config.notes.append(("segment", len(segments), segment))
        if not len(segment.text) <= config.max_size:  # NaN re-splits, as in JS
            # line_pass's offsets are string indices: whole numbers
            segments.extend(paragraph_split(segment.text, int(segment.offset), config))
        else:
            if places is not None:  # a slice of units + "\n" from its (whole) offset
                end = int(segment.offset) + len(segment.text)
                segment.source_end = end if end <= length else length
            segments.append(segment)
    merged = merge_small(
        segments, config.min_size, config.notes, units if places is not None else None
    )
    chunks = with_overlap(merged, config.overlap, metadata, astral=units is not text)
    if places is not None:
        places.extend(merged)
    if explain is not None:
        from chunkview.core.chunkers.agentos.explain import explain_semantic_chunker

        explain_semantic_chunker(explain, config, segments, merged, chunks, text or "")
    return chunks


_W_NO_LF = W_CLASS.replace("\n", "")


@lru_cache(maxsize=4)
def _event_re(fences: bool, headings: bool) -> re.Pattern[str]:
    """Lines that can change the line pass's state; every other line just joins G."""
    kinds = []
    if fences:
        kinds.append(f"(?P<fence>[{_W_NO_LF}]*```)")
    if headings:
        kinds.append(f"(?P<heading>#{{1,6}}[{_W_NO_LF}])")
    kinds.append(f"(?P<blank>[{_W_NO_LF}]*(?=\n|\\Z))")
    # matched in "\n" + text: a literal first character lets the engine skip to each LF;
    # the match runs to the end of the line, so its end is where the next line starts
    return re.compile("\n(?:" + "|".join(kinds) + ")[^\n]*")


# the ``` of a line that opens like a fence (the engine skips to each ```, then looks back);
# a heading line (at the start, and after its LF: "\n#" lets the engine skip ahead); the
# LF before a blank line
_FENCE_TICKS_RE = regex.compile(f"(?<=(?:\\A|\n)[{_W_NO_LF}]*)```")
_HEADING_AT_RE = re.compile(f"#{{1,6}}[{_W_NO_LF}]")
_HEADING_LINE_RE = re.compile(f"\n#{{1,6}}[{_W_NO_LF}]")
_BLANK_LINE_RE = re.compile(f"\n[{_W_NO_LF}]*(?=\n|\\Z)")


def line_pass(text: str, config: Config) -> list[Segment]:
    """Step 1: fences, headings and blank lines cut the text into structural segments."""
    if type(config.target_size) is int:
        return _line_pass_jumps(text, config)
    return _line_pass_events(text, config)


def _line_pass_jumps(text: str, config: Config) -> list[Segment]:
    """The line pass going from one line that changes its state to the next, for a whole
    targetSize: the next fence, the next heading, and the first blank line that ends G,
    which is the first at or past start + targetSize with a non-blank line before it since
    G began (every other blank line only joins G). G always ends where the line that ends
    it starts, so G and a code block are slices of ``text + "\n"`` again."""
    n = len(text)
    none = n + 2  # past every line start
    target = config.target_size
    segments: list[Segment] = []

    def piece(begin: int, end: int, boundary: str) -> None:
        segments.append(
            Segment(text[begin:end] if end <= n else text[begin:] + "\n", begin, boundary)
        )

    def after(line: int) -> int:  # where the next line starts
        end = text.find("\n", line)
        return (n if end < 0 else end) + 1

    # every line that opens like a fence, and every heading line, found once, in order
    fences: list[int] = []
    if config.preserve_code_blocks:
        ticks = [found.start() for found in _FENCE_TICKS_RE.finditer(text)]
        fences = [
            tick if tick == 0 or text[tick - 1] == "\n" else text.rfind("\n", 0, tick) + 1
            for tick in ticks
        ]
    headings: list[int] = []
    if config.respect_headings:
        if _HEADING_AT_RE.match(text):
            headings.append(0)
        headings.extend([found.start() + 1 for found in _HEADING_LINE_RE.finditer(text)])
    fences.append(none)
    headings.append(none)

    def next_fence(cursor: int) -> int:
        return fences[bisect_left(fences, cursor)]

    def next_heading(cursor: int) -> int:
        return headings[bisect_left(headings, cursor)]

    start, nonblank, boundary, cursor = 0, False, "paragraph", 0
    fence, heading = next_fence(0), next_heading(0)
    while True:
        event = min(fence, heading)
        stop = event if event < none else n
        lowest = max(cursor, start + target)
        first = None
        if not nonblank:  # a blank line ends G only after a non-blank line
            first = NON_W_RE.search(text, cursor, stop)
            lowest = max(lowest, first.start() + 1) if first else none
        if lowest < event and lowest <= n:
            blank = _BLANK_LINE_RE.search(text, lowest - 1, event - 1 if event < none else n)
            if blank:
                line = blank.start() + 1
                piece(start, line, boundary)
                start = cursor = after(line)
                nonblank, boundary = False, "paragraph"
                continue
        if event == none:
            break
        nonblank = nonblank or first is not None  # a non-blank line before the event
        if event == heading:
            if nonblank:
                piece(start, heading, boundary)
            start, nonblank, boundary, cursor = heading, True, "heading", after(heading)
            heading = next_heading(cursor)
            continue
        if nonblank:
            piece(start, fence, boundary)  # G is kept: an unclosed fence emits it again
        closing = next_fence(after(fence))
        if closing == none:
            segments.append(Segment(text[fence:] + "\n", fence, "code-block"))
            if nonblank:
                piece(start, fence, boundary)
            return segments
        cursor = after(closing)
        segments.append(Segment(text[fence : cursor - 1], fence, "code-block"))
        start, nonblank, boundary = cursor, False, "paragraph"
        fence = next_fence(cursor)
        if heading < cursor:
            heading = next_heading(cursor)
    if nonblank or NON_W_RE.search(text, cursor) is not None:
        piece(start, n + 1, boundary)
    return segments


def _line_pass_events(text: str, config: Config) -> list[Segment]:
    """The line pass for any targetSize, event by event.

    Every line joins its buffer with an LF, so the gathered text G and a code block are
    always slices of ``text + "\n"``: the pass tracks slice bounds, not strings, and visits
    only the lines a regex marks as fence, heading or blank.
    """
    extended = text + "\n"
    segments: list[Segment] = []
    start, gathered_end, gathered_nonblank, boundary = 0, 0, False, "paragraph"
    in_block, block_start = False, 0
    cursor = 0  # start of the first line not yet handled
    target = config.target_size

    def emit_gathered() -> None:
        segments.append(Segment(extended[start:gathered_end], start, boundary))

    events = _event_re(config.preserve_code_blocks, config.respect_headings)
    for match in events.finditer("\n" + text):
        line_start = match.start()  # the match's LF stands one before the line in text
        if line_start > cursor and not in_block:  # ordinary, non-blank lines join G
            gathered_end, gathered_nonblank = line_start, True
        after = cursor = match.end()  # (the line's end in text) + 1
        kind = match.lastgroup
        if kind == "fence":
            if not in_block:
                if gathered_nonblank:
                    emit_gathered()  # G is kept: an unclosed fence emits it again at the end
                in_block, block_start = True, line_start
            else:
                segments.append(
                    Segment(extended[block_start : after - 1], block_start, "code-block")
                )
                in_block = False
                start = gathered_end = after
                gathered_nonblank, boundary = False, "paragraph"
        elif in_block:
            continue
        elif kind == "heading":
            if gathered_nonblank:
                emit_gathered()
            start, gathered_end, gathered_nonblank, boundary = line_start, after, True, "heading"
        elif gathered_nonblank and gathered_end - start >= target:  # blank line ends G
            emit_gathered()
            start = gathered_end = after
            gathered_nonblank, boundary = False, "paragraph"
        else:
            gathered_end = after
    if cursor < len(extended) and not in_block:  # ordinary lines after the last event
        gathered_end, gathered_nonblank = len(extended), True
    if in_block:
        segments.append(Segment(extended[block_start:], block_start, "code-block"))
    if gathered_nonblank:
        emit_gathered()
    return segments


def _pack(parts: list[str], base: int, joiner: str, config: Config, flush) -> list[Segment]:
    """Greedy packing of parts up to targetSize; offsets assume ``joiner`` between parts."""
    pieces: list[Segment] = []
    acc, acc_offset, running = "", base, base
    for part in parts:
        if acc and len(acc) + len(part) + len(joiner) > config.target_size:
            if config.notes is not None:  # why the next piece starts at ``running``
                config.notes.append(("full", running, len(acc), len(part), len(joiner)))
            flush(acc, acc_offset, pieces)
            acc, acc_offset = part, running
        elif acc:
            acc = acc + joiner + part
        else:
            acc, acc_offset = part, running
        running += len(part) + len(joiner)
    if not is_blank(acc):
        flush(acc, acc_offset, pieces)
    return pieces


def paragraph_split(text: str, base: int, config: Config) -> list[Segment]:
    """Cut at blank lines and pack; a packed piece over maxSize goes to sentences."""
    parts = _PARAGRAPH_SEP_RE.split(text)
    if len(parts) == 1:
        return sentence_split(text, base, config)

    def flush(acc: str, at: int, pieces: list[Segment]) -> None:
        if len(acc) > config.max_size:
            if config.notes is not None:
                config.notes.append(("resplit", at, len(acc), "sentence"))
            pieces.extend(sentence_split(acc, at, config))
        else:
            pieces.append(Segment(acc, at, "paragraph"))

    return _pack(parts, base, "\n\n", config, flush)


def sentence_split(text: str, base: int, config: Config) -> list[Segment]:
    """Cut after . ! ? and the white space that follows; pack with single spaces."""
    parts = sentence_parts(text)
    if len(parts) == 1:
        return fixed_split(text, base, config)

    def flush(acc: str, at: int, pieces: list[Segment]) -> None:
        if len(acc) > config.max_size:
            if config.notes is not None:
                config.notes.append(("resplit", at, len(acc), "fixed"))
            pieces.extend(fixed_split(acc, at, config))
        else:
            pieces.append(Segment(acc, at, "sentence"))

    return _pack(parts, base, " ", config, flush)


def sentence_parts(text: str) -> list[str]:
    """``text.split(/(?<=[.!?])\\s+/)``: the white space after a . ! or ? cuts. Found from
    the mark on (a search with a look-behind tries every character; one that starts at
    the mark skips to the next mark in C), the same cuts."""
    parts: list[str] = []
    append, begin = parts.append, 0
    for end in _SENTENCE_END_AT_RE.finditer(text):
        append(text[begin : end.start() + 1])
        begin = end.end()
    append(text[begin:])
    return parts


def fixed_split(text: str, base: int, config: Config) -> list[Segment]:
    """Windows of targetSize, backed off to the last ASCII space past minSize.

    The sizes are any JS numbers: a fractional position indexes nothing (no space is
    skipped there) and slices truncate. Where the loop would run forever: ``Hang``.
    """
    pieces: list[Segment] = []
    length, target, minimum = len(text), config.target_size, config.min_size
    if target != target:  # NaN: one empty window, then the position is NaN
        return pieces
    if target <= 0:
        _check_backward_split(text, base, config)
        return pieces  # only spaces: every window trims to nothing
    if type(target) is int and type(minimum) is int and minimum >= 0 and config.notes is None:
        return _fixed_split_whole(text, base, target, minimum)
    position: int | float = 0
    stepped_back_from: set[int | float] = set()
    while position < length:
        end = min(position + target, length)
        if end < length:
            space = last_index_of(text, " ", end)
            if space > position + minimum:
                end = space
        piece = trim(js_slice(text, position, end))
        if piece:
            pieces.append(Segment(piece, _offset(base + position), "fixed"))
        previous, position = position, end
        while position < length and char_at(text, position) == " ":
            position += 1
        if config.notes is not None:  # why the next window starts here
            config.notes.append(("window", _offset(base + position), base + previous, base + end))
        if not position > previous:
            # the JS loop has no other state than the position: a repeat never ends
            if previous in stepped_back_from:
                raise ChunkerError(
                    "Hang",
                    f"the fixed split keeps going back to position {base + previous} "
                    f"(targetSize {number_text(target)}, minSize {number_text(minimum)}); "
                    "the original library would never return",
                    int(base + previous) if previous == previous else base,
                )
            stepped_back_from.add(previous)
    return pieces


def _fixed_split_whole(text: str, base: int, target: int, minimum: int) -> list[Segment]:
    """fixed_split for whole sizes, target >= 1 and minSize >= 0: every window ends past its
    start, so the loop cannot hang, and only a space past start + minSize can end it
    (the search for the last space stops there instead of running back to the start)."""
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
        if piece:
            pieces.append(Segment(piece, base + position, "fixed"))
        position = end
        while position < length and text[position] == " ":
            position += 1
    return pieces


def _check_backward_split(text: str, base: int, config: Config) -> None:
    """targetSize <= 0: every window ends at or before its start, so the position only
    moves on over spaces and never passes the first other character. The loop ends
    only on a text of spaces, and then every piece is empty."""
    target, minimum = config.target_size, config.min_size
    spaces_only = not text.strip(" ")
    # a text of spaces ends once a back-off lands on 0 (minSize finite) or at once (0)
    if spaces_only and (target == 0 or minimum - minimum == 0):
        return
    raise ChunkerError(
        "Hang",
        f"the fixed split cannot move forward from position {base} with targetSize "
        f"{number_text(target)} (not above 0); the original library would never return",
        base,
    )


def merge_small(
    segments: list[Segment], min_size: Any, notes: list | None = None, source: str | None = None
) -> list[Segment]:
    """Step 3: a small non-heading, non-code segment joins the one before it.

    Without notes the segments are merged in place: nothing reads them afterwards (the
    reasons do, so then the merged ones are copies). With the ``source`` the segments were
    cut from, a merge keeps ``source_end`` where only white space lies between them."""
    if len(segments) < 2:
        return [Segment(s.text, s.offset, s.boundary, s.source_end) for s in segments]
    merged: list[Segment] = []
    whole = ("heading", "code-block")
    for segment in segments:
        if merged and segment.boundary not in whole and len(segment.text.strip(W_CHARS)) < min_size:
            if notes is not None:
                notes.append(("merged", len(merged) - 1, len(trim(segment.text)), segment))
            last = merged[-1]
            last.text = last.text + "\n\n" + segment.text
            if source is not None and last.source_end >= 0:
                adjacent = segment.source_end >= 0 and segment.offset >= last.source_end
                if adjacent:  # a line-pass segment: its offset is where it starts
                    between = source[last.source_end : int(segment.offset)]
                    adjacent = not between or between.isspace()
                last.source_end = segment.source_end if adjacent else -1
        elif notes is None:
            merged.append(segment)
        else:
            merged.append(
                Segment(segment.text, segment.offset, segment.boundary, segment.source_end)
            )
    return merged


def with_overlap(
    segments: list[Segment], overlap: Any, metadata: Any, astral: bool = True
) -> list[dict[str, Any]]:
    """Step 4: prefix each chunk with the previous chunk's last ``overlap`` units.

    ``astral`` says whether the text had characters outside the BMP at all; without them
    the unit strings are the Python strings and need no conversion back."""
    chunks = []
    prefixed = overlap > 0  # NaN: no prefix
    whole = type(overlap) is int
    if whole and not astral and metadata is None:
        return _with_whole_overlap(segments, overlap if prefixed else 0)
    previous = ""
    for index, segment in enumerate(segments):
        text, offset = segment.text, segment.offset
        if index and prefixed:
            own = text
            text = (previous[-overlap:] if whole else js_slice(previous, -overlap)) + text
            previous = own
        else:
            previous = text
        end = offset + len(segment.text)
        chunk = {
            "text": from_units(text) if astral else text,
            "index": index,
            "startOffset": offset,
            "endOffset": end if type(end) is int else _offset(end),
            "boundaryType": segment.boundary,
        }
        if metadata is not None:  # undefined in JS: JSON has no key
            chunk["metadata"] = metadata
        chunks.append(chunk)
    return chunks


def _with_whole_overlap(segments: list[Segment], overlap: int) -> list[dict[str, Any]]:
    """with_overlap for a whole overlap (0: none) on a text of plain code points, with
    no metadata: the chunk objects made column by column."""
    texts = [segment.text for segment in segments]
    starts = [segment.offset for segment in segments]
    ends = list(map(add, starts, map(len, texts)))
    if not all(type(end) is int for end in ends):  # fractional offsets, from the options
        ends = [end if type(end) is int else _offset(end) for end in ends]
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


def overlap_prefix(previous: str, overlap: Any) -> str:
    """``prevText.slice(-overlap)`` (a fraction truncates: 0.5 takes the whole text)."""
    if type(overlap) is int and overlap > 0:
        return previous[-overlap:]
    return js_slice(previous, -overlap)


_last_plain: tuple[str, bool] = ("", True)


def _plain(text: str) -> bool:
    """True when ``text`` has no character outside the BMP and no surrogate half, so unit
    strings cut from it are plain texts (remembered for the last text: a slider moving
    over one document asks again and again)."""
    global _last_plain
    if _last_plain[0] is not text:
        plain = text.isascii() or (
            len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text)
            and not _SURROGATE_RE.search(text)
        )
        _last_plain = (text, plain)
    return _last_plain[1]


def _span_list(document: Document, native: list[dict[str, Any]], overlap: Any) -> list[Span]:
    """The spans of ``native`` on ``document``, one Span at a time: any text, any overlap
    (``_span_table`` gives the same for a plain text and a whole overlap)."""
    prefixes: list[int] = []  # the overlap prefix's length, in code points
    owns: list[str] = []
    previous_own = ""
    # a text with no astral character and no surrogate half is its own unit string
    astral = not _plain(document.text)
    for i, chunk in enumerate(native):
        units = to_units(chunk["text"]) if astral else chunk["text"]
        prefix = overlap_prefix(previous_own, overlap) if i and overlap > 0 else ""
        previous_own = units[len(prefix) :]
        prefixes.append(len(from_units(prefix)) if astral else len(prefix))
        owns.append(from_units(previous_own) if astral else previous_own)
    to_points = document.units_to_points
    # where the library says each own part starts: the search checks it first
    reported = [to_points(chunk["startOffset"]) for chunk in native]
    located = locate(document.text, owns, overlapping=False, hints=reported)
    missing = "missing"
    return [
        Span(
            chunk["index"],
            where[0] if where[2] == missing else max(where[0] - prefix, 0),
            where[1],
            where[0],
            chunk["boundaryType"],
            chunk["text"],
            where[2],
            chunk_metadata(chunk) if "metadata" in chunk else {},
            at,
        )
        for chunk, prefix, where, at in zip(native, prefixes, located, reported)
    ]


def _prefix_sizes(sizes: list[int], overlap: int) -> list[int]:
    """Each chunk's overlap prefix, in units, from the chunk sizes: the last ``overlap``
    units of the own part of the chunk before (``with_overlap``)."""
    count = len(sizes)
    if overlap <= 0 or count < 2:
        return [0] * count
    prefixes = [0, *[overlap] * (count - 1)]
    # a chunk of 2 x overlap or more has an own part of overlap or more: the prefix after
    # it is whole; only those after shorter ones are worked out, in order
    twice = 2 * overlap
    for i in [i for i, size in enumerate(sizes[:-1], 1) if size < twice]:
        prefixes[i] = min(overlap, sizes[i - 1] - prefixes[i - 1])
    return prefixes


class Chunks(list):
    """The chunk objects, and where each one's own part came from in the text (see
    ``semantic_chunk``'s ``places``): a list, as JSON sees it."""

    def __init__(self, chunks: list[dict[str, Any]], own_segments: list[Segment]) -> None:
        super().__init__(chunks)
        self.own_segments = own_segments


def _place_by_source(
    text: str, owns: list[str], segments: list[Segment], hints: list[Any]
) -> tuple[list[int], list[int], list[int]]:
    """Where each own part lies, as ``locate_columns`` says it, from where the port took
    it: ``exact`` where it is the text there; ``normalized`` where only the white space
    differs, from its first to its last non-space character; searched for where the
    port does not know (``Segment.source_end``). Where a search would differ, it would
    have found the text somewhere else in its window (a repeated passage): the place the
    port took it from is the right one."""
    exact, normalized = LOCATED.index("exact"), LOCATED.index("normalized")
    ends = [segment.source_end for segment in segments]
    # a segment whose end is not known has a reckoned offset, maybe a fraction: unused
    own_starts = [int(s.offset) if end >= 0 else 0 for s, end in zip(segments, ends)]
    located = [
        exact if found and end - start == size else normalized
        for found, start, end, size in zip(
            map(text.startswith, owns, own_starts), own_starts, ends, map(len, owns)
        )
    ]
    searched = []
    for i in [i for i, at in enumerate(located) if at != exact]:
        start, end = own_starts[i], ends[i]
        region = text[start:end] if end >= 0 else ""
        # the own part is this region but for its white space, by the way the port cut
        # it; a byte order mark is white space to the search but not to strip()
        stripped = region.lstrip()
        if end < 0 or not stripped or "\ufeff" in region:
            searched.append(i)
            continue
        own_starts[i] = end - len(stripped)
        ends[i] = start + len(region.rstrip())
    # the rest as the search finds them, each run after the chunk placed before it
    for run in _runs(searched):
        first, last = run[0], run[-1] + 1
        after = (own_starts[first - 1], ends[first - 1]) if first else None
        found = locate_columns(text, owns[first:last], False, hints[first:last], after=after)
        own_starts[first:last], ends[first:last], located[first:last] = found
    return own_starts, ends, located


def _runs(indexes: list[int]) -> list[list[int]]:
    """Sorted indexes grouped into runs of consecutive ones."""
    runs: list[list[int]] = []
    for i in indexes:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _column_or_dict(values: list[Any]) -> array | dict[int, Any]:
    """Whole numbers as one column; any other (a fraction) by span index."""
    try:
        return array("q", values)
    except (TypeError, OverflowError):
        return dict(enumerate(values))


def _span_table(text: str, native: list[dict[str, Any]], overlap: int) -> SpanTable:
    """The spans of ``native`` on ``text`` as columns, for a text whose units are its code
    points and a whole ``overlap``: each own part located (the library's startOffset as the
    hint) with the prefix before it. A span's text is two slices of ``text`` when its own
    part and the one before were found as they are (the prefix ends the one before);
    around any other, as ``SpanTable.from_spans`` finds it."""
    texts = list(map(itemgetter("text"), native))
    count = len(texts)
    reported = list(map(itemgetter("startOffset"), native))
    segments = getattr(native, "own_segments", None)
    if segments is not None and len(segments) == count:
        # each own part is its segment's text: after its prefix, the rest of the chunk
        owns = [segment.text for segment in segments]
        prefixes = list(map(sub, map(len, texts), map(len, owns)))
        own_starts, ends, located = _place_by_source(text, owns, segments, reported)
    else:
        prefixes = _prefix_sizes(list(map(len, texts)), overlap)
        owns = (
            list(map(getitem, texts, map(slice, prefixes, repeat(None)))) if overlap > 0 else texts
        )
        own_starts, ends, located = locate_columns(text, owns, overlapping=False, hints=reported)
    exact, missing = LOCATED.index("exact"), LOCATED.index("missing")
    starts = list(map(sub, own_starts, prefixes))
    if missing in located or (starts and min(starts) < 0):
        starts = [
            own if at == missing else max(start, 0)
            for own, start, at in zip(own_starts, starts, located)
        ]
    head_starts = array("q", map(sub, [0, *ends[:-1]], prefixes))
    head_sizes = array("q", prefixes)
    text_starts, text_ends = array("q", [-1]) * count, array("q", [-1]) * count
    odd = [i for i, at in enumerate(located) if at != exact]
    sent, offset = [], 0
    for i in sorted({*odd, *[i + 1 for i in odd if i + 1 < count]}):
        chunk, start, end, own = texts[i], starts[i], ends[i], own_starts[i]
        if located[i] == exact and not prefixes[i]:
            continue  # no prefix: the own part is the text
        head_starts[i] = -1
        if chunk == text[start:end]:
            continue
        head_starts[i] = head_of(text, chunk, own, end)
        head_sizes[i] = len(chunk) - (end - own)
        if head_starts[i] < 0:
            sent.append(chunk)
            text_starts[i] = offset
            offset += len(chunk)
            text_ends[i] = offset
    boundaries = list(map(itemgetter("boundaryType"), native))
    kind_of = {kind: i for i, kind in enumerate(dict.fromkeys(boundaries))}
    indexes = list(map(itemgetter("index"), native))
    with_metadata = bool(native) and "metadata" in native[0]  # all or none have it
    return SpanTable(
        array("q", starts),
        array("q", ends),
        array("q", own_starts),
        tuple(kind_of),
        array("I", map(kind_of.__getitem__, boundaries)),
        array("B", located),
        text,
        indexes=None if indexes == list(range(count)) else array("q", indexes),
        text_blob="".join(sent),
        text_starts=text_starts,
        text_ends=text_ends,
        head_starts=head_starts,
        head_sizes=head_sizes,
        metadata={i: m for i, c in enumerate(native) if (m := chunk_metadata(c))}
        if with_metadata
        else {},
        reported=_column_or_dict(reported),
    )


_SURROGATE_RE = re.compile("[\ud800-\udfff]")


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
        return semantic_chunk(document.text, options, ctx.metadata, ctx.explain)

    def run_to_place(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        segments: list[Segment] = []
        chunks = semantic_chunk(document.text, options, ctx.metadata, ctx.explain, segments)
        return Chunks(chunks, segments)

    def chunk_kind(self, chunk: Any, options: Mapping[str, Any]) -> str:
        return chunk["boundaryType"]

    def spans(self, document: Document, native: Any, options: dict[str, Any]) -> Sequence[Span]:
        overlap = option(options, "overlap", 100)
        if type(overlap) is int and _plain(document.text):
            # the usual case: units are code points and every prefix is the last
            # ``overlap`` of them, so the spans are columns, made without a Span
            return _span_table(document.text, native, overlap)
        return _span_list(document, native, overlap)

    def code(self, options: dict[str, Any]) -> str:
        return (
            "import { SemanticChunker } from '@framers/agentos';\n\n"
            f"const chunker = new SemanticChunker({js_literal(options)});\n"
            "const chunks = chunker.chunk(text);\n"
        )
