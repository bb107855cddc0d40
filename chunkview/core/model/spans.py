"""Span and Layout: the one model every view draws from."""

from __future__ import annotations

import statistics
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from chunkview.core.model.document import Document
from chunkview.core.model.explain import SOURCE_KEYS, Reason
from chunkview.core.model.kinds import LOCATED, Located, SizeUnit
from chunkview.core.text.js import utf16_len
from chunkview.core.text.tokens import wordpunct_count

if TYPE_CHECKING:  # entry.py and the checks import this module
    pass

#: how each size unit is measured on a chunk's text
SIZE_FUNCTIONS: dict[SizeUnit, Callable[[str], int]] = {
    "chars": len,
    "units": utf16_len,
    "bytes": lambda text: len(text.encode("utf-8", "surrogatepass")),
    "tokens": lambda text: wordpunct_count(text),
}

__all__ = ["LOCATED", "SIZE_FUNCTIONS", "Layout", "Pairs", "SizeStats", "Span", "Warning"]


@dataclass
class Span:
    """Where one chunk lies in Document.text (code-point offsets, end exclusive).

    ``own_start`` is where the part not repeated from the previous chunk begins, so
    ``start..own_start`` is the overlap prefix. ``located`` says how the chunk was placed:
    ``exact`` (its text is the slice), ``normalized`` (equal but for white space or a
    rewrite), ``missing`` (not found; start == end at the last known place).
    """

    index: int
    start: int
    end: int
    own_start: int
    kind: str
    text: str
    located: Located = "exact"
    metadata: dict[str, Any] = field(default_factory=dict)
    #: the start the library itself reported for the own part, in code points, if any
    reported_start: int | None = None
    #: why the chunk's own part starts here, when the run was asked to explain
    reason: Reason | None = None

    @property
    def size(self) -> int:
        return len(self.text)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "start": self.start,
            "end": self.end,
            "own_start": self.own_start,
            "kind": self.kind,
            "located": self.located,
            "chars": len(self.text),
            "metadata": self.metadata,
            # a port's rule under "reason", what the cut falls on under "cut_falls_on"
            **(
                {SOURCE_KEYS[self.reason.source]: self.reason.to_json()}
                if self.reason is not None
                else {}
            ),
        }


@dataclass(frozen=True)
class Warning:
    """Something a user should look at: what, where (code points) and which chunk."""

    #: text-lost, over-max, under-min, duplicate, bad-offsets, missing, and the kinds of
    #: chunkview.core.checks (stranded-heading, table-cut, block-cut, mid-sentence, ...)
    kind: str
    message: str
    start: int
    end: int
    chunk: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "message": self.message,
            "start": self.start,
            "end": self.end,
            "chunk": self.chunk,
        }


@dataclass(frozen=True)
class SizeStats:
    count: int
    minimum: int
    median: float
    maximum: int

    @classmethod
    def of(cls, sizes: Sequence[int]) -> SizeStats:
        if not sizes:
            return cls(0, 0, 0, 0)
        return cls(len(sizes), min(sizes), statistics.median(sizes), max(sizes))


class Pairs(Sequence[tuple[int, int]]):
    """(start, end) pairs as one flat array of ints: tens of thousands of overlaps cross
    the pipe and are summed without a tuple each."""

    def __init__(self, flat: array) -> None:
        self.flat = flat

    @classmethod
    def of(cls, starts: np.ndarray, ends: np.ndarray) -> Pairs:
        flat = np.empty(2 * len(starts), np.int64)
        flat[0::2], flat[1::2] = starts, ends
        return cls(array("q", flat.tobytes()))

    def __len__(self) -> int:
        return len(self.flat) // 2

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return (self.flat[2 * i], self.flat[2 * i + 1])

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return zip(self.flat[0::2], self.flat[1::2])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Pairs({list(self)!r})"

    def total(self) -> int:
        """The sum of end - start over the pairs."""
        flat = np.frombuffer(self.flat, np.int64) if len(self.flat) else np.zeros(0, np.int64)
        return int(flat[1::2].sum() - flat[0::2].sum())


def _no_column() -> np.ndarray:
    return np.zeros(0, dtype=np.int64)


@dataclass
class Layout:
    """Spans plus what follows from them: overlaps, gaps, warnings and size statistics."""

    document: Document
    spans: Sequence[Span]  # a list, or a SpanTable (each Span built when read)
    overlaps: Sequence[tuple[int, int]]  # a list, or Pairs
    gaps: Sequence[tuple[int, int]]
    warnings: list[Warning]
    chars: SizeStats
    bytes: SizeStats
    size_unit: SizeUnit = "chars"
    #: each located span's size in ``size_unit``, in span order (for histograms)
    sizes: list[int] = field(default_factory=list)
    #: False while the details (warnings, size statistics, sizes) are still to come: the
    #: app paints the spans first and adds those when they arrive (``add_details``)
    complete: bool = field(default=True, compare=False)
    # the spans by start with running maximum ends (columns: a paint searches them, it
    # does not walk them), built on first use by spans_between
    _prepared: bool = field(default=False, init=False, repr=False, compare=False)
    _order: np.ndarray | range = field(default=range(0), init=False, repr=False, compare=False)
    _starts: np.ndarray = field(default_factory=_no_column, init=False, repr=False, compare=False)
    _max_ends: np.ndarray = field(default_factory=_no_column, init=False, repr=False, compare=False)
    _kinds: list[str] | None = field(default=None, init=False, repr=False, compare=False)
    _overlap_chars: int = field(default=0, init=False, repr=False, compare=False)
    _boundary_column: np.ndarray = field(
        default_factory=_no_column, init=False, repr=False, compare=False
    )
    _boundaries: list[int] | None = field(default=None, init=False, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "document": {
                "path": self.document.path,
                "kind": self.document.kind,
                "chars": len(self.document.text),
                "newline": self.document.newline,
            },
            "spans": [s.to_json() for s in self.spans],
            "overlaps": [list(o) for o in self.overlaps],
            "gaps": [list(g) for g in self.gaps],
            "warnings": [w.to_json() for w in self.warnings],
            "stats": {"chars": vars(self.chars), "bytes": vars(self.bytes)},
        }

    def prepare(self) -> Layout:
        """Build the lookup tables the views use (off the UI thread: the worker calls this
        before handing a layout over, so the first paint only searches). Spans that are
        built on demand (a layout from the chunking process) say their columns, so none
        is built here."""
        if not self._prepared:
            columns = getattr(self.spans, "columns", None)
            if columns is not None:
                starts, ends, own_starts, placed, kinds = columns()
            else:
                spans = self.spans
                starts = np.fromiter((s.start for s in spans), np.int64, len(spans))
                ends = np.fromiter((s.end for s in spans), np.int64, len(spans))
                own_starts = np.fromiter((s.own_start for s in spans), np.int64, len(spans))
                placed = np.fromiter((s.located != "missing" for s in spans), bool, len(spans))
                kinds = list(dict.fromkeys(s.kind for s in spans))
            # whole columns at once (tens of thousands of spans)
            placed_starts = own_starts if placed.all() else own_starts[placed]
            if bool((placed_starts[1:] > placed_starts[:-1]).all()):  # the usual order
                self._boundary_column = placed_starts
            else:
                self._boundary_column = np.unique(placed_starts)
            if len(starts) < 2 or bool((starts[1:] >= starts[:-1]).all()):
                self._order = range(len(starts))
            else:
                order = np.argsort(starts, kind="stable")
                starts, ends = starts[order], ends[order]
                self._order = order
            self._starts = starts
            self._max_ends = np.maximum.accumulate(ends)
            self._kinds = kinds
            overlaps = self.overlaps
            self._overlap_chars = (
                overlaps.total()
                if isinstance(overlaps, Pairs)
                else sum(end - start for start, end in overlaps)
            )
            self._prepared = True
        return self

    def located_kinds(self) -> list[str]:
        """The kind of each placed span, in span order (a packed layout's spans say it
        from their columns, building none)."""
        column = getattr(self.spans, "located_kinds", None)
        if column is not None:
            return column()
        return [s.kind for s in self.spans if s.located != "missing"]

    @property
    def kinds(self) -> list[str]:
        """The boundary kinds present, in order of first appearance."""
        return self.prepare()._kinds or []

    @property
    def boundaries(self) -> list[int]:
        """Where the placed chunks' own parts start, sorted, each once (code points): a
        list made on first asking (the overview strip's, after the paint)."""
        if self._boundaries is None:
            self._boundaries = self.prepare()._boundary_column.tolist()
        return self._boundaries

    @property
    def overlap_chars(self) -> int:
        """Characters repeated by overlaps, in total."""
        return self.prepare()._overlap_chars

    def spans_between(self, first: int, last: int) -> list[Span]:
        """The spans meeting ``first..last`` (a span ending at ``first`` does not; an empty
        one at ``first`` does), in start order: a binary search, then a short scan."""
        self.prepare()
        found = []
        i = int(np.searchsorted(self._max_ends, first, side="right"))
        j = int(np.searchsorted(self._starts, last, side="right"))
        order = self._order[i:j]
        for index in order if isinstance(order, range) else order.tolist():
            span = self.spans[index]
            if span.end > first or span.start == span.end == first:
                found.append(span)
        return found

    def span_at(self, position: int) -> Span | None:
        """The last span whose own part contains ``position`` (binary search over starts)."""
        lo, hi = 0, len(self.spans)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.spans[mid].own_start <= position:
                lo = mid + 1
            else:
                hi = mid
        near = self.spans[max(0, lo - 2) : lo + 1]
        # the chunk whose colour is painted there: its own part first, so a point inside
        # an overlap belongs to the chunk it was first part of, not to the one repeating it
        for span in reversed(near):
            if span.own_start <= position < span.end and span.located != "missing":
                return span
        for span in reversed(near):
            if span.start <= position < span.end:
                return span
        return None


def gaps_of(spans: Sequence[Span], length: int) -> Sequence[tuple[int, int]]:
    from_columns = getattr(spans, "gaps", None)  # a SpanTable says them from its columns
    if from_columns is not None:
        return from_columns(length)
    covered = sorted((s.start, s.end) for s in spans if s.located != "missing")
    gaps, cursor = [], 0
    for start, end in covered:
        if start > cursor:
            gaps.append((cursor, start))
        cursor = max(cursor, end)
    if cursor < length:
        gaps.append((cursor, length))
    return gaps


@dataclass(frozen=True)
class LayoutDetails:
    """What a Layout says about its spans beyond where they are: warnings (sorted by
    place) and size statistics."""

    warnings: list[Warning]
    chars: SizeStats
    bytes: SizeStats
    sizes: list[int]
    #: span index -> why its boundary is there, when the run explains and the reasons
    #: were left for later (the recording costs as much as the chunking again)
    reasons: Mapping[int, Reason] = field(default_factory=dict)
