"""The compact layout that crosses the process boundary (its spans: ``SpanTable``)."""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from chunkview.core.model.document import Document
from chunkview.core.model.explain import Reason, ReasonColumns
from chunkview.core.model.kinds import SizeUnit
from chunkview.core.model.span_table import SpanTable
from chunkview.core.model.spans import Layout, LayoutDetails, Pairs, SizeStats, Warning


def _ints(values: Iterable[int]) -> array:
    return array("q", values)


def _flat(pairs: Sequence[tuple[int, int]]) -> array:
    if isinstance(pairs, Pairs):
        return pairs.flat
    return _ints(itertools.chain.from_iterable(pairs))


@dataclass
class PackedLayout:
    """A Layout as flat arrays: no per-chunk Python objects cross the pipe.

    Span texts travel only where they are not slices of the shown text (``SpanTable``);
    spans are built on first access.
    """

    shown: Document | None  # None: the document of the request
    spans: SpanTable
    overlaps: array
    gaps: array
    #: the warnings and size statistics (a placeholder when ``complete`` is False)
    details: PackedDetails
    size_unit: SizeUnit
    #: False: the warnings and size statistics come later (``PackedDetails``)
    complete: bool = True

    @classmethod
    def pack(cls, layout: Layout, request_document: Document | None = None) -> PackedLayout:
        shown = layout.document
        same = request_document is not None and (
            shown is request_document or shown == request_document
        )
        return cls(
            shown=None if same else shown,
            spans=SpanTable.from_spans(layout.spans, shown.text),
            overlaps=_flat(layout.overlaps),
            gaps=_flat(layout.gaps),
            details=PackedDetails.pack(layout),
            size_unit=layout.size_unit,
            complete=layout.complete,
        )

    def unpack(self, request_document: Document) -> Layout:
        document = self.shown if self.shown is not None else request_document
        details = self.details.unpack()
        return Layout(
            document=document,
            spans=self.spans.bind(document.text),
            overlaps=Pairs(self.overlaps),
            gaps=Pairs(self.gaps),
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
    reasons: Mapping[int, Reason] = field(default_factory=dict)

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
            # as columns: tens of thousands of Reason objects are slow to unpickle and
            # for the UI thread's collector to walk
            reasons=ReasonColumns(details.reasons)
            if isinstance(details, LayoutDetails) and details.reasons
            else {},
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
