"""token (spec/mastra.md §9): windows of maxSize tokens stepping by maxSize - overlap,
with js-tiktoken's encodings (vendored, so no network) and its special-token rules."""

from __future__ import annotations

from typing import Any

from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import from_units, trim
from chunkview.core.text.tokens import js_tiktoken_encoding

_P50K = [
    "text-davinci-002",
    "text-davinci-003",
    "davinci-002",
    "code-davinci-001",
    "code-davinci-002",
    "code-cushman-001",
    "code-cushman-002",
    "cushman-codex",
    "davinci-codex",
]
_R50K = [
    "ada",
    "babbage",
    "curie",
    "davinci",
    "babbage-002",
    "text-ada-001",
    "text-babbage-001",
    "text-curie-001",
    "text-davinci-001",
    "text-similarity-ada-001",
    "text-similarity-babbage-001",
    "text-similarity-curie-001",
    "text-similarity-davinci-001",
    "text-search-ada-doc-001",
    "text-search-ada-query-001",
    "text-search-babbage-doc-001",
    "text-search-babbage-query-001",
    "text-search-curie-doc-001",
    "text-search-curie-query-001",
    "text-search-davinci-doc-001",
    "text-search-davinci-query-001",
    "code-search-ada-code-001",
    "code-search-ada-text-001",
    "code-search-babbage-code-001",
    "code-search-babbage-text-001",
]
_CL100K = [
    "gpt-3.5-turbo",
    "gpt-3.5-turbo-0301",
    "gpt-3.5-turbo-0613",
    "gpt-3.5-turbo-1106",
    "gpt-3.5-turbo-0125",
    "gpt-3.5-turbo-16k",
    "gpt-3.5-turbo-16k-0613",
    "gpt-3.5-turbo-instruct",
    "gpt-3.5-turbo-instruct-0914",
    "gpt-35-turbo",
    "gpt-4",
    "gpt-4-0314",
    "gpt-4-0613",
    "gpt-4-32k",
    "gpt-4-32k-0314",
    "gpt-4-32k-0613",
    "gpt-4-turbo",
    "gpt-4-turbo-2024-04-09",
    "gpt-4-turbo-preview",
    "gpt-4-1106-preview",
    "gpt-4-0125-preview",
    "gpt-4-vision-preview",
    "text-embedding-ada-002",
    "text-embedding-3-small",
    "text-embedding-3-large",
]
_O200K = [
    "gpt-4o",
    "gpt-4o-2024-05-13",
    "gpt-4o-2024-08-06",
    "gpt-4o-2024-11-20",
    "gpt-4o-mini",
    "gpt-4o-mini-2024-07-18",
    "gpt-4o-realtime-preview",
    "gpt-4o-audio-preview",
    "gpt-4o-search-preview",
    "gpt-4o-mini-search-preview",
    "gpt-4.1",
    "gpt-4.1-mini",
    "gpt-4.1-nano",
    "gpt-4.5-preview",
    "gpt-5",
    "gpt-5-mini",
    "gpt-5-nano",
    "o1",
    "o1-mini",
    "o1-preview",
    "o3",
    "o3-mini",
    "o4-mini",
    "chatgpt-4o-latest",
]
MODELS = {
    "gpt2": "gpt2",
    "text-davinci-edit-001": "p50k_edit",
    "code-davinci-edit-001": "p50k_edit",
    **dict.fromkeys(_P50K, "p50k_base"),
    **dict.fromkeys(_R50K, "r50k_base"),
    **dict.fromkeys(_CL100K, "cl100k_base"),
    **dict.fromkeys(_O200K, "o200k_base"),
}
JS_ENCODINGS = ("gpt2", "r50k_base", "p50k_base", "p50k_edit", "cl100k_base", "o200k_base")
LOAD_ERROR = "Could not load tiktoken encoding. Please install it with `npm install js-tiktoken`."


def load_encoding(options: dict[str, Any]):
    """The encoding named by modelName (wins) or encodingName (default cl100k_base)."""
    model = options.get("modelName")
    name = MODELS.get(model) if model is not None else options.get("encodingName", "cl100k_base")
    if name not in JS_ENCODINGS:
        raise ChunkerError("Error", LOAD_ERROR)
    return js_tiktoken_encoding(name)


def special_sets(encoding, options: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(allowed, disallowed) special tokens from the options (``{"$set": [...]}`` or "all")."""
    specials = set(encoding.special_tokens_set)

    def as_set(value: Any, default: Any) -> set[str]:
        value = default if value is None else value
        if value == "all":
            return set(specials)
        return set(value.get("$set", [])) if isinstance(value, dict) else set(value)

    allowed = as_set(options.get("allowedSpecial"), {"$set": []})
    if options.get("disallowedSpecial", "all") == "all":
        disallowed = specials - allowed
    else:
        disallowed = as_set(options.get("disallowedSpecial"), {"$set": []})
    return allowed, disallowed


def encode(encoding, text: str, allowed: set[str], disallowed: set[str]) -> list[int]:
    """js-tiktoken's encode: a disallowed special token in the text is an error."""
    first = None
    for token in disallowed:
        at = text.find(token)
        if at >= 0 and (first is None or at < first[0]):
            first = (at, token)
    if first is not None:
        raise ChunkerError(
            "Error", f"The text contains a special token that is not allowed: {first[1]}"
        )
    return encoding.encode(text, allowed_special=allowed, disallowed_special=())


def token_chunks(units: str, options: dict[str, Any], metadata: dict[str, Any]):
    max_size = options.get("maxSize", 4000)
    overlap = options.get("overlap", 200)
    check_overlap(max_size, overlap)
    encoding = load_encoding(options)
    allowed, disallowed = special_sets(encoding, options)
    ids = encode(encoding, from_units(trim(units)), allowed, disallowed)
    if overlap == max_size and len(ids) > max_size:
        raise ChunkerError(
            "Hang",
            f"overlap {overlap} equals maxSize: the windows never "
            "advance and the original loops forever",
        )
    chunks = []
    start, step = 0, int(max_size - overlap)
    while start < len(ids):
        window = ids[start : min(start + int(max_size), len(ids))]
        text = encoding.decode_bytes(window).decode("utf-8", "replace")
        chunks.append({"text": trim(text), "metadata": dict(metadata)})
        if start + int(max_size) >= len(ids):
            break
        start += step
    return chunks
