"""``MDocument.from<Doc>(text, metadata).chunk(options)`` (spec/mastra.md §1 to §3)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from chunkview.core.chunkers.mastra import validate as checks
from chunkview.core.chunkers.mastra.character import character_split
from chunkview.core.chunkers.mastra.recursive import (
    DEFAULT_SEPARATORS,
    LATEX,
    MARKDOWN,
    language_separators,
    recursive_split,
)
from chunkview.core.chunkers.mastra.splitter import Splitter, start_indexes
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import from_units, to_units, truthy
from chunkview.core.text.tokens import cl100k_count, wordpunct_count

STRATEGIES = (
    "character",
    "recursive",
    "sentence",
    "token",
    "markdown",
    "semantic-markdown",
    "html",
    "json",
    "latex",
)
DEFAULT_STRATEGY = {
    "text": "recursive",
    "markdown": "markdown",
    "html": "html",
    "json": "json",
    "latex": "latex",
}
LENGTH_FUNCTIONS: dict[str, Callable[[str], int]] = {
    "utf16": len,
    "utf8": lambda units: len(from_units(units).encode("utf-8", "surrogatepass")),
    "wordpunct": lambda units: wordpunct_count(from_units(units)),
    "cl100k": lambda units: cl100k_count(from_units(units)),
}


def length_function(value: Any) -> Callable[[str], float]:
    """A lengthFunction option: ``{"$fn": name}`` (utf16, utf8, wordpunct, cl100k) or a
    Python callable taking the chunk text."""
    if value is None:
        return len
    if isinstance(value, dict):
        name = value.get("$fn")
        if name not in LENGTH_FUNCTIONS:
            raise ChunkerError(
                "Error", f"unknown lengthFunction {name!r}; one of {', '.join(LENGTH_FUNCTIONS)}"
            )
        return LENGTH_FUNCTIONS[name]
    return lambda units: value(from_units(units))


def splitter_from(options: dict[str, Any], overlap_default: float = 200) -> Splitter:
    """The text-splitter base from the general options (``size`` is ignored)."""
    max_size = options.get("maxSize")
    overlap = options.get("overlap")
    return Splitter(
        max_size=4000 if max_size is None else max_size,
        overlap=overlap_default if overlap is None else overlap,
        length=length_function(options.get("lengthFunction")),
        keep_separator=options.get("keepSeparator", False),
        add_start_index=bool(options.get("addStartIndex", False)),
        strip_whitespace=options.get("stripWhitespace", True) is not False,
    )


def chunk_document(
    text: str,
    doc: str = "text",
    metadata: dict[str, Any] | None = None,
    params: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The chunk nodes, as ``{text, metadata}``, or the library's error."""
    params = dict(params or {})
    strategy = params.pop("strategy", None)
    params.pop("extract", None) if params.get("extract") is None else _refuse_extract()
    strategy = strategy if truthy(strategy) else DEFAULT_STRATEGY.get(doc, "recursive")
    if strategy not in STRATEGIES:
        raise ChunkerError("Error", f"Unknown chunking strategy: {strategy}")
    checks.validate(strategy, params)
    metadata = dict(metadata or {})
    units = to_units(text)
    return _STRATEGY_RUNNERS[strategy](units, params, metadata)


def _refuse_extract() -> None:
    raise ChunkerError(
        "ExtractUnsupported",
        "the extract option runs LLM metadata "
        "extractors (OpenAI gpt-4o by default, with a network and a key); "
        "chunkview does not run them: remove extract to see the chunks",
    )


def _nodes(
    source: str,
    chunks: list[str],
    metadata: dict[str, Any],
    splitter: Splitter,
    overlap: float | None = None,
) -> list[dict[str, Any]]:
    """Chunk nodes with a copy of the document metadata (+ startIndex when asked)."""
    indexes = (
        start_indexes(source, chunks, splitter.overlap if overlap is None else overlap)
        if splitter.add_start_index
        else None
    )
    nodes = []
    for i, chunk in enumerate(chunks):
        meta = copy.deepcopy(metadata)
        if indexes is not None:
            meta["startIndex"] = indexes[i]
        nodes.append({"text": from_units(chunk), "metadata": meta})
    return nodes


def _character(units: str, options: dict[str, Any], metadata: dict[str, Any]):
    splitter = splitter_from(options)
    checks.check_overlap(splitter.max_size, splitter.overlap)
    chunks = character_split(
        units,
        splitter,
        to_units(options.get("separator", "\n\n")),
        bool(options.get("isSeparatorRegex", False)),
    )
    return _nodes(units, chunks, metadata, splitter)


def _recursive_with(separators: list[str], is_regex: bool):
    def run(units: str, options: dict[str, Any], metadata: dict[str, Any]):
        splitter = splitter_from(options)
        checks.check_overlap(splitter.max_size, splitter.overlap)
        return _nodes(
            units, recursive_split(units, separators, is_regex, splitter), metadata, splitter
        )

    return run


def _recursive(units: str, options: dict[str, Any], metadata: dict[str, Any]):
    language = options.get("language")
    if language is not None:
        separators, is_regex = language_separators(language), True
    else:
        separators = [to_units(s) for s in options.get("separators", DEFAULT_SEPARATORS)]
        is_regex = bool(options.get("isSeparatorRegex", False))
    return _recursive_with(separators, is_regex)(units, options, metadata)


def _markdown(units: str, options: dict[str, Any], metadata: dict[str, Any]):
    if "headers" in options:
        from chunkview.core.chunkers.mastra.markdown import markdown_headers

        return markdown_headers(units, options, metadata)
    return _recursive_with(MARKDOWN, True)(units, options, metadata)


def _lazy(module: str, function: str):
    def run(units: str, options: dict[str, Any], metadata: dict[str, Any]):
        import importlib

        return getattr(
            importlib.import_module(f"chunkview.core.chunkers.mastra.{module}"), function
        )(units, options, metadata)

    return run


_STRATEGY_RUNNERS = {
    "character": _character,
    "recursive": _recursive,
    "latex": _recursive_with(LATEX, True),
    "markdown": _markdown,
    "sentence": _lazy("sentence", "sentence_chunks"),
    "token": _lazy("token", "token_chunks"),
    "semantic-markdown": _lazy("semantic_markdown", "semantic_markdown_chunks"),
    "json": _lazy("json_chunker", "json_chunks"),
    "html": _lazy("html", "html_chunks"),
}
