"""The Layout built from placed spans: overlaps, gaps, warnings (lost text, size limits,
the structure checks) and size stats; ``chunk_layout`` runs an entry and builds its Layout.

Above the chunkers and the checks in the layers (docs/architecture.md): it runs both."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chunkview.core.checks import run_checks, settings_for
from chunkview.core.checks.context import CheckSettings
from chunkview.core.chunkers.entry import Entry, RunContext
from chunkview.core.model.document import Document
from chunkview.core.model.kinds import SizeUnit
from chunkview.core.model.spans import (
    SIZE_FUNCTIONS,
    Layout,
    LayoutDetails,
    SizeStats,
    Span,
    Warning,
    gaps_of,
)
from chunkview.core.text.js import is_blank


def build_layout(
    document: Document,
    spans: Sequence[Span],
    limits: Mapping[str, float] | None = None,
    size_unit: SizeUnit = "chars",
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
        gaps=gaps_of(spans, len(document.text)),
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
    size_unit: SizeUnit,
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
