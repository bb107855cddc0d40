"""smartchunk, step by step as its README tells it: the plain version, the tests' oracle.

``smartchunk(text, {locale, maxSize, minSize, strategies})`` returns ``[{offset, length}]``
in bytes of the unmodified input (README "What does the returned data look like?"; the
``input`` field, the text itself, is left out of the JSON). There is no reference code
to run, so this follows the README; where it leaves a choice open, the choice is:

- **Whole units at the first level.** Each unit of the first strategy (by default a
  paragraph with its trailing blank lines) that fits in ``maxSize`` is a chunk of its own:
  the README's four short paragraphs ("How do I use it?") give four chunks, not one.
- **Packing below it.** A unit too large is split with the next strategy ("What
  strategies are available?": "falling back to ... for any ... that are too long"), and
  those pieces are packed back together, in order, up to ``maxSize``: a long paragraph
  becomes as few line-, sentence- or word-bounded chunks as fit.
- **Overlap** is added only between chunks packed from word pieces (up to 20 % of
  ``maxSize``) and from grapheme pieces (up to 10 %): whole trailing pieces of the previous
  chunk, as many as fit in that budget and in ``maxSize`` with the new chunk's first piece.
- **minSize** ("What options are available?"): a chunk under ``minSize`` is merged with
  the chunk after it while the union fits in ``maxSize``; a last chunk under it is merged
  into the one before when that fits.
- **Segmentation** is ICU's (``chunkview.core.text.segment``, as Intl.Segmenter) for
  sentences, words and graphemes; paragraphs end after a run of two or more line breaks
  (blank lines may hold spaces or tabs); lines end after ``\\n``, ``\\r\\n`` or ``\\r``.
  Every boundary is a grapheme boundary, so a multi-byte character is never cut; if the
  strategies run out while a piece is still too large, grapheme boundaries are used.

The run tells ``ctx.observer`` why each boundary is where it is (the words are in
``explain``). The fast paths (``fast``, ``byte_offsets``, ``columns``) give the same
chunks without the reasons; each says which function here it replaces.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any

from chunkview.core.chunkers.entry import RunContext
from chunkview.core.chunkers.smartchunk.explain import (
    goes_down,
    kept_whole,
    merged_forward,
    merged_last,
    merges,
    overlapped,
    packed_full,
    packing_again,
    stage_reasons,
    text_start,
    unit_fits,
)
from chunkview.core.chunkers.smartchunk.model import (
    OVERLAP_SHARE,
    Cut,
    Options,
    Piece,
    Unit,
    read_options,
    strategy_at,
)
from chunkview.core.model.explain import Reason
from chunkview.core.model.spans import Span
from chunkview.core.text.segment import boundaries

#: a paragraph ends after two or more line breaks; the blank lines may hold spaces, tabs
PARAGRAPH_END_RE = re.compile(r"(?:\r\n|\n|\r)(?:[ \t]*(?:\r\n|\n|\r))+")
#: a line ends after LF, CRLF or CR
LINE_END_RE = re.compile(r"\r\n|\n|\r")


# ----- bytes ----------------------------------------------------------------------------
def utf8_offsets(text: str) -> list[int]:
    """README "What does the returned data look like?": offsets and lengths are bytes.
    The UTF-8 byte offset of each code point, and of the end: the widths summed (a lone
    surrogate counts three bytes, as U+FFFD, JS's TextEncoder's stand-in for it)."""
    widths = (len(char.encode("utf-8", "surrogatepass")) for char in text)
    return list(accumulate(widths, initial=0))


# ----- the strategies' units ---------------------------------------------------------------
def units(text: str, start: int, end: int, strategy: str, locale: str) -> list[Unit]:
    """README "What strategies are available?": the units of ``strategy`` covering
    [start, end), each with its trailing separator (paragraphs and lines by their ends,
    sentences, words and graphemes by ICU's boundaries in ``locale``)."""
    if strategy not in ("paragraph", "line"):
        return [(start + a, start + b) for a, b in boundaries(text[start:end], strategy, locale)]
    pattern = PARAGRAPH_END_RE if strategy == "paragraph" else LINE_END_RE
    ends = [match.end() for match in pattern.finditer(text, start, end)]
    if not ends or ends[-1] < end:
        ends.append(end)  # the last unit runs to the end
    return list(zip([start, *ends[:-1]], ends))


def code_points_if_huge(unit: Unit, offsets: Sequence[int], max_size: int) -> list[Unit]:
    """One grapheme over maxSize (a long run of combining marks) is cut between its code
    points: still never inside a character."""
    if offsets[unit[1]] - offsets[unit[0]] <= max_size:
        return [unit]
    return [(i, i + 1) for i in range(*unit)]


def overlap(
    previous: list[Unit], unit: Unit, strategy: str, offsets: Sequence[int], max_size: int
) -> list[Unit]:
    """README "What strategies are available?": word and grapheme chunks start with some
    of the chunk before (up to 20 % and 10 % of maxSize): its last whole units, as many
    as fit in that budget and, with ``unit``, in maxSize; never the whole chunk before."""
    share = OVERLAP_SHARE.get(strategy, 0)
    if not share or not previous:
        return []
    budget = int(max_size * share)
    carried: list[Unit] = []
    for candidate in reversed(previous[1:]):
        repeated = offsets[previous[-1][1]] - offsets[candidate[0]]
        if repeated > budget or offsets[unit[1]] - offsets[candidate[0]] > max_size:
            break
        carried.insert(0, candidate)
    # overlap is only meaningful when the carried units end where the new one starts
    return carried if carried and carried[-1][1] == unit[0] else []


# ----- the cascade -----------------------------------------------------------------------
class Cascade:
    """README "How does it work?": a cascading hierarchy of strategies. Level 0 cuts the
    whole text at the first strategy; a unit over maxSize goes down to the next level.

    ``notes`` holds the reasons of every cut made, in order: most are merged away by
    minSize, and only those still boundaries at the end are told."""

    def __init__(
        self, text: str, options: Options, offsets: Sequence[int], check: Callable[[], None]
    ) -> None:
        self.text, self.options, self.offsets, self.check = text, options, offsets, check
        self.max_size = options.max_size
        self.notes: list[Reason] = []
        #: the first level's units, for the replay (what each chunk was first gathered in)
        self.first_units: list[Unit] = []

    def size(self, start: int, end: int) -> int:
        return self.offsets[end] - self.offsets[start]

    def split(self, start: int, end: int, level: int) -> list[Cut]:
        """The pieces of [start, end) at ``level``: whole units at level 0, units packed
        up to maxSize below it; a unit too large goes a level down (``too_large``)."""
        strategies = self.options.strategies
        strategy = strategy_at(strategies, level)
        self.check()
        found = units(self.text, start, end, strategy, self.options.locale)
        if strategy == "grapheme" and level >= len(strategies) - 1:
            found = [u for g in found for u in code_points_if_huge(g, self.offsets, self.max_size)]
        if level == 0:
            self.first_units = found
        pieces: list[Cut] = []
        run: list[Unit] = []  # the units packed into the chunk being built
        after_large = False  # the unit before went down a level (for the reasons)
        for unit in found:
            if self.size(*unit) > self.max_size:
                if run:
                    pieces.append((run[0][0], run[-1][1], strategy))
                run = []
                pieces.extend(self.too_large(unit, strategy, level, unit[0] == start))
                after_large = True
            elif level == 0:
                if unit[0] > 0:
                    self.notes.append(unit_fits(unit[0], strategy, self.size(*unit), self.max_size))
                pieces.append((unit[0], unit[1], strategy))
            elif run and self.size(run[0][0], unit[1]) <= self.max_size:
                run.append(unit)
            else:
                if run:
                    pieces.append((run[0][0], run[-1][1], strategy))
                carried = overlap(run, unit, strategy, self.offsets, self.max_size)
                self.note_packing(run, carried, unit, strategy, after_large)
                run = [*carried, unit]
                after_large = False
        if run:
            pieces.append((run[0][0], run[-1][1], strategy))
        return pieces

    def too_large(self, unit: Unit, strategy: str, level: int, first: bool) -> list[Cut]:
        """A unit over maxSize: cut at the next level's boundaries, or kept whole when it
        is one code point or one grapheme at the last level (nothing smaller to cut at)."""
        at, size = unit[0], self.size(*unit)
        strategies = self.options.strategies
        if unit[1] - unit[0] > 1 and (level + 1 <= len(strategies) or strategy != "grapheme"):
            if at > 0:
                lower = strategy_at(strategies, level + 1)
                self.notes.append(goes_down(at, strategy, lower, size, self.max_size, level, first))
            return self.split(unit[0], unit[1], level + 1)
        if at > 0:
            self.notes.append(kept_whole(at, strategy, size, self.max_size))
        return [(unit[0], unit[1], strategy)]

    def note_packing(
        self,
        previous: list[Unit],
        carried: list[Unit],
        unit: Unit,
        strategy: str,
        after_large: bool,
    ) -> None:
        """Why a new packed chunk starts at ``unit``: the one before was full, or the unit
        before went down a level; and the overlap carried in front of it."""
        at = unit[0]
        if previous:
            packed = self.size(previous[0][0], previous[-1][1])
            together = self.size(previous[0][0], unit[1])
            self.notes.append(
                packed_full(at, strategy, packed, self.size(*unit), together, self.max_size)
            )
        elif after_large and at > 0:
            self.notes.append(packing_again(at, strategy, self.max_size))
        if carried:
            repeated = self.size(carried[0][0], unit[0])
            self.notes.append(overlapped(at, strategy, len(carried), repeated, self.max_size))


# ----- minSize ---------------------------------------------------------------------------
def merge_small(
    split: list[Piece], options: Options, offsets: Sequence[int]
) -> tuple[list[Piece], list[Reason]]:
    """README "What options are available?", minSize: "most chunks will be greater than
    or equal to minSize, but ... the very last chunk" may be less. A chunk under minSize
    takes in the next one while the two touch and fit in maxSize; then a last chunk
    under it joins the one before when they fit. Returns the chunks and the merges'
    reasons (each said at the own start of the chunk after the merged one)."""
    min_size, max_size = options.min_size, options.max_size

    def size(start: int, end: int) -> int:
        return offsets[end] - offsets[start]

    merged: list[Piece] = []
    reasons: list[Reason] = []
    notes: list[str] = []  # the merges inside merged[-1]
    for piece in split:
        if merged:
            last = merged[-1]
            together = size(last.start, piece.end)
            if size(*last[:2]) < min_size and piece.start <= last.end and together <= max_size:
                notes.append(merged_forward(size(*last[:2]), together, min_size, max_size))
                merged[-1] = Piece(last.start, piece.end, last.strategy)
                continue
            if notes:
                reasons.append(merges(max(piece.start, last.end), notes))
                notes = []
        merged.append(piece)
    if notes:  # the merges reach the end: say so at the last chunk's own start
        at = max(merged[-1].start, merged[-2].end) if len(merged) >= 2 else merged[-1].start
        reasons.append(merges(at, notes))
    if len(merged) >= 2:
        last, before = merged[-1], merged[-2]
        together = size(before.start, last.end)
        if size(*last[:2]) < min_size and last.start <= before.end and together <= max_size:
            at = max(before.start, merged[-3].end) if len(merged) >= 3 else before.start
            reasons.append(merged_last(at, size(*last[:2]), together, min_size, max_size))
            merged[-2:] = [Piece(before.start, last.end, before.strategy)]
    return merged, reasons


# ----- the run ---------------------------------------------------------------------------
def own_starts(pieces: list[Piece]) -> set[int]:
    """Where each chunk after the first starts its own part (after any overlap)."""
    return {max(piece.start, before.end) for before, piece in zip(pieces, pieces[1:])}


def smartchunk_pieces(
    text: str,
    options: dict[str, Any] | None = None,
    ctx: RunContext | None = None,
    offsets: Sequence[int] | None = None,
) -> tuple[list[Piece], Sequence[int]]:
    """The chunks as code-point pieces with the strategy that cut each, and each code
    point's byte offset (``offsets``: ``utf8_offsets(text)`` given, else made here).

    Tells ``ctx.observer``, in order: the start of the text, the reasons of the cuts
    still boundaries, the merges', and each chunk's stages for the replay."""
    ctx = ctx if ctx is not None else RunContext()
    chosen = read_options(options)
    offsets = utf8_offsets(text) if offsets is None else offsets
    if not text:
        return [], offsets
    ctx.observer.reason(text_start())
    cascade = Cascade(text, chosen, offsets, ctx.check)
    split = [Piece._make(cut) for cut in cascade.split(0, len(text), 0)]
    pieces, merge_reasons = merge_small(split, chosen, offsets)
    boundaries_left = own_starts(pieces)
    for reason in cascade.notes:
        if reason.at in boundaries_left:
            ctx.observer.reason(reason)
    for reason in merge_reasons:
        ctx.observer.reason(reason)
    for reason in stage_reasons(cascade.first_units, split, pieces, offsets, chosen):
        ctx.observer.reason(reason)
    return pieces, offsets


def native(pieces: list[Piece], offsets: Sequence[int]) -> list[dict[str, int]]:
    """README "What does the returned data look like?": each chunk's first byte's index
    (``offset``) and its length in bytes."""
    return [
        {"offset": offsets[piece.start], "length": offsets[piece.end] - offsets[piece.start]}
        for piece in pieces
    ]


def smartchunk(text: str, options: dict[str, Any] | None = None) -> list[dict[str, int]]:
    """``smartchunk(text, options)`` without ``input``: ``[{offset, length}]`` in bytes."""
    return native(*smartchunk_pieces(text, options))


# ----- where the chunks lie ----------------------------------------------------------------
def spans(text: str, pieces: list[Piece], native: list[dict[str, int]]) -> list[Span]:
    """Each chunk where it lies in the text: code points [start, end), exact (the text
    is the slice), its own part from the end of the one before, its kind the strategy
    that cut it and its byte range (``native``'s) as metadata."""
    placed: list[Span] = []
    for i, (piece, chunk) in enumerate(zip(pieces, native)):
        previous_end = placed[-1].end if placed else piece.start
        own_start = min(max(piece.start, previous_end), piece.end)
        chunk_text = text[piece.start : piece.end]
        metadata = {"offset": chunk["offset"], "length": chunk["length"]}
        placed.append(
            Span(
                i, piece.start, piece.end, own_start, piece.strategy, chunk_text, metadata=metadata
            )
        )
    return placed


def native_spans(text: str, native: list[dict[str, int]], offsets: Sequence[int]) -> list[Span]:
    """The spans of a native result alone: each byte range's code points, found one by
    one (the first code point at or after each byte offset); the level that cut each is
    not known, so each is of kind "smartchunk"."""
    pieces = [
        Piece(
            bisect_left(offsets, chunk["offset"]),
            bisect_left(offsets, chunk["offset"] + chunk["length"]),
            "smartchunk",
        )
        for chunk in native
    ]
    return spans(text, pieces, native)
