"""Chunks over an embedding model's token limit (the model would silently truncate them)."""

from __future__ import annotations

from collections.abc import Sequence

from chunkview.core.checks.context import CheckInput
from chunkview.core.model.spans import Span, Warning
from chunkview.core.text.tokenizer_files import tokenizer_label
from chunkview.core.text.tokens import count_many

KIND = "over-limit"


def check(given: CheckInput) -> list[Warning]:
    limit = given.settings.token_limit
    if not limit or not given.located:
        return []
    tokenizer = given.settings.tokenizer
    prefix = given.settings.embedded_prefix  # embedded with the chunk: counted with it
    counts = count_many([prefix + s.text for s in given.located], tokenizer)
    return over_limit(given.located, counts, limit, tokenizer)


def over_limit(
    spans: Sequence[Span], counts: Sequence[int], limit: int, tokenizer: str
) -> list[Warning]:
    """Warnings for the spans whose token count (``counts``, in span order) is over
    ``limit`` (the app counts the tokens of every chunk anyway, and passes them);
    ``tokenizer``: a name, or a tokenizer file's path (named by its file name)."""
    over = [(span, n) for span, n in zip(spans, counts) if n > limit]
    return [
        Warning(
            KIND,
            f"chunk {span.index} is {n} {tokenizer_label(tokenizer)} tokens, over the model's "
            f"limit of "
            f"{limit} ({n - limit} cut off; {len(over)} of {len(counts)} chunks over)",
            span.start,
            span.end,
            span.index,
        )
        for span, n in over
    ]
