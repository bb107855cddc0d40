"""Markdown structure the warnings need: fenced code blocks and tables (markdown-it-py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt

MAX_PARSED_CHARS = 2_000_000


@dataclass(frozen=True)
class Block:
    kind: str  # "code block" | "table"
    start: int
    end: int


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


@lru_cache(maxsize=4)
def protected_blocks(text: str) -> tuple[Block, ...]:
    """Fenced code blocks and tables in ``text``, as code-point ranges of whole lines."""
    if len(text) > MAX_PARSED_CHARS:
        return ()  # a multi-megabyte parse would cost more than the warning is worth
    if "```" not in text and "~~~" not in text and "|" not in text:
        return ()
    line_starts = [0, *(m.end() for m in re.finditer("\n", text)), len(text)]
    blocks = []
    for token in _parser().parse(text):
        if token.map is None or token.level != 0:
            continue
        if token.type == "fence" or token.type == "table_open":
            first, last = token.map
            start = line_starts[min(first, len(line_starts) - 1)]
            end = line_starts[min(last, len(line_starts) - 1)]
            blocks.append(Block("code block" if token.type == "fence" else "table", start, end))
    return tuple(blocks)
