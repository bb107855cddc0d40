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

from chunkview.core.model.explain import Reason, ReasonColumns
from chunkview.core.model.spans import LOCATED, Pairs, Span

MISSING, EXACT = LOCATED.index("missing"), LOCATED.index("exact")
NORMALIZED = LOCATED.index("normalized")


def filled_column(count: int, value: int = -1) -> array:
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
        self.text_starts = text_starts if text_starts is not None else filled_column(count)
        self.text_ends = text_ends if text_ends is not None else filled_column(count)
        self.head_starts = head_starts if head_starts is not None else filled_column(count)
        self.head_sizes = head_sizes if head_sizes is not None else filled_column(count, 0)
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
        text_starts, text_ends = filled_column(count), filled_column(count)
        head_starts, head_sizes = filled_column(count), filled_column(count, 0)
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
                setattr(self, name, filled_column(count, nothing))
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
