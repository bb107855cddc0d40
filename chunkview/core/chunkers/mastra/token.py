"""js-tiktoken as Mastra's token strategies use it (spec/mastra.md §9.2, §9.3): its
encodings (vendored, so no network), its model map and its special-token rules. The
token strategy's windows are in reference/token.py (§9.1)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from chunkview.core.errors import ChunkerError
from chunkview.core.text.tokens import js_tiktoken_encoding

# js-tiktoken 1.0.21 getEncodingNameForModel (the version @mastra/rag 1.3.6 installs); any
# other model name is "Unknown model", which the library reports as the load error
MODELS = {
    "gpt2": "gpt2",
    "code-cushman-001": "p50k_base",
    "code-cushman-002": "p50k_base",
    "code-davinci-001": "p50k_base",
    "code-davinci-002": "p50k_base",
    "cushman-codex": "p50k_base",
    "davinci-codex": "p50k_base",
    "davinci-002": "p50k_base",
    "text-davinci-002": "p50k_base",
    "text-davinci-003": "p50k_base",
    "code-davinci-edit-001": "p50k_edit",
    "text-davinci-edit-001": "p50k_edit",
    "ada": "r50k_base",
    "babbage": "r50k_base",
    "babbage-002": "r50k_base",
    "code-search-ada-code-001": "r50k_base",
    "code-search-babbage-code-001": "r50k_base",
    "curie": "r50k_base",
    "davinci": "r50k_base",
    "text-ada-001": "r50k_base",
    "text-babbage-001": "r50k_base",
    "text-curie-001": "r50k_base",
    "text-davinci-001": "r50k_base",
    "text-search-ada-doc-001": "r50k_base",
    "text-search-babbage-doc-001": "r50k_base",
    "text-search-curie-doc-001": "r50k_base",
    "text-search-davinci-doc-001": "r50k_base",
    "text-similarity-ada-001": "r50k_base",
    "text-similarity-babbage-001": "r50k_base",
    "text-similarity-curie-001": "r50k_base",
    "text-similarity-davinci-001": "r50k_base",
    "gpt-3.5-turbo-instruct-0914": "cl100k_base",
    "gpt-3.5-turbo-instruct": "cl100k_base",
    "gpt-3.5-turbo-16k-0613": "cl100k_base",
    "gpt-3.5-turbo-16k": "cl100k_base",
    "gpt-3.5-turbo-0613": "cl100k_base",
    "gpt-3.5-turbo-0301": "cl100k_base",
    "gpt-3.5-turbo": "cl100k_base",
    "gpt-4-32k-0613": "cl100k_base",
    "gpt-4-32k-0314": "cl100k_base",
    "gpt-4-32k": "cl100k_base",
    "gpt-4-0613": "cl100k_base",
    "gpt-4-0314": "cl100k_base",
    "gpt-4": "cl100k_base",
    "gpt-3.5-turbo-1106": "cl100k_base",
    "gpt-35-turbo": "cl100k_base",
    "gpt-4-1106-preview": "cl100k_base",
    "gpt-4-vision-preview": "cl100k_base",
    "gpt-3.5-turbo-0125": "cl100k_base",
    "gpt-4-turbo": "cl100k_base",
    "gpt-4-turbo-2024-04-09": "cl100k_base",
    "gpt-4-turbo-preview": "cl100k_base",
    "gpt-4-0125-preview": "cl100k_base",
    "text-embedding-ada-002": "cl100k_base",
    "text-embedding-3-small": "cl100k_base",
    "text-embedding-3-large": "cl100k_base",
    "gpt-4o": "o200k_base",
    "gpt-4o-2024-05-13": "o200k_base",
    "gpt-4o-2024-08-06": "o200k_base",
    "gpt-4o-2024-11-20": "o200k_base",
    "gpt-4o-mini-2024-07-18": "o200k_base",
    "gpt-4o-mini": "o200k_base",
    "gpt-4o-search-preview": "o200k_base",
    "gpt-4o-search-preview-2025-03-11": "o200k_base",
    "gpt-4o-mini-search-preview": "o200k_base",
    "gpt-4o-mini-search-preview-2025-03-11": "o200k_base",
    "gpt-4o-audio-preview": "o200k_base",
    "gpt-4o-audio-preview-2024-12-17": "o200k_base",
    "gpt-4o-audio-preview-2024-10-01": "o200k_base",
    "gpt-4o-mini-audio-preview": "o200k_base",
    "gpt-4o-mini-audio-preview-2024-12-17": "o200k_base",
    "o1": "o200k_base",
    "o1-2024-12-17": "o200k_base",
    "o1-mini": "o200k_base",
    "o1-mini-2024-09-12": "o200k_base",
    "o1-preview": "o200k_base",
    "o1-preview-2024-09-12": "o200k_base",
    "o1-pro": "o200k_base",
    "o1-pro-2025-03-19": "o200k_base",
    "o3": "o200k_base",
    "o3-2025-04-16": "o200k_base",
    "o3-mini": "o200k_base",
    "o3-mini-2025-01-31": "o200k_base",
    "o4-mini": "o200k_base",
    "o4-mini-2025-04-16": "o200k_base",
    "chatgpt-4o-latest": "o200k_base",
    "gpt-4o-realtime": "o200k_base",
    "gpt-4o-realtime-preview-2024-10-01": "o200k_base",
    "gpt-4o-realtime-preview-2024-12-17": "o200k_base",
    "gpt-4o-mini-realtime-preview": "o200k_base",
    "gpt-4o-mini-realtime-preview-2024-12-17": "o200k_base",
    "gpt-4.1": "o200k_base",
    "gpt-4.1-2025-04-14": "o200k_base",
    "gpt-4.1-mini": "o200k_base",
    "gpt-4.1-mini-2025-04-14": "o200k_base",
    "gpt-4.1-nano": "o200k_base",
    "gpt-4.1-nano-2025-04-14": "o200k_base",
    "gpt-4.5-preview": "o200k_base",
    "gpt-4.5-preview-2025-02-27": "o200k_base",
    "gpt-5": "o200k_base",
    "gpt-5-2025-08-07": "o200k_base",
    "gpt-5-nano": "o200k_base",
    "gpt-5-nano-2025-08-07": "o200k_base",
    "gpt-5-mini": "o200k_base",
    "gpt-5-mini-2025-08-07": "o200k_base",
    "gpt-5-chat-latest": "o200k_base",
}
JS_ENCODINGS = ("gpt2", "r50k_base", "p50k_base", "p50k_edit", "cl100k_base", "o200k_base")
LOAD_ERROR = "Could not load tiktoken encoding. Please install it with `npm install js-tiktoken`."


def load_encoding(options: dict[str, Any]):
    """The encoding named by modelName (wins) or encodingName (default cl100k_base)."""
    model = options.get("modelName")
    # JS: modelName ? encodingForModel(modelName) : getEncoding(encodingName)
    name = MODELS.get(model) if model else options.get("encodingName", "cl100k_base")
    if name not in JS_ENCODINGS:
        raise ChunkerError("Error", LOAD_ERROR)
    return js_tiktoken_encoding(name)


def special_sets(encoding, options: dict[str, Any]) -> tuple[frozenset[str], tuple[Any, ...]]:
    """(allowed, disallowed) special tokens from the options (``{"$set": [...]}`` or
    "all"); the disallowed ones in their Set's order, the order its regex tries them."""
    specials = _all_specials(encoding)
    allowed_value = options.get("allowedSpecial")
    if allowed_value == "all":
        allowed = frozenset(specials)
    else:  # a value that is no string never equals a token: it allows nothing
        allowed = frozenset(t for t in _members(allowed_value) if isinstance(t, str))
    disallowed_value = options.get("disallowedSpecial", "all")
    if disallowed_value == "all":
        return allowed, tuple(t for t in specials if t not in allowed)
    return allowed, _members(disallowed_value)


def _members(value: Any) -> tuple[Any, ...]:
    """A Set's members in insertion order, a repeated value once (arrays and objects are
    never the same member)."""
    items = value.get("$set", []) if isinstance(value, dict) else (value or [])
    members, seen = [], set()
    for item in items:
        key = id(item) if isinstance(item, (list, dict)) else (type(item), item)
        if key not in seen:
            seen.add(key)
            members.append(item)
    return tuple(members)


def encode(encoding, text: str, allowed: frozenset[str], disallowed: tuple[Any, ...]) -> list[int]:
    """js-tiktoken's encode: a disallowed special token in the text is an error (the first
    match of the tokens' alternation, so at one place the earlier token wins)."""
    if disallowed:
        found = _disallowed_regex(_all_strings(disallowed)).search(text)
        if found is not None:
            raise ChunkerError(
                "Error", f"The text contains a special token that is not allowed: {found.group()}"
            )
    return encoding.encode(text, allowed_special=allowed, disallowed_special=())


def _all_strings(tokens: tuple[Any, ...]) -> tuple[str, ...]:
    """specialTokenRegex escapes each token with ``str.replace``: a value that is no
    string throws there."""
    for token in tokens:
        if token is None:
            raise ChunkerError("TypeError", "Cannot read properties of null (reading 'replace')")
        if not isinstance(token, str):
            raise ChunkerError("TypeError", "str.replace is not a function")
    return tokens


@lru_cache(maxsize=64)
def _disallowed_regex(tokens: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, tokens)))


def cl100k_js_count(text: str) -> int:
    """``encodingForModel('gpt-4').encode(text).length``: every special token refused."""
    encoding = js_tiktoken_encoding("cl100k_base")
    return len(encode(encoding, text, frozenset(), _all_specials(encoding)))


@lru_cache(maxsize=8)
def _all_specials(encoding) -> tuple[str, ...]:
    return tuple(sorted(encoding.special_tokens_set))
