"""The compact layout that crosses the process boundary, and its spans built on demand."""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from chunkview.core.document import Document
from chunkview.core.explain import Reason
from chunkview.core.spans import LOCATED, Layout, LayoutDetails, SizeStats, Span, Warning


def _ints(values: Iterable[int]) -> array:
    return array("q", values)


@dataclass
class PackedLayout:
    """A Layout as flat arrays: no per-chunk Python objects cross the pipe.

    Span texts travel only where they are not slices of the shown text (the span's, or an
    overlap prefix and the own part); spans are rebuilt on first access (``LazySpans``).
    """

    shown: Document | None  # None: the document of the request
    starts: array
    ends: array
    own_starts: array
    indexes: array | None  # None: span i has index i
    kinds: tuple[str, ...]
    kind_ids: array
    located_ids: array
    #: the texts that differ from their slice, joined: span i's is
    #: ``text_blob[text_starts[i]:text_ends[i]]`` when ``text_starts[i] >= 0`` (one
    #: string unpickles as one copy, thousands of them as thousands of objects)
    text_blob: str
    text_starts: array
    text_ends: array
    #: or, where ``head_starts[i] >= 0``, span i's text is two slices of the shown text:
    #: ``head_sizes[i]`` characters from ``head_starts[i]`` (an overlap prefix taken from
    #: before the white space in front of the chunk), then ``own_start..end``
    head_starts: array
    head_sizes: array
    metadata: dict[int, dict]
    reported: dict[int, int]
    overlaps: array
    gaps: array
    #: the warnings and size statistics (a placeholder when ``complete`` is False)
    details: PackedDetails
    size_unit: str
    #: span index -> why its boundary is there (plain named tuples), when asked
    reasons: dict[int, Reason] = field(default_factory=dict)
    #: False: the warnings and size statistics come later (``PackedDetails``)
    complete: bool = True

    @classmethod
    def pack(cls, layout: Layout, request_document: Document | None = None) -> PackedLayout:
        shown = layout.document
        text = shown.text
        spans = layout.spans
        count = len(spans)
        kinds: dict[str, int] = {}
        metadata, reported = {}, {}
        pieces: list[str] = []
        starts, ends, own_starts, kind_ids, located_ids = [], [], [], [], []
        text_starts = array("q", [-1]) * count
        text_ends = array("q", [-1]) * count
        head_starts = array("q", [-1]) * count
        head_sizes = array("q", [0]) * count
        offset = 0
        find_head = text.rfind
        located_id = {name: i for i, name in enumerate(LOCATED)}
        reasons: dict[int, Reason] = {}
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
                # an overlap prefix taken from before the white space that precedes the
                # chunk's own part: two slices of the text, no text sent
                head = len(chunk) - (end - own)
                at = -1
                if 0 <= head and own <= end and chunk.endswith(text[own:end]):
                    at = find_head(chunk[:head], max(0, own - head - 256), own)
                if at >= 0:
                    head_starts[i], head_sizes[i] = at, head
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
        same = request_document is not None and (
            shown is request_document or shown == request_document
        )
        return cls(
            shown=None if same else shown,
            starts=array("q", starts),
            ends=array("q", ends),
            own_starts=array("q", own_starts),
            indexes=None if in_order else _ints(s.index for s in spans),
            kinds=tuple(kinds),
            kind_ids=array("I", kind_ids),
            located_ids=array("B", located_ids),
            text_blob="".join(pieces),
            text_starts=text_starts,
            text_ends=text_ends,
            head_starts=head_starts,
            head_sizes=head_sizes,
            metadata=metadata,
            reported=reported,
            overlaps=_ints(itertools.chain.from_iterable(layout.overlaps)),
            gaps=_ints(itertools.chain.from_iterable(layout.gaps)),
            details=PackedDetails.pack(layout),
            size_unit=layout.size_unit,
            reasons=reasons,
            complete=layout.complete,
        )

    def unpack(self, request_document: Document) -> Layout:
        document = self.shown if self.shown is not None else request_document
        pairs = lambda flat: list(zip(flat[0::2], flat[1::2]))  # noqa: E731
        details = self.details.unpack()
        return Layout(
            document=document,
            spans=LazySpans(self, document.text),  # type: ignore[arg-type]
            overlaps=pairs(self.overlaps),
            gaps=pairs(self.gaps),
            warnings=details.warnings,
            chars=details.chars,
            bytes=details.bytes,
            size_unit=self.size_unit,
            sizes=details.sizes,
            complete=self.complete,
        )


@dataclass
class PackedDetails:
    """A layout's details (``LayoutDetails``: warnings, size statistics) as flat arrays."""

    warning_kinds: tuple[str, ...]
    warning_kind_ids: array
    warning_messages: list[str]
    warning_places: array  # start, end, chunk (-1: none) per warning
    chars: tuple
    bytes: tuple
    sizes: array
    #: span index -> why its boundary is there (reasons sent with the details)
    reasons: dict[int, Reason] = field(default_factory=dict)

    @classmethod
    def pack(cls, details: LayoutDetails | Layout) -> PackedDetails:
        warnings = details.warnings
        kinds: dict[str, int] = {}
        for w in warnings:
            kinds.setdefault(w.kind, len(kinds))
        return cls(
            warning_kinds=tuple(kinds),
            warning_kind_ids=array("I", (kinds[w.kind] for w in warnings)),
            warning_messages=[w.message for w in warnings],
            warning_places=_ints(
                itertools.chain.from_iterable(
                    (w.start, w.end, -1 if w.chunk is None else w.chunk) for w in warnings
                )
            ),
            chars=tuple(vars(details.chars).values()),
            bytes=tuple(vars(details.bytes).values()),
            sizes=_ints(details.sizes),
            reasons=details.reasons if isinstance(details, LayoutDetails) else {},
        )

    def unpack(self) -> LayoutDetails:
        places = self.warning_places
        warnings = [
            Warning(
                self.warning_kinds[kind],
                message,
                places[3 * i],
                places[3 * i + 1],
                None if places[3 * i + 2] < 0 else places[3 * i + 2],
            )
            for i, (kind, message) in enumerate(zip(self.warning_kind_ids, self.warning_messages))
        ]
        return LayoutDetails(
            warnings,
            SizeStats(*self.chars),
            SizeStats(*self.bytes),
            list(self.sizes),
            self.reasons,
        )


class LazySpans(Sequence[Span]):
    """The spans of a PackedLayout, each built the first time it is read."""

    def __init__(self, packed: PackedLayout, text: str) -> None:
        self._packed = packed
        self._text = text
        self._built: list[Span | None] = [None] * len(packed.starts)

    def __len__(self) -> int:
        return len(self._built)

    def columns(self) -> tuple[Sequence[int], Sequence[int], Sequence[int], list[bool], list[str]]:
        """Starts, ends, own starts, placed or not, and the kinds in order of first
        appearance, without building a span (Layout.prepare indexes a layout with these)."""
        p = self._packed
        missing = LOCATED.index("missing")
        placed = (
            [located != missing for located in p.located_ids]
            if missing in p.located_ids
            else [True] * len(p.located_ids)
        )
        kinds = [p.kinds[k] for k in dict.fromkeys(p.kind_ids)]
        return p.starts, p.ends, p.own_starts, placed, kinds

    def set_reasons(self, reasons: dict[int, Reason]) -> None:
        """Give spans their reasons (sent after the layout), built or not."""
        self._packed.reasons.update(reasons)
        for i, reason in reasons.items():
            span = self._built[i]
            if span is not None:
                span.reason = reason

    def located_kinds(self) -> list[str]:
        """The kind of each placed span, in order, without building a span."""
        p = self._packed
        missing, kinds = LOCATED.index("missing"), p.kinds
        return [kinds[k] for k, at in zip(p.kind_ids, p.located_ids) if at != missing]

    def _build(self, i: int) -> Span:
        p = self._packed
        start, end = p.starts[i], p.ends[i]
        at = p.text_starts[i]
        text = None if at < 0 else p.text_blob[at : p.text_ends[i]]
        head = p.head_starts[i]
        if head >= 0:
            text = self._text[head : head + p.head_sizes[i]] + self._text[p.own_starts[i] : end]
        span = Span(
            p.indexes[i] if p.indexes is not None else i,
            start,
            end,
            p.own_starts[i],
            p.kinds[p.kind_ids[i]],
            self._text[start:end] if text is None else text,
            LOCATED[p.located_ids[i]],
            p.metadata.get(i, {}),
            p.reported.get(i),
            p.reasons.get(i),
        )
        self._built[i] = span
        return span

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
        return f"LazySpans({len(self)} spans)"
