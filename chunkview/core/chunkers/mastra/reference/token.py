"""token (spec/mastra.md §9.1): windows of maxSize tokens stepping by maxSize - overlap,
with js-tiktoken's encodings and special-token rules (token.py, §9.2, §9.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chunkview.core.chunkers.mastra.token import encode, load_encoding, special_sets
from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import from_units, trim

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes


def token_chunks(
    units: str, options: dict[str, Any], metadata: dict[str, Any], notes: MastraNotes
) -> list[dict[str, Any]]:
    """§9.1: the trimmed text's tokens cut into windows of maxSize tokens, each starting
    ``maxSize - overlap`` after the one before, decoded and trimmed."""
    max_size = options.get("maxSize", 4000)
    overlap = options.get("overlap", 200)
    encoding = load_encoding(options)  # fromTikToken loads it before the constructor checks
    check_overlap(max_size, overlap)
    allowed, disallowed = special_sets(encoding, options)
    ids = encode(encoding, from_units(trim(units)), allowed, disallowed)
    if overlap == max_size and len(ids) > max_size:
        raise ChunkerError(
            "Hang",
            f"overlap {overlap} equals maxSize: the windows never "
            "advance and the original loops forever",
        )
    # the windows as JS steps them: start may be fractional (slice truncates it), and the
    # loop ends when a window reaches the last token
    chunks: list[dict[str, Any]] = []
    start: float = 0
    while start < len(ids):
        end = min(start + max_size, len(ids))
        window = ids[int(start) : int(end)]
        text = encoding.decode_bytes(window).decode("utf-8", "replace")
        notes.token_window(len(chunks), start, max_size, overlap)
        chunks.append({"text": trim(text), "metadata": dict(metadata)})
        if end == len(ids):
            break
        start += max_size - overlap
    return chunks
