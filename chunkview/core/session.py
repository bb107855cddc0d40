"""InspectorModel: a session's state and the operations on it, with no Qt.

The document, the chosen entry and its options, the current and pinned layouts, the query,
the selected chunk and the last error live here. Panels observe the model (``subscribe``)
and send it what a user does; the model never chunks itself: ``submit`` hands a
``ChunkRequest`` to its ``runner`` (the app's worker, or a plain function in tests) and
the runner answers with ``accept``, ``fail`` or ``accept_tokens``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Literal, TypeAlias

from chunkview.core import registry
from chunkview.core.analysis.compare import BoundaryComparison, compare_layouts
from chunkview.core.build import add_details
from chunkview.core.chunkers.entry import Entry
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Layout, LayoutDetails, SizeStats
from chunkview.core.runtime.limits import StopReason
from chunkview.core.runtime.pipeline import ChunkRequest, ChunkResult
from chunkview.core.views.decorations import matching_words

#: where layout B comes from: a kept layout A (``pinned``) or a second configuration run
#: on the same text (``config``)
BSource: TypeAlias = Literal["pinned", "config"]


class ModelEvent(Enum):
    """What a model tells its observers; the comment says what each event carries."""

    DOCUMENT = "document"  # the document was replaced (not edited)
    MODIFIED = "modified"  # the modified flag changed: (modified,)
    ENTRY = "entry"  # another entry was chosen: (entry,)
    STALE = "stale"  # something that decides the chunks changed: a run is due
    QUERY = "query"  # (query,)
    RUNNING = "running"  # (running,)
    RESULT = "result"  # a newer result is shown: (result,)
    DETAILS = "details"  # the shown layout's warnings and size statistics arrived: (result,)
    TOKENS = "tokens"  # token counts arrived for the shown result: (tokens,)
    FAILED = "failed"  # the newest run failed: (failure,)
    PINNED = "pinned"  # layout B (pinned, or the second configuration's) changed: (result or None,)
    COMPARE_CONFIG = "compare-config"  # the second configuration changed: a B run is due
    SELECTION = "selection"  # (chunk index or None,)


@dataclass(frozen=True)
class Failure:
    """Why the newest run gave no layout, in the library's words."""

    generation: int
    entry_id: str
    name: str  # the JS error name, OptionError, or Hang
    message: str
    position: int | None = None  # where in the document, when known
    #: the last good layout is still shown (False: it was of another document, so the
    #: views show none rather than another text's chunks)
    kept_layout: bool = True
    #: the full traceback of an exception in a user's own chunker, shown on request
    traceback: str | None = None
    #: why the watchdog stopped the run (past its time or memory budget, or its process
    #: died); None: the chunker itself failed
    stop: StopReason | None = None


@dataclass(frozen=True)
class Comparison:
    """The shown layout (A) against layout B: pinned, or a second configuration's."""

    pinned: ChunkResult  # B
    current: ChunkResult  # A
    same_text: bool
    diff: BoundaryComparison


#: what "next / previous" can step through; each gives sorted code points of the shown text
NAVIGATION_KINDS = ("chunk", "warning", "hit", "difference")


def _no_chunks(request: ChunkRequest) -> ChunkResult:
    """A result with no chunks for ``request``'s document (its run failed)."""
    empty = SizeStats.of([])
    layout = Layout(request.document, [], [], [], [], empty, empty).prepare()
    return ChunkResult(request, None, layout, None, 0.0)


def boundaries(result: ChunkResult) -> list[int]:
    """Where each placed chunk's own text starts (code points), in order."""
    return [s.own_start for s in result.layout.spans if s.located != "missing"]


class InspectorModel:
    def __init__(
        self, runner: Callable[[ChunkRequest], None] | None = None, search_in_runner: bool = True
    ) -> None:
        self.runner = runner
        #: False when the caller searches the shown layout itself (the app, in slices):
        #: a query change then needs no run, and requests carry no query
        self.search_in_runner = search_in_runner
        #: where the current text comes from after edits (the app's editor); None: as set
        self.text_source: Callable[[], str] | None = None
        self.document = Document("")
        self.modified = False
        self.entry_id = ""
        self.options_by_entry: dict[str, dict[str, Any]] = {}
        self.embedder: str | None = "hash64"
        self.tokenizer: str | None = "wordpunct"
        #: what the chunks' tokens are counted by (the token column, the statistics, the
        #: over-limit check): cl100k, or a user's tokenizer file's path
        self.token_counter = "cl100k"
        self.query = ""
        self.generation = 0
        self.shown_generation = -1
        self.result: ChunkResult | None = None
        self.pinned: ChunkResult | None = None  # layout B
        #: where B comes from: a kept layout A, or b_entry_id with b_options
        self.b_source: BSource = "pinned"
        self.b_entry_id = ""
        self.b_options: dict[str, Any] = {}
        self.b_generation = 0
        self._comparison: tuple[Any, Any, Comparison] | None = None
        self._hit_cache: tuple[Any, str, list[int]] | None = None
        #: extra kinds of places to step through (a panel may add its own)
        self.navigation_targets: dict[str, Callable[[], list[int]]] = {}
        self.selected: int | None = None
        self.failure: Failure | None = None
        self.running = False
        #: the newest request sent, and the generation before the document was last replaced
        self._submitted: ChunkRequest | None = None
        self._replaced_after = 0
        #: runs record why each boundary is where it is (hover, step-through, legend)
        self.explain = True
        self._text_dirty = False
        self._observers: dict[ModelEvent, list[Callable[..., None]]] = {e: [] for e in ModelEvent}

    # ----- observing ----------------------------------------------------------------
    def subscribe(self, event: ModelEvent, callback: Callable[..., None]) -> None:
        self._observers[event].append(callback)

    def _emit(self, event: ModelEvent, *args: Any) -> None:
        for callback in self._observers[event]:
            callback(*args)

    # ----- the document ---------------------------------------------------------------
    def set_document(self, document: Document) -> None:
        """Show a new document (opened, a sample, or reloaded): not an edit."""
        self.document = document
        self._text_dirty = False
        self._replaced_after = self.generation
        self._set_modified(False)
        selected, self.selected = self.selected, None
        self._emit(ModelEvent.DOCUMENT)
        self._emit(ModelEvent.STALE)
        if selected is not None:  # the views showing it let go of it too
            self._emit(ModelEvent.SELECTION, None)

    def text_edited(self) -> None:
        """The user edited the text; it is read from ``text_source`` when next needed, so a
        keystroke costs nothing here."""
        self._text_dirty = True
        self._set_modified(True)
        self._emit(ModelEvent.STALE)

    def set_text(self, text: str) -> None:
        """An edit given as the whole new text (for callers without a text source)."""
        self.document = replace(self.document, text=text)
        self._set_modified(True)
        self._emit(ModelEvent.STALE)

    def sync_text(self) -> Document:
        """The document with the latest edits in it."""
        if self._text_dirty and self.text_source is not None:
            self._text_dirty = False
            self.document = replace(self.document, text=self.text_source())
        return self.document

    def set_kind(self, kind: str) -> None:
        self.document = replace(self.sync_text(), kind=kind)
        self._emit(ModelEvent.STALE)

    def saved(self, path: str) -> None:
        """The document was written to ``path``."""
        self.document = replace(self.document, path=path)
        self._set_modified(False)

    def _set_modified(self, modified: bool) -> None:
        if modified != self.modified:
            self.modified = modified
            self._emit(ModelEvent.MODIFIED, modified)

    # ----- entry and options ----------------------------------------------------------
    @property
    def entry(self) -> Entry:
        return registry.get(self.entry_id)

    def select_entry(self, entry_id: str, options: dict[str, Any] | None = None) -> None:
        entry = registry.get(entry_id)  # KeyError for an unknown id, before any change
        if options is not None:
            self.options_by_entry[entry_id] = dict(options)
        self.entry_id = entry_id
        self._emit(ModelEvent.ENTRY, entry)
        self._emit(ModelEvent.STALE)

    @property
    def options(self) -> dict[str, Any]:
        """The chosen entry's options as last set (the panel's values)."""
        return dict(self.options_by_entry.get(self.entry_id, {}))

    def set_options(self, options: dict[str, Any]) -> None:
        self.options_by_entry[self.entry_id] = dict(options)
        self._emit(ModelEvent.STALE)

    def set_embedder(self, name: str | None) -> None:
        self.embedder = name
        self._emit(ModelEvent.STALE)

    def set_tokenizer(self, name: str | None) -> None:
        self.tokenizer = name
        self._emit(ModelEvent.STALE)

    def set_query(self, query: str) -> None:
        self.query = query
        self._emit(ModelEvent.QUERY, query)
        if self.search_in_runner:
            self._emit(ModelEvent.STALE)  # hits come with the result (the chunks are reused)

    def limits(self, result: ChunkResult | None = None) -> dict[str, float]:
        """The size lines of a result (default: the shown one): target, max, min."""
        result = result or self.result
        if result is None:
            return {}
        return registry.get(result.request.entry_id).limits(result.request.options)

    # ----- running ----------------------------------------------------------------------
    def request(self) -> ChunkRequest | None:
        """A request for the current state, with the next generation number."""
        if not self.entry_id:
            return None
        entry = self.entry
        self.generation += 1
        return ChunkRequest(
            self.generation,
            self.entry_id,
            self.sync_text(),
            self.options,
            query=self.query if self.search_in_runner else "",
            embedder=self.embedder if entry.uses_embedder else None,
            tokenizer=self.tokenizer if entry.uses_tokenizer else None,
            explain=self.explain,
        )

    def submit(self) -> ChunkRequest | None:
        """Send a request for the current state to the runner."""
        request = self.request()
        if request is None or self.runner is None:
            return request
        self._set_running(True)
        self._submitted = request
        self.runner(request)
        return request

    def accept(self, result: ChunkResult) -> bool:
        """Show ``result`` unless a newer one is shown already; True when shown."""
        if result.generation < self.shown_generation:
            return False  # an older job finishing late never replaces a newer view
        self.shown_generation = result.generation
        if result.generation == self.generation:
            self._set_running(False)
        self.failure = None
        self.result = result
        if self.selected is not None and self.selected >= len(result.layout.spans):
            self.selected = None
        self._emit(ModelEvent.RESULT, result)
        return True

    def accept_details(self, generation: int, details: LayoutDetails) -> None:
        """The warnings and size statistics of the shown layout, sent after it."""
        result = self.result
        if result is None or generation != result.generation or result.layout.complete:
            return
        add_details(result.layout, details)
        self._emit(ModelEvent.DETAILS, result)

    @property
    def details_pending(self) -> bool:
        """True while the shown layout waits for its warnings and size statistics."""
        return self.result is not None and not self.result.layout.complete

    def set_token_counter(self, tokenizer: str) -> None:
        """Count the chunks' tokens by ``tokenizer`` (cl100k, or a tokenizer file's
        path): the shown result's counts are dropped until they come again."""
        self.token_counter = tokenizer
        if self.result is not None:
            self.result.tokens = None
        self._emit(ModelEvent.TOKENS, None)

    def accept_tokens(self, generation: int, tokens: list[int]) -> None:
        if self.result is None or generation != self.result.generation:
            return
        self.result.tokens = tokens
        self._emit(ModelEvent.TOKENS, tokens)

    def fail(
        self,
        generation: int,
        name: str,
        message: str,
        position: int | None = None,
        traceback: str | None = None,
        stop: StopReason | None = None,
    ) -> None:
        """The run of ``generation`` failed; only the newest run's failure is shown, and
        the last good layout stays."""
        if generation != self.generation:
            return
        kept = self.result is None or self.result.generation > self._replaced_after
        request = self._submitted
        if not kept and request is not None and request.generation == generation:
            # the last good layout is of another document: show this one with no chunks
            self.accept(_no_chunks(request))
        self.shown_generation = generation
        self._set_running(False)
        self.failure = Failure(
            generation, self.entry_id, name, message, position, kept, traceback, stop
        )
        self._emit(ModelEvent.FAILED, self.failure)

    def _set_running(self, running: bool) -> None:
        if running != self.running:
            self.running = running
            self._emit(ModelEvent.RUNNING, running)

    # ----- compare: A is the shown layout, B the pinned one or a second configuration --
    def pin(self, pinned: bool = True) -> None:
        """Keep the shown layout as B to compare the next ones with (or drop B)."""
        self.b_source = "pinned"
        self.pinned = self.result if pinned else None
        self._emit(ModelEvent.PINNED, self.pinned)

    def set_b_config(self, entry_id: str, options: dict[str, Any]) -> None:
        """Compare with a second configuration: B is ``entry_id`` with ``options`` on the
        same document, run whenever it or the document changes (``request_b``)."""
        registry.get(entry_id)
        self.b_source = "config"
        self.b_entry_id, self.b_options = entry_id, dict(options)
        self._emit(ModelEvent.COMPARE_CONFIG)

    def request_b(self) -> ChunkRequest | None:
        """A request for layout B on the current text (configuration mode only)."""
        if self.b_source != "config" or not self.b_entry_id:
            return None
        entry = registry.get(self.b_entry_id)
        self.b_generation += 1
        return ChunkRequest(
            self.b_generation,
            self.b_entry_id,
            self.sync_text(),
            dict(self.b_options),
            embedder=self.embedder if entry.uses_embedder else None,
            tokenizer=self.tokenizer if entry.uses_tokenizer else None,
        )

    def accept_b(self, result: ChunkResult) -> bool:
        """Show ``result`` as B unless it is older than the newest B request."""
        if self.b_source != "config" or result.generation != self.b_generation:
            return False
        self.pinned = result
        self._emit(ModelEvent.PINNED, result)
        return True

    def stop_comparing(self) -> None:
        self.b_source = "pinned"
        self.pin(False)

    def comparison(self) -> Comparison | None:
        if self.pinned is None or self.result is None:
            return None
        cached = self._comparison
        if cached is not None and cached[0] is self.pinned and cached[1] is self.result:
            return cached[2]
        same = self.pinned.layout.document.text == self.result.layout.document.text
        diff = compare_layouts(self.result.layout, self.pinned.layout)
        comparison = Comparison(self.pinned, self.result, same, diff)
        self._comparison = (self.pinned, self.result, comparison)
        return comparison

    # ----- navigation -----------------------------------------------------------------
    def targets(self, kind: str) -> list[int]:
        """Sorted places (code points) of ``kind`` in the shown layout: chunk starts,
        warnings, search hits (every matching word), differences from B, or any kind a
        panel added to ``navigation_targets``."""
        if kind in self.navigation_targets:
            return self.navigation_targets[kind]()
        result = self.result
        if result is None:
            return []
        layout = result.layout
        if kind == "chunk":
            return layout.boundaries  # found off the UI thread (Layout.prepare)
        if kind == "warning":
            return sorted({w.start for w in layout.warnings})
        if kind == "hit":
            query = self.query
            cached = self._hit_cache
            if cached is None or cached[0] is not layout or cached[1] != query:
                words = matching_words(layout.document.text, query) if query.strip() else []
                cached = self._hit_cache = (layout, query, [a for a, _b in words])
            return cached[2]
        if kind == "difference":
            comparison = self.comparison()
            return comparison.diff.differences() if comparison and comparison.same_text else []
        raise KeyError(f"unknown kind of place: {kind}")

    def step(self, kind: str, point: int, forward: bool = True) -> int | None:
        """The next (or previous) place of ``kind`` after (before) ``point``, wrapping
        round at the ends; None when there is none. Stepping through chunks selects."""
        places = self.targets(kind)
        if not places:
            return None
        if forward:
            i = bisect.bisect_right(places, point)
            found = places[i % len(places)]
        else:
            i = bisect.bisect_left(places, point) - 1
            found = places[i]  # -1 wraps to the last
        if kind == "chunk":
            self.select_chunk(self.chunk_at(found))
        return found

    def select_chunk(self, index: int | None) -> None:
        if self.result is None or index is None or not 0 <= index < len(self.result.layout.spans):
            index = None
        self.selected = index
        self._emit(ModelEvent.SELECTION, index)

    def chunk_at(self, point: int) -> int | None:
        """The chunk whose own part holds ``point`` (code points) in the shown layout."""
        if self.result is None:
            return None
        span = self.result.layout.span_at(point)
        return None if span is None else span.index
