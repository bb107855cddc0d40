"""Find each returned chunk text in the source, in order.

Exact search first; when the library rewrote the text (joined sentences, added a line
feed, folded white space) a white-space-insensitive search through an index map.
Each search looks first in a window just ahead of the previous chunk, sized to the chunk,
so a whole document costs about one pass; only a chunk found nowhere near (a duplicate,
a reordering, a chunk that is not in the text) costs a search of the whole text. Not one
whose first or last characters are just ahead (the library changed its middle), and no
more than a few passes' worth in one call: a strategy that rewrites thousands of chunks
(Mastra's markdown joins in its separators' regex sources) would take seconds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from chunkview.core.model.kinds import LOCATED, Located
from chunkview.core.text.kept import kept

_LONE_SURROGATE_EDGES_RE = re.compile("^[\ud800-\udfff]+|[\ud800-\udfff]+$")
EXACT, MISSING = LOCATED.index("exact"), LOCATED.index("missing")


class Location(NamedTuple):
    """Where one chunk lies (a tuple: one is made per chunk, tens of thousands per run)."""

    start: int
    end: int
    located: Located


#: white space for matching, JS's set and Python's together: True at each BMP code
#: point str.isspace takes (as str.split and a regex's \s do), and at the BOM; none
#: lies above the BMP
_SPACE_TABLE = np.zeros(0x10000, dtype=bool)
_SPACE_TABLE[[c for c in range(0x10000) if chr(c).isspace()] + [0xFEFF]] = True


class _Normalized:
    """The source with all white space removed, and a map back to source offsets: where
    each run of other characters starts in the source and in the normalized text.

    Worked out in numpy over the code points (10 MB in about a tenth of a second): a
    split into a list of millions of runs took four times as long, in the chunking
    process, at the first placement on each new text."""

    def __init__(self, source: str) -> None:
        codes = np.frombuffer(source.encode("utf-32-le", "surrogatepass"), dtype="<u4")
        kept = ~_SPACE_TABLE[np.minimum(codes, 0xFFFF)]  # U+FFFF is no white space
        self.text = codes[kept].tobytes().decode("utf-32-le", "surrogatepass")
        edges = np.diff(kept.view(np.int8), prepend=0, append=0)  # 1: a run starts, -1: ends
        self.source_starts = np.flatnonzero(edges == 1)
        self.run_lengths = np.flatnonzero(edges == -1) - self.source_starts
        self.norm_starts = np.cumsum(self.run_lengths) - self.run_lengths

    def to_source(self, norm_offset: int) -> int:
        run = int(np.searchsorted(self.norm_starts, norm_offset, side="right")) - 1
        return int(self.source_starts[run] + (norm_offset - self.norm_starts[run]))

    def to_norm(self, source_offset: int) -> int:
        run = int(np.searchsorted(self.source_starts, source_offset, side="right")) - 1
        if run < 0:
            return 0
        inside = min(source_offset - int(self.source_starts[run]), int(self.run_lengths[run]))
        return int(self.norm_starts[run]) + inside


#: the name the index of the last long text located is kept under (text/kept.py)
LOCATE_INDEX = "locate index"


def _normalized_for(source: str) -> _Normalized:
    """The index of ``source``, reused while the same long text is located again (a
    slider moving over one document)."""
    return kept(LOCATE_INDEX, source, _Normalized)


def locate(
    source: str,
    chunks: Sequence[str],
    overlapping: bool = True,
    hints: Sequence[Any] | None = None,
) -> list[Location]:
    """Place each chunk text in ``source``; see the module docstring.

    With ``overlapping`` a chunk may start anywhere after the previous chunk's start;
    without it, the search starts at the previous chunk's end. ``hints`` (one per chunk,
    any value) are where the library says each chunk starts, in code points: a hint is
    taken only where the search would find the chunk there too, so the result is the same
    with or without them, only faster.
    """
    starts, ends, located = locate_columns(source, chunks, overlapping, hints)
    return list(map(Location, starts, ends, map(LOCATED.__getitem__, located)))


def locate_columns(
    source: str,
    chunks: Sequence[str],
    overlapping: bool = True,
    hints: Sequence[Any] | None = None,
    after: tuple[int, int] | None = None,
) -> tuple[list[int], list[int], list[int]]:
    """``locate``'s answer as columns: the starts, the ends, and how each chunk was
    placed (its index in ``LOCATED``). ``after``: the start and end of a chunk placed
    before these (the search goes on from there)."""
    normalized: _Normalized | None = None
    starts: list[int] = []
    ends: list[int] = []
    located: list[int] = []
    prev_start, prev_end = after or (0, 0)
    starts_with = source.startswith
    # searches of the whole text, counted in characters: a chunk the library rewrote is
    # found nowhere, and looking for each of thousands in 10 MB would take many seconds
    far_budget = _FAR_PASSES * len(source) + _FAR_SMALL
    for index, chunk in enumerate(chunks):
        if overlapping:
            cursor = prev_start + 1 if index or after else 0
        else:
            cursor = prev_end
        # the usual case first, inline (a call per chunk costs more than the search):
        # _find_exact in _window(len(chunk), cursor, prev_end)
        size = len(chunk)
        at = -1
        if size:
            limit = cursor + max(prev_end - cursor, 0) + 3 * size + 4096
            hint = hints[index] if hints is not None else None
            if (
                type(hint) is int
                and cursor <= hint <= limit - size
                and starts_with(chunk, hint)
                and (hint == cursor or _first_at(source, chunk, cursor, hint - 1) < 0)
            ):
                at = hint  # no earlier match after the cursor: what the search finds
            else:
                at = _first_at(source, chunk, cursor, limit - size)
        if at >= 0:
            prev_start, prev_end = at, at + size
            starts.append(at)
            ends.append(prev_end)
            located.append(EXACT)
            continue
        # the exact search in the window was made above
        window = _window(size, cursor, prev_end)
        if normalized is None:
            normalized = _normalized_for(source)
        location = _find_normalized(normalized, chunk, cursor, window)
        if location is None and far_budget > 0 and not _starts_near(source, chunk, cursor, window):
            # far ahead, or before: the whole text (a few passes over it, so few of these)
            far_budget -= len(source)
            location = _find_exact(source, chunk, cursor, None) or _find_normalized(
                normalized, chunk, cursor, None
            )
        if location is None:
            starts.append(prev_end)
            ends.append(prev_end)
            located.append(MISSING)
        else:
            prev_start, prev_end = location.start, location.end
            starts.append(prev_start)
            ends.append(prev_end)
            located.append(LOCATED.index(location.located))
    return starts, ends, located


#: characters of a long chunk searched for first (see ``_first_at``)
_PROBE = 32
#: how many searches of the whole text one call may make (more on a short text)
_FAR_PASSES, _FAR_SMALL = 4, 4_000_000
#: a chunk whose first or last characters lie just ahead was rewritten in between
_EDGE = 64


def _starts_near(source: str, chunk: str, cursor: int, window: int) -> bool:
    """True when ``chunk`` is longer than twice its edges and its first or its last
    characters lie within ``window`` of the cursor: the chunk is here and the library
    changed something inside it (a separator's regex source joined in, say), so it is
    nowhere else either."""
    if len(chunk) <= 2 * _EDGE:
        return False
    highest = cursor + window + len(chunk)
    return (
        _first_at(source, chunk[:_EDGE], cursor, cursor + window) >= 0
        or _first_at(source, chunk[-_EDGE:], cursor, highest) >= 0
    )


def _first_at(source: str, chunk: str, lowest: int, highest: int) -> int:
    """The first place from ``lowest`` to ``highest`` (included) where ``chunk`` starts
    in ``source``, or -1: ``source.find(chunk, lowest, highest + len(chunk))``. A long
    chunk is found by its first characters, each place then compared: str.find prepares
    a search in proportion to the needle, which over a short stretch of text costs more
    than the search (tens of thousands of chunks per layout)."""
    if highest < lowest:
        return -1
    size = len(chunk)
    if size <= 2 * _PROBE:
        return source.find(chunk, lowest, highest + size)
    probe = chunk[:_PROBE]
    find, starts_with = source.find, source.startswith
    at = find(probe, lowest, highest + _PROBE)
    while at >= 0 and not starts_with(chunk, at):
        at = find(probe, at + 1, highest + _PROBE)
    return at


def _window(chunk_len: int, cursor: int, prev_end: int) -> int:
    """How far past the cursor a chunk is looked for first (any skipped white space,
    an overlap, a rewrite that shortened it)."""
    return max(prev_end - cursor, 0) + 2 * chunk_len + 4096


def _find_exact(source: str, chunk: str, cursor: int, window: int | None) -> Location | None:
    if not chunk:
        return None
    if window is not None:
        at = source.find(chunk, cursor, cursor + window + len(chunk))
    else:
        at = source.find(chunk, cursor)
        if at < 0 and cursor:
            at = source.find(chunk)
    return Location(at, at + len(chunk), "exact") if at >= 0 else None


def _without_space(chunk: str) -> str:
    """The chunk with its white space removed (``_SPACE_TABLE``'s set: str.split's, and the
    BOM), and a cut surrogate pair's half at either edge."""
    # a cut inside a surrogate pair leaves half an emoji at an edge: match the rest
    if chunk and ("\ud800" <= chunk[0] <= "\udfff" or "\ud800" <= chunk[-1] <= "\udfff"):
        chunk = _LONE_SURROGATE_EDGES_RE.sub("", chunk)
    if "\ufeff" in chunk:
        chunk = chunk.replace("\ufeff", " ")
    return "".join(chunk.split())  # in C


def _find_normalized(
    normalized: _Normalized, chunk: str, cursor: int, window: int | None
) -> Location | None:
    needle = _without_space(chunk)
    if not needle or not normalized.text:
        return None
    norm_cursor = normalized.to_norm(cursor)
    if window is not None:
        at = _first_at(normalized.text, needle, norm_cursor, norm_cursor + window)
    else:
        at = normalized.text.find(needle, norm_cursor)
        if at < 0 and norm_cursor:
            at = normalized.text.find(needle)
    if at < 0:
        return None
    start = normalized.to_source(at)
    end = normalized.to_source(at + len(needle) - 1) + 1
    return Location(start, end, "normalized")
