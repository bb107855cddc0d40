"""Port of agentos ``ChunkingEngine.chunk`` (spec/agentos.md §2): fixed, semantic,
hierarchical and layout, with every quirk, in UTF-16 code units.

The algorithm reads as the spec in engine_reference.py (F, the window routine, written
once; the strategies on it); engine_fast.py cuts the same chunks faster, and runs
unless someone wants the reasons (the reference tells them). Where the original loops
forever (§2.2) the port raises ``ChunkerError("Hang")`` with the rule and the place
(engine_hang.py). The entry is in entry.py.
"""

from __future__ import annotations

from typing import Any

from chunkview.core.chunkers.agentos import engine_fast, engine_reference
from chunkview.core.chunkers.agentos.engine_hang import HangRule
from chunkview.core.chunkers.agentos.engine_places import Chunks, EngineRun
from chunkview.core.chunkers.agentos.engine_text import plain_strip
from chunkview.core.chunkers.entry import RunContext, js_literal
from chunkview.core.errors import ChunkerError, OptionError
from chunkview.core.text.js import from_units, option, to_number, unit_view

STRATEGIES = ("fixed", "semantic", "hierarchical", "layout")


def chunking_engine(
    content: str,
    options: dict[str, Any] | None,
    embedder: str | None = None,
    ctx: RunContext | None = None,
    reference: bool | None = None,
) -> list[dict[str, Any]]:
    """``await new ChunkingEngine().chunk(content, options)`` with ``embedFn`` = the named
    embedder (none: 'semantic' runs as 'fixed'). Returns the DocumentChunk list and
    tells ``ctx.observer`` where each chunk starts (``EnginePlaces``) and, when it wants
    them, why. ``reference``: run the reference (True) or the fast path (False); None:
    the reference only for a run whose observer wants the reasons."""
    ctx = ctx or RunContext()
    if options is None:
        raise ChunkerError("TypeError", "Cannot read properties of undefined (reading 'chunkSize')")
    strategy = options.get("strategy")
    if strategy not in STRATEGIES:
        raise ChunkerError("Error", f'ChunkingEngine: unknown strategy "{_shown(options)}"')
    units, surrogates = unit_view(content)
    given = option(options, "chunkSize", 512), option(options, "chunkOverlap", 64)
    try:
        size, overlap = to_number(given[0]), to_number(given[1])
    except TypeError:
        name, value = ("chunkSize", given[0]) if not _is_number(given[0]) else _given_overlap(given)
        raise OptionError(name, f"takes a number, got {js_literal(value)}") from None
    # who listens is read once, here: the reference tells every reason and place; the
    # fast path works out the places only when someone reads them
    observer = ctx.observer
    chunks = Chunks(from_units if surrogates else str, observer.wants_places)
    if strategy != "hierarchical":  # the rest carry no metadata but a layout block's
        chunks.places.block_chunks = {}
    rule = HangRule(given, size, overlap, units)
    run = EngineRun(units, size, overlap, rule, chunks, observer, plain_strip(units))
    run.placing = observer.wants_places
    use_reference = observer.wants_reasons if reference is None else reference
    algorithm = engine_reference if use_reference else engine_fast
    algorithm.run_strategy(run, strategy, embedder, ctx)
    observer.placed(chunks.places)
    return chunks.list


def _shown(options: dict[str, Any]) -> str:
    """``String(options.strategy)`` as node prints it."""
    if "strategy" not in options:
        return "undefined"  # a missing key; a null one is String(null)
    strategy = options["strategy"]
    if strategy is None:
        return "null"
    return str(strategy).lower() if isinstance(strategy, bool) else str(strategy)


def _given_overlap(given: tuple[Any, Any]) -> tuple[str, Any]:
    return "chunkOverlap", given[1]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float))
