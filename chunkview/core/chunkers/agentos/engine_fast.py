"""The fast path of agentos ChunkingEngine: F once, on int positions, over a range of the
input's units, and the strategies that cut ranges of the units with it.

Replaces ``engine_reference.fixed_windows`` (F, spec/agentos.md §2.2) where chunkSize
and chunkOverlap are whole numbers and chunkSize >= 1, and ``engine_reference.fixed``/
``hierarchical``/``layout`` (§2.3) there (on any other numbers the reference runs:
F's float arithmetic is its own). Why it is equal:
- F's step back, ``while end > pos and content[end] is not white space: end -= 1``,
  ends on the last white space in (pos, end], or at pos: from a long text's second
  run on one look-up, ``end - back[end]`` (how far back the last white space at or
  before each unit is: engine_text.last_white, an index of the whole text made once
  with numpy), gives the same unit, or one at or before pos; where that is ``FAR`` or
  more, and on a first run, one match (``WHITE_THROUGH_RE``) finds it. A range [lo, hi)
  of the units is F's content: positions count from lo, and ``end >= len(content)`` is
  ``end >= hi``.
- Most windows the index cuts (a soft cut, a step forward) run in a loop that only looks
  up, slices, trims and appends: O(1) Python work a window. The others (the last, a
  hard or searched cut, a step back) take F's one-window step (``_windows_searched``).
- With no overlap and no index (a text's first run) every window of F is one match of
  one pattern (``_window_re``: the rest, else the most units white space follows, else
  a hard cut), so all the windows come from one ``findall`` in C; on a long range with
  no hard cut, a simpler pattern from one unit past each cut (``_after_cuts``: the
  trim drops the cut's white space) finds them faster.
- A window within an ASCII stretch of a text of two-byte units is sliced from the
  index's ASCII copy of the text: the same units.
- A window's piece is its trim; with no overlap, after a soft cut the next window
  starts on the cut's white space, which its trim drops, so slicing from the unit after
  it gives the same piece (and most trims then copy nothing). A piece's place is where
  its window's slice starts, plus the white space trimmed from its front.
- The hang rule is the reference's (engine_hang.Watch), asked at every step back: the
  only steps that can close a cycle. Its other checks (a fall below the text, a creep)
  never fire on whole sizes >= 1, whose runs end or cycle within 2n + 2 windows.
- A layout prose block is trimmed and not empty: when it fits in one window, F's first
  window takes it whole (``end >= length``) and its one piece is the block itself.
- The strategies read the text as the reference does (engine_text.py holds the faster
  readings: the outline by one split, the layout blocks by line offsets, each checked
  against the reference by the tests) and emit the same chunks in the same order.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate, compress, repeat
from operator import add, sub
from typing import Any

from chunkview.core.chunkers.agentos import engine_reference as reference
from chunkview.core.chunkers.agentos.engine_hang import Watch
from chunkview.core.chunkers.agentos.engine_places import EngineRun
from chunkview.core.chunkers.agentos.engine_text import (
    FAR,
    WHITE_THROUGH_RE,
    Outline,
    WhiteIndex,
    kept_layout_blocks,
    last_white,
    outline,
)
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.text.js import W_CHARS, W_CLASS


def fast_windows(
    units: str,
    ranges: list[tuple[int, int]],
    white: WhiteIndex | None,
    run: EngineRun,
    pieces: list[str],
    places: list[int],
    shift: int = 0,
) -> list[int]:
    """F on each range [lo, hi) of ``units`` in turn, for a whole size >= 1 and a whole
    overlap: appends each piece (in units) to ``pieces`` and where it starts in the
    input's units to ``places`` when the run tells its places (``shift``: where
    ``units`` starts in the input).
    ``white``: ``last_white(units)``, looked up once a window (and a window in one of
    its ASCII stretches sliced from its ``narrow`` text); None: each window searches
    back (``WHITE_THROUGH_RE``). Returns how many pieces there are after each
    range (one call for all the ranges of a run: a section's body or a prose block is
    often one or two windows)."""
    if white is not None:
        return _windows_indexed(units, ranges, white, run, pieces, places, shift)
    adjacent = run.overlap == 0 and run.size < _LONGEST_REPEAT
    if adjacent and run.size >= 2 and len(ranges) == 1:  # a long text's first run
        lo, hi = ranges[0]
        if hi - lo >= _MANY_WINDOWS * run.size and _after_cuts(
            units, lo, hi, run, pieces, places, shift
        ):
            return [len(pieces)]
    ends = []
    for lo, hi in ranges:
        if adjacent:
            _windows_matched(units, lo, hi, run, pieces, places, shift)
        else:
            _windows_searched(units, lo, hi, lo, lo, None, run, pieces, places, shift)
        ends.append(len(pieces))
    return ends


#: a range of at least this many windows' worth of units is cut by ``_after_cuts``
_MANY_WINDOWS = 16


@lru_cache(maxsize=8)
def _after_cut_re(size: int) -> re.Pattern[str]:
    """From one unit past a soft cut's white space (at ``pos``): the most units (0 to
    ``size`` - 1, group 1) that white space follows, and that white space (the next
    cut: the last white space in (pos, pos + size])."""
    return re.compile(f"(?s)(.{{0,{size - 1}}})[{W_CLASS}]")


def _after_cuts(
    units: str, lo: int, hi: int, run: EngineRun, pieces: list[str], places: list[int], shift: int
) -> bool:
    """F on the range [lo, hi) with no overlap, a whole size >= 2, when every cut is a
    soft one: each window after the first starts on the white space of the last cut,
    which its trim drops, so its piece is the trim of one match of ``_after_cut_re``
    from the unit after it, and the matches of one ``findall`` (in C) are the windows
    in turn while they tile the range. F takes the rest from the first window whose
    start is within ``size`` units of ``hi``: the windows matched past it are joined
    into it. False, with nothing emitted, where F makes a hard cut: none in the first
    window, a run of ``size`` units without white space (the matches stop tiling:
    ``findall`` searched past it) or one before ``hi`` after the last white space."""
    size = run.size
    if lo + size >= hi:  # one window: the rest
        return False
    head = WHITE_THROUGH_RE.match(units, lo + 1, lo + size + 1)
    tail = WHITE_THROUGH_RE.match(units, lo + 1, hi)
    if head is None or tail is None:
        return False
    first_cut, last_white = head.end() - 1, tail.end() - 1
    matched = _after_cut_re(size).findall(units, first_cut + 1, hi)
    if first_cut + sum(map(len, matched)) + len(matched) != last_white:
        return False  # they stop tiling: a hard cut
    # the windows that start within size units of hi: the first takes the rest
    count, start = len(matched), last_white
    while count and start - len(matched[count - 1]) - 1 >= hi - size:
        count -= 1
        start -= len(matched[count]) + 1
    if start + size < hi:  # no white space in the last window: a hard cut
        return False
    windows = [units[lo:first_cut], *matched[:count], units[start + 1 : hi]]
    chars = None if run.plain_strip else W_CHARS
    trimmed = list(map(str.strip, windows, repeat(chars)))
    if run.placing:
        # after the first, each window's text starts one unit past the cut before it
        following = windows[1:]
        starts = accumulate(map(add, map(len, following), repeat(1)), initial=first_cut + 1)
        fronts = map(sub, map(len, following), map(len, map(str.lstrip, following, repeat(chars))))
        head_front = len(windows[0]) - len(windows[0].lstrip(chars))
        at = [lo + head_front, *map(add, starts, fronts)]
        places.extend(compress(map(add, at, repeat(shift)), trimmed))
    pieces.extend(filter(None, trimmed))
    return True


#: a window pattern repeats ``.`` up to chunkSize + 1 times: below re's limit
_LONGEST_REPEAT = 2**31


@lru_cache(maxsize=8)
def _window_re(size: int) -> re.Pattern[str]:
    """F's windows with no overlap, each one match from where the last ended: the rest
    when it is at most ``size`` units (``end >= length``; the lookahead costs O(1)),
    else from the window's start the most units (1 to ``size``) that white space
    follows (the step back to the last white space in (pos, end]), else ``size`` units
    (a hard cut)."""
    return re.compile(f"(?s)(?!.{{{size + 1}}}).+|.{{1,{size}}}(?=[{W_CLASS}])|.{{{size}}}")


def _windows_matched(
    units: str, lo: int, hi: int, run: EngineRun, pieces: list[str], places: list[int], shift: int
) -> None:
    """F on the range [lo, hi) with no overlap and no index (a text's first run, a
    semantic group): every window is one match of ``_window_re`` (matched in C, all at
    once), so the windows tile the range; each piece is a window's trim, placed where
    its window starts plus the white space trimmed from its front. No overlap never
    steps back: nothing for the hang rule to ask."""
    windows = _window_re(run.size).findall(units, lo, hi)
    chars = None if run.plain_strip else W_CHARS
    trimmed = list(map(str.strip, windows, repeat(chars)))
    if run.placing:
        starts = accumulate(map(len, windows), initial=lo + shift)
        fronts = map(sub, map(len, windows), map(len, map(str.lstrip, windows, repeat(chars))))
        places.extend(compress(map(add, starts, fronts), trimmed))
    pieces.extend(filter(None, trimmed))


def _windows_indexed(
    units: str,
    ranges: list[tuple[int, int]],
    white: WhiteIndex,
    run: EngineRun,
    pieces: list[str],
    places: list[int],
    shift: int,
) -> list[int]:
    """``fast_windows`` with the index: most windows are cut by one look-up each, in a
    loop that does nothing else but slice, trim and append (with no overlap, a loop of
    adjacent windows). The rest (a window the index cannot cut, a step back) are cut by
    ``_windows_searched``, one window at a time."""
    size, overlap, placing = run.size, run.overlap, run.placing
    chars = None if run.plain_strip else W_CHARS  # str.strip(None): Python's white space
    add_piece, add_place = pieces.append, places.append
    back = white.back
    pick = _Sources(units, white, size).pick
    plain = white.narrow is None  # every window is sliced from the units
    # a distance back below this is a soft cut the index alone finds
    found = min(size, FAR)
    ends: list[int] = []
    for lo, hi in ranges:
        pos = first = lo
        watch = None
        while True:
            # the windows that one look-up each cuts, each a step forward, all sliced
            # from one text (``source``: the narrow one while they lie in one of its
            # ASCII stretches, else the units) and all ending before ``bound``
            source, bound = (units, hi) if plain else pick(first, pos, hi)
            if overlap == 0 and not placing:  # as below, with no places to work out
                while (end := pos + size) < bound and (distance := back[end]) < found:
                    pos = end - distance
                    if piece := source[first:pos].strip(chars):
                        add_piece(piece)
                    first = pos + 1
            elif overlap == 0:  # each window starts where the last was cut
                while (end := pos + size) < bound and (distance := back[end]) < found:
                    pos = end - distance
                    window = source[first:pos]
                    piece = window.strip(chars)
                    if piece:
                        add_piece(piece)
                        add_place(
                            shift + (first if piece is window else first + window.find(piece[0]))
                        )
                    first = pos + 1  # the white space cut at: trimmed from the next window
            else:
                while (end := pos + size) < bound and (distance := back[end]) < found:
                    cut = end - distance
                    if cut - overlap <= pos:  # a step back (or to lo): cut below
                        break
                    window = source[pos:cut]
                    piece = window.strip(chars)
                    if piece:
                        add_piece(piece)
                        if placing:
                            add_place(
                                shift + (pos if piece is window else pos + window.find(piece[0]))
                            )
                    first = pos = cut - overlap
            if bound <= end < hi:  # the windows past ``bound``: from the other text
                continue
            if end >= hi:  # the last window: the rest
                window = (source if hi <= bound else units)[first:hi]
                _take(window, shift + first, chars, pieces, places if placing else None)
                break
            # a window the index does not cut, or a step back: as without the index
            pos, first, watch = _windows_searched(
                units, lo, hi, pos, first, watch, run, pieces, places, shift, back
            )
        ends.append(len(pieces))
    return ends


def _windows_searched(
    units: str,
    lo: int,
    hi: int,
    pos: int,
    first: int,
    watch: Watch | None,
    run: EngineRun,
    pieces: list[str],
    places: list[int],
    shift: int,
    back: memoryview | None = None,
) -> tuple[int, int, Watch | None]:
    """F on the range [lo, hi) of ``units`` from the window at ``pos`` (sliced from
    ``first``: past the white space a cut with no overlap was made at) to the end, each
    window cut as F cuts it: back to the last white space (the index's look-up, or where
    it says nothing, one match of ``WHITE_THROUGH_RE``), else a hard cut; each step back
    asked of the hang rule (``watch``). With ``back`` (the index), only that one window.
    Returns where the next window starts (``pos``, ``first``; ``hi`` after the last)
    and the watch."""
    size, overlap, placing = run.size, run.overlap, run.placing
    chars = None if run.plain_strip else W_CHARS
    # with no overlap a soft cut's white space starts the next window: left out of it
    skip = 1 if overlap == 0 else 0
    through = WHITE_THROUGH_RE.match
    while True:
        end = pos + size
        if end >= hi:
            cut = hi
        else:
            distance = back[end] if back is not None else FAR
            if distance != FAR:
                cut = end - distance
            else:  # searched: the match ends one past the last white space in (pos, end]
                found = through(units, pos + 1, end + 1)
                cut = found.end() - 1 if found else pos
            lead = skip
            if cut <= pos:  # no white space in the window: a hard cut
                cut, lead = end, 0
        _take(units[first:cut], shift + first, chars, pieces, places if placing else None)
        if cut == hi:
            return hi, hi, watch
        following = cut - overlap
        if following <= lo:
            following = cut
        if following <= pos:  # a step back: the hang rule's one question
            if watch is None:
                watch = run.rule.watch(units, lo + shift, lo, hi)
            watch.stepped_back(pos - lo, cut - lo)
        pos = following
        first = pos + lead
        if back is not None:
            return pos, first, watch


def _take(
    window: str, start: int, chars: str | None, pieces: list[str], places: list[int] | None
) -> None:
    """F's step "take piece = trim(window); if not empty, push it": appends the piece,
    and where it starts (``start``: the window's) to ``places`` when given. The loops
    above write it in line, once a window."""
    piece = window.strip(chars)
    if piece:
        pieces.append(piece)
        if places is not None:
            places.append(start if piece is window else start + window.find(piece[0]))


class _Sources:
    """Which text a run of windows is sliced from, and where that run stops: the units
    (to the range's end, or to the next ASCII stretch of the index's ``narrow`` text),
    or ``narrow`` within one of its stretches (the same units, copied as they are where
    a slice of the wide text is converted unit by unit)."""

    def __init__(self, units: str, white: WhiteIndex, size: int) -> None:
        self.units, self.white, self.size = units, white, size
        # the stretch looked at: from lo to hi
        self.lo = self.hi = -1

    def pick(self, first: int, pos: int, hi: int) -> tuple[str, int]:
        """The text to slice the windows from ``first`` (at ``pos``) from, and the end
        before which each window of the run ends (past it: the next run; never past
        ``hi``). A run can always take its first window."""
        if first >= self.hi:  # past the stretch: the one that holds first, or the next
            self.lo, self.hi = _stretch(self.white, first, len(self.units))
        source = self.units
        if first < self.lo:  # the units up to the window that starts in the stretch
            bound = self.lo + self.size
        elif pos + self.size < self.hi:  # the windows that end within the stretch
            source, bound = self.white.narrow, self.hi  # type: ignore[assignment]
        else:  # the one across its end
            bound = self.hi + self.size
        return source, bound if bound < hi else hi


def _stretch(white: WhiteIndex, first: int, beyond: int) -> tuple[int, int]:
    """The ASCII stretch of ``white.narrow`` that holds unit ``first``, else the next
    one; (``beyond``, ``beyond``) when none is left."""
    starts, stretch_ends = white.stretch_starts, white.stretch_ends
    k = bisect_right(starts, first)
    if k and stretch_ends[k - 1] > first:
        k -= 1
    return (starts[k], stretch_ends[k]) if k < len(starts) else (beyond, beyond)


def _whole(run: EngineRun) -> bool:
    """F runs fast: chunkSize and chunkOverlap are whole numbers, chunkSize >= 1."""
    return run.rule.whole and run.size >= 1


def windows_of_text(
    run: EngineRun,
    content: str,
    origin: int | None,
    heading: str | None = None,
    base: dict[str, Any] | None = None,
) -> None:
    """F's pieces of a text emitted as chunks (the reference's ``emit_windows``): the
    input itself ('fixed') or a text that may be no slice of it (a semantic group)."""
    if not _whole(run) or not content:
        reference.emit_windows(run, content, origin, heading, base)
        return
    pieces: list[str] = []
    places: list[int] = []
    # a semantic group, no slice of the input, is searched in
    white = last_white(content) if content is run.units else None
    fast_windows(content, [(0, len(content))], white, run, pieces, places, origin or 0)
    run.chunks.many(pieces, places if origin is not None else None, heading, base)


def hierarchical(run: EngineRun) -> None:
    """``engine_reference.hierarchical`` on the kept outline: each section one chunk
    (§2.3 step 5: the body, or the heading when the body is empty) or its body's range
    cut by F (all the ranges in one call, first), the chunks built in one pass."""
    units, size, chunks = run.units, run.size, run.chunks
    if not _whole(run):  # F on other numbers is the reference's: so is the whole run
        reference.hierarchical(run)
        return
    read = outline(units)
    if not read.headed:  # no headings: the content untrimmed, as one section
        chunks.places.section_chunks = []
        if units and len(units) <= size:
            chunks.one(units, 0)
        elif units:
            windows_of_text(run, units, 0, base={})
        return
    preamble, start = read.preamble, read.preamble_start
    # the bodies longer than chunkSize (the preamble's first), for F
    ranges = [
        (body_start, body_start + length)
        for body_start, length in zip(read.body_starts, read.body_lengths)
        if length > size
    ]
    if preamble and len(preamble) > size:
        ranges.insert(0, (start, start + len(preamble)))
    cut_pieces: list[str] = []
    cut_places: list[int] = []
    ends = fast_windows(units, ranges, last_white(units), run, cut_pieces, cut_places)
    taken = 0  # the preamble's pieces
    if preamble and len(preamble) <= size:  # §2.3 step 5: one chunk, no heading
        chunks.one(preamble, read.preamble_start)
    elif preamble:  # F's pieces, each with metadata {} (an empty base counts as given)
        taken = ends.pop(0)
        chunks.many(cut_pieces[:taken], cut_places[:taken], base={})
    if run.placing:
        _placed_section_chunks(run, read, (cut_pieces, cut_places, ends), taken)
    else:
        _section_chunks(run, read, cut_pieces, ends, taken)


def _section_metadata(level: int, ancestors: tuple[str, ...], text: Any) -> dict[str, Any]:
    """A section's metadata (§2.4): its level and the headings open above it."""
    meta: dict[str, Any] = {"headingLevel": level}
    if ancestors:
        meta["ancestorHeadings"] = list(ancestors) if text is str else list(map(text, ancestors))
    return meta


def _section_chunks(
    run: EngineRun, read: Outline, cut_pieces: list[str], ends: list[int], taken: int
) -> None:
    """The sections' DocumentChunks (§2.4), each with its heading and metadata (a copy
    for each of F's pieces; ``ends``: where each long body's pieces end in
    ``cut_pieces``, from ``taken``), for a run whose places nobody reads."""
    units, size, out = run.units, run.size, run.chunks.list
    text = run.chunks.text
    plain = text is str  # no surrogates: the unit strings are the chunk strings
    append = out.append
    following = iter(ends)
    for (level, title, body, ancestors), length, start in zip(
        read.sections, read.body_lengths, read.body_starts
    ):
        meta: dict[str, Any] = {"headingLevel": level}
        if ancestors:
            meta["ancestorHeadings"] = list(ancestors) if plain else list(map(text, ancestors))
        heading = title if plain else text(title)
        if length > size:
            end = next(following)
            cut = cut_pieces[taken:end]
            out.extend(
                [
                    {"content": c, "heading": heading, "metadata": meta.copy(), "index": i}
                    for i, c in enumerate(cut if plain else map(text, cut), len(out))
                ]
            )
            taken = end
        else:
            if length:
                if body is None:  # a long body kept as its range: its units
                    body = units[start : start + length]
                content = body if plain else text(body)
            else:  # §2.3 step 5: an empty body gives the heading
                content = heading
            append({"content": content, "heading": heading, "metadata": meta, "index": len(out)})


def _placed_section_chunks(
    run: EngineRun,
    read: Outline,
    cut: tuple[list[str], list[int], list[int]],
    taken: int,
) -> None:
    """``_section_chunks`` for a run whose places are read: each chunk's place and
    length too, and each section's chunks with its metadata and heading."""
    cut_pieces, cut_places, ends = cut
    units, size, chunks = run.units, run.size, run.chunks
    out, starts, lengths = chunks.list, chunks.places.starts, chunks.places.lengths
    text = chunks.text
    following = iter(ends)
    told = chunks.places.section_chunks = []
    for number, ((level, title, body, ancestors), length, start) in enumerate(
        zip(read.sections, read.body_lengths, read.body_starts)
    ):
        meta = _section_metadata(level, ancestors, text)
        heading = text(title)
        first = len(out)
        if length > size:
            end = next(following)
            pieces = cut_pieces[taken:end]
            out.extend(
                {"content": text(c), "heading": heading, "metadata": meta.copy(), "index": i}
                for i, c in enumerate(pieces, first)
            )
            starts.extend(cut_places[taken:end])
            lengths.extend(map(len, pieces))
            taken = end
        else:
            if not length:  # §2.3 step 5: an empty body gives the heading
                body, start = title, read.title_start(number)
            elif body is None:  # a long body kept as its range: its units
                body = units[start : start + length]
            out.append(
                {"content": text(body), "heading": heading, "metadata": meta, "index": first}
            )
            starts.append(start)
            lengths.append(len(body))
        if len(out) > first:
            told.append((first, len(out), meta, heading))


def layout(run: EngineRun) -> None:
    """``engine_reference.layout`` on the kept blocks: code and tables whole, prose
    ranges cut by F (all in one call, first), the chunks built in one pass."""
    units, size, chunks = run.units, run.size, run.chunks
    if not _whole(run):  # F on other numbers is the reference's: so is the whole run
        reference.layout(run)
        return
    blocks = kept_layout_blocks(units)
    # the prose blocks longer than chunkSize, cut by F in one call
    ranges = [
        (start, start + len(block))
        for kind, block, start in blocks
        if kind == "prose" and len(block) > size
    ]
    cut_pieces: list[str] = []
    cut_places: list[int] = []
    ends = iter(
        fast_windows(units, ranges, last_white(units), run, cut_pieces, cut_places)
        if ranges
        else ()
    )
    out = chunks.list
    append = out.append
    text = chunks.text
    plain = text is str  # no surrogates: the unit strings are the chunk strings
    placing = run.placing
    starts, lengths = chunks.places.starts, chunks.places.lengths
    block_chunks: dict[str, list[int]] = {}
    taken = 0  # F's pieces taken so far
    number = len(out)  # the next chunk's
    for kind, block, start in blocks:
        if kind != "prose":
            if placing:
                block_chunks.setdefault(kind, []).append(number)
                starts.append(start)
                lengths.append(len(block))
            content = block if plain else text(block)
            append({"content": content, "metadata": {"type": kind}, "index": number})
            number += 1
        elif len(block) <= size:
            # a prose block is trimmed and not empty: F's first window takes it all
            # (end >= length) and its one piece is the block itself
            if placing:
                starts.append(start)
                lengths.append(len(block))
            append({"content": block if plain else text(block), "index": number})
            number += 1
        else:
            end = next(ends)
            pieces = cut_pieces[taken:end]
            out.extend(
                [
                    {"content": c, "index": i}
                    for i, c in enumerate(pieces if plain else map(text, pieces), number)
                ]
            )
            number += end - taken
            if placing:
                starts.extend(cut_places[taken:end])
                lengths.extend(map(len, pieces))
            taken = end
    chunks.places.block_chunks = block_chunks


def run_strategy(run: EngineRun, strategy: str, embedder: str | None, ctx: RunContext) -> None:
    """§2.3: the strategy's chunks into ``run.chunks``, fast."""
    if strategy == "fixed":
        windows_of_text(run, run.units, 0)
    elif strategy == "semantic":
        reference.semantic(run, embedder, ctx, windows=windows_of_text)
    elif strategy == "hierarchical":
        hierarchical(run)
    else:
        layout(run)
