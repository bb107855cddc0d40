"""Port of agentos ``SemanticChunker`` (spec/agentos.md §1), quirks included.

All lengths and offsets are UTF-16 code units: the work is done on a unit string
(``chunkview.core.text.js``) and converted back at the end.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from operator import add
from typing import Any

from chunkview.core.chunkers.entry import Entry, Param, RunContext, js_literal
from chunkview.core.errors import ChunkerError, OptionError
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span
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
    trim,
    truthy,
    unit_string,
)
from chunkview.core.text.kept import also_forget, kept

_HEADING_RE = re.compile(f"#{{1,6}}[{W_CLASS}]")
_PARAGRAPH_CUT_RE = re.compile(f"(\n[{W_CLASS}]*\n)")  # split() keeps the cuts
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


@dataclass(slots=True)
class Segment:
    text: str
    offset: int | float  # a JS number: fractional where the options are
    boundary: str
    #: where the text ends in the source (units), when the text is the source from
    #: ``offset`` to there but for its white space (a line-pass segment, a piece cut
    #: again from one whose reckoned offset is where it starts, and merges of ones with
    #: only white space between them); -1: not known
    source_end: int = -1
    #: the text is the source from ``offset`` to ``source_end`` as it is (a line-pass
    #: slice, never merged): its place needs no checking
    exact: bool = False


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
    units = unit_string(text or "")
    if is_blank(units):
        return []
    if explain is not None:
        config = replace(config, notes=[])
    segments = resplit_long(line_pass(units, config), config)
    merged = merge_small(segments, config.min_size, config.notes, units)
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


# every ``` (a literal: the engine skips ahead to each); a heading line (at the start, and
# after its LF: written "\n#" then up to five more #, the literal "\n#" lets the engine
# skip ahead to each, where "\n#{1,6}" would stop at every LF); the LF before a blank line
_TICKS_RE = re.compile("```")
_HEADING_AT_RE = re.compile(f"#{{1,6}}[{_W_NO_LF}]")
_HEADING_LINE_RE = re.compile(f"\n##{{0,5}}[{_W_NO_LF}]")
_BLANK_LINE_RE = re.compile(f"\n[{_W_NO_LF}]*(?=\n|\\Z)")


def line_pass(text: str, config: Config) -> list[Segment]:
    """Step 1: fences, headings and blank lines cut the text into structural segments."""
    if type(config.target_size) is int:
        return _line_pass_jumps(text, config)
    return _line_pass_events(text, config)


def resplit_long(structural: list[Segment], config: Config) -> list[Segment]:
    """Step 2: each segment longer than maxSize is replaced by its paragraph split."""
    max_size, notes = config.max_size, config.notes
    # NaN re-splits everything, as in JS; the line pass's offsets are whole numbers
    long = [i for i, segment in enumerate(structural) if not len(segment.text) <= max_size]
    if not long and notes is None:
        return structural
    segments: list[Segment] = []
    if notes is not None:  # where each structural segment's pieces begin
        for segment in structural:
            notes.append(("segment", len(segments), segment))
            if not len(segment.text) <= max_size:
                segments.extend(
                    paragraph_split(segment.text, int(segment.offset), config, segment.exact)
                )
            else:
                segments.append(segment)
        return segments
    done = 0  # the segments before this index are in ``segments``
    for i in long:
        segments.extend(structural[done:i])
        long_one = structural[i]
        segments.extend(
            paragraph_split(long_one.text, int(long_one.offset), config, long_one.exact)
        )
        done = i + 1
    segments.extend(structural[done:])
    return segments


def _line_pass_jumps(text: str, config: Config) -> list[Segment]:
    """The line pass going from one line that changes its state to the next, for a whole
    targetSize: the next fence, the next heading, and the first blank line that ends G,
    which is the first at or past start + targetSize with a non-blank line before it since
    G began (every other blank line only joins G). G always ends where the line that ends
    it starts, so G and a code block are slices of ``text + "\n"`` again.

    Every fence line toggles the block state, so the blocks are the fence lines taken two
    by two; a heading line inside a block changes nothing."""
    n = len(text)
    none = n + 2  # past every line start
    target = config.target_size
    segments: list[Segment] = []
    emit = segments.append
    fences = [*_kept_lines(text, _fence_lines)] if config.preserve_code_blocks else []
    headings = [*_kept_lines(text, _heading_lines)] if config.respect_headings else []
    fences += [none, none]  # an opening fence line's closing one is looked up too
    headings.append(none)

    start, nonblank, boundary = 0, False, "paragraph"  # G: where it starts, what it holds
    cursor = 0  # where the first line not yet looked at starts
    opening, heading = 0, 0  # indices of the next fence line and the next heading line
    fence, heading_line = fences[0], headings[0]
    while True:
        event = fence if fence < heading_line else heading_line
        before = event - 1 if event < none else n  # where the lines before the event end
        # the first blank line that can end G: past start + targetSize and after a
        # non-blank line (a line starts after its LF, so any line past ``cursor - 1`` is new)
        lowest = start + target
        if nonblank:
            if lowest < cursor:
                lowest = cursor
        else:
            first = NON_W_RE.search(text, cursor, before)
            if first is None:
                lowest = none
            else:
                nonblank = True
                if lowest <= first.start():
                    lowest = first.start() + 1
        if lowest <= before:
            blank = _BLANK_LINE_RE.search(text, lowest - 1, before)
            if blank is not None:  # ends G; the blank line belongs to no segment
                line = blank.start() + 1
                emit(Segment(text[start:line], start, boundary, line, True))
                following = text.find("\n", line)
                start = cursor = n + 1 if following < 0 else following + 1
                nonblank, boundary = False, "paragraph"
                continue
        if event == none:
            break
        if event == heading_line:
            if nonblank:
                emit(Segment(text[start:event], start, boundary, event, True))
            start, nonblank, boundary, cursor = event, True, "heading", event + 1
            heading += 1
            heading_line = headings[heading]
            continue
        if nonblank:  # G is kept: an unclosed fence emits it again at the end
            emit(Segment(text[start:fence], start, boundary, fence, True))
        closing = fences[opening + 1]
        if closing == none:  # unclosed: the block runs to the end, and G comes again
            emit(Segment(text[fence:] + "\n", fence, "code-block", n))
            if nonblank:
                emit(Segment(text[start:fence], start, boundary, fence, True))
            return segments
        closing_end = text.find("\n", closing)
        cursor = n + 1 if closing_end < 0 else closing_end + 1
        emit(Segment(text[fence : cursor - 1], fence, "code-block", cursor - 1, True))
        start, nonblank, boundary = cursor, False, "paragraph"
        opening += 2
        fence = fences[opening]
        if heading_line < cursor:  # headings inside the block change nothing
            heading = bisect_left(headings, cursor, heading)
            heading_line = headings[heading]
    if nonblank or NON_W_RE.search(text, cursor) is not None:
        emit(Segment(text[start:] + "\n", start, boundary, n))
    return segments


def _kept_lines(text: str, find: Callable[[str], list[int]]) -> list[int]:
    """``find(text)``, kept for a long text (not to be changed): where the fence and
    heading lines are depends on the text alone, and their scans cost a third of a run."""
    return kept(f"agentos.semantic{find.__name__}", text, find)


def _fence_lines(text: str) -> list[int]:
    """Where each line that opens like a fence (trimmed, it starts with ```) starts, in
    order: the ``` found by a literal search, kept where only white space is before it on
    its line (most stand at the line start; a look-behind would test every character)."""
    lines: list[int] = []
    for found in _TICKS_RE.finditer(text):
        tick = found.start()
        if tick == 0 or text[tick - 1] == "\n":
            lines.append(tick)
        else:
            line = text.rfind("\n", 0, tick) + 1
            if NON_W_RE.search(text, line, tick) is None:
                lines.append(line)
    return lines


def _heading_lines(text: str) -> list[int]:
    """Where each heading line starts, in order."""
    headings = [0] if _HEADING_AT_RE.match(text) else []
    headings.extend([found.start() + 1 for found in _HEADING_LINE_RE.finditer(text)])
    return headings


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
        end = min(gathered_end, len(text))  # past it: the LF the pass adds
        segments.append(
            Segment(extended[start:gathered_end], start, boundary, end, end == gathered_end)
        )

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
                    Segment(
                        extended[block_start : after - 1],
                        block_start,
                        "code-block",
                        after - 1,
                        True,
                    )
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
        segments.append(Segment(extended[block_start:], block_start, "code-block", len(text)))
    if gathered_nonblank:
        emit_gathered()
    return segments


#: what a split's flush gets: the packed text, its offset, the pieces so far, and where
#: it ends in the source (-1: not known) and whether it is the source there as it is
Flush = Callable[[str, int, list[Segment], int, bool], None]


def _pack(
    parts: list[str], cuts: list[str] | None, base: int, joiner: str, config: Config, flush: Flush
) -> list[Segment]:
    """Greedy packing of parts up to targetSize; offsets assume ``joiner`` between parts.

    ``cuts``: what lay between the parts, when the text is the source as it is from
    ``base`` (None: it is not). A packed text then knows where it ends there when its
    reckoned offset is where it starts (the cuts before it as long as the joiners), and
    it is the source as it is when the cuts inside it are the joiner."""
    pieces: list[Segment] = []
    acc, acc_offset, running = "", base, base
    start = acc_start = acc_end = base  # where the part, and the packed text, lie there
    acc_exact = True

    def flush_acc() -> None:
        known = cuts is not None and acc_offset == acc_start
        flush(acc, acc_offset, pieces, acc_end if known else -1, known and acc_exact)

    for k, part in enumerate(parts):
        if acc and len(acc) + len(part) + len(joiner) > config.target_size:
            if config.notes is not None:  # why the next piece starts at ``running``
                config.notes.append(("full", running, len(acc), len(part), len(joiner)))
            flush_acc()
            acc, acc_offset, acc_start, acc_exact = part, running, start, True
        elif acc:
            acc = acc + joiner + part
            acc_exact = acc_exact and cuts is not None and cuts[k - 1] == joiner
        else:
            acc, acc_offset, acc_start, acc_exact = part, running, start, True
        acc_end = start + len(part)
        running += len(part) + len(joiner)
        if cuts is not None and k < len(cuts):
            start += len(part) + len(cuts[k])
    if not is_blank(acc):
        flush_acc()
    return pieces


def paragraph_split(text: str, base: int, config: Config, exact: bool = False) -> list[Segment]:
    """Cut at blank lines and pack; a packed piece over maxSize goes to sentences.

    ``exact``: ``text`` is the source as it is from ``base``, so the pieces can say
    where they lie there (``Segment.source_end``)."""
    split = _PARAGRAPH_CUT_RE.split(text)  # parts, with what cut them between
    if len(split) == 1:
        return sentence_split(text, base, config, exact)

    def flush(acc: str, at: int, pieces: list[Segment], end: int, as_is: bool) -> None:
        if len(acc) > config.max_size:
            if config.notes is not None:
                config.notes.append(("resplit", at, len(acc), "sentence"))
            pieces.extend(sentence_split(acc, at, config, as_is))
        else:
            pieces.append(Segment(acc, at, "paragraph", end, as_is))

    return _pack(split[::2], split[1::2] if exact else None, base, "\n\n", config, flush)


def sentence_split(text: str, base: int, config: Config, exact: bool = False) -> list[Segment]:
    """Cut after . ! ? and the white space that follows; pack with single spaces."""
    parts, cuts = sentence_parts_and_cuts(text)
    if len(parts) == 1:
        return fixed_split(text, base, config, exact)

    def flush(acc: str, at: int, pieces: list[Segment], end: int, as_is: bool) -> None:
        if len(acc) > config.max_size:
            if config.notes is not None:
                config.notes.append(("resplit", at, len(acc), "fixed"))
            pieces.extend(fixed_split(acc, at, config, as_is))
        else:
            pieces.append(Segment(acc, at, "sentence", end, as_is))

    return _pack(parts, cuts if exact else None, base, " ", config, flush)


def sentence_parts(text: str) -> list[str]:
    """``text.split(/(?<=[.!?])\\s+/)``: the white space after a . ! or ? cuts."""
    return sentence_parts_and_cuts(text)[0]


def sentence_parts_and_cuts(text: str) -> tuple[list[str], list[str]]:
    """The sentence parts, and the white space each cut took out. Found from the mark
    on (a search with a look-behind tries every character; one that starts at the mark
    skips to the next mark in C), the same cuts."""
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


def fixed_split(text: str, base: int, config: Config, exact: bool = False) -> list[Segment]:
    """Windows of targetSize, backed off to the last ASCII space past minSize.

    The sizes are any JS numbers: a fractional position indexes nothing (no space is
    skipped there) and slices truncate. Where the loop would run forever: ``Hang``.
    ``exact``: ``text`` is the source as it is from ``base`` (each piece then says where
    its window lies there).
    """
    pieces: list[Segment] = []
    length, target, minimum = len(text), config.target_size, config.min_size
    if target != target:  # NaN: one empty window, then the position is NaN
        return pieces
    if target <= 0:
        _check_backward_split(text, base, config)
        return pieces  # only spaces: every window trims to nothing
    if type(target) is int and type(minimum) is int and minimum >= 0 and config.notes is None:
        return _fixed_split_whole(text, base, target, minimum, exact)
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
            # where the text is the source as it is, a whole window is there
            known = exact and type(position) is int and type(end) is int
            end_there = base + end if known else -1
            as_is = known and len(piece) == end - position
            pieces.append(Segment(piece, _offset(base + position), "fixed", end_there, as_is))
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


def _fixed_split_whole(
    text: str, base: int, target: int, minimum: int, exact: bool = False
) -> list[Segment]:
    """fixed_split for whole sizes, target >= 1 and minSize >= 0: every window ends past its
    start, so the loop cannot hang, and only a space past start + minSize can end it
    (the search for the last space stops there instead of running back to the start).
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
    segments: list[Segment], min_size: Any, notes: list | None, source: str
) -> list[Segment]:
    """Step 3: a small non-heading, non-code segment joins the one before it.

    Without notes the segments are merged in place: nothing reads them afterwards (the
    reasons do, so then the merged ones are copies). A merge keeps ``source_end`` where
    only white space lies between the two in ``source``, the text they were cut from."""
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
    if notes is None:  # the segments between two small ones go over as they are
        done = 0  # the segments before this index are in ``merged``
        for i in small:
            merged.extend(segments[done:i])
            _join(merged[-1], segments[i], source)
            done = i + 1
        merged.extend(segments[done:])
        return merged
    joins = set(small)
    for i, segment in enumerate(segments):
        if i in joins:
            notes.append(("merged", len(merged) - 1, len(trim(segment.text)), segment))
            _join(merged[-1], segment, source)
        else:
            merged.append(
                Segment(
                    segment.text,
                    segment.offset,
                    segment.boundary,
                    segment.source_end,
                    segment.exact,
                )
            )
    return merged


def _join(last: Segment, segment: Segment, source: str) -> None:
    """``segment`` merged into ``last`` (a blank line between); ``last`` still knows
    where it ends in ``source`` when only white space lies between the two there."""
    last.text = last.text + "\n\n" + segment.text
    if last.source_end < 0:
        return
    between = None
    if segment.source_end >= 0 and segment.offset >= last.source_end:
        # its end known: its offset is where it starts
        between = source[last.source_end : int(segment.offset)]
    # still the source as it is only where "\n\n" is what lies between (from the line
    # pass it never is: one blank line or one LF does)
    last.exact = last.exact and segment.exact and between == "\n\n"
    adjacent = between is not None and (not between or between.isspace())
    last.source_end = segment.source_end if adjacent else -1


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
    if type(sum(starts)) is not int:  # a fractional offset (from the options) somewhere
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


@also_forget
def _forget_plain() -> None:
    global _last_plain
    _last_plain = ("", True)


def is_plain(text: str) -> bool:
    """True when ``text`` has no character outside the BMP and no surrogate half, so unit
    strings cut from it are plain texts (remembered for the last text: a slider moving
    over one document asks again and again)."""
    global _last_plain
    if _last_plain[0] is not text:
        # one pass in C: strict UTF-16 refuses a surrogate half; an astral character
        # takes four bytes
        try:
            plain = text.isascii() or len(text.encode("utf-16-le")) == 2 * len(text)
        except UnicodeEncodeError:
            plain = False
        _last_plain = (text, plain)
    return _last_plain[1]


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
        from chunkview.core.chunkers.agentos.semantic_spans import Chunks

        segments: list[Segment] = []
        chunks = semantic_chunk(document.text, options, ctx.metadata, ctx.explain, segments)
        return Chunks(chunks, segments)

    def chunk_kind(self, chunk: Any, options: Mapping[str, Any]) -> str:
        return chunk["boundaryType"]

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> Sequence[Span]:
        from chunkview.core.chunkers.agentos.semantic_spans import span_list, span_table

        overlap = option(options, "overlap", 100)
        if type(overlap) is int and is_plain(document.text):
            # the usual case: units are code points and every prefix is the last
            # ``overlap`` of them, so the spans are columns, made without a Span
            return span_table(document.text, native, overlap)
        return span_list(document, native, overlap)

    def code(self, options: dict[str, Any]) -> str:
        return (
            "import { SemanticChunker } from '@framers/agentos';\n\n"
            f"const chunker = new SemanticChunker({js_literal(options)});\n"
            "const chunks = chunker.chunk(text);\n"
        )
