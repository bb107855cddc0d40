"""The sentence split of §5.2-§5.4 made fast: it replaces ``reference.split_sentences``.

Each function here stands for one of the reference, and gives what it gives:

- ``split_sentences`` is kept per text (an LRU cache; ``_sentences`` per normalised
  text, so excludeNonLetterSentences and the other options reuse the split): the
  reference is a pure function of its arguments, so a kept answer is its answer. A new
  document lets go of them (``kept.forget``).
- ``html_text`` replaces ``reference.html_text`` up to white space at the ends, which
  §5.3 trims. A text with no "<", "&" or NUL holds no markup, no character reference
  and nothing the parser drops: parsing it gives its text with CR LF and lone CR made
  LF, and without the white space before it (the parser skips that), so that is what
  it returns, unparsed. Else it walks the same tree with ``cheerio_text_into``, which
  is ``reference.cheerio_text`` with a stack of its own instead of recursion (nesting
  has no limit), pushing the same parts in the same order.
- ``uppercase_after_period`` replaces the unit-by-unit ``reference.uppercase_after_period``:
  a unit follows ". " exactly where a match of /\\.\\s+/ that a non-white-space unit
  follows ends. Matches of it do not overlap (each ends before a non-space), and the
  look-behind reads the text as it was, as the matches here do.
- ``last_word`` replaces ``reference.last_word`` (the regex retries every start in a long
  run without white space: quadratic) in linear time, from the end.
"""

from __future__ import annotations

import re
from typing import Any

import regex

from chunkview.core.chunkers.semantic_chunking.html_parser import parse_document
from chunkview.core.chunkers.semantic_chunking.reference import (
    ABBREVIATIONS,
    icu_segments,
    locale_upper,
    normalize,
)
from chunkview.core.text.js import W_CHARS, W_CLASS, from_units, to_units, trim
from chunkview.core.text.kept import memo

_PERIOD_SPACE_RE = re.compile(f"\\.[{W_CLASS}]+(?=[^{W_CLASS}])")
_LAST_W_RE = regex.compile(f"(?r)[{W_CLASS}]")
_LETTER_RE = regex.compile(r"\p{L}")
_NEEDS_HTML_RE = re.compile("[<&\x00]")


# ----- §5.2 HTML to text ------------------------------------------------------------------
def cheerio_text_into(element: Any, out: list[str]) -> None:
    """``reference.cheerio_text(element)``, appended to ``out`` in parts, walking with its
    own stack (a string on the stack is text to add, anything else a node to open)."""
    stack = [element]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        tag = item.tag if isinstance(item.tag, str) else None
        if tag is None:  # a comment or processing instruction: no text
            continue
        if tag == "br":
            out.append("\n")
            continue
        if tag == "li":
            out.append("\n\n- ")
        if item.text:
            out.append(item.text)
        later: list = []
        for child in item:
            around = isinstance(child.tag, str) and child.tag in ("p", "ul", "ol")
            if around:
                later.append("\n\n")
            later.append(child)
            if around:
                later.append("\n\n")
            if child.tail:
                later.append(child.tail)
        stack.extend(reversed(later))


def html_text(text: str) -> str:
    """``reference.html_text(text)``, up to white space at its ends."""
    if not _NEEDS_HTML_RE.search(text):
        return text.replace("\r\n", "\n").replace("\r", "\n")
    root = parse_document(text)
    divs: list[str] = []
    for div in root.iter("div"):
        cheerio_text_into(div, divs)
    if "".join(divs):
        return "".join(divs)
    whole: list[str] = []
    cheerio_text_into(root, whole)
    return "".join(whole)


# ----- §5.4 -------------------------------------------------------------------------------
def uppercase_after_period(normalized: str) -> str:
    """``reference.uppercase_after_period``: the unit after each ". " upper-cased."""
    parts, done = [], 0
    for match in _PERIOD_SPACE_RE.finditer(normalized):
        at = match.end()
        parts += [normalized[done:at], locale_upper(normalized[at])]
        done = at + 1
    if not parts:
        return normalized
    parts.append(normalized[done:])
    return "".join(parts)


def last_word(segment: str) -> str | None:
    """``reference.last_word``: the last run without white space when white space follows
    it to the end, found from the end."""
    end = len(segment.rstrip(W_CHARS))
    if end == 0 or end == len(segment):
        return None
    space = _LAST_W_RE.search(segment, 0, end)
    return segment[space.end() if space else 0 : end]


@memo(16)
def split_sentences(text: str, exclude_non_letter: bool = False) -> list[str]:
    """``reference.split_sentences``, kept for the last texts asked about (the parse is
    the slow part, and a slider moving over one document asks again and again)."""
    normalized = normalize(to_units(html_text(text)))
    if not normalized:
        return []
    return _sentences(normalized, exclude_non_letter)


@memo(64)
def _sentences(normalized: str, exclude_non_letter: bool) -> list[str]:
    """§5.4 steps 1-4 on the normalised text N, as ``reference.rejoin`` and
    ``reference.sentence_parse_output`` do them, with the fast helpers above."""
    upper = uppercase_after_period(normalized)
    pieces, left = [], 0
    for start, end in icu_segments(upper):
        word = last_word(upper[start:end])
        if word and (word.lower() in ABBREVIATIONS or word.endswith(")")):
            continue  # joined to the next segment
        pieces.append(normalized[left:end])
        left = end
    sentences = []
    for piece in pieces:
        if exclude_non_letter and not _LETTER_RE.search(from_units(piece)):
            continue
        sentences.append(from_units(trim(piece)))
    return sentences
