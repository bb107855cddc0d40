"""What agentos ChunkingEngine reads from a text before any option counts: the headings
of 'hierarchical' (spec/agentos.md §2.3, steps 1-4), the blocks of 'layout' (§2.3), the
sentence cuts of 'semantic' (§2.3, step 2), and for the window routine F (§2.2) where
the white space is. A long text's readings are kept for its next run (the app runs one
document at each option change: ``chunkview.core.text.kept``).

Two readings here are fast paths of the reference's (tests/test_engine_fast.py checks
each against it):
- ``Outline`` replaces the heading-by-heading reading of ``engine_reference.
  hierarchical``: one ``split`` on the same heading pattern, with the white space after
  each heading as a group of its own, gives the same matches in order (the search
  resumes where the last match ended, as ``finditer`` does) and each body already
  trimmed at its start; its end is trimmed here (a long body's only measured).
- ``layout_blocks`` replaces ``engine_reference.layout_blocks``: the same walk over
  lines, on offsets in the text instead of a list of lines (a run of lines joined with
  LF is the slice that spans them), each "|" and fence line found once with ``str.find``.
"""

from __future__ import annotations

import re
from itertools import accumulate, count, repeat
from operator import add
from typing import NamedTuple

import numpy as np

from chunkview.core.text.js import W_CHARS, W_CLASS, strip_trims_as_js
from chunkview.core.text.kept import kept, second_run

SENTENCE_CUT_RE = re.compile(f"(?<=[.!?])[{W_CLASS}]+(?=[A-Z])")
_LINE_END = "\n\r\u2028\u2029"
# JS /^(#{1,6})\s+(.+)$/gm: ^ and $ at any line terminator, `.` stops at them. The
# literal first "#" lets the engine skip to each "#", and the lookbehind puts the start
# or a line terminator before it. Groups: the hashes after the first, the white space,
# the heading (all three, so that split gives every piece of the text).
HEADING_RE = re.compile(
    f"#(?<![^{_LINE_END}]#)(#{{0,5}})([{W_CLASS}]+)([^{_LINE_END}]+)(?![^{_LINE_END}])"
)
# a heading and the white space after it (group 4): the match ends where its body's
# trimmed text starts (the white space holds no "#", so the next heading is found as before)
SECTION_RE = re.compile(HEADING_RE.pattern + f"([{W_CLASS}]*+)")
SIMILARITY_THRESHOLD = 0.3
_BACKTICKS_RE = re.compile("`+")
# the LF that ends a table: the next line holds no "|"
_TABLE_END_RE = re.compile("\n(?![^\n]*\\|)")
#: JS white space (\s) by UTF-16 unit: the units F steps back to
_WHITE_UNITS = np.zeros(0x10000, dtype=bool)
_WHITE_UNITS[[ord(ch) for ch in W_CHARS]] = True


#: F's step back on a text not indexed: matched from ``pos + 1`` up to ``end + 1``, the
#: greedy ``.*`` jumps to the end (in C, at once) and gives back units until one is
#: white space, so the match ends one past the last white space in (pos, end]
WHITE_THROUGH_RE = re.compile(f"(?s).*[{W_CLASS}]")


class WhiteIndex(NamedTuple):
    """What F reads of a text it has cut before. ``back``: for each unit p, how far
    back the last JS white space at or before it is (``FAR``: that far or more, or
    none), one byte a unit, as a memoryview: a window's cut is one look-up, ``end -
    back[end]`` (a byte, not the unit's number in four, keeps a long text's look-ups
    in a quarter of the pages). For a text of two-byte units (a few CJK characters or
    curly quotes are enough), ``narrow``: the text with every unit above 127 as "?",
    and its ASCII stretches (``stretch_starts[k]`` to ``stretch_ends[k]``), where a
    window is sliced from ``narrow``: the same string, copied as is, where a slice of
    the wide text is converted unit by unit."""

    back: memoryview
    narrow: str | None = None
    stretch_starts: list[int] = []  # noqa: RUF012 (a NamedTuple's default, never changed)
    stretch_ends: list[int] = []  # noqa: RUF012


#: ``WhiteIndex.back`` of a unit with no white space at or within this many units before it
FAR = 255

#: an ASCII stretch shorter than this is not worth a slice of its own: most windows
#: that start in it end past it
ASCII_STRETCH = 2048


def last_white(units: str) -> WhiteIndex | None:
    """F's index of ``units`` (``WhiteIndex``): from a long text's second run on, made
    once (numpy) and kept; before that, and for a short text, None: F searches back at
    each window (``WHITE_THROUGH_RE``), and the first run of a text makes no index it
    may not need again."""
    if second_run("agentos.white-asked", units):
        return kept("agentos.last-white", units, white_before)
    return None


def white_before(units: str, stretch: int = ASCII_STRETCH) -> WhiteIndex:
    """``last_white`` of ``units`` made now (``stretch``: the shortest ASCII stretch
    read from ``narrow``)."""
    if units.isascii():
        codes: np.ndarray = np.frombuffer(units.encode("ascii"), dtype=np.uint8)
    else:
        codes = np.frombuffer(units.encode("utf-16-le", "surrogatepass"), dtype=np.uint16)
    index = np.arange(len(codes), dtype=np.int32)
    index[~_WHITE_UNITS[codes]] = -1
    index = np.maximum.accumulate(index)
    np.subtract(np.arange(len(codes), dtype=np.int32), index, out=index)
    # read one unit at a time from Python: a memoryview gives ints, not numpy scalars
    back = np.minimum(index, FAR).astype(np.uint8).data
    if codes.dtype != np.uint16 or not len(codes) or codes.max() <= 0xFF:
        return WhiteIndex(back)  # a slice of one-byte units is copied as is
    wide = codes > 0x7F
    bounds = np.concatenate(([0], np.flatnonzero(wide[1:] != wide[:-1]) + 1, [len(codes)]))
    starts, ends = bounds[:-1], bounds[1:]
    long_ascii = ~wide[starts] & (ends - starts >= stretch)
    narrow = np.where(wide, 0x3F, codes).astype(np.uint8).tobytes().decode("ascii")
    return WhiteIndex(back, narrow, starts[long_ascii].tolist(), ends[long_ascii].tolist())


def plain_strip(content: str) -> bool:
    """True when ``str.strip()`` trims every window of ``content`` as JS ``trim`` does.
    Asked from a long text's second run on (the app runs one document at each option
    change), so that its first run scans nothing more; False until then."""
    if not second_run("agentos.strip-asked", content):
        return False
    return bool(kept("agentos.plain-strip", content, strip_trims_as_js))


class Outline:
    """What 'hierarchical' reads from a text before any option counts (§2.3, steps 1-4):
    the trimmed text before the first heading and, for each heading, its level, its
    text, its trimmed body (None for a long body: ``body_starts`` and ``body_lengths``
    give its units, and F cuts it there) and the texts of the headings open above it,
    outermost first; where the preamble, each body and each heading's text start in the
    units.

    One ``split`` gives them: the text before the first heading, then for each heading
    its hashes after the first, white space, text, the white space after it and its
    body, which so starts trimmed (its end is trimmed here: a long body only measured,
    not copied).
    """

    def __init__(self, units: str) -> None:
        self.units = units
        pieces = SECTION_RE.split(units)
        #: False when no heading matched: the whole content, untrimmed, is one section
        self.headed = len(pieces) > 1
        raw = pieces[0]
        self.preamble = raw.strip(W_CHARS)
        self.preamble_start = len(raw) - len(raw.lstrip(W_CHARS))
        self.sections: list[tuple[int, str, str | None, tuple[str, ...]]] = []
        #: each body's length, trimmed
        self.body_lengths: list[int] = []
        add_length = self.body_lengths.append
        levels: list[int] = []
        titles: list[str] = []  # the open headings, outermost first
        for hashes, title, body in zip(
            pieces[1::5], map(str.strip, pieces[3::5], repeat(W_CHARS)), pieces[5::5]
        ):
            level = len(hashes) + 1
            while levels and levels[-1] >= level:
                levels.pop()
                titles.pop()
            if len(body) <= _COPIED_BODY:
                kept_body: str | None = body.rstrip(W_CHARS)
                add_length(len(kept_body))  # type: ignore[arg-type]
            else:
                kept_body = None
                add_length(_trimmed_length(body))
            self.sections.append((level, title, kept_body, tuple(titles)))
            levels.append(level)
            titles.append(title)
        # from the pieces' lengths; each heading's first "#" is in none
        piece_starts = list(accumulate(map(len, pieces), initial=0))
        #: where each body starts in the units
        self.body_starts: list[int] = list(map(add, piece_starts[5::5], count(1)))
        self._title_starts: list[int] | None = None

    def title_start(self, number: int) -> int:
        """Where the trimmed text of heading ``number`` starts in the units."""
        if self._title_starts is None:  # read the first time a heading has no body
            self._title_starts = [
                m.end(3) - len(m.group(3).lstrip(W_CHARS)) for m in SECTION_RE.finditer(self.units)
            ]
        return self._title_starts[number]


#: a body up to this long is kept trimmed (a copy); a longer one is only measured: F cuts
#: it in the units, and copying it would cost a first run as much as cutting it
_COPIED_BODY = 2048
_WHITE_SET = frozenset(W_CHARS)


def _trimmed_length(body: str) -> int:
    """``len(body.rstrip(W_CHARS))`` without the copy, for a body that ends in a few
    units of white space (most do: a blank line before the next heading)."""
    end = len(body)
    while end and body[end - 1] in _WHITE_SET:
        end -= 1
        if len(body) - end > 32:  # a long run of white space: measured in C
            return len(body.rstrip(W_CHARS))
    return end


def outline(units: str) -> Outline:
    """The outline of ``units``, kept for a long text (reading it is nearly half of a
    run)."""
    return kept("agentos.outline", units, Outline)


#: a layout block: its kind ("code", "table" or "prose"), its text (a prose block's
#: trimmed) and where that text starts in the units
Block = tuple[str, str, int]


def layout_blocks(units: str) -> list[Block]:
    """Code fences at column 0, runs of lines holding '|', and the prose between them
    (§2.5), empty prose left out: what 'layout' reads from a text before any option counts.

    Works on line offsets: a run of lines joined with LF is the slice that spans them.
    Prose runs to the next "|" or "\n```" (each found once with str.find and kept until
    passed), a table to the first line without "|".
    """
    blocks: list[Block] = []
    position, length = 0, len(units)
    find = units.find
    bar = fence_line = -1  # the next "|" and the next LF before "```", once looked for
    while position <= length:
        line_end = find("\n", position)
        if line_end < 0:
            line_end = length
        if units.startswith("```", position):
            if units.startswith("````", position):  # a longer fence than most
                fence = _BACKTICKS_RE.match(units, position).group()  # type: ignore[union-attr]
                closing = find("\n" + fence, line_end)
            else:
                closing = find("\n```", line_end)
            end = find("\n", closing + 1) if closing >= 0 else length
            if end < 0:
                end = length
            blocks.append(("code", units[position:end], position))
        elif find("|", position, line_end) >= 0:
            following = _TABLE_END_RE.search(units, line_end)
            end = following.start() if following else length
            blocks.append(("table", units[position:end], position))
        else:  # prose up to the LF before the next line that holds "|" or opens "```"
            if bar < line_end and bar != length:
                bar = find("|", line_end)
                bar = length if bar < 0 else bar
            if fence_line < line_end and fence_line != length:
                fence_line = find("\n```", line_end)
                fence_line = length if fence_line < 0 else fence_line
            end = min(units.rfind("\n", line_end, bar) if bar < length else length, fence_line)
            raw = units[position:end]
            prose = raw.strip(W_CHARS)
            if prose:
                blocks.append(("prose", prose, position + len(raw) - len(raw.lstrip(W_CHARS))))
        position = end + 1
    return blocks


def kept_layout_blocks(units: str) -> list[Block]:
    """``layout_blocks`` of ``units``, kept for a long text (finding the blocks is most
    of a run)."""
    return kept("agentos.layout-blocks", units, layout_blocks)
