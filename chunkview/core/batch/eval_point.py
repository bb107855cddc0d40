"""One point of an evaluation sweep, run as a pool job: chunk a document with one
setting and score its questions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chunkview.core import registry
from chunkview.core.analysis.eval import Question, evaluate
from chunkview.core.build import chunk_layout
from chunkview.core.chunkers.entry import RunContext


def eval_point(
    entry_id: str,
    document: Any,
    options: Mapping[str, Any],
    questions: Sequence[Question],
    retriever: str | None,
    top_k: int,
    param: str | None = None,
    value: float | None = None,
) -> dict[str, Any]:
    """Chunk ``document`` with ``options`` (``param`` set to ``value`` when given) and
    return the mean figures of ``questions`` with the chunk count (a pool job: it runs in
    a chunking process under the watchdog)."""
    entry = registry.get(entry_id)
    chosen = {k: v for k, v in options.items() if v is not None}
    if param is not None:
        chosen[param] = value
    entry.check_options(chosen)
    _, layout = chunk_layout(entry, document, chosen, RunContext())
    report = evaluate(layout, questions, retriever, top_k)
    return {"value": value, "chunks": report.chunks, **report.means}
