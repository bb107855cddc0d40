"""Span and Layout: the one model every view draws from."""

from __future__ import annotations

import statistics
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from chunkview.core.document import Document
from chunkview.core.explain import Reason
from chunkview.core.text.js import is_blank, utf16_len
from chunkview.core.text.tokens import wordpunct_count

if TYPE_CHECKING:  # entry.py and the checks import this module
    from chunkview.core.checks import CheckSettings
    from chunkview.core.entry import Entry, RunContext

#: how each size unit is measured on a chunk's text
SIZE_FUNCTIONS: dict[str, Callable[[str], int]] = {
    "chars": len,
    "units": utf16_len,
    "bytes": lambda text: len(text.encode("utf-8", "surrogatepass")),
    "tokens": lambda text: wordpunct_count(text),
}

LOCATED = ("exact", "normalized", "missing")


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
    located: str = "exact"
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
            **({"reason": self.reason.to_json()} if self.reason is not None else {}),
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
    size_unit: str = "chars"
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


def _gaps(spans: Sequence[Span], length: int) -> Sequence[tuple[int, int]]:
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


def build_layout(
    document: Document,
    spans: Sequence[Span],
    limits: Mapping[str, float] | None = None,
    size_unit: str = "chars",
    checks: CheckSettings | None = None,
    details: bool = True,
) -> Layout:
    """Derive overlaps, gaps, warnings and stats from located spans.

    ``limits`` may hold ``max`` and ``min`` (in ``size_unit``) to flag chunks over
    maxSize or under minSize; ``checks`` holds what the structure checks compare against.
    Without ``details`` the layout has only its spans, overlaps and gaps (``complete`` is
    False): ``layout_details`` gives the rest later, ``add_details`` puts it in.
    """
    empty = SizeStats.of([])
    layout = Layout(
        document=document,
        spans=spans,
        overlaps=_overlaps(spans),
        gaps=_gaps(spans, len(document.text)),
        warnings=[],
        chars=empty,
        bytes=empty,
        size_unit=size_unit,
        complete=False,
    )
    if details:
        add_details(layout, layout_details(layout, limits, checks))
    return layout


def layout_details(
    layout: Layout,
    limits: Mapping[str, float] | None = None,
    checks: CheckSettings | None = None,
    check: Callable[[], None] | None = None,
) -> LayoutDetails:
    """The warnings and size statistics of a layout's spans (``check`` is called between
    the steps: a superseded run stops there)."""
    from chunkview.core.checks import run_checks  # the checks import Span and Warning

    document, spans, size_unit = layout.document, layout.spans, layout.size_unit
    limits = limits or {}
    warnings = _lost_text(document.text, layout.gaps)
    size_of = SIZE_FUNCTIONS.get(size_unit, len)
    # each chunk measured once (a token count is not cheap): None for a missing one
    span_sizes = [None if s.located == "missing" else size_of(s.text) for s in spans]
    warnings += _span_warnings(spans, limits, size_unit, span_sizes)
    warnings.extend(run_checks(document, spans, checks, check))
    located = [s for s in spans if s.located != "missing"]
    return LayoutDetails(
        warnings=sorted(warnings, key=lambda w: (w.start, w.end)),
        chars=SizeStats.of([len(s.text) for s in located]),
        bytes=SizeStats.of([len(s.text.encode("utf-8", "surrogatepass")) for s in located]),
        sizes=[size for size in span_sizes if size is not None],
    )


def add_details(layout: Layout, details: LayoutDetails) -> Layout:
    """Put ``details`` into ``layout`` (in place) and mark it complete."""
    layout.warnings = details.warnings
    layout.chars, layout.bytes, layout.sizes = details.chars, details.bytes, details.sizes
    if details.reasons:
        set_reasons = getattr(layout.spans, "set_reasons", None)  # spans built on demand
        if set_reasons is not None:
            set_reasons(details.reasons)
        else:
            for i, reason in details.reasons.items():
                layout.spans[i].reason = reason
    layout.complete = True
    return layout


def _overlaps(spans: Sequence[Span]) -> Sequence[tuple[int, int]]:
    """Where each chunk repeats the end of the one before (start of i .. end of i-1)."""
    from_columns = getattr(spans, "overlaps", None)  # a SpanTable says them from its columns
    if from_columns is not None:
        return from_columns()
    return [
        (cur.start, prev.end)
        for prev, cur in zip(spans, spans[1:])
        if cur.located != "missing" and cur.start < prev.end and cur.start >= prev.start
    ]


def _lost_text(text: str, gaps: Sequence[tuple[int, int]]) -> list[Warning]:
    """A gap that holds more than white space is text no chunk carries."""
    warnings = []
    for start, end in gaps:
        if not is_blank(text[start:end]):
            preview = text[start:end].strip()[:40].replace("\n", " ")
            warnings.append(Warning("text-lost", f"text in no chunk: “{preview}”", start, end))
    return warnings


def _span_warnings(
    spans: Sequence[Span],
    limits: Mapping[str, float],
    size_unit: str,
    sizes: Sequence[int | None] | None = None,
) -> list[Warning]:
    """Per chunk: not found in the text, a repeat of an earlier chunk, over maxSize or
    under minSize (the last chunk may be small), or offsets the library misreports.
    ``sizes``: each span's size in ``size_unit`` when already measured."""
    size_of = SIZE_FUNCTIONS.get(size_unit, len)
    max_size, min_size = limits.get("max"), limits.get("min")
    seen: dict[tuple[int, int, str], int] = {}
    warnings: list[Warning] = []
    span: Span
    i: int

    def warn(kind: str, message: str) -> None:
        warnings.append(Warning(kind, message, span.start, span.end, i))

    for i, span in enumerate(spans):
        if span.located == "missing":
            warn("missing", f"chunk {span.index}: its text is not in the document")
            continue
        key = (span.start, span.end, span.text)
        if key in seen:
            warn("duplicate", f"chunk {span.index} repeats chunk {seen[key]}")
        seen.setdefault(key, span.index)
        if max_size is not None or min_size is not None:
            measured = sizes[i] if sizes is not None else None
            size = measured if measured is not None else size_of(span.text)
            if max_size is not None and size > max_size:
                warn(
                    "over-max",
                    f"chunk {span.index} is {size} {size_unit}, over maxSize {max_size:g}",
                )
            if min_size is not None and size < min_size and i < len(spans) - 1:
                warn(
                    "under-min",
                    f"chunk {span.index} is {size} {size_unit}, under minSize {min_size:g}",
                )
        reported = span.reported_start
        if reported is not None and reported != span.own_start:
            warn(
                "bad-offsets",
                f"chunk {span.index}: the library says it starts at "
                f"{reported}, its text is at {span.own_start}",
            )
    return warnings


def layout_of(
    entry: Entry,
    shown: Document,
    spans: Sequence[Span],
    options: dict[str, Any],
    token_limit: int | None = None,
    tokenizer: str | None = None,
    details: bool = True,
) -> Layout:
    """The Layout of placed spans, with the entry's limits and size unit, and the settings
    of the structure checks (``token_limit`` turns on the embedding-model limit check).
    Without ``details``: spans, overlaps and gaps only (see ``entry_details``)."""
    if not details:
        return build_layout(shown, spans, size_unit=entry.size_unit, details=False)
    from chunkview.core.checks import settings_for

    return build_layout(
        shown,
        spans,
        entry.limits(options),
        size_unit=entry.size_unit,
        checks=settings_for(entry, options, token_limit, tokenizer),
    )


def entry_details(
    entry: Entry,
    layout: Layout,
    options: dict[str, Any],
    check: Callable[[], None] | None = None,
) -> LayoutDetails:
    """The details ``layout_of`` leaves out without ``details``: the same as it gives."""
    from chunkview.core.checks import settings_for

    return layout_details(
        layout, entry.limits(options), settings_for(entry, options, None, None), check
    )


def chunk_layout(
    entry: Entry,
    document: Document,
    options: dict[str, Any],
    ctx: RunContext,
    token_limit: int | None = None,
    limit_tokenizer: str | None = None,
) -> tuple[Any, Layout]:
    """Run ``entry`` and lay out its chunks: the native result and its Layout.
    ``token_limit`` checks the chunks against an embedding model's limit, counted with
    ``limit_tokenizer`` (cl100k unless named; not the tokenizer the chunker uses)."""
    chunking = entry.chunk(document, options, ctx)
    ctx.check()
    layout = layout_of(entry, chunking.shown, chunking.spans, options, token_limit, limit_tokenizer)
    return chunking.native, layout
