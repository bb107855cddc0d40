"""What the Search tab shows of a hit's chunk: a window of whole words around the hit,
"…" where the chunk goes on, and the query's words marked as the editor marks them.

The hit list formats a row only when it is painted, so a window costs its own width,
never the chunk's or the document's: a 10 MB document with thousands of hits lists as
fast as a short one. The marks are ``decorations.matching_words`` over the window (the
editor's hit highlights), so the list and the editor never disagree on a word.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from chunkview.core.views.decorations import matching_words

#: what a cut-off side of a snippet shows
ELLIPSIS = "…"
#: a word's letters, digits and marks (``lexical.WORD_RE``'s), what a cut may not split
_WORD_CHAR = regex.compile(r"[\p{L}\p{N}\p{M}]")
_SPACE = regex.compile(r"\s")
_SPACE_RUN = regex.compile(r"\s+")
_LAST_SPACE_RUN = regex.compile(r"(?r)\s+")
#: how far past a window's edge a cut looks for white space before it settles for any
#: place between words (text without spaces: CJK, a long URL)
_REACH = 24


@dataclass(frozen=True)
class SnippetPart:
    text: str
    hit: bool  # a query word, marked


@dataclass(frozen=True)
class HitSnippet:
    """The text shown for one hit, in parts; ``start``..``end`` is the window in the
    document (code points), white space runs shown as one space."""

    parts: tuple[SnippetPart, ...]
    start: int
    end: int

    @property
    def text(self) -> str:
        return "".join(part.text for part in self.parts)

    def hit_words(self) -> list[str]:
        return [part.text for part in self.parts if part.hit]


def _in_word(text: str, at: int) -> bool:
    """True when ``at`` falls between two characters of one word."""
    return 0 < at < len(text) and bool(
        _WORD_CHAR.match(text, at - 1) and _WORD_CHAR.match(text, at)
    )


def _mid_token(text: str, at: int) -> bool:
    """True when ``at`` falls between two characters that are not white space: a chunk
    whose overlap began inside a word or a URL (``/redis/node-redis``) starts there."""
    return 0 < at < len(text) and not (_SPACE.match(text, at - 1) or _SPACE.match(text, at))


def _cut_forward(text: str, at: int, limit: int) -> int:
    """The first place at or after ``at`` (at most ``limit``) where a line may start:
    after white space near ``at``, else at the next word after the one ``at`` is in."""
    if at == 0 or _SPACE.match(text, at - 1):
        return at
    space = _SPACE_RUN.search(text, at, min(limit, at + _REACH))
    if space is not None:
        return min(space.end(), limit)
    while at < limit and _in_word(text, at):
        at += 1
    # and past the punctuation after it: "…npm/dm", not "….io/npm"
    while at < limit and not _WORD_CHAR.match(text, at) and not _SPACE.match(text, at):
        at += 1
    return at


def _cut_backward(text: str, at: int, limit: int) -> int:
    """The last place at or before ``at`` (at least ``limit``) where a line may end:
    before white space near ``at``, else at the start of the word ``at`` falls in."""
    if at >= len(text) or _SPACE.match(text, at):
        return at
    space = _LAST_SPACE_RUN.search(text, max(limit, at - _REACH), at)
    if space is not None:
        return max(space.start(), limit)
    while at > limit and _in_word(text, at):
        at -= 1
    return at


def _word_span(text: str, at: int) -> tuple[int, int]:
    """The whole word around ``at`` in the document (a hit word cut by its chunk's start
    is still shown whole, as the editor marks it)."""
    start = end = at
    while start > max(0, at - 256) and _WORD_CHAR.match(text, start - 1):
        start -= 1
    while end < min(len(text), at + 256) and _WORD_CHAR.match(text, end):
        end += 1
    return start, end


def hit_snippet(
    text: str, chunk_start: int, chunk_end: int, at: int, query: str, width: int
) -> HitSnippet:
    """The chunk ``text[chunk_start:chunk_end]`` around its hit at ``at``, about ``width``
    characters, the hit's word near the middle: starting and ending between words, with
    ``ELLIPSIS`` where the chunk's text was left out (a chunk that starts or ends inside a
    word or a URL has that piece left out too), and the words matching ``query`` marked."""
    width = max(width, 8)
    word_start, word_end = _word_span(text, at)
    low, high = min(chunk_start, word_start), max(chunk_end, word_end)
    if word_end - word_start > width:
        # a word longer than the row (a CJK clause, which has no spaces): the part of it
        # around the hit, which search finds anywhere in a word, not the word's start
        hit_length = min(len(query.strip()), width)
        word_start = max(word_start, min(at - (width - hit_length) // 2, word_end - width))
    start = max(low, word_start - max((width - (word_end - word_start)) // 2, 0))
    # the hit's word is shown whole, unless it is longer than the row (text without
    # spaces: a CJK sentence is one word)
    keep_end = min(word_end, word_start + width)
    end = max(min(high, start + width), keep_end)
    if end - start < width:  # the chunk ends soon: the room left goes before the hit
        start = max(low, end - width)
    # a chunk cut inside a word (its overlap began there) shows from the next word on
    cut_before = start > low or _mid_token(text, low)
    cut_after = end < high or _mid_token(text, high)
    if cut_before:
        start = _cut_forward(text, start, word_start)
    if cut_after:
        end = _cut_backward(text, end, keep_end)
    parts: list[SnippetPart] = []
    shown = start
    for mark_start, mark_end in matching_words(text, query, start, end):
        parts.append(SnippetPart(_SPACE_RUN.sub(" ", text[shown:mark_start]), False))
        parts.append(SnippetPart(text[mark_start:mark_end], True))
        shown = mark_end
    parts.append(SnippetPart(_SPACE_RUN.sub(" ", text[shown:end]), False))
    # no white space at either end of the line
    if not parts[0].hit:
        parts[0] = SnippetPart(parts[0].text.lstrip(" "), False)
    if not parts[-1].hit:
        parts[-1] = SnippetPart(parts[-1].text.rstrip(" "), False)
    if cut_before:
        parts.insert(0, SnippetPart(ELLIPSIS, False))
    if cut_after:
        parts.append(SnippetPart(ELLIPSIS, False))
    return HitSnippet(tuple(p for p in parts if p.text), start, end)
