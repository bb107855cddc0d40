"""One chunking job, from request to everything the views draw (no Qt here).

``Pipeline`` runs inside a chunking process (core/service/): the app's worker thread and
the CLI send requests there and get the layout back. Results of the last run are reused
when only the search query changed.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from chunkview.core import registry
from chunkview.core.analysis.search import SearchHit, search
from chunkview.core.build import add_details, entry_details, layout_of
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.model.document import Document
from chunkview.core.model.observer import RunNotes
from chunkview.core.model.spans import Layout, LayoutDetails
from chunkview.core.runtime.gcpause import paused_gc
from chunkview.core.text.offsets import EditorOffsets
from chunkview.core.text.tokens import count_many


@dataclass(frozen=True)
class ChunkRequest:
    generation: int
    entry_id: str
    document: Document
    options: dict[str, Any]
    query: str = ""
    embedder: str | None = None
    tokenizer: str | None = None
    metadata: Any = None
    #: record why each boundary is where it is (``Span.reason``)
    explain: bool = False
    #: the entry's code when the request was made (``registry.revision``: a function
    #: file's time and size), so a file saved since is a new chunking key
    revision: Any = None

    def __post_init__(self) -> None:
        if self.revision is None:
            object.__setattr__(self, "revision", registry.revision(self.entry_id))

    def chunking_key(self) -> tuple:
        """What decides the chunks (not the query): a function file saved again is a new
        key, so the window's next run runs the new code."""
        return (
            self.entry_id,
            self.revision,
            self.document.kind,
            self.document.text,
            json.dumps(self.options, sort_keys=True),
            self.embedder,
            self.tokenizer,
            json.dumps(self.metadata, sort_keys=True, default=str),
            self.explain,
        )


@dataclass
class ChunkResult:
    request: ChunkRequest
    native: Any
    layout: Layout
    offsets: EditorOffsets | None
    seconds: float
    hits: list[SearchHit] = field(default_factory=list)
    tokens: list[int] | None = None
    #: when each hop of the run was reached (time.perf_counter, the same clock in every
    #: process of this machine): ``sent``, ``received``, ``chunked``, ``laid_out``,
    #: ``packed``, ``replied``, ``unpacked``, ``prepared``; for the benchmark's breakdown
    stamps: dict[str, float] = field(default_factory=dict)
    #: the request explains, but the run left the reasons to ``Pipeline.details``
    explain_later: bool = False

    @property
    def generation(self) -> int:
        return self.request.generation


class Pipeline:
    """Runs requests; keeps the last result so a query change does not re-chunk."""

    def __init__(self, editor_offsets: bool = True) -> None:
        #: False in a chunking process: the offsets are the editor's, built where it is
        self._with_offsets = editor_offsets
        self._last: ChunkResult | None = None
        self._offsets: tuple[str, EditorOffsets] | None = None
        self._token_cache: dict[str, int] = {}
        #: the tokenizer the cached counts are in
        self._counted_with = "cl100k"

    def run(self, request: ChunkRequest, ctx: RunContext, details: bool = True) -> ChunkResult:
        """The result of ``request``; without ``details`` its layout has the spans, the
        overlaps and the gaps only, and ``details`` gives the rest."""
        began = time.perf_counter()
        last = self._last
        if last is not None and last.request.chunking_key() == request.chunking_key():
            result = ChunkResult(
                request, last.native, last.layout, last.offsets, last.seconds, tokens=last.tokens
            )
            result.explain_later = last.explain_later
        else:
            entry = registry.get(request.entry_id)
            options = {k: v for k, v in request.options.items() if v is not None}
            entry.check_options(options)
            # recording the reasons costs about as much as the chunking: a run that sends
            # its details later records them later too
            explain_later = request.explain and not details
            if request.explain and not ctx.observer.wants_reasons and not explain_later:
                ctx.observer = RunNotes(places=False)
            with paused_gc():
                chunking = entry.chunk(request.document, options, ctx)
                ctx.check()
                chunked = time.perf_counter()
                layout = layout_of(entry, chunking.shown, chunking.spans, options, details=False)
                if details:
                    add_details(layout, entry_details(entry, layout, options))
            ctx.check()
            result = ChunkResult(
                request,
                chunking.native,
                layout,
                self._editor_offsets(layout.document),
                time.perf_counter() - began,
            )
            result.stamps.update(chunked=chunked, laid_out=time.perf_counter())
            result.explain_later = explain_later
        if details and (not result.layout.complete or result.explain_later):
            self.details(result, ctx)  # a reused layout laid out without them
        result.hits = search(result.layout, request.query) if request.query else []
        self._last = result
        return result

    def details(self, result: ChunkResult, ctx: RunContext) -> LayoutDetails:
        """The warnings and size statistics of ``result``'s layout, and the reasons of its
        boundaries when the request explains: added to it (once) and returned."""
        layout, request = result.layout, result.request
        options = {k: v for k, v in request.options.items() if v is not None}
        entry = registry.get(request.entry_id)
        if not layout.complete:
            with paused_gc():
                add_details(layout, entry_details(entry, layout, options, ctx.check))
        if result.explain_later:
            _add_reasons(entry, request, options, layout, ctx)
            result.explain_later = False
        reasons = {}
        if request.explain:
            reasons = {i: s.reason for i, s in enumerate(layout.spans) if s.reason is not None}
        return LayoutDetails(layout.warnings, layout.chars, layout.bytes, layout.sizes, reasons)

    def last_key(self) -> tuple | None:
        """The chunking key of the last result (None before the first)."""
        return None if self._last is None else self._last.request.chunking_key()

    def last_result(self) -> ChunkResult | None:
        return self._last

    def _editor_offsets(self, shown: Document) -> EditorOffsets | None:
        if not self._with_offsets:
            return None
        if self._offsets is None or self._offsets[0] is not shown.text:
            self._offsets = (shown.text, EditorOffsets(shown.text))
        return self._offsets[1]

    def tokens(self, result: ChunkResult, ctx: RunContext, tokenizer: str = "cl100k") -> list[int]:
        """Token counts of every chunk by ``tokenizer`` (cl100k, or a tokenizer file's
        path), cached by chunk text."""
        if tokenizer != self._counted_with:
            self._token_cache.clear()
            self._counted_with = tokenizer
        texts = [s.text for s in result.layout.spans]
        missing = list({t for t in texts if t not in self._token_cache})
        for begin in range(0, len(missing), 2000):
            ctx.check()
            part = missing[begin : begin + 2000]
            self._token_cache.update(zip(part, count_many(part, tokenizer)))
        if len(self._token_cache) > 500_000:
            self._token_cache.clear()
            return self.tokens(result, ctx, tokenizer)
        result.tokens = [self._token_cache[t] for t in texts]
        return result.tokens


def _add_reasons(
    entry: Any, request: ChunkRequest, options: dict[str, Any], layout: Layout, ctx: RunContext
) -> None:
    """Run ``request`` again recording why each boundary is there, and give the reasons to
    ``layout``'s spans (the same run places the same spans; where it does not, none)."""
    again = RunContext(
        metadata=request.metadata,
        embedder=request.embedder,
        tokenizer=request.tokenizer,
        cancel_event=ctx.cancel_event,
        observer=RunNotes(places=False),
    )
    with paused_gc():
        spans = entry.chunk(request.document, options, again).spans
    if len(spans) != len(layout.spans):
        return
    ours = layout.spans
    if all(
        (a.start, a.end, a.own_start) == (b.start, b.end, b.own_start) for a, b in zip(spans, ours)
    ):
        for mine, explained in zip(ours, spans):
            mine.reason = explained.reason
