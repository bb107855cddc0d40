"""The fast path of agentos ChunkingEngine: F once, on int positions, over a range of the
input's units, and the strategies that cut ranges of the units with it.

Replaces ``engine_reference.fixed_windows`` (F, spec/agentos.md §2.2) where chunkSize
and chunkOverlap are whole numbers and chunkSize >= 1 (any other numbers run the
reference's F itself), and ``engine_reference.fixed``/``hierarchical``/``layout`` (§2.3).
Why it is equal:
- F's step back, ``while end > pos and content[end] is not white space: end -= 1``,
  ends on the last white space in (pos, end], or at pos: the one look-up
  ``last_white[end]`` (the last white space at or before each unit, found once for the
  whole text with numpy: engine_text.last_white) gives the same unit, or one at or
  before pos. A range [lo, hi) of the units is F's content: positions count from lo,
  and ``end >= len(content)`` is ``end >= hi``.
- A window's piece is its trim; with no overlap, after a soft cut the next window
  starts on the cut's white space, which its trim drops, so slicing from the unit after
  it gives the same piece (and most trims then copy nothing). A piece's place is where
  its window's slice starts, plus the white space trimmed from its front.
- The hang rule is the reference's (engine_hang.Watch), asked at every step back: the
  only steps that can close a cycle.
- The strategies read the text as the reference does (engine_text.py holds the faster
  readings: the outline by one split, the layout blocks by line offsets, each checked
  against the reference by the tests) and emit the same chunks in the same order.
"""

from __future__ import annotations

from typing import Any

from chunkview.core.chunkers.agentos import engine_reference as reference
from chunkview.core.chunkers.agentos.engine_places import EngineRun
from chunkview.core.chunkers.agentos.engine_text import (
    kept_layout_blocks,
    last_white,
    outline,
    white_before,
)
from chunkview.core.entry import RunContext
from chunkview.core.text.js import W_CHARS


def fast_windows(
    units: str,
    lo: int,
    hi: int,
    white: Any,
    run: EngineRun,
    pieces: list[str],
    places: list[int],
    origin: int | None = None,
) -> None:
    """F on ``units[lo:hi]`` for a whole size >= 1 and a whole overlap: appends each
    piece (in units) to ``pieces`` and where it starts in the input's units to
    ``places`` (``origin``: where ``units[lo]`` is in the input, if not at lo).
    ``white``: ``last_white(units)``, looked up once a window (None: hi - lo <= size)."""
    size, overlap = run.size, run.overlap
    chars = None if run.plain_strip else W_CHARS  # str.strip(None): Python's white space
    add_piece, add_place = pieces.append, places.append
    shift = 0 if origin is None else origin - lo
    # with no overlap a soft cut's white space starts the next window: left out of it
    skip = 1 if overlap == 0 else 0
    pos = first = lo
    watch = None
    while pos < hi:
        end = pos + size
        if end >= hi:
            cut = hi
        else:
            cut = white[end]
            if cut > pos:
                lead = skip
            else:  # no white space in the window: a hard cut
                cut = end
                lead = 0
        window = units[first:cut]
        piece = window.strip(chars)
        if piece:
            add_piece(piece)
            add_place(shift + (first if piece is window else first + window.find(piece[0])))
        if cut == hi:
            return
        following = cut - overlap
        if following <= lo:
            following = cut
        if following <= pos:  # a step back: the hang rule's one question
            if watch is None:
                watch = run.rule.watch(units, lo + shift, lo, hi)
            watch.stepped_back(pos - lo, cut - lo)
        pos = following
        first = pos + lead


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
    long = len(content) > run.size
    if content is run.units:
        white = last_white(content) if long else None
    else:
        white = white_before(content) if long else None
    fast_windows(content, 0, len(content), white, run, pieces, places, origin or 0)
    run.chunks.many(pieces, places if origin is not None else None, heading, base)


def hierarchical(run: EngineRun) -> None:
    """``engine_reference.hierarchical`` on the kept outline: each section one chunk
    (§2.3 step 5: the body, or the heading when the body is empty) or its body's range
    cut by F, the chunks built at the end."""
    units, size, chunks = run.units, run.size, run.chunks
    if not _whole(run):  # F on other numbers is the reference's: so is the whole run
        reference.hierarchical(run)
        return
    read = outline(units)
    chunks.places.section_chunks = []
    if not read.headed:  # no headings: the content untrimmed, as one section
        if units and len(units) <= size:
            chunks.one(units, 0)
        elif units:
            windows_of_text(run, units, 0, base={})
        return
    white = last_white(units)
    pieces: list[str] = []
    places: list[int] = []
    preamble, start = read.preamble, read.preamble_start
    if preamble and len(preamble) <= size:
        pieces.append(preamble)
        places.append(start)
    elif preamble:
        fast_windows(units, start, start + len(preamble), white, run, pieces, places)
    preamble_long = len(preamble) > size
    text = chunks.text
    plain = text is str  # no surrogates: the unit strings are the chunk strings
    sections: list[tuple[int, int, dict[str, Any], str, bool]] = []
    first = len(pieces)
    body_starts = read.body_starts
    for number, (level, title, body, ancestors) in enumerate(read.sections):
        meta: dict[str, Any] = {"headingLevel": level}
        if ancestors:
            meta["ancestorHeadings"] = list(ancestors) if plain else list(map(text, ancestors))
        if not body:
            pieces.append(title)
            places.append(read.title_start(number))
        elif len(body) <= size:
            pieces.append(body)
            places.append(body_starts[number])
        else:
            start = body_starts[number]
            fast_windows(units, start, start + len(body), white, run, pieces, places)
        if len(pieces) > first:
            heading = title if plain else text(title)
            sections.append((first, len(pieces), meta, heading, len(body) > size))
            first = len(pieces)
    _section_chunks(run, pieces, places, preamble_long, sections)


def _section_chunks(
    run: EngineRun,
    pieces: list[str],
    places: list[int],
    preamble_long: bool,
    sections: list[tuple[int, int, dict[str, Any], str, bool]],
) -> None:
    """The DocumentChunks of 'hierarchical' (§2.4): the preamble's, without heading
    (``metadata: {}`` on F's pieces), then each section's with its heading and
    metadata (a copy for each of F's pieces)."""
    chunks = run.chunks
    contents = pieces if chunks.text is str else list(map(chunks.text, pieces))
    out = chunks.list
    preamble = sections[0][0] if sections else len(pieces)
    if preamble_long:
        out.extend({"content": contents[i], "metadata": {}, "index": i} for i in range(preamble))
    else:
        out.extend({"content": contents[i], "index": i} for i in range(preamble))
    for first, end, meta, heading, long in sections:
        if long:
            out.extend(
                {"content": contents[i], "heading": heading, "metadata": meta.copy(), "index": i}
                for i in range(first, end)
            )
        else:
            out.append(
                {"content": contents[first], "heading": heading, "metadata": meta, "index": first}
            )
    chunks.places.starts = places
    chunks.places.lengths = list(map(len, pieces))
    chunks.places.section_chunks = [
        (first, end, {**meta, "heading": heading}) for first, end, meta, heading, _ in sections
    ]


def layout(run: EngineRun) -> None:
    """``engine_reference.layout`` on the kept blocks: code and tables whole, prose
    ranges cut by F, the chunks built at the end."""
    units, size, chunks = run.units, run.size, run.chunks
    if not _whole(run):  # F on other numbers is the reference's: so is the whole run
        reference.layout(run)
        return
    pieces: list[str] = []
    places: list[int] = []
    kinds: list[str | None] = []  # a block's kind; None: a piece of prose
    block_chunks: dict[str, list[int]] = {}
    white = None
    for kind, block, start in kept_layout_blocks(units):
        if kind != "prose":
            block_chunks.setdefault(kind, []).append(len(pieces))
            pieces.append(block)
            places.append(start)
            kinds.append(kind)
        elif len(block) <= size:
            # a prose block is trimmed and not empty: F's first window takes it all
            # (end >= length) and its one piece is the block itself
            pieces.append(block)
            places.append(start)
            kinds.append(None)
        else:
            if white is None:
                white = last_white(units)
            count = len(pieces)
            fast_windows(units, start, start + len(block), white, run, pieces, places)
            kinds.extend([None] * (len(pieces) - count))
    contents: Any = pieces if chunks.text is str else map(chunks.text, pieces)
    chunks.list.extend(
        {"content": content, "index": i}
        if kind is None
        else {"content": content, "metadata": {"type": kind}, "index": i}
        for i, (content, kind) in enumerate(zip(contents, kinds))
    )
    chunks.places.starts = places
    chunks.places.lengths = list(map(len, pieces))
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
