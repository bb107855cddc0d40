"""Placing chunks in the text as a SpanTable: located in order (``located_table``,
``ordered_table``) or placed where the port noted it cut them (``placed_table``), with a
sampled guard that the noted places hold the chunks' text."""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from chunkview.core.layout.locate import locate_columns
from chunkview.core.model.span_table import (
    EXACT,
    NORMALIZED,
    ChunkTexts,
    KindColumn,
    SpanTable,
    consecutive_runs,
    filled_column,
)
from chunkview.core.text.js import unit_string


def located_table(
    text: str,
    chunks: Sequence[str],
    kinds: Sequence[str] | KindColumn,
    metadata: dict[int, dict],
    reported: dict[int, int] | None = None,
) -> SpanTable:
    """What ``Entry.located_spans`` gives, as columns, without a Span per chunk: each chunk
    located in ``text`` in order (see ``ordered_table``). ``reported``: by chunk index,
    where the library says the chunk starts."""
    starts, ends, located = locate_columns(text, chunks)
    return ordered_table(text, chunks, starts, ends, located, kinds, metadata, reported)


def ordered_table(
    text: str,
    chunks: Sequence[str],
    starts: Sequence[int] | np.ndarray,
    ends: Sequence[int] | np.ndarray,
    located: Sequence[int],
    kinds: Sequence[str] | KindColumn,
    metadata: dict[int, dict],
    reported: dict[int, int] | None = None,
) -> SpanTable:
    """The spans of chunks placed in order at ``starts``..``ends`` (``located``: how each
    was placed, an index in LOCATED), each one's own part from the end of the one before,
    its text a slice of ``text`` where it was found as it is (else sent as it is).
    ``kinds``: each chunk's kind, or a ``KindColumn`` (whose metadata by kind the table
    keeps as ``kind_metadata``); ``metadata``: by chunk index, for those that have any."""
    count = len(starts)
    start_column = np.asarray(starts, dtype=np.int64)
    end_column = np.asarray(ends, dtype=np.int64)
    # own part: from the end of the chunk before (no further than the chunk's end)
    ends_before = np.concatenate((start_column[:1], end_column[:-1]))
    own_starts = np.minimum(np.maximum(start_column, ends_before), end_column)
    kind_metadata = None
    if isinstance(kinds, KindColumn):
        kind_names, kind_ids, kind_metadata = kinds.names, kinds.ids, kinds.metadata
    else:
        kind_of = {kind: i for i, kind in enumerate(dict.fromkeys(kinds))}
        kind_names = tuple(kind_of)
        if len(kind_of) == 1:  # one kind (a strategy's windows): all ids 0
            kind_ids = array("I", bytes(4 * count))
        else:
            kind_ids = array("I", map(kind_of.__getitem__, kinds))
    located_ids = array("B", located)
    text_starts, text_ends = filled_column(count), filled_column(count)
    sent, offset = [], 0
    for i in np.flatnonzero(np.frombuffer(located_ids, np.uint8) != EXACT).tolist():
        sent.append(chunks[i])
        text_starts[i] = offset
        offset += len(chunks[i])
        text_ends[i] = offset
    return SpanTable(
        array("q", start_column.tobytes()),
        array("q", end_column.tobytes()),
        array("q", own_starts.tobytes()),
        kind_names,
        kind_ids,
        located_ids,
        text,
        text_blob="".join(sent),
        text_starts=text_starts,
        text_ends=text_ends,
        metadata=metadata,
        kind_metadata=kind_metadata,
        reported=reported,
    )


def placed_table(
    text: str,
    chunks: Sequence[str],
    places: Sequence[int],
    kinds: Sequence[str] | KindColumn,
    metadata: dict[int, dict],
    lengths: Sequence[int] | None = None,
    rewritten: Mapping[int, int] | None = None,
    searched: Sequence[int] = (),
    reported: dict[int, int] | None = None,
) -> SpanTable | None:
    """The spans of chunks cut from ``text`` where ``places`` says (UTF-16 units, one
    per chunk, in order), each the text there, its own part from the end of the one
    before; None when the units are not the code points (astral characters) or a chunk
    is not the text at its place: then they are searched for. ``lengths``: each chunk's
    length as the port noted it (else each chunk is measured). The chunks that are not
    the text at their places as they are (a port joined their pieces otherwise): by
    chunk number, where each of ``rewritten`` ends (it is placed there, "normalized");
    ``searched`` (their numbers, ascending), each searched for from the chunk before,
    its place a hint (-1: none). ``reported``: see ``ordered_table``."""
    if len(places) != len(chunks) or len(unit_string(text)) != len(text):
        return None  # a place not noted, or astral characters: units are no offsets
    if lengths is not None and len(lengths) != len(places):
        return None
    rewritten = rewritten or {}
    if not _at_places(text, chunks, places, lengths, [*searched, *rewritten]):
        return None
    if not all(0 <= places[k] < end <= len(text) for k, end in rewritten.items()):
        return None  # (their texts are not the text's: a region is all there is to check)
    starts = np.array(places, dtype=np.int64)
    if lengths is not None:
        ends = starts + np.array(lengths, dtype=np.int64)
    else:
        ends = starts + np.fromiter(map(len, chunks), np.int64, len(chunks))
    located = bytearray(len(chunks))  # EXACT (index 0) for all
    for number, end in rewritten.items():
        ends[number], located[number] = end, NORMALIZED
    for first, last in consecutive_runs(searched):
        after = (int(starts[first - 1]), int(ends[first - 1])) if first else None
        hints = [places[k] for k in range(first, last)]
        found = locate_columns(text, chunks[first:last], True, hints, after)
        starts[first:last], ends[first:last], located[first:last] = found
    return ordered_table(text, chunks, starts, ends, located, kinds, metadata, reported)


#: how many chunks ``_at_places`` compares with the text
_COMPARED = 2048


def _at_places(
    text: str,
    chunks: Sequence[str],
    places: Sequence[int],
    lengths: Sequence[int] | None = None,
    skipped: Sequence[int] = (),
) -> bool:
    """True when the chunks, but those ``skipped``, are the text at their places, and
    of the ``lengths`` noted with them if given: all of them when there are up to
    ``_COMPARED``, else that many spread over the list, the last one included. The
    ports note a place only where they cut the chunk from the text itself (the tests
    hold every place and length to the text), and sum lengths into places: a place
    gone wrong takes the ones after it along (the ChunkingEngine sums each window's
    length, Mastra each piece's and separator's, level by level), which is what the
    spread catches.
    Comparing every chunk costs more than placing them: a chunk stored one byte a
    character is compared with a text stored two, unit by unit (about 10 ms a run at
    10 MB)."""
    count = len(chunks)
    if count <= _COMPARED:
        compared: Any = range(count)
    else:
        compared = [*range(0, count, -(-count // _COMPARED)), count - 1]
    if skipped:
        passed = set(skipped)
        compared = [k for k in compared if k not in passed]
    if isinstance(chunks, ChunkTexts):
        sampled = chunks.pick(compared)
    else:
        sampled = [chunks[k] for k in compared]
    if lengths is not None and list(map(len, sampled)) != [lengths[k] for k in compared]:
        return False
    return all(map(text.startswith, sampled, [places[k] for k in compared]))
