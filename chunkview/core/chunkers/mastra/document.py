"""``MDocument.from<Doc>(text, metadata).chunk(options)`` (spec/mastra.md §1 to §3).

Every strategy is one function of one signature, ``(units, options, metadata, notes) ->
chunk nodes`` (UTF-16 unit strings in, ``{text, metadata}`` nodes out; ``notes`` hears
what it decides, explain.py), written in the reference package and listed in two
tables: as the reference writes it, and with the fast paths where they apply.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from chunkview.core.chunkers.mastra import fast, measured_split
from chunkview.core.chunkers.mastra import validate as checks
from chunkview.core.chunkers.mastra.explain import MastraNotes, notes_for
from chunkview.core.chunkers.mastra.json_values import js_object
from chunkview.core.chunkers.mastra.reference.character import character_chunks
from chunkview.core.chunkers.mastra.reference.html import html_chunks
from chunkview.core.chunkers.mastra.reference.json_chunker import json_chunks
from chunkview.core.chunkers.mastra.reference.markdown import markdown_chunks
from chunkview.core.chunkers.mastra.reference.recursive import latex_chunks, recursive_chunks
from chunkview.core.chunkers.mastra.reference.semantic_markdown import semantic_markdown_chunks
from chunkview.core.chunkers.mastra.reference.sentence import sentence_chunks
from chunkview.core.chunkers.mastra.reference.token import token_chunks
from chunkview.core.errors import ChunkerError
from chunkview.core.model.observer import NOBODY, RunObserver
from chunkview.core.text.js import js_string, to_units, truthy, unit_view

Strategy = Callable[[str, dict[str, Any], dict[str, Any], MastraNotes], list[dict[str, Any]]]

#: the strategies in the library's order, as the reference writes them (the tests' oracle)
REFERENCE_CHUNKS: dict[str, Strategy] = {
    "character": character_chunks,
    "recursive": recursive_chunks,
    "sentence": sentence_chunks,
    "token": token_chunks,
    "markdown": markdown_chunks,
    "semantic-markdown": semantic_markdown_chunks,
    "html": html_chunks,
    "json": json_chunks,
    "latex": latex_chunks,
}
#: the strategies as they run: the reference's, with its steps that have a fast path
#: (measured_split.py, fast.py) taking it
STRATEGY_CHUNKS: dict[str, Strategy] = {
    **REFERENCE_CHUNKS,
    "character": partial(character_chunks, split=fast.character_split, make_nodes=fast.nodes),
    "recursive": partial(recursive_chunks, split=measured_split.split, make_nodes=fast.nodes),
    "sentence": partial(
        sentence_chunks, find=fast.sentences, cut=fast.fallback, make_nodes=fast.nodes
    ),
    "markdown": partial(markdown_chunks, split=measured_split.split, make_nodes=fast.nodes),
    "latex": partial(latex_chunks, split=measured_split.split, make_nodes=fast.nodes),
}
STRATEGIES = tuple(REFERENCE_CHUNKS)
DEFAULT_STRATEGY = {
    "text": "recursive",
    "markdown": "markdown",
    "html": "html",
    "json": "json",
    "latex": "latex",
}


#: the names every JS object inherits from Object.prototype
OBJECT_PROTOTYPE = frozenset(
    "constructor __defineGetter__ __defineSetter__ hasOwnProperty __lookupGetter__ "
    "__lookupSetter__ isPrototypeOf propertyIsEnumerable toString valueOf __proto__ "
    "toLocaleString".split()
)


def chunk_document(
    text: str,
    doc: str = "text",
    metadata: Any = None,
    params: dict[str, Any] | None = None,
    observer: RunObserver = NOBODY,
    reference: bool = False,
) -> list[dict[str, Any]]:
    """The chunk nodes, as ``{text, metadata}``, or the library's error (§1.2). The run
    tells ``observer`` its reasons (explain.py) and, from the measured split, where it
    cut its chunks (places.py). ``reference``: run the reference alone, no fast path."""
    params = dict(params or {})
    strategy = params.pop("strategy", None)
    if truthy(params.pop("extract", None)):  # `if (extract)`: false, 0 or "" run nothing
        _refuse_extract()
    strategy = js_string(strategy) if truthy(strategy) else DEFAULT_STRATEGY.get(doc, "recursive")
    if strategy in OBJECT_PROTOTYPE:  # validationSchemas[strategy] is inherited, no schema
        raise ChunkerError("TypeError", "schema.safeParse is not a function")
    if strategy not in STRATEGIES:
        raise ChunkerError("Error", f"Unknown chunking strategy: {strategy}")
    checks.validate(strategy, params)
    metadata = spread(metadata)
    units = unit_view(text)[0]
    chunks = REFERENCE_CHUNKS if reference else STRATEGY_CHUNKS
    return chunks[strategy](units, params, metadata, notes_for(observer))


def spread(metadata: Any) -> dict[str, Any]:
    """``{...metadata}``, as every strategy copies the document's metadata: an array or a
    string gives its index keys, a number, a boolean or null nothing."""
    if isinstance(metadata, dict):
        return js_object(metadata.items())
    if isinstance(metadata, list):
        return {str(i): value for i, value in enumerate(metadata)}
    if isinstance(metadata, str):
        return {str(i): unit for i, unit in enumerate(to_units(metadata))}
    return {}


def _refuse_extract() -> None:
    raise ChunkerError(
        "ExtractUnsupported",
        "the extract option runs LLM metadata "
        "extractors (OpenAI gpt-4o by default, with a network and a key); "
        "chunkview does not run them: remove extract to see the chunks",
    )
