"""The public Python API: run an entry as the original library would, or lay it out."""

from __future__ import annotations

from typing import Any

from chunkview.core import registry
from chunkview.core.document import Document
from chunkview.core.entry import RunContext
from chunkview.core.spans import Layout, layout_for


def _prepare(entry: str, input: Any, options: dict | None, doc: str | None,
             metadata: Any, embedder: str | None, tokenizer: str | None):
    chosen = registry.get(entry)
    if isinstance(input, Document):
        document = input
    elif isinstance(input, str):
        document = Document(text=input, kind=doc or "text")
    else:
        raise TypeError(f"input must be a str or a Document, not {type(input).__name__}")
    ctx = RunContext(metadata=metadata, embedder=embedder, tokenizer=tokenizer)
    return chosen, document, dict(options or {}), ctx


def run(entry: str, input: Any, options: dict | None = None, *, doc: str | None = None,
        metadata: Any = None, embedder: str | None = None,
        tokenizer: str | None = None) -> Any:
    """Run ``entry`` on ``input`` and return the library's native result as JSON data.

    Raises ``chunkview.ChunkerError`` where the library throws; its ``name`` is the JS
    error name and ``message`` the text (``Hang`` where the original never returns).
    """
    chosen, document, opts, ctx = _prepare(entry, input, options, doc, metadata,
                                           embedder, tokenizer)
    return chosen.run(document, opts, ctx)


def spans(entry: str, input: Any, options: dict | None = None, *, doc: str | None = None,
          metadata: Any = None, embedder: str | None = None,
          tokenizer: str | None = None) -> Layout:
    """Run ``entry`` and return the Layout: where each chunk lies, overlaps, gaps, warnings."""
    chosen, document, opts, ctx = _prepare(entry, input, options, doc, metadata,
                                           embedder, tokenizer)
    native = chosen.run(document, opts, ctx)
    return layout_of(chosen, document, native, opts)


def layout_of(chosen: Any, document: Document, native: Any, options: dict) -> Layout:
    return layout_for(chosen, document, native, options)
