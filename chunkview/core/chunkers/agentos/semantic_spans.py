"""Where the SemanticChunker's chunks lie in the text: each own part (the chunk after its
overlap prefix) placed where the port cut it from, or found by the search where the port
does not know, and the spans made as columns (``SpanTable``) for a text of plain code
points and a whole overlap, or one by one for any other."""

from __future__ import annotations

from array import array
from itertools import repeat
from operator import attrgetter, getitem, itemgetter, sub
from typing import Any

import numpy as np

from chunkview.core.chunkers.agentos.semantic_chunker import is_plain
from chunkview.core.chunkers.agentos.semantic_reference import Segment, overlap_prefix
from chunkview.core.chunkers.entry import chunk_metadata
from chunkview.core.layout.locate import locate, locate_columns
from chunkview.core.model.document import Document
from chunkview.core.model.span_table import ChunkTexts, SpanTable, consecutive_runs, head_of
from chunkview.core.model.spans import LOCATED, Span
from chunkview.core.text.js import from_units, to_units


def span_list(document: Document, native: list[dict[str, Any]], overlap: Any) -> list[Span]:
    """The spans of ``native`` on ``document``, one Span at a time, each own part searched
    for: any text, any overlap."""
    prefixes: list[int] = []  # the overlap prefix's length, in code points
    owns: list[str] = []
    previous_own = ""
    # a text with no astral character and no surrogate half is its own unit string
    astral = not is_plain(document.text)
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
    spans = []
    for chunk, prefix_len, (own_start, end, how), at in zip(native, prefixes, located, reported):
        start = own_start if how == "missing" else max(own_start - prefix_len, 0)
        if how == "exact" and prefix_len and chunk["text"] != document.text[start:end]:
            how = "normalized"  # white space the port dropped lies before the own part
        metadata = chunk_metadata(chunk) if "metadata" in chunk else {}
        spans.append(
            Span(
                chunk["index"],
                start,
                end,
                own_start,
                chunk["boundaryType"],
                chunk["text"],
                how,
                metadata,
                at,
            )
        )
    return spans


def prefix_sizes(sizes: list[int], overlap: int) -> list[int]:
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


def place_by_source(
    text: str, segments: list[Segment], overlap: int
) -> tuple[list[int], list[int], list[int], list[int], Any]:
    """Where each own part lies, as ``locate_columns`` says it, from where the port took
    it: ``exact`` where the port cut it as the text is there (``Segment.exact``: nothing
    to compare); ``normalized`` where only the white space differs, from its first to
    its last non-space character; searched for where the port does not know
    (``Segment.source_end``). Where a search would differ, it would have found the text
    somewhere else in its window (a repeated passage): the place the port took it from
    is the right one. Returns the own parts' starts, ends and how each was placed, the
    length of each chunk's prefix (the last ``overlap`` units of the own part before it)
    and each one's startOffset.

    The segments are read a field at a time and the columns worked out in numpy; only
    the segments not cut as the text is are read one by one (at 10 MB a loop over all of
    them costs more than the rest of the table)."""
    exact, normalized = LOCATED.index("exact"), LOCATED.index("normalized")
    count = len(segments)
    ends = np.fromiter(map(_SOURCE_END, segments), np.int64, count)
    try:
        reported: Any = array("q", map(_OFFSET, segments))
        own_starts = np.frombuffer(reported, np.int64).copy()
    except TypeError:  # a fraction: a segment whose end is not known has a reckoned
        # offset, maybe a fraction, which is not used to place it
        reported = list(map(_OFFSET, segments))
        own_starts = np.array([int(at) if end >= 0 else 0 for at, end in zip(reported, ends)])
    as_is = np.fromiter(map(_EXACT, segments), bool, count)
    # each own part's length: where it is the text as it is, its place's
    own_lengths = ends - own_starts
    not_as_is = np.flatnonzero(~as_is).tolist()
    starts_list, ends_list = own_starts.tolist(), ends.tolist()
    located = np.where(as_is, exact, normalized).astype(np.uint8).tolist()
    searched, measured = [], []
    for i in not_as_is:
        own = segments[i].text
        measured.append(len(own))
        start, end = starts_list[i], ends_list[i]
        region = text[start:end] if end >= 0 else ""
        # the own part is this region but for its white space, by the way the port cut
        # it; a byte order mark is white space to the search but not to strip()
        stripped = region.lstrip()
        if end < 0 or not stripped or "\ufeff" in region:
            searched.append(i)
            continue
        starts_list[i] = end - len(stripped)
        ends_list[i] = start + len(region.rstrip())
        if ends_list[i] - starts_list[i] == len(own) and text.startswith(own, starts_list[i]):
            located[i] = exact  # a piece trimmed from its window: the text there
    # the rest as the search finds them, each run after the chunk placed before it
    for first, last in consecutive_runs(searched):
        after = (starts_list[first - 1], ends_list[first - 1]) if first else None
        owns = [segment.text for segment in segments[first:last]]
        hints = list(reported[first:last])
        found = locate_columns(text, owns, False, hints, after=after)
        starts_list[first:last], ends_list[first:last], located[first:last] = found
    if overlap > 0 and count:
        own_lengths[not_as_is] = measured
        prefixes = [0, *np.minimum(own_lengths[:-1], overlap).tolist()]
    else:
        prefixes = [0] * count
    return starts_list, ends_list, located, prefixes, reported


def _column_or_dict(values: list[Any] | array) -> array | dict[int, Any]:
    """Whole numbers as one column (as they are, if one already); any other (a fraction)
    by span index."""
    if isinstance(values, array):
        return values
    try:
        return array("q", values)
    except (TypeError, OverflowError):
        return dict(enumerate(values))


_OFFSET, _SOURCE_END, _EXACT, _BOUNDARY = (
    attrgetter("offset"),
    attrgetter("source_end"),
    attrgetter("exact"),
    attrgetter("boundary"),
)


def span_table(
    text: str,
    native: list[dict[str, Any]],
    overlap: int,
    own_segments: list[Segment] | None = None,
) -> SpanTable:
    """The spans of ``native`` on ``text`` as columns, for a text whose units are its code
    points and a whole ``overlap``. Each own part is placed where the port cut it from
    (``own_segments``: what the run told its observer it placed; ``place_by_source``),
    or else searched for with the library's startOffset as the hint; the prefix lies
    before it. A span's text is two slices of ``text`` when
    its own part and the one before are the text there (the prefix ends the one before);
    around any other, as ``SpanTable.from_spans`` finds it."""
    count = len(native)
    segments = own_segments
    texts: Any
    if segments is not None and len(segments) == count:
        # each own part is its segment's text, after a prefix of the own part before;
        # the chunk objects are read only for the spans whose text is not in place (and
        # for their metadata, when the run was given any)
        own_starts, ends, located, prefixes, reported = place_by_source(text, segments, overlap)
        texts = ChunkTexts(native, "text")
        boundaries = list(map(_BOUNDARY, segments))  # each chunk's boundaryType
        indexes = None  # a SemanticChunker numbers its chunks in order
    else:
        chunk_texts: list[str] = list(map(itemgetter("text"), native))
        texts = chunk_texts
        reported = list(map(itemgetter("startOffset"), native))
        boundaries = list(map(itemgetter("boundaryType"), native))
        prefixes = prefix_sizes(list(map(len, chunk_texts)), overlap)
        owns: list[str] = (
            list(map(getitem, chunk_texts, map(slice, prefixes, repeat(None))))
            if overlap > 0
            else chunk_texts
        )
        own_starts, ends, located = locate_columns(text, owns, overlapping=False, hints=reported)
        numbers = list(map(itemgetter("index"), native))
        indexes = None if numbers == list(range(count)) else array("q", numbers)
    exact, missing = LOCATED.index("exact"), LOCATED.index("missing")
    normalized = LOCATED.index("normalized")
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
    # a prefix is the text before the own part only where the own part before ends
    # there: not where white space the port dropped lies between them
    apart = [i for i in range(1, count) if prefixes[i] and own_starts[i] != ends[i - 1]]
    sent, offset = [], 0
    for i in sorted({*odd, *[i + 1 for i in odd if i + 1 < count], *apart}):
        chunk, start, end, own = texts[i], starts[i], ends[i], own_starts[i]
        if located[i] == exact:
            if not prefixes[i]:
                continue  # no prefix: the own part is the text
            # the prefix, from an own part not found as it is: maybe still a slice
            head_starts[i] = -1
            if chunk == text[start:end]:
                continue
            head_starts[i] = head_of(text, chunk, own, end)
            head_sizes[i] = len(chunk) - (end - own)
            located[i] = normalized  # the chunk is not the text at its place
        else:  # white space rewritten, or not found: no slice of the text
            head_starts[i] = -1
        if head_starts[i] < 0:
            sent.append(chunk)
            text_starts[i] = offset
            offset += len(chunk)
            text_ends[i] = offset
    kind_of = {kind: i for i, kind in enumerate(dict.fromkeys(boundaries))}
    with_metadata = bool(native) and "metadata" in native[0]  # all or none have it
    return SpanTable(
        array("q", starts),
        array("q", ends),
        array("q", own_starts),
        tuple(kind_of),
        array("I", map(kind_of.__getitem__, boundaries)),
        array("B", located),
        text,
        indexes=indexes,
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
