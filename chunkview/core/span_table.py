"""Spans as columns: where each chunk lies, in flat arrays, each Span built when read.

A layout of tens of thousands of chunks would otherwise be as many Span objects, made in
the chunking process, walked to send them across the pipe and made again in the window.
A SpanTable is what crosses the pipe (its arrays pickle as bytes), and a port that knows
where its chunks lie fills one without making a Span (the SemanticChunker does).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import numpy as np

from chunkview.core.explain import Reason, ReasonColumns
from chunkview.core.locate import locate_columns
from chunkview.core.spans import LOCATED, Pairs, Span
from chunkview.core.text.js import unit_string

MISSING, EXACT = LOCATED.index("missing"), LOCATED.index("exact")
NORMALIZED = LOCATED.index("normalized")


def _column(count: int, value: int = -1) -> array:
    return array("q", [value]) * count


#: the columns a table fills with one value where no span needs them, and that value
_DEFAULTS = {"text_starts": -1, "text_ends": -1, "head_starts": -1, "head_sizes": 0}


def head_of(text: str, chunk: str, own: int, end: int) -> int:
    """Where in ``text`` the head of ``chunk`` lies when ``chunk`` is that head then the
    own part ``own..end`` (an overlap prefix taken from before the white space in front
    of the own part), or -1: then the chunk is no two slices of the text."""
    head = len(chunk) - (end - own)
    if 0 <= head and own <= end and chunk.endswith(text[own:end]):
        return text.rfind(chunk[:head], max(0, own - head - 256), own)
    return -1


class SpanTable(Sequence[Span]):
    """Spans in columns (code-point offsets into the shown text, as Span's fields).

    Span i's text is, by the first that applies: ``text_blob[text_starts[i]:text_ends[i]]``
    (a text that is no slice of the shown text, sent as it is); ``head_sizes[i]``
    characters from ``head_starts[i]`` then ``own_start..end`` (an overlap prefix taken from
    before the white space in front of the chunk's own part); else ``start..end``.
    """

    def __init__(
        self,
        starts: array,
        ends: array,
        own_starts: array,
        kinds: tuple[str, ...],
        kind_ids: array,
        located_ids: array,
        text: str = "",
        *,
        indexes: array | None = None,
        text_blob: str = "",
        text_starts: array | None = None,
        text_ends: array | None = None,
        head_starts: array | None = None,
        head_sizes: array | None = None,
        metadata: dict[int, dict] | None = None,
        metadata_columns: dict[str, array] | None = None,
        kind_metadata: dict[int, dict] | None = None,
        reported: dict[int, int] | array | None = None,
        reasons: Mapping[int, Reason] | None = None,
    ) -> None:
        count = len(starts)
        self.starts, self.ends, self.own_starts = starts, ends, own_starts
        self.indexes = indexes  # None: span i has index i
        self.kinds, self.kind_ids, self.located_ids = kinds, kind_ids, located_ids
        self.text_blob = text_blob
        self.text_starts = text_starts if text_starts is not None else _column(count)
        self.text_ends = text_ends if text_ends is not None else _column(count)
        self.head_starts = head_starts if head_starts is not None else _column(count)
        self.head_sizes = head_sizes if head_sizes is not None else _column(count, 0)
        self.metadata = metadata or {}
        #: metadata every span has, one column per name (smartchunk's byte ranges)
        self.metadata_columns = metadata_columns or {}
        #: by kind id, the metadata of each span of that kind with none in ``metadata``
        #: (a layout block's type: one entry, not one for each of thousands of blocks)
        self.kind_metadata = kind_metadata or {}
        self.reported = reported or {}
        self.reasons = reasons or {}
        self._text = text
        self._built: list[Span | None] = [None] * count

    @classmethod
    def from_spans(cls, spans: Sequence[Span], text: str) -> SpanTable:
        """The table of placed spans on ``text`` (their shown text)."""
        if isinstance(spans, SpanTable):
            return spans
        count = len(spans)
        kinds: dict[str, int] = {}
        metadata, reported, reasons = {}, {}, {}
        pieces: list[str] = []
        starts, ends, own_starts, kind_ids, located_ids = [], [], [], [], []
        text_starts, text_ends = _column(count), _column(count)
        head_starts, head_sizes = _column(count), _column(count, 0)
        offset = 0
        located_id = {name: i for i, name in enumerate(LOCATED)}
        in_order = True
        for i, span in enumerate(spans):  # one pass: tens of thousands of spans
            start, end, own, chunk = span.start, span.end, span.own_start, span.text
            starts.append(start)
            ends.append(end)
            own_starts.append(own)
            kind_ids.append(kinds.setdefault(span.kind, len(kinds)))
            located_ids.append(located_id[span.located])
            if span.index != i:
                in_order = False
            if chunk != text[start:end]:
                at = head_of(text, chunk, own, end)
                if at >= 0:
                    head_starts[i], head_sizes[i] = at, len(chunk) - (end - own)
                else:
                    pieces.append(chunk)
                    text_starts[i] = offset
                    offset += len(chunk)
                    text_ends[i] = offset
            if span.metadata:
                metadata[i] = span.metadata
            if span.reported_start is not None:
                reported[i] = span.reported_start
            if span.reason is not None:
                reasons[i] = span.reason
        return cls(
            array("q", starts),
            array("q", ends),
            array("q", own_starts),
            tuple(kinds),
            array("I", kind_ids),
            array("B", located_ids),
            text,
            indexes=None if in_order else array("q", (s.index for s in spans)),
            text_blob="".join(pieces),
            text_starts=text_starts,
            text_ends=text_ends,
            head_starts=head_starts,
            head_sizes=head_sizes,
            metadata=metadata,
            reported=reported,
            reasons=reasons,
        )

    # ----- what crosses the pipe ---------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        # neither the shown text (the other side has it: ``bind``) nor built spans; a
        # reason given to a built span (the explain pass) goes with the table
        state = self.__dict__.copy()
        del state["_text"], state["_built"]
        # a column that says nothing (no span's text sent, no head) is made again there:
        # half of what a table of windows sends
        for name, nothing in _DEFAULTS.items():
            column = np.frombuffer(state[name], np.int64)
            if not len(column) or (column.min() == nothing and column.max() == nothing):
                state[name] = None
        given = {i: s.reason for i, s in enumerate(self._built) if s is not None and s.reason}
        reasons = {**self.reasons, **given} if given else self.reasons
        if reasons and not isinstance(reasons, ReasonColumns):
            # as columns: Reason objects by the ten thousand take the receiving thread a
            # hundred ms to unpickle, holding the interpreter lock the UI thread needs
            reasons = ReasonColumns(reasons)
        state["reasons"] = reasons
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        count = len(self.starts)
        for name, nothing in _DEFAULTS.items():
            if state[name] is None:
                setattr(self, name, _column(count, nothing))
        self._text = ""
        self._built = [None] * count

    def bind(self, text: str) -> SpanTable:
        """Read span texts from ``text`` (the shown text, after the table crossed)."""
        self._text = text
        return self

    # ----- columns, without building a span ----------------------------------------------

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (
            np.frombuffer(self.starts, np.int64),
            np.frombuffer(self.ends, np.int64),
            np.frombuffer(self.located_ids, np.uint8),
        )

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[str]]:
        """Starts, ends, own starts, placed or not, and the kinds in order of first
        appearance (Layout.prepare indexes a layout with these)."""
        starts, ends, located = self._arrays()
        ids, first = np.unique(np.frombuffer(self.kind_ids, np.uint32), return_index=True)
        kinds = [self.kinds[k] for k in ids[np.argsort(first)].tolist()]
        return starts, ends, np.frombuffer(self.own_starts, np.int64), located != MISSING, kinds

    def located_kinds(self) -> list[str]:
        """The kind of each placed span, in order."""
        ids = np.frombuffer(self.kind_ids, np.uint32)
        placed = np.frombuffer(self.located_ids, np.uint8) != MISSING
        if not placed.all():
            ids = ids[placed]
        return np.array(self.kinds, dtype=object)[ids].tolist()

    def overlaps(self) -> Pairs:
        """spans._overlaps: where each chunk repeats the end of the one before."""
        starts, ends, located = self._arrays()
        start = starts[1:]
        repeats = (located[1:] != MISSING) & (starts[:-1] <= start) & (start < ends[:-1])
        return Pairs.of(start[repeats], ends[:-1][repeats])

    def gaps(self, length: int) -> Pairs:
        """spans._gaps: the stretches of ``0..length`` no placed span covers."""
        starts, ends, located = self._arrays()
        placed = located != MISSING
        if not placed.all():
            starts, ends = starts[placed], ends[placed]
        if len(starts) > 1 and not (starts[1:] >= starts[:-1]).all():
            order = np.lexsort((ends, starts))
            starts, ends = starts[order], ends[order]
        # the end of the text covered so far, before each span and after the last
        covered = np.maximum.accumulate(np.concatenate(([0], ends)))
        uncovered = starts > covered[:-1]
        first, second = covered[:-1][uncovered], starts[uncovered]
        if covered[-1] < length:
            first, second = np.append(first, covered[-1]), np.append(second, length)
        return Pairs.of(first, second)

    # ----- the spans ---------------------------------------------------------------------

    def set_reasons(self, reasons: Mapping[int, Reason]) -> None:
        """Give spans their reasons (sent after the layout), built or not: kept as given
        (columns stay columns), and handed to the spans already built."""
        self.reasons = reasons if not self.reasons else {**self.reasons, **reasons}
        for i in [i for i, span in enumerate(self._built) if span is not None]:
            reason = reasons.get(i)
            if reason is not None:
                self._built[i].reason = reason  # type: ignore[union-attr]

    def _build(self, i: int) -> Span:
        start, end, own = self.starts[i], self.ends[i], self.own_starts[i]
        at, head = self.text_starts[i], self.head_starts[i]
        if at >= 0:
            text = self.text_blob[at : self.text_ends[i]]
        elif head >= 0:
            text = self._text[head : head + self.head_sizes[i]] + self._text[own:end]
        else:
            text = self._text[start:end]
        span = Span(
            self.indexes[i] if self.indexes is not None else i,
            start,
            end,
            own,
            self.kinds[self.kind_ids[i]],
            text,
            LOCATED[self.located_ids[i]],
            self._metadata(i),
            self.reported.get(i) if isinstance(self.reported, dict) else self.reported[i],
            self.reasons.get(i),
        )
        self._built[i] = span
        return span

    def _metadata(self, i: int) -> dict[str, Any]:
        own = self.metadata.get(i)
        if own is None:
            own = self.kind_metadata.get(self.kind_ids[i], {}) if self.kind_metadata else {}
        if not self.metadata_columns:
            return own
        columns = {name: column[i] for name, column in self.metadata_columns.items()}
        return {**columns, **own}

    def __len__(self) -> int:
        return len(self._built)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._built)))]
        span = self._built[i]
        return span if span is not None else self._build(i if i >= 0 else i + len(self))

    def __iter__(self) -> Iterator[Span]:
        for i, span in enumerate(self._built):
            yield span if span is not None else self._build(i)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SpanTable({len(self)} spans)"


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


class ChunkTexts(Sequence[str]):
    """The text of each chunk object of a port's result (its ``key``), read when asked
    for: placing a run's chunks where the port noted them reads a few thousand of them,
    and reading tens of thousands made moments ago, all over the heap, costs more than
    the rest of the placing."""

    def __init__(self, native: Sequence[Mapping[str, Any]], key: str) -> None:
        self._native, self._key = native, key

    def __len__(self) -> int:
        return len(self._native)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return self.pick(range(*i.indices(len(self._native))))
        return self._native[i][self._key]

    def pick(self, numbers: Iterable[int]) -> list[str]:
        """The texts of the chunks ``numbers``, at one go."""
        native, key = self._native, self._key
        return [native[i][key] for i in numbers]


@dataclass(frozen=True)
class KindColumn:
    """Each span's kind as a number into ``names`` (the kinds in the order they first
    come): what ``ordered_table`` makes of a list of kinds, from a port that knows it;
    ``metadata``: by kind id, what each span of that kind carries (``kind_metadata``)."""

    names: tuple[str, ...]
    ids: array
    metadata: dict[int, dict] = field(default_factory=dict)


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
    text_starts, text_ends = _column(count), _column(count)
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


def consecutive_runs(numbers: Sequence[int]) -> list[tuple[int, int]]:
    """Ascending ``numbers`` as runs of consecutive ones, each (first, last + 1): the
    chunks searched for a run at a time, from the chunk placed before the run."""
    runs: list[tuple[int, int]] = []
    for number in numbers:
        if runs and runs[-1][1] == number:
            runs[-1] = (runs[-1][0], number + 1)
        else:
            runs.append((number, number + 1))
    return runs


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
