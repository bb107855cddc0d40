"""Why Mastra cut where it did, in its own terms (see core/explain.py).

Every strategy is given the run's ``MastraNotes`` (``notes_for(observer)``) and tells it
what it decides as it goes: the separator each level split at, where merging stopped
(the length function's value against maxSize), the overlap carried, a piece too large
going down the separator list, the header that started a section. The notes word each
decision as a ``Reason`` and tell it to the run's observer. Chunks are produced in their
final order, so the k-th ``produced`` call is chunk k; only strategies that call it get
reasons. A run nobody asks reasons of gets ``QuietNotes``, which hear nothing: the
strategies tell either one without asking which it is.
"""

from __future__ import annotations

from typing import Any

from chunkview.core.chunkers.mastra.html_explain import HtmlReasons, QuietHtmlReasons
from chunkview.core.chunkers.mastra.json_explain import JsonNotes, QuietJsonNotes
from chunkview.core.chunkers.mastra.semantic_markdown_explain import (
    QuietSectionNotes,
    SectionNotes,
)
from chunkview.core.model.explain import Reason
from chunkview.core.model.observer import RunObserver
from chunkview.core.text.js import from_units


def shown(separator: str | None) -> str:
    """A separator as a person reads it: ``"\\n\\n"`` (blank line), ``" "`` (space)."""
    if separator is None:
        return "no separator (each unit)"
    if separator == "":
        return '"" (every character)'
    text = from_units(separator).replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")
    return f'"{text}"'


def _n(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,.6g}"


def _last(count: int, what: str) -> str:
    return f"the last {count} {what}s" if count > 1 else f"the last {what}"


class MastraNotes:
    """The reasons of one run, built as its chunks are produced, told to its observer."""

    #: someone hears the reasons (``QuietNotes``: nobody)
    telling = True

    def __init__(self, observer: RunObserver) -> None:
        #: the run's observer: the reasons are told to it, and the measured split tells
        #: it where it cut (places.py)
        self.observer = observer
        self.count = 0  # chunks produced so far
        self.pending: list[tuple[str, str]] = []
        self.separators: list[str | None] = []  # the separator of each recursion level

    def note(self, rule: str, text: str) -> None:
        """A reason for the next chunk produced."""
        self.pending.append((rule, text))

    def produced(self) -> None:
        """The next chunk was produced: it takes the reasons noted since the last one."""
        if self.pending:
            rule = self.pending[0][0]
            text = "; ".join(dict.fromkeys(t for _r, t in self.pending))
            self.observer.reason(Reason(self.count, rule, text))
            self.pending = []
        self.count += 1

    # ----- recursive ----------------------------------------------------------------------
    def split_at(self, separator: str | None) -> None:
        """A recursion level chose its separator (the first of its list found in the text)."""
        if self.count == 0 and not self.separators:
            self.note("start", f"the text split at {shown(separator)}")
        elif self.pending and self.pending[-1][0] == "too-large":
            self.note("too-large", f"split again at {shown(separator)}")
        self.separators.append(separator)

    def level_done(self) -> None:
        self.separators.pop()
        if self.pending and self.pending[-1][0] == "after-large":  # nothing followed it
            self.pending.pop()

    def too_large(self, size: float, max_size: float, last: bool) -> None:
        separator = self.separators[-1] if self.separators else None
        if last:
            self.note(
                "no-separator-left",
                f"a piece of length {_n(size)} ≥ maxSize {_n(max_size)} between "
                f"{shown(separator)} with no separator left to try: kept as it is",
            )
        else:
            self.note(
                "too-large",
                f"a piece of length {_n(size)} ≥ maxSize {_n(max_size)} between "
                f"{shown(separator)} goes down the separator list",
            )

    def after_large(self) -> None:
        separator = self.separators[-1] if self.separators else None
        self.note(
            "after-large",
            f"after a piece too long for maxSize, pieces between {shown(separator)} are "
            "merged again from here",
        )

    def merge_full(
        self,
        total: float,
        piece: float,
        joiner: float,
        max_size: float,
        carried: int,
        carried_size: float,
        overlap: float,
    ) -> None:
        separator = self.separators[-1] if self.separators else None
        plus = f" + {_n(joiner)}" if joiner else ""
        words = (
            f"merging pieces between {shown(separator)} stopped: length {_n(total)} + the next "
            f"piece's {_n(piece)}{plus} = {_n(total + piece + joiner)} > maxSize {_n(max_size)}"
        )
        if carried:
            words += (
                f"; overlap: {_last(carried, 'piece')} (length {_n(carried_size)} ≤ overlap "
                f"{_n(overlap)}) {'start' if carried > 1 else 'starts'} this chunk"
            )
        self.note("merge-full", words)

    # ----- character ----------------------------------------------------------------------
    def character_piece(self, separator: str, size: float, max_size: float) -> None:
        self.note(
            "separator",
            f"split at {shown(separator)}: each piece that fits is a chunk (length "
            f"{_n(size)} ≤ maxSize {_n(max_size)})",
        )

    def character_window(self, first: bool, size: float, max_size: float, overlap: float) -> None:
        if first:
            self.note(
                "separator",
                f"a piece of length {_n(size)} > maxSize {_n(max_size)}: cut into windows",
            )
        else:
            self.note(
                "window",
                f"windows of at most maxSize {_n(max_size)}: this one starts overlap "
                f"{_n(overlap)} before the end of the one before",
            )

    # ----- sentence -------------------------------------------------------------------------
    def sentence_full(self, size: float, sentence: float, space: float, max_size: float) -> None:
        plus = f" + {_n(space)}" if space else ""
        self.note(
            "sentence-full",
            f"sentences grouped up to length {_n(size)}; the next sentence's {_n(sentence)}"
            f"{plus} would make {_n(size + sentence + space)} > maxSize {_n(max_size)}",
        )

    def sentence_target(self, size: float, target: float, sentence: str) -> None:
        ender = from_units(sentence.rstrip())[-1:] or "?"
        self.note(
            "sentence-target",
            f"the group reached length {_n(size)} ≥ targetSize {_n(target)} at a sentence "
            f"ender “{ender}”",
        )

    def sentence_overlap(self, count: int, size: float, overlap: float) -> None:
        self.note(
            "overlap",
            f"overlap: {_last(count, 'sentence')} (length {_n(size)} ≤ overlap "
            f"{_n(overlap)}) {'start' if count > 1 else 'starts'} this chunk",
        )

    def sentence_too_long(self, size: float, max_size: float, words: bool, chars: bool) -> None:
        how = "words" if words else "characters" if chars else "nothing: kept whole"
        self.note(
            "sentence-too-long",
            f"a sentence of length {_n(size)} > maxSize {_n(max_size)}: cut at {how} "
            f"(fallbackToWords {str(words).lower()}, fallbackToCharacters {str(chars).lower()})",
        )

    def after_long_sentence(self) -> None:
        self.note("after-long", "after a sentence too long for maxSize, grouping starts again")

    # ----- token ----------------------------------------------------------------------------
    def token_window(self, index: int, start: float, max_size: float, overlap: float) -> None:
        if index > 0:
            self.note(
                "token-window",
                f"token window {index + 1}: maxSize {_n(max_size)} tokens from token "
                f"{_n(int(start))}, each window {_n(max_size - overlap)} tokens after the one "
                f"before (overlap {_n(overlap)})",
            )
        self.produced()

    # ----- markdown headers -----------------------------------------------------------------
    def headers(self, metas: list[dict[str, str]], each_line: bool) -> None:
        """One reason per chunk of the headers strategy, from the metadata it carries."""
        previous: dict[str, str] = {}
        for k, meta in enumerate(metas):
            changed = [key for key, value in meta.items() if previous.get(key) != value]
            if k == 0:
                rule, text = "start", "the start of the text"
            elif changed:
                key = changed[-1]
                rule = "header"
                text = f"the header “{from_units(meta[key])}” ({from_units(key)}) starts a section"
            elif each_line:
                rule, text = "line", "one chunk per line (returnEachLine)"
            else:
                rule, text = "section", "a section under the same headers"
            self.observer.reason(Reason(k, rule, text))
            previous = meta

    # ----- the strategies with notes of their own ---------------------------------------------
    def html(self) -> HtmlReasons:
        """The html strategy's reasons (html_explain.py)."""
        return HtmlReasons(self.observer)

    def json(self, chunker: Any) -> JsonNotes:
        """The json strategy's reasons, for ``chunker`` (json_explain.py)."""
        return JsonNotes(self.observer, chunker)

    def sections(self, threshold: Any, units: str, sections: list[Any]) -> SectionNotes:
        """semantic-markdown's reasons, for ``sections`` as first gathered from ``units``
        (semantic_markdown_explain.py)."""
        return SectionNotes(self.observer, threshold, units, sections)


class QuietNotes(MastraNotes):
    """The notes of a run nobody asks reasons of: every decision told is dropped unworded
    (the observer may still hear the measured split's places)."""

    telling = False

    def note(self, rule: str, text: str) -> None:
        pass

    def produced(self) -> None:
        pass

    def split_at(self, separator: str | None) -> None:
        pass

    def level_done(self) -> None:
        pass

    def too_large(self, size: float, max_size: float, last: bool) -> None:
        pass

    def after_large(self) -> None:
        pass

    def merge_full(
        self,
        total: float,
        piece: float,
        joiner: float,
        max_size: float,
        carried: int,
        carried_size: float,
        overlap: float,
    ) -> None:
        pass

    def character_piece(self, separator: str, size: float, max_size: float) -> None:
        pass

    def character_window(self, first: bool, size: float, max_size: float, overlap: float) -> None:
        pass

    def sentence_full(self, size: float, sentence: float, space: float, max_size: float) -> None:
        pass

    def sentence_target(self, size: float, target: float, sentence: str) -> None:
        pass

    def sentence_overlap(self, count: int, size: float, overlap: float) -> None:
        pass

    def sentence_too_long(self, size: float, max_size: float, words: bool, chars: bool) -> None:
        pass

    def after_long_sentence(self) -> None:
        pass

    def token_window(self, index: int, start: float, max_size: float, overlap: float) -> None:
        pass

    def headers(self, metas: list[dict[str, str]], each_line: bool) -> None:
        pass

    def html(self) -> HtmlReasons:
        return QuietHtmlReasons(self.observer)

    def json(self, chunker: Any) -> JsonNotes:
        return QuietJsonNotes(self.observer, chunker)

    def sections(self, threshold: Any, units: str, sections: list[Any]) -> SectionNotes:
        return QuietSectionNotes(self.observer, threshold)


def notes_for(observer: RunObserver) -> MastraNotes:
    """The notes a run tells as it goes: worded for an observer that wants reasons,
    quiet for one that does not (read once, at the run's top)."""
    return MastraNotes(observer) if observer.wants_reasons else QuietNotes(observer)
