"""Tiny tokenizer files written by a test: a Hugging Face tokenizer.json (with the
``tokenizers`` package) and a tiktoken BPE file."""

from __future__ import annotations

import base64
from pathlib import Path

#: the words the tiny tokenizer.json knows; any other word is one [UNK] token
WORDS = ("a", "first", "paragraph", "here", "second", "part", "with", "words", "title")


def write_tokenizer_json(path: Path) -> Path:
    """A word-level tokenizer: one token per word or punctuation mark."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocabulary = {word: i for i, word in enumerate(WORDS)}
    vocabulary["[UNK]"] = len(vocabulary)
    tokenizer = Tokenizer(models.WordLevel(vocabulary, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.save(str(path))
    return path


def write_tiktoken(path: Path, merges: tuple[bytes, ...] = (b"ar", b"ra", b"art")) -> Path:
    """Every byte a token, and a few merges: "part" is "p" + "art", 2 tokens."""
    lines = [f"{base64.b64encode(bytes([i])).decode()} {i}" for i in range(256)]
    lines += [f"{base64.b64encode(m).decode()} {256 + k}" for k, m in enumerate(merges)]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path
