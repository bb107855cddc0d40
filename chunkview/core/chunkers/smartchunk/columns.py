"""Fast path for ``reference.native``, ``reference.spans`` and ``reference.native_spans``:
the chunks as columns (numpy and arrays) instead of a dict and a Span a chunk.

Why it is equal:
- ``PieceColumns.of`` looks up each piece's start and end in the byte offsets all at
  once (``prefix[starts]``): the numbers ``reference.native`` reads one by one, so
  ``native_of`` gives the same ``{offset, length}`` list.
- ``table`` computes every own start as the reference does, ``min(max(start, end of the
  one before), end)``, on whole columns; a SpanTable gives each span its text as the
  slice ``text[start:end]``, exact, as the reference's Spans have it.
- ``native_columns`` finds each byte range's code points with ``np.searchsorted``
  (side "left"), which is ``bisect_left`` on the same sorted offsets, for all chunks at
  once; offsets out of the text are clipped to one step outside it first (their
  results do not change: every offset is within the clip) so they fit the offsets' type.
"""

from __future__ import annotations

from array import array
from typing import Any, NamedTuple

import numpy as np

from chunkview.core.chunkers.smartchunk.byte_offsets import Utf8Offsets
from chunkview.core.chunkers.smartchunk.model import Piece
from chunkview.core.model.span_table import SpanTable


class PieceColumns(NamedTuple):
    """The pieces as columns: where each starts and ends (code points), the strategy that
    cut it, and its UTF-8 byte offset and length, read from the pieces in one pass.
    A run tells its observer these as its places (``Entry.spans`` reads them back)."""

    starts: np.ndarray
    ends: np.ndarray
    strategies: tuple[str, ...]
    byte_starts: np.ndarray
    byte_lengths: np.ndarray

    @classmethod
    def of(cls, pieces: list[Piece], byte_map: Utf8Offsets) -> PieceColumns:
        starts, ends, strategies = zip(*pieces) if pieces else ((), (), ())
        start_column = np.array(starts, dtype=np.int64)
        end_column = np.array(ends, dtype=np.int64)
        byte_starts = byte_map.prefix[start_column].astype(np.int64)
        return cls(
            start_column,
            end_column,
            strategies,
            byte_starts,
            byte_map.prefix[end_column].astype(np.int64) - byte_starts,
        )


def native_of(columns: PieceColumns) -> list[dict[str, int]]:
    """``reference.native`` from the pieces' columns."""
    offsets, lengths = columns.byte_starts.tolist(), columns.byte_lengths.tolist()
    return [{"offset": offset, "length": length} for offset, length in zip(offsets, lengths)]


def native_columns(native: Any, byte_map: Utf8Offsets) -> PieceColumns:
    """The columns of a native result alone (``reference.native_spans``): the level
    that cut each chunk is not known here."""
    offsets = np.array([chunk["offset"] for chunk in native], dtype=np.int64)
    lengths = np.array([chunk["length"] for chunk in native], dtype=np.int64)
    # looked up as numbers of the offsets' own type (else numpy copies all the offsets
    # to the other type)
    prefix = byte_map.prefix
    beyond = int(prefix[-1]) + 1
    starts = np.searchsorted(prefix, np.clip(offsets, -1, beyond).astype(prefix.dtype))
    ends = np.searchsorted(prefix, np.clip(offsets + lengths, -1, beyond).astype(prefix.dtype))
    return PieceColumns(starts, ends, ("smartchunk",) * len(native), offsets, lengths)


def table(text: str, columns: PieceColumns) -> SpanTable:
    """``reference.spans`` as a SpanTable: every chunk is the text there (exact), its
    own part from the end of the one before."""
    starts, ends = columns.starts.astype(np.int64), columns.ends.astype(np.int64)
    previous_ends = np.concatenate((starts[:1], ends[:-1]))
    own_starts = np.minimum(np.maximum(starts, previous_ends), ends)
    kind_of = {kind: i for i, kind in enumerate(dict.fromkeys(columns.strategies))}
    return SpanTable(
        array("q", starts.tobytes()),
        array("q", ends.tobytes()),
        array("q", own_starts.tobytes()),
        tuple(kind_of),
        array("I", map(kind_of.__getitem__, columns.strategies)),
        array("B", bytes(len(starts))),  # all exact
        text,
        metadata_columns={
            "offset": array("q", columns.byte_starts.tobytes()),
            "length": array("q", columns.byte_lengths.tobytes()),
        },
    )
