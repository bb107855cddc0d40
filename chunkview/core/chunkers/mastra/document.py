"""``MDocument.from<Doc>(text, metadata).chunk(options)`` (spec/mastra.md §1 to §3).

Every strategy is one function of one signature, ``(units, options, metadata) -> chunk
nodes`` (UTF-16 unit strings in, ``{text, metadata}`` nodes out), in one table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chunkview.core.chunkers.mastra import validate as checks
from chunkview.core.chunkers.mastra.character import character_chunks
from chunkview.core.chunkers.mastra.html import html_chunks
from chunkview.core.chunkers.mastra.json_chunker import js_object, json_chunks
from chunkview.core.chunkers.mastra.markdown import markdown_chunks
from chunkview.core.chunkers.mastra.recursive import latex_chunks, recursive_chunks
from chunkview.core.chunkers.mastra.semantic_markdown import semantic_markdown_chunks
from chunkview.core.chunkers.mastra.sentence import sentence_chunks
from chunkview.core.chunkers.mastra.token import token_chunks
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import js_string, to_units, truthy, unit_view

Strategy = Callable[[str, dict[str, Any], dict[str, Any]], list[dict[str, Any]]]

#: the strategies in the library's order, each with its chunk function
STRATEGY_CHUNKS: dict[str, Strategy] = {
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
STRATEGIES = tuple(STRATEGY_CHUNKS)
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
) -> list[dict[str, Any]]:
    """The chunk nodes, as ``{text, metadata}``, or the library's error."""
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
    return STRATEGY_CHUNKS[strategy](units, params, metadata)


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
