"""The public Python API: run an entry as the original library would, or lay it out."""

from __future__ import annotations

from typing import Any

from chunkview.core import registry
from chunkview.core.build import chunk_layout
from chunkview.core.chunkers.entry import NO_RAW_INPUT, RunContext
from chunkview.core.errors import OptionError
from chunkview.core.model.document import Document
from chunkview.core.model.observer import RunNotes
from chunkview.core.model.spans import Layout
from chunkview.core.runtime.gcpause import paused_gc


def _prepare(
    entry: str,
    input: Any,
    options: dict | None,
    doc: str | None,
    metadata: Any,
    embedder: str | None,
    tokenizer: str | None,
):
    chosen = registry.get(entry)
    raw = NO_RAW_INPUT
    if isinstance(input, Document):
        document = input
    elif isinstance(input, str):
        document, raw = Document(text=input, kind=doc or "text"), input
    else:  # the library's own argument, such as semantic-chunking's documents array
        texts = (
            [d.get("document_text") for d in input if isinstance(d, dict)]
            if isinstance(input, list)
            else []
        )
        document = Document(
            text=texts[0] if len(texts) == 1 and isinstance(texts[0], str) else "",
            kind=doc or "text",
        )
        raw = input
    ctx = RunContext(metadata=metadata, embedder=embedder, tokenizer=tokenizer, raw_input=raw)
    if options is not None and not isinstance(options, dict):
        raise OptionError("options", f"takes an object of options, got {options!r:.40}")
    options = dict(options or {})
    # the panel's and the CLI's check: a value of the wrong type is refused in one line
    chosen.check_options(options)
    return chosen, document, options, ctx


def run(
    entry: str,
    input: Any,
    options: dict | None = None,
    *,
    doc: str | None = None,
    metadata: Any = None,
    embedder: str | None = None,
    tokenizer: str | None = None,
) -> Any:
    """Run ``entry`` on ``input`` and return the library's native result as JSON data.

    ``input`` is the library's first argument: the text for most entries, the documents
    array for semantic-chunking (a string there is the library's own error). A
    ``chunkview.Document`` is always accepted and is wrapped as the entry needs.

    Raises ``chunkview.OptionError`` for an option value of the wrong type (before the
    port runs) and ``chunkview.ChunkerError`` where the library throws; its ``name`` is
    the JS error name and ``message`` the text (``Hang`` where the original never returns).
    This runs in the caller's process; ``chunkview.core.runtime.ChunkService`` runs it in a
    process under a time and memory budget.
    """
    chosen, document, opts, ctx = _prepare(
        entry, input, options, doc, metadata, embedder, tokenizer
    )
    with paused_gc():
        return chosen.run(document, opts, ctx)


def spans(
    entry: str,
    input: Any,
    options: dict | None = None,
    *,
    doc: str | None = None,
    metadata: Any = None,
    embedder: str | None = None,
    tokenizer: str | None = None,
    explain: bool = False,
) -> Layout:
    """Run ``entry`` and return the Layout: where each chunk lies, overlaps, gaps, warnings.

    With ``explain``, each span carries the reason its boundary is where it is
    (``Span.reason``), in the library's terms; the chunks are the same either way."""
    chosen, document, opts, ctx = _prepare(
        entry, input, options, doc, metadata, embedder, tokenizer
    )
    if explain:
        ctx.observer = RunNotes(places=False)
    with paused_gc():
        return chunk_layout(chosen, document, opts, ctx)[1]
