"""agentos ``SemanticChunker`` (spec/agentos.md §1) as the spec reads, step by step.

Plain and slow on purpose: the line pass goes line by line, every split notes why it
cut, the merge copies. The tests use it as the oracle of the fast paths
(semantic_fast.py), and a run that explains itself runs it (it tells everything).

All lengths and offsets are UTF-16 code units (§0 "Units"): the work is done on a unit
string (``chunkview.core.text.js``) and the chunk texts are converted back at the end.
Each segment also says where it lies in the text it was cut from (``Segment.source_end``,
``Segment.exact``), for the spans; the library's own output never reads them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from chunkview.core.chunkers.agentos.explain import semantic_reasons
from chunkview.core.chunkers.entry import js_literal
from chunkview.core.errors import ChunkerError, OptionError
from chunkview.core.model.observer import NOBODY, RunObserver
from chunkview.core.text.js import (
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

#: what the steps note of their decisions, in order, for the reasons (explain.py reads
#: the tuples): ("segment", first piece, segment), ("full", offset, acc, part, joiner),
#: ("resplit", offset, size, level), ("window", next start, start, end) and
#: ("merged", chunk before, trimmed size, segment)
Notes = list[tuple[Any, ...]]

# §1.3 step 1c: 1-6 "#" and a W character, at the very start of the raw line
_HEADING_LINE_RE = re.compile(f"#{{1,6}}[{W_CLASS}]")
# §1.3 ParagraphSplit 1: LF, any run of W, LF (the group keeps what cut, for the places)
_PARAGRAPH_CUT_RE = re.compile(f"(\n[{W_CLASS}]*\n)")
# §1.3 SentenceSplit 1: the library's own look-behind split (the group keeps the cuts)
_SENTENCE_CUT_RE = re.compile(f"(?<=[.!?])([{W_CLASS}]+)")


@dataclass(frozen=True)
class Config:
    """The options (§1.1): any JS number goes through, the flags are truthiness."""

    target_size: Any = 1000
    max_size: Any = 2000
    min_size: Any = 200
    overlap: Any = 100
    preserve_code_blocks: bool = True
    respect_headings: bool = True

    @classmethod
    def from_options(cls, options: dict[str, Any] | None) -> Config:
        return cls(
            target_size=size_option(options, "targetSize", 1000),
            max_size=size_option(options, "maxSize", 2000),
            min_size=size_option(options, "minSize", 200),
            overlap=size_option(options, "overlap", 100),
            preserve_code_blocks=truthy(option(options, "preserveCodeBlocks", True)),
            respect_headings=truthy(option(options, "respectHeadings", True)),
        )


def size_option(options: dict[str, Any] | None, name: str, default: int) -> int | float:
    """A size option as JS uses it (§1.1): booleans count as 0 and 1, any number goes."""
    value = option(options, name, default)
    try:
        return to_number(value)
    except TypeError:
        raise OptionError(name, f"takes a number, got {js_literal(value)}") from None


def json_number(value: int | float) -> int | float:
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
    observer: RunObserver = NOBODY,
) -> list[dict[str, Any]]:
    """``new SemanticChunker(options).chunk(text, metadata)`` (§1.2), steps 0 to 4.

    Tells ``observer`` where each chunk's own part came from (the merged segments) and
    why each chunk starts where it does. Raises ChunkerError("Hang") where the original
    would loop forever (§1.8)."""
    config = Config.from_options(options)
    units = unit_string(text or "")
    if is_blank(units):  # step 0
        observer.placed([])
        return []
    notes: Notes = []
    structural = line_pass(units, config)
    pieces = resplit_long(structural, config, notes)
    merged = merge_small(pieces, config.min_size, notes, units)
    chunks = with_overlap(merged, config.overlap, metadata, astral=units is not text)
    observer.placed(merged)
    for reason in semantic_reasons(config, notes, pieces, merged, chunks, text or ""):
        observer.reason(reason)
    return chunks


# ---- step 1 ----------------------------------------------------------------------------


def line_pass(text: str, config: Config) -> list[Segment]:
    """§1.3 step 1: the text split on LF, each line taken by the first rule (a-e) that
    applies; G, S and B as the spec names them, C the block buffer."""
    segments: list[Segment] = []
    length = len(text)
    gathered, start, boundary = "", 0, "paragraph"  # G, S, B
    # whether G is blank, kept line by line (trimming all of G at each line would take
    # time of G's length squared)
    blank = True
    in_block, block, block_start = False, "", 0  # the in-block flag, C, its start
    offset = 0  # the line's offset: (length + 1) of every line before it
    for line in text.split("\n"):
        following = offset + len(line) + 1  # "next"
        if config.preserve_code_blocks and trim(line).startswith("```"):  # a. fence
            if not in_block:
                if not blank:  # G, S, B are not reset
                    segments.append(_pass_segment(gathered, start, boundary, length))
                in_block, block, block_start = True, line + "\n", offset
            else:
                block += line  # no LF after the closing line
                segments.append(_pass_segment(block, block_start, "code-block", length))
                in_block = False
                gathered, start, boundary, blank = "", following, "paragraph", True
        elif in_block:  # b.
            block += line + "\n"
        elif config.respect_headings and _HEADING_LINE_RE.match(line):  # c. heading
            if not blank:
                segments.append(_pass_segment(gathered, start, boundary, length))
            gathered, start, boundary, blank = line + "\n", offset, "heading", False
        elif is_blank(line) and not blank and len(gathered) >= config.target_size:  # d.
            segments.append(_pass_segment(gathered, start, boundary, length))
            gathered, start, boundary, blank = "", following, "paragraph", True
        else:  # e.
            gathered += line + "\n"
            blank = blank and is_blank(line)
        offset = following
    if in_block:  # at the end 1: an unclosed fence's block
        segments.append(_pass_segment(block, block_start, "code-block", length))
    if not blank:  # at the end 2 (after an unclosed fence: a second time)
        segments.append(_pass_segment(gathered, start, boundary, length))
    return segments


def _pass_segment(text: str, start: int, boundary: str, length: int) -> Segment:
    """A line-pass segment: the source from ``start`` on, but for the LF the pass adds
    after the text's last line (§1.4), which is in no source."""
    end = start + len(text)
    return Segment(text, start, boundary, min(end, length), end <= length)


# ---- step 2 ----------------------------------------------------------------------------


class Cascade(NamedTuple):
    """How step 2 cuts sentences and fixed windows. The reference's own, or a fast
    path's (semantic_fast.py), each equal to these."""

    sentence_cuts: Callable[[str], tuple[list[str], list[str]]]
    fixed_split: Callable[[str, int, Config, Notes, bool], list[Segment]]


def resplit_long(
    structural: list[Segment], config: Config, notes: Notes, cascade: Cascade | None = None
) -> list[Segment]:
    """§1.3 step 2: each segment longer than maxSize is replaced by ParagraphSplit's
    pieces (every type; the pieces take their level's type)."""
    segments: list[Segment] = []
    for segment in structural:
        notes.append(("segment", len(segments), segment))  # where its pieces begin
        # NaN re-splits everything, as in JS (the library tests ``length <= maxSize``)
        if not len(segment.text) <= config.max_size:
            base = int(segment.offset)  # the line pass's offsets are whole
            segments.extend(
                paragraph_split(segment.text, base, config, notes, segment.exact, cascade)
            )
        else:
            segments.append(segment)
    return segments


def paragraph_split(
    text: str,
    base: int,
    config: Config,
    notes: Notes,
    exact: bool = False,
    cascade: Cascade | None = None,
) -> list[Segment]:
    """§1.3 ParagraphSplit(T, base). ``exact``: ``text`` is the source as it is from
    ``base``, so the pieces can say where they lie there (``Segment.source_end``)."""
    split = _PARAGRAPH_CUT_RE.split(text)  # parts, with what cut them between
    if len(split) == 1:
        return sentence_split(text, base, config, notes, exact, cascade)

    def flush(acc: str, at: int, pieces: list[Segment], end: int, as_is: bool) -> None:
        if len(acc) > config.max_size:  # flush 3: one level down
            notes.append(("resplit", at, len(acc), "sentence"))
            pieces.extend(sentence_split(acc, at, config, notes, as_is, cascade))
        else:
            pieces.append(Segment(acc, at, "paragraph", end, as_is))

    cuts = split[1::2] if exact else None
    return pack(split[::2], cuts, base, "\n\n", config, notes, flush)


def sentence_split(
    text: str,
    base: int,
    config: Config,
    notes: Notes,
    exact: bool = False,
    cascade: Cascade | None = None,
) -> list[Segment]:
    """§1.3 SentenceSplit(T, base): cut after . ! ? and the white space that follows;
    pack with single spaces."""
    cascade = cascade or REFERENCE
    parts, cuts = cascade.sentence_cuts(text)
    if len(parts) == 1:
        return cascade.fixed_split(text, base, config, notes, exact)

    def flush(acc: str, at: int, pieces: list[Segment], end: int, as_is: bool) -> None:
        if len(acc) > config.max_size:  # flush 3: one level down
            notes.append(("resplit", at, len(acc), "fixed"))
            pieces.extend(cascade.fixed_split(acc, at, config, notes, as_is))
        else:
            pieces.append(Segment(acc, at, "sentence", end, as_is))

    return pack(parts, cuts if exact else None, base, " ", config, notes, flush)


def sentence_cuts(text: str) -> tuple[list[str], list[str]]:
    """SentenceSplit 1: ``text.split(/(?<=[.!?])\\s+/)``, and the white space each cut
    took out (for the places)."""
    split = _SENTENCE_CUT_RE.split(text)
    return split[::2], split[1::2]


#: what a split's flush gets: the packed text, its offset, the pieces so far, and where
#: it ends in the source (-1: not known) and whether it is the source there as it is
Flush = Callable[[str, int, list[Segment], int, bool], None]


def pack(
    parts: list[str],
    cuts: list[str] | None,
    base: int,
    joiner: str,
    config: Config,
    notes: Notes,
    flush: Flush,
) -> list[Segment]:
    """ParagraphSplit 2 (SentenceSplit 2 with a space): greedy packing up to
    targetSize; the offsets assume ``joiner`` between the parts (§1.4 drift).

    ``cuts``: what lay between the parts, when the text is the source as it is from
    ``base`` (None: it is not). A packed text then knows where it ends there when its
    reckoned offset is where it starts (the cuts before it as long as the joiners), and
    it is the source as it is when the cuts inside it are the joiner."""
    pieces: list[Segment] = []
    acc, acc_offset, running = "", base, base  # A, Aoff, R
    start = acc_start = acc_end = base  # where the part, and A, lie in the source
    acc_exact = True

    def flush_acc() -> None:
        known = cuts is not None and acc_offset == acc_start
        flush(acc, acc_offset, pieces, acc_end if known else -1, known and acc_exact)

    for k, part in enumerate(parts):
        if acc and len(acc) + len(part) + len(joiner) > config.target_size:
            notes.append(("full", running, len(acc), len(part), len(joiner)))
            flush_acc()  # inside the loop: no blankness test
            acc, acc_offset, acc_start, acc_exact = part, running, start, True
        elif acc:
            acc = acc + joiner + part
            acc_exact = acc_exact and cuts is not None and cuts[k - 1] == joiner
        else:  # an empty part leaves A empty
            acc, acc_offset, acc_start, acc_exact = part, running, start, True
        acc_end = start + len(part)
        running += len(part) + len(joiner)
        if cuts is not None and k < len(cuts):
            start += len(part) + len(cuts[k])
    if not is_blank(acc):  # the final flush
        flush_acc()
    return pieces


def fixed_split(
    text: str, base: int, config: Config, notes: Notes, exact: bool = False
) -> list[Segment]:
    """§1.3 FixedSplit(T, base), as the library loops: windows of targetSize, backed off
    to the last ASCII space more than minSize in.

    The sizes are any JS numbers: a fractional position indexes nothing (no space is
    skipped there) and slices truncate. Where the loop would run forever: ``Hang``
    (§1.8). ``exact``: ``text`` is the source as it is from ``base`` (each piece then
    says where its window lies there)."""
    pieces: list[Segment] = []
    length, target, minimum = len(text), config.target_size, config.min_size
    if target != target:  # NaN: one empty window, then the position is NaN
        return pieces
    if target <= 0:
        check_backward_split(text, base, config)
        return pieces  # only spaces: every window trims to nothing
    position: int | float = 0  # p
    stepped_back_from: set[int | float] = set()
    while position < length:
        end = min(position + target, length)  # e
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
            pieces.append(Segment(piece, json_number(base + position), "fixed", end_there, as_is))
        previous, position = position, end
        while position < length and char_at(text, position) == " ":
            position += 1
        notes.append(("window", json_number(base + position), base + previous, base + end))
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


def check_backward_split(text: str, base: int, config: Config) -> None:
    """targetSize <= 0 (§1.8): every window ends at or before its start, so the position
    only moves on over spaces and never passes the first other character. The loop
    ends only on a text of spaces, and then every piece is empty."""
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


#: the reference's own sentence cut and fixed split
REFERENCE = Cascade(sentence_cuts, fixed_split)


# ---- step 3 ----------------------------------------------------------------------------


def merge_small(segments: list[Segment], min_size: Any, notes: Notes, source: str) -> list[Segment]:
    """§1.3 step 3: a segment whose trimmed text is below minSize, neither a heading nor
    a code block, joins the last one kept (copies: the segments are not changed)."""
    merged: list[Segment] = []
    for i, segment in enumerate(segments):
        small = len(trim(segment.text)) < min_size
        if len(segments) >= 2 and i and small and segment.boundary not in _WHOLE:
            notes.append(("merged", len(merged) - 1, len(trim(segment.text)), segment))
            join_segment(merged[-1], segment, source)
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


_WHOLE = ("heading", "code-block")


def join_segment(last: Segment, segment: Segment, source: str) -> None:
    """Step 3's merge: ``segment`` joins ``last`` after "\\n\\n"; ``last`` still knows
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


# ---- step 4 ----------------------------------------------------------------------------


def with_overlap(
    segments: list[Segment], overlap: Any, metadata: Any, astral: bool = True
) -> list[dict[str, Any]]:
    """§1.3 step 4: each chunk after the first starts with the last ``overlap`` units of
    the one before (its own text); the offsets are the own text's.

    ``astral``: the text had characters outside the BMP, so the unit strings go back to
    code points (without, the unit strings are the texts as they are)."""
    chunks = []
    previous = ""
    for index, segment in enumerate(segments):
        text = segment.text
        if index and overlap > 0:  # NaN: no prefix
            text = overlap_prefix(previous, overlap) + text
        previous = segment.text
        end = segment.offset + len(segment.text)
        chunk = {
            "text": from_units(text) if astral else text,
            "index": index,
            "startOffset": segment.offset,
            "endOffset": json_number(end),
            "boundaryType": segment.boundary,
        }
        if metadata is not None:  # undefined in JS: JSON has no key (§1.2)
            chunk["metadata"] = metadata
        chunks.append(chunk)
    return chunks


def overlap_prefix(previous: str, overlap: Any) -> str:
    """``prevText.slice(-overlap)`` (a fraction truncates: 0.5 takes the whole text)."""
    if type(overlap) is int and overlap > 0:
        return previous[-overlap:]
    return js_slice(previous, -overlap)
