"""§6.4's packing with a running token count: it replaces ``reference.create_chunks``
when the counter adds up across a space.

The reference counts the current chunk's text, its sentences joined by " ", again for
every sentence it weighs: quadratic in a chunk's sentences. With a counter for which
count(a + " " + b) = count(a) + count(b) (wordpunct: a token never spans white space,
and the space is no token), the chunk's count is the sum of its sentences' counts, kept
as it grows: the same number, so the same decisions and the same chunks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def create_chunks(
    sentences: list[str],
    sims: Sequence[float] | None,
    threshold: float,
    max_tokens: float,
    count: Callable[[str], int],
) -> list[list[str]]:
    """``reference.create_chunks`` for an additive ``count``: each chunk as its sentences."""
    if not sentences:
        return [[]]
    chunks, current = [], [sentences[0]]
    current_count = count(sentences[0])
    for i in range(1, len(sentences)):
        passes = sims is None or sims[i - 1] >= threshold
        sentence_count = count(sentences[i])
        if passes and current_count + sentence_count <= max_tokens:
            current.append(sentences[i])
            current_count += sentence_count
        else:
            chunks.append(current)
            current, current_count = [sentences[i]], sentence_count
    chunks.append(current)
    return chunks
