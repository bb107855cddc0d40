"""Markdown structure the checks need: headings, tables, fenced blocks (markdown-it-py).

Only the block pass runs (inline parsing is off), once per text: every check and every
option change reuses it. It still costs about 0.3 s a megabyte (bench/checks.py), many times
the chunking itself, so texts over MAX_PARSED_CHARS go without the Markdown checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt

# markdown-it normalizes \r\n and a lone \r to \n, so its line numbers count all three
_LINE_END_RE = re.compile(r"\r\n?|\n")


@dataclass(frozen=True)
class Heading:
    start: int
    end: int  # end of the heading's text, before its line break
    level: int
    text: str


@dataclass(frozen=True)
class Table:
    start: int
    end: int  # after the last row's line break
    header_end: int  # after the delimiter row's line break
    rows: int  # body rows
    header: str  # the header row's line, as written


@dataclass(frozen=True)
class Fence:
    start: int
    end: int
    info: str


@dataclass(frozen=True)
class Structure:
    headings: tuple[Heading, ...]
    tables: tuple[Table, ...]
    fences: tuple[Fence, ...]


EMPTY = Structure((), (), ())
#: above this many characters the parse would cost far more than the chunking
MAX_PARSED_CHARS = 2_000_000


#: no heading, table or fence can exist without one of these
_MARKS = ("#", "|", "```", "~~~", "\n=", "\n-", "\r=", "\r-")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table").disable("inline")


def _line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in _LINE_END_RE.finditer(text)), len(text)]


def _line_end(text: str, starts: list[int], line: int) -> int:
    """End of a line's content (before its line break)."""
    end = starts[min(line + 1, len(starts) - 1)]
    while end > starts[line] and text[end - 1] in "\r\n":
        end -= 1
    return end


@lru_cache(maxsize=2)
def structure(text: str) -> Structure:
    """Headings, tables and fenced blocks of ``text``, as code-point ranges of whole lines."""
    if len(text) > MAX_PARSED_CHARS or not any(mark in text for mark in _MARKS):
        return EMPTY
    starts = _line_starts(text)
    last = len(starts) - 1

    def at(line: int) -> int:
        return starts[min(line, last)]

    headings, tables, fences = [], [], []
    tokens = _parser().parse(text)
    for i, token in enumerate(tokens):
        if token.map is None:
            continue
        first, stop = token.map
        if token.type == "heading_open":
            title = tokens[i + 1].content if i + 1 < len(tokens) else ""
            # a setext heading's range takes its underline too
            headings.append(
                Heading(at(first), _line_end(text, starts, stop - 1), int(token.tag[1:]), title)
            )
        elif token.type == "fence":
            fences.append(Fence(at(first), at(stop), token.info.strip()))
        elif token.type == "table_open":
            rows = 0
            for inner in tokens[i + 1 :]:
                if inner.type == "table_close":
                    break
                if inner.type == "tr_open":
                    rows += 1
            header = text[at(first) : _line_end(text, starts, first)]
            tables.append(Table(at(first), at(stop), at(first + 2), max(rows - 1, 0), header))
    return Structure(tuple(headings), tuple(tables), tuple(fences))


def first_ink(text: str, position: int) -> int:
    """The first position at or after ``position`` that is not white space (or len)."""
    match = _INK_RE.search(text, position)
    return match.start() if match else len(text)


_INK_RE = re.compile(r"\S")
