"""Ports of agentos ``lexicalTokens`` and ``snippetAround`` (spec/agentos.md §5).

Offsets returned here (``at``) are Python code points into the text as given, so that
the inspector can place them directly; the original counts UTF-16 units, which differ
only for characters outside the BMP.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import regex

from chunkview.core.text.js import W_CLASS, W_RUN_RE

# A word starts with a letter or a digit and goes on with letters, digits and marks.
WORD_RE = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}\p{M}]*")
_W_RE = regex.compile(f"[{W_CLASS}]")
_LAST_W_RE = regex.compile(f"(?r)[{W_CLASS}]")
# read backwards from a position: the letters, digits and marks just before it
_WORD_RUN_BEFORE = regex.compile(r"(?r)[\p{L}\p{N}\p{M}]*")


def fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).lower()


def lexical_tokens(text: str) -> list[str]:
    """Return the words of ``text``, in NFC and lower case, in order (no stemming)."""
    return WORD_RE.findall(fold(text))


@dataclass(frozen=True)
class Snippet:
    """Where the first matching word starts (``at``, -1 when none) and the text around it."""

    at: int
    text: str

    def to_json(self) -> dict[str, object]:
        return {"at": self.at, "text": self.text}


def first_match(text: str, words: Iterable[str], near: int = 0) -> int:
    """Offset of the first word of ``text`` that begins with one of ``words``, or -1.

    ``near``: a caller that knows no such word starts before this offset (the first
    place a query word occurs in the folded text) has the words read from the start of
    the one holding it, not from the start of the text: the same words from there on,
    since a word never begins inside a run of letters, digits and marks."""
    prefixes = tuple(fold(word) for word in words)
    if not prefixes:
        return -1
    near = min(near, len(text))
    start = _WORD_RUN_BEFORE.match(text, 0, near).start() if near > 0 else 0  # type: ignore[union-attr]
    # Word boundaries are found on the raw text so offsets stay in it; NFC composition
    # never turns a letter, digit or mark into a separator, so the words are the same.
    for match in WORD_RE.finditer(text, start):
        if fold(match.group()).startswith(prefixes):
            return match.start()
    return -1


def snippet_around(
    text: str, words: Iterable[str], before: int = 80, after: int = 120, near: int = 0
) -> Snippet:
    """Return the snippet around the first word of ``text`` that begins with one of ``words``.

    The window starts after the last white space at or before ``at - before`` and ends at
    the first white space at or after ``at + after``; white space runs fold to one space.
    With no match the window is taken around offset 0 and ``at`` is -1. ``near``: as
    ``first_match`` takes it.
    """
    at = first_match(text, words, near)
    anchor = max(at, 0)
    start = 0
    if anchor - before > 0:
        space = _LAST_W_RE.search(text, 0, anchor - before + 1)
        start = space.start() + 1 if space else 0
    end = len(text)
    if anchor + after < len(text):
        space = _W_RE.search(text, anchor + after)
        end = space.start() if space else len(text)
    return Snippet(at, W_RUN_RE.sub(" ", text[start:end]).strip(" "))
