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
    units: str, lo: int, hi: int, run: EngineRun, white: Any, origin: int
) -> tuple[list[str], list[int]]:
    """F on ``units[lo:hi]`` for whole sizes >= 1 and a whole overlap: the pieces (in
    units) and where each starts in the input's units (``origin`` + its index in
    ``units``, less lo). ``white``: ``last_white(units)``, looked up once a window."""
    size, overlap = run.size, run.overlap
    chars = None if run.plain_strip else W_CHARS  # str.strip(None): Python's white space
    pieces: list[str] = []
    places: list[int] = []
    add_piece, add_place = pieces.append, places.append
    shift = origin - lo
    skip = overlap == 0  # a soft cut's white space starts the next window: left out
    watch = None
    pos = first = lo
    while pos < hi:
        end = pos + size
        soft = False
        if end >= hi:
            cut = hi
        else:
            cut = white[end]
            soft = cut > pos
            if not soft:
                cut = end  # no white space in the window: a hard cut
        window = units[first:cut]
        piece = window.strip(chars)
        if piece:
            add_piece(piece)
            add_place(shift + (first if piece is window else first + window.find(piece[0])))
        if cut == hi:
            break
        following = cut - overlap
        if following <= lo:
            following = cut
        if following <= pos:  # a step back: the hang rule's one question
            if watch is None:
                watch = run.rule.watch(units, origin, lo, hi)
            watch.stepped_back(pos - lo, cut - lo)
        pos = following
        first = pos + 1 if skip and soft else pos
    return pieces, places


def windows_of_range(
    run: EngineRun,
    lo: int,
    hi: int,
    heading: str | None = None,
    base: dict[str, Any] | None = None,
) -> None:
    """F's pieces of the units [lo, hi) emitted as chunks (``emit_windows`` of the
    reference on that slice)."""
    size, units = run.size, run.units
    if not (run.rule.whole and size >= 1):
        reference.emit_windows(run, units[lo:hi], lo, heading, base)
        return
    if hi <= lo:
        return
    white = memoryview(last_white(units)) if hi - lo > size else None
    pieces, places = fast_windows(units, lo, hi, run, white, lo)
    run.chunks.many(pieces, places, heading, base)


def windows_of_text(
    run: EngineRun,
    content: str,
    origin: int | None,
    heading: str | None = None,
    base: dict[str, Any] | None = None,
) -> None:
    """F's pieces of a text that may be no slice of the input (a semantic group)."""
    if content is run.units:
        windows_of_range(run, 0, len(content), heading, base)
        return
    if not (run.rule.whole and run.size >= 1) or not content:
        reference.emit_windows(run, content, origin, heading, base)
        return
    white = memoryview(white_before(content)) if len(content) > run.size else None
    pieces, places = fast_windows(content, 0, len(content), run, white, origin or 0)
    run.chunks.many(pieces, places if origin is not None else None, heading, base)


def hierarchical(run: EngineRun) -> None:
    """``engine_reference.hierarchical`` on the kept outline: each section one chunk or
    its body's range cut by F."""
    units, size, chunks = run.units, run.size, run.chunks
    read = outline(units)
    sections: list[tuple[int, int, dict[str, Any]]] = []
    chunks.places.section_chunks = sections
    if not read.headed:  # no headings: the content untrimmed, as one section
        if units and len(units) <= size:
            chunks.one(units, 0)
        elif units:
            windows_of_range(run, 0, len(units), base={})
        return
    preamble, start = read.preamble, read.preamble_start
    if preamble and len(preamble) <= size:
        chunks.one(preamble, start)
    elif preamble:
        windows_of_range(run, start, start + len(preamble), base={})
    text = chunks.text
    plain = text is str  # no surrogates: the unit strings are the chunk strings
    for number, (level, title, body, ancestors) in enumerate(read.sections):
        meta: dict[str, Any] = {"headingLevel": level}
        if ancestors:
            meta["ancestorHeadings"] = list(ancestors) if plain else list(map(text, ancestors))
        heading = title if plain else text(title)
        first = len(chunks.list)
        if not body:
            chunks.one(title, read.title_start(number), heading, meta)
        elif len(body) <= size:
            chunks.one(body, read.body_starts[number], heading, meta)
        else:
            start = read.body_starts[number]
            windows_of_range(run, start, start + len(body), heading, meta)
        sections.append((first, len(chunks.list), {**meta, "heading": heading}))
    chunks.places.section_chunks = [s for s in sections if s[1] > s[0]]


def layout(run: EngineRun) -> None:
    """``engine_reference.layout`` on the kept blocks: prose ranges cut by F."""
    chunks = run.chunks
    block_chunks: dict[str, list[int]] = {}
    chunks.places.block_chunks = block_chunks
    for kind, block, start in kept_layout_blocks(run.units):
        if kind == "prose":
            windows_of_range(run, start, start + len(block))
        else:
            block_chunks.setdefault(kind, []).append(len(chunks.list))
            chunks.one(block, start, metadata={"type": kind})


def run_strategy(run: EngineRun, strategy: str, embedder: str | None, ctx: RunContext) -> None:
    """§2.3: the strategy's chunks into ``run.chunks``, fast."""
    if strategy == "fixed":
        windows_of_range(run, 0, len(run.units))
    elif strategy == "semantic":
        reference.semantic(run, embedder, ctx, windows=windows_of_text)
    elif strategy == "hierarchical":
        hierarchical(run)
    else:
        layout(run)
