"""Fast path for ``reference.smartchunk_pieces`` when nobody asks for reasons: the
same cascade (``reference.Cascade.split``) and minSize merge (``reference.merge_small``)
with no reasons noted, and ``reference.units`` with LF-only patterns on a text that
holds no CR.

Why it is equal:
- ``split`` is ``Cascade.split`` and ``too_large`` with the notes taken out, reading
  the byte offsets from the memory view directly (the same numbers).
- ``units``: on a text without CR, ``\\r\\n|\\n|\\r`` can only match ``\\n``, and the
  paragraph pattern only ``\\n(?:[ \\t]*\\n)+``: the same matches, found about four
  times faster (a literal first character lets the regex engine skip to it).
- ``merge_small`` is ``reference.merge_small`` with the chunk being grown held in
  three locals, and a Piece built once per chunk, not once per cut and per merge.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import islice

from chunkview.core.chunkers.smartchunk.model import Cut, Options, Piece, Unit, strategy_at
from chunkview.core.chunkers.smartchunk.reference import (
    LINE_END_RE,
    PARAGRAPH_END_RE,
    code_points_if_huge,
    overlap,
)
from chunkview.core.text.segment import boundaries

#: ``reference.PARAGRAPH_END_RE`` and ``LINE_END_RE`` where the text holds no CR
LF_PARAGRAPH_END_RE = re.compile(r"\n(?:[ \t]*\n)+")
LF_LINE_END_RE = re.compile(r"\n")


def units(
    text: str, start: int, end: int, strategy: str, locale: str, has_cr: bool = True
) -> list[Unit]:
    """``reference.units``; ``has_cr`` False: the text holds no CR (the LF patterns)."""
    if strategy not in ("paragraph", "line"):
        return [(start + a, start + b) for a, b in boundaries(text[start:end], strategy, locale)]
    if strategy == "paragraph":
        pattern = PARAGRAPH_END_RE if has_cr else LF_PARAGRAPH_END_RE
    else:
        pattern = LINE_END_RE if has_cr else LF_LINE_END_RE
    ends = [match.end() for match in pattern.finditer(text, start, end)]
    if (ends[-1] if ends else start) < end:
        ends.append(end)
    return list(zip([start, *ends[:-1]], ends))


class QuietCascade:
    """``reference.Cascade`` without the reasons."""

    def __init__(
        self, text: str, options: Options, offsets: Sequence[int], check: Callable[[], None]
    ) -> None:
        self.text, self.options, self.offsets, self.check = text, options, offsets, check
        self.has_cr = "\r" in text

    def split(self, start: int, end: int, level: int) -> list[Cut]:
        """``reference.Cascade.split``, noting nothing."""
        strategies, offsets = self.options.strategies, self.offsets
        max_size = self.options.max_size
        strategy = strategy_at(strategies, level)
        self.check()
        found = units(self.text, start, end, strategy, self.options.locale, self.has_cr)
        if strategy == "grapheme" and level >= len(strategies) - 1:
            found = [u for g in found for u in code_points_if_huge(g, offsets, max_size)]
        pieces: list[Cut] = []
        run: list[Unit] = []
        for unit in found:
            if offsets[unit[1]] - offsets[unit[0]] > max_size:
                if run:
                    pieces.append((run[0][0], run[-1][1], strategy))
                run = []
                pieces.extend(self.too_large(unit, strategy, level))
            elif level == 0:
                pieces.append((unit[0], unit[1], strategy))
            elif run and offsets[unit[1]] - offsets[run[0][0]] <= max_size:
                run.append(unit)
            else:
                if run:
                    pieces.append((run[0][0], run[-1][1], strategy))
                run = [*overlap(run, unit, strategy, offsets, max_size), unit]
        if run:
            pieces.append((run[0][0], run[-1][1], strategy))
        return pieces

    def too_large(self, unit: Unit, strategy: str, level: int) -> list[Cut]:
        """``reference.Cascade.too_large``, noting nothing."""
        if unit[1] - unit[0] > 1 and (
            level + 1 <= len(self.options.strategies) or strategy != "grapheme"
        ):
            return self.split(unit[0], unit[1], level + 1)
        return [(unit[0], unit[1], strategy)]


def merge_small(cuts: list[Cut], options: Options, offsets: Sequence[int]) -> list[Piece]:
    """``reference.merge_small`` without the reasons."""
    min_size, max_size = options.min_size, options.max_size
    merged: list[Piece] = []
    if not cuts:
        return merged
    start, end, strategy = cuts[0]
    for next_start, next_end, next_strategy in islice(cuts, 1, None):
        if (
            offsets[end] - offsets[start] < min_size
            and next_start <= end
            and offsets[next_end] - offsets[start] <= max_size
        ):
            end = next_end
            continue
        merged.append(Piece(start, end, strategy))
        start, end, strategy = next_start, next_end, next_strategy
    merged.append(Piece(start, end, strategy))
    if len(merged) >= 2:
        last, before = merged[-1], merged[-2]
        if (
            offsets[last.end] - offsets[last.start] < min_size
            and last.start <= before.end
            and offsets[last.end] - offsets[before.start] <= max_size
        ):
            merged[-2:] = [Piece(before.start, last.end, before.strategy)]
    return merged


def quiet_pieces(
    text: str, options: Options, offsets: Sequence[int], check: Callable[[], None]
) -> list[Piece]:
    """``reference.smartchunk_pieces``'s chunks, telling nothing."""
    if not text:
        return []
    cuts = QuietCascade(text, options, offsets, check).split(0, len(text), 0)
    return merge_small(cuts, options, offsets)
