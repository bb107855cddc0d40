"""Port of agentos ``ChunkingEngine.chunk`` (spec/agentos.md §2): fixed, semantic,
hierarchical and layout, with every quirk, in UTF-16 code units.

Where the original loops forever (§2.2) the port raises ``ChunkerError("Hang")`` with
the rule and the place, found by the exact test the spec gives: the window position
repeats, or the size is not positive on non-empty content.
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Mapping
from functools import lru_cache
from itertools import accumulate, compress, count, repeat
from operator import add, itemgetter, lt
from typing import Any

import numpy as np
import regex

from chunkview.core.chunkers.agentos import engine_explain as why
from chunkview.core.chunkers.entry import Entry, Param, RunContext, chunk_metadata, js_literal
from chunkview.core.errors import ChunkerError, OptionError
from chunkview.core.layout.placing import located_table, placed_table
from chunkview.core.model.document import Document
from chunkview.core.model.span_table import ChunkTexts, KindColumn, SpanTable
from chunkview.core.text.embed import cosine, embed_cached
from chunkview.core.text.js import (
    W_CHARS,
    W_CLASS,
    char_at,
    from_units,
    has_surrogates,
    js_slice,
    number_text,
    option,
    strip_trims_as_js,
    to_number,
    trim,
    unit_view,
)
from chunkview.core.text.kept import LONG_TEXT, also_forget, kept

STRATEGIES = ("fixed", "semantic", "hierarchical", "layout")
_SENTENCE_CUT_RE = re.compile(f"(?<=[.!?])[{W_CLASS}]+(?=[A-Z])")
_LINE_END = "\n\r\u2028\u2029"
# JS /^(#{1,6})\s+(.+)$/gm: ^ and $ at any line terminator, `.` stops at them. The
# literal first "#" lets the engine skip to each "#", and the lookbehind puts the start
# or a line terminator before it. Groups: the hashes after the first, the white space,
# the heading (all three, so that split gives every piece of the text).
_HEADING_RE = re.compile(
    f"#(?<![^{_LINE_END}]#)(#{{0,5}})([{W_CLASS}]+)([^{_LINE_END}]+)(?![^{_LINE_END}])"
)
# a heading and the white space after it (group 4): the match ends where its body's
# trimmed text starts (the white space holds no "#", so the next heading is found as before)
_SECTION_RE = re.compile(_HEADING_RE.pattern + f"([{W_CLASS}]*+)")
SIMILARITY_THRESHOLD = 0.3
_BACKTICKS_RE = re.compile("`+")
# the LF that ends a table: the next line holds no "|"
_TABLE_END_RE = re.compile("\n(?![^\n]*\\|)")
_LAST_W_RE = regex.compile(f"(?r)[{W_CLASS}]")
_W_SET = frozenset(W_CHARS)


class _Windows:
    """The fixed window routine F, emitting into a shared list with a running index.

    Sizes are JS numbers: whole ones run on ``int`` positions with a C-speed search for
    the last white space; any other (fractional, huge, NaN, infinite) runs the JS loop
    literally on floats, indexing as JS does (``content[2.5]`` is ``undefined``).
    Every way the loop can run forever ends in ``Hang`` after O(n) windows.
    """

    def __init__(
        self, size: Any, overlap: Any, origin_units: str, surrogates: bool | None = None
    ) -> None:
        self.given = size, overlap  # as the user wrote them, for messages
        try:
            self.size, self.overlap = to_number(size), to_number(overlap)
        except TypeError:
            name, value = ("chunkSize", size) if not _is_number(size) else ("chunkOverlap", overlap)
            raise OptionError(name, f"takes a number, got {js_literal(value)}") from None
        self.source = origin_units  # the whole input, for saying where a hang happens
        self.chunks: list[dict[str, Any]] = []
        #: ctx.explain when the run explains its cuts (engine_explain.py), else None
        self.notes: list | None = None
        #: where each chunk's content starts in the units, in chunk order, when the app
        #: places the chunks next (``ChunkingEngineEntry.run_to_place``); None: not noted.
        #: Each place is noted where its chunk is emitted; a chunk emitted without one
        #: leaves the list short, and the chunks are searched for instead
        self.places: list[int] | None = None
        #: the length of each noted chunk's content, in units, beside ``places``
        self.lengths: list[int] = []
        #: with ``places``, for a strategy whose chunks carry no metadata but a layout
        #: block's: the chunk numbers of each kind of block; None: not noted
        self.block_chunks: dict[str, list[int]] | None = None
        #: with ``places``, for 'hierarchical': where each section's chunks start (its
        #: first chunk's number) and the metadata a span of it carries (the chunk's and
        #: its heading); None: not noted
        self.section_starts: list[tuple[int, dict[str, Any]]] | None = None
        #: whether ``str.strip()`` trims every piece of this run as JS does
        #: (``_plain_strip`` of the whole input: every piece's characters come from it)
        self.plain_strip = False
        # back to Python strings; a text without surrogates needs no conversion per piece
        if surrogates is None:
            surrogates = has_surrogates(origin_units)
        self.text = from_units if surrogates else str

    def adjacent(self) -> bool:
        """True when ``split`` of a text longer than the size takes ``_adjacent_windows``."""
        size, overlap = self.size, self.overlap
        return (
            type(size) is int
            and size >= 1
            and type(overlap) is int
            and overlap == 0
            and self.notes is None
        )

    def emit(self, chunk: dict[str, Any]) -> None:
        chunk["index"] = len(self.chunks)
        self.chunks.append(chunk)

    def split(
        self,
        content: str,
        origin: int,
        base: dict | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        """F(content, size, overlap, next index, base); ``origin`` = content's offset."""
        size, overlap = self.size, self.overlap
        if not content:
            return
        if type(size) is int and size >= len(content) and size >= 1:
            self._piece(content, base, extra, origin)  # one window takes it all
            return
        if isinstance(size, int) and isinstance(overlap, int):
            windows = None
            if size >= 1 and 0 <= overlap < size and self.notes is None:
                windows = (
                    _adjacent_windows(content, size)
                    if overlap == 0
                    else _overlapping_windows(content, size, overlap)
                )
            if windows is not None:
                pieces = _trimmed(windows, self.plain_strip)
                if self.places is not None:
                    # each window starts where the one before ended, less the overlap; after
                    # a soft cut matched without its white space, one unit further on
                    tiled = overlap or not isinstance(windows, _AfterCuts)
                    self._note_places(windows, pieces, origin, -overlap if tiled else 1)
                self._emit_windows(pieces, base, extra)
            elif size >= 1:
                self._split_whole(content, origin, base, extra, size, overlap)
            elif overlap >= size:
                # end = pos + size <= pos: the window never moves forward
                how = "stays at" if size == 0 else "keeps stepping back from"
                self._hang(
                    origin,
                    f"{how} position {self._where(origin)} with chunkSize {self._shown(0)} "
                    f"(below 1) and chunkOverlap {self._shown(1)} >= chunkSize {self._shown(0)}",
                )
            else:  # each step moves on by size - overlap, cutting backwards
                position = 0
                while position < len(content):
                    end = position + size
                    self._piece(content[position:end], base, extra)
                    following = end - overlap
                    position = following if following > 0 else end
            return
        self._split_literal(content, origin, base, extra)

    def _emit_windows(
        self, trimmed: list[str], base: dict | None, extra: Mapping[str, Any] | None
    ) -> None:
        """The chunks of the loop's windows (found by one regex, in C), built from their
        trims (``_trimmed``) without a Python step per window: each piece not empty."""
        pieces: Any = filter(None, trimmed)
        if self.text is not str:
            pieces = map(self.text, pieces)
        chunks = self.chunks
        numbers = count(len(chunks))
        if base is None and not extra:
            chunks.extend([{"content": p, "index": i} for p, i in zip(pieces, numbers)])
        elif base is None:
            fields = dict(extra or {})
            chunks.extend([{"content": p, **fields, "index": i} for p, i in zip(pieces, numbers)])
        elif extra is not None and len(extra) == 1 and "heading" in extra:  # sections
            heading = extra["heading"]
            chunks.extend(
                [
                    {"content": p, "heading": heading, "metadata": base.copy(), "index": i}
                    for p, i in zip(pieces, numbers)
                ]
            )
        else:
            chunks.extend(
                [
                    {"content": p, **(extra or {}), "metadata": base.copy(), "index": i}
                    for p, i in zip(pieces, numbers)
                ]
            )

    def _split_whole(
        self,
        content: str,
        origin: int,
        base: dict | None,
        extra: Mapping[str, Any] | None,
        size: int,
        overlap: int,
    ) -> None:
        """The loop on whole sizes (size >= 1): positions stay in [0, length)."""
        length = len(content)
        position = 0
        # A cycle must step back (forward steps only grow the position), and the state is
        # the position alone: a position stepped back from twice is a cycle. Finds every
        # cycle within 2n windows holding at most n positions.
        stepped_back_from: set[int] = set()
        # the common call (no metadata, no surrogates) builds its chunks inline
        plain = base is None and not extra and self.text is str
        chunks, search, places = self.chunks, _LAST_W_RE.search, self.places
        while position < length:
            end = position + size
            if end >= length:
                self._piece(content[position:], base, extra, at=origin + position)
                return
            if content[end] not in W_CHARS:
                space = search(content, position + 1, end)
                end = space.start() if space else position
            if end == position:
                end = position + size  # no white space in the window: a hard cut
            if plain:
                window = content[position:end]
                piece = window.strip(W_CHARS)
                if piece:
                    if places is not None:
                        lead = len(window) - len(window.lstrip(W_CHARS))
                        places.append(origin + position + lead)
                        self.lengths.append(len(piece))
                    chunks.append({"content": piece, "index": len(chunks)})
            else:
                self._piece(content[position:end], base, extra, at=origin + position)
            following = end - overlap
            if following <= 0:
                following = end
            if self.notes is not None:
                why.window(self, content, origin, position, end, following)
            if following <= position:
                if position in stepped_back_from:
                    self._stall(content, origin, position, end)
                stepped_back_from.add(position)
            position = following

    def _split_literal(
        self, content: str, origin: int, base: dict | None, extra: Mapping[str, Any] | None
    ) -> None:
        """The JS loop step by step on floats, for sizes that are not whole numbers."""
        size, overlap, length = float(self.size), float(self.overlap), len(content)
        position = 0.0
        seen: set[float] = set()
        # Below this every index read is negative (undefined) and a size that is not a
        # positive whole number can only move the window further down: it never returns.
        floor = min(0.0, overlap) - abs(size) - 2
        falls = not (size >= 1 and size.is_integer())
        # A run that neither repeats nor falls can still creep (a fraction of a unit per
        # window), and the original returns once it reaches the end: every this many
        # windows the run is checked (``_check_creep``); on a long text no later than a
        # tenth of the windows a run is let take, so a run that wanders for ever on one is
        # stopped in seconds, not after tens of millions of windows
        interval = min(250_000 + 64 * length, _MOST_WINDOWS // 10)
        check_at, highest_at_check = interval, 0.0
        highest = 0.0
        advances = 0  # the windows that started further on than any before, since a check
        if 0 < size <= overlap and length > overlap + size + 2:
            # every step back lands at or before `overlap` and every step forward is one
            # window at most, so no window reaches past overlap + size: the end
            self._hang(
                origin,
                f"keeps stepping back and never passes position "
                f"{self._where(origin, overlap + size)} with chunkOverlap {self._shown(1)} "
                f">= chunkSize {self._shown(0)}",
            )
        windows = 0
        while position < length:  # NaN ends the loop, as in JS
            windows += 1
            end = position + size
            if end >= length:
                self._piece(js_slice(content, position), base, extra)
                return
            if end > position:
                end = self._walk_back(content, position, end)
            if end == position:
                end = position + size
            self._piece(js_slice(content, position, end), base, extra)
            following = end - overlap
            if following <= 0:
                following = end
            if following <= position:
                if position in seen:
                    self._hang(
                        origin + _whole(position),
                        f"keeps stepping back to position {self._where(origin, position)} "
                        f"with chunkSize {self._shown(0)} and chunkOverlap {self._shown(1)}",
                    )
                seen.add(position)
            if falls and following < floor:
                self._hang(
                    origin,
                    f"keeps moving the window backwards from position "
                    f"{self._where(origin, position)} without end with chunkSize "
                    f"{self._shown(0)} and chunkOverlap {self._shown(1)}",
                )
            if position > highest:
                highest = position
                advances += 1
            if windows > check_at:
                self._check_creep(
                    origin, windows, highest, highest_at_check, advances, interval, length
                )
                check_at, highest_at_check, advances = check_at + interval, highest, 0
            position = following

    def _check_creep(
        self,
        origin: int,
        windows: int,
        highest: float,
        highest_before: float,
        advances: int,
        interval: int,
        length: int,
    ) -> None:
        """After another ``interval`` windows: a run that would reach the end within
        ``_MOST_WINDOWS`` windows at its pace runs on. Else it hangs: one that got no
        further, or only now and then a little (fractional starts wandering), would never
        return; one that creeps on at every window would, after that many windows."""
        progress = (highest - highest_before) / interval  # units a window
        needed = windows + (length - highest) / progress if progress > 0 else math.inf
        if needed <= _MOST_WINDOWS:
            return
        if advances < interval // 2:
            self._hang(
                origin + _whole(highest),
                f"has not passed position {self._where(origin, highest)} after "
                f"{windows} windows with chunkSize {self._shown(0)} and chunkOverlap "
                f"{self._shown(1)}",
            )
        self._hang(
            origin + _whole(highest),
            f"creeps on about {progress:.2g} units a window with chunkSize "
            f"{self._shown(0)} and chunkOverlap {self._shown(1)}: about {needed:,.0f} "
            f"windows to the end, more than the {_MOST_WINDOWS:,} chunkview runs "
            f"(the original library runs them all)",
            never=False,
        )

    @staticmethod
    def _walk_back(content: str, position: float, end: float) -> float:
        """``while (end > pos && !/\\s/.test(content[end])) end--`` for any numbers."""
        if end.is_integer() and abs(end) < 2**52:
            top = int(end)
            low = max(math.floor(position) + 1, 0)  # the whole indices above position
            if low <= top:
                space = _LAST_W_RE.search(content, low, top + 1)
                if space:
                    return float(space.start())
            # no white space: stepping by one stops at the first whole number <= position
            return float(math.floor(position))
        # Every index read here is fractional: undefined. Stepping by one from end >= 1
        # is exact while the value stays >= 1, so all but the last steps are one jump.
        if end >= 1 and end - position > 4 and abs(end) < 2**52:
            jump = min(int(end - position) - 2, int(end) - 1)
            if jump > 0:
                end -= jump
        while end > position:
            if char_at(content, end) in _W_SET:
                break
            end -= 1
        return end

    def _note_places(self, windows: list[str], pieces: list[str], origin: int, step: int) -> None:
        """Note where each non-empty piece (``pieces``: each window's trim) starts: window k
        starts at the sum of len + ``step`` over the windows before it, its piece after
        its leading white space. Most windows lose nothing to the trim: only the others
        are measured (and many windows' starts are summed in C)."""
        places, lengths = self.places, self.lengths
        assert places is not None
        if len(windows) < _FEW_WINDOWS:  # a prose block or a body: a loop costs less
            start = origin
            for window, piece in zip(windows, pieces):
                if piece:
                    whole = len(piece) == len(window)
                    places.append(
                        start if whole else start + len(window) - len(window.lstrip(W_CHARS))
                    )
                    lengths.append(len(piece))
                start += len(window) + step
            return
        count = len(windows)
        window_lengths = np.fromiter(map(len, windows), np.int64, count)
        piece_lengths = np.fromiter(map(len, pieces), np.int64, count)
        strides = window_lengths + step
        starts = np.cumsum(strides) - strides + origin
        for k in np.flatnonzero(piece_lengths != window_lengths).tolist():
            window = windows[k]
            starts[k] += len(window) - len(window.lstrip(W_CHARS))
        kept = piece_lengths > 0
        places.extend(starts[kept].tolist())
        lengths.extend(piece_lengths[kept].tolist())

    def _piece(
        self,
        text: str,
        base: dict | None,
        extra: Mapping[str, Any] | None,
        at: int | None = None,
    ) -> None:
        """Emit trim(``text``) if not empty; ``at``: where ``text`` starts in the units,
        if known (for ``places``)."""
        piece = trim(text)
        if not piece:
            return
        if at is not None and self.places is not None:
            self.places.append(at + len(text) - len(text.lstrip(W_CHARS)))
            self.lengths.append(len(piece))
        chunk: dict[str, Any] = {"content": self.text(piece)}
        if extra:
            chunk.update(extra)
        if base is not None:
            chunk["metadata"] = dict(base)
        self.emit(chunk)

    def _stall(self, content: str, origin: int, position: int, end: int):
        where = self._where(origin, position)
        if self.overlap >= self.size:
            reason = (
                f"keeps stepping back from position {where} with chunkOverlap "
                f"{self._shown(1)} >= chunkSize {self._shown(0)}"
            )
        else:
            reason = (
                f"keeps stepping back from position {where}: the last white space in the "
                f"window lies within its first {self._shown(1)} units (chunkOverlap), "
                f"and a run of {self._run_length(content, end)} units without white space "
                f"follows"
            )
        self._hang(origin + position, reason)

    def _where(self, origin: int, position: float = 0) -> int:
        """A position in the content as the user counts it (code points)."""
        return len(from_units(self.source[: max(origin + _whole(position), 0)]))

    def _shown(self, which: int) -> str:
        return number_text(self.given[which])

    @staticmethod
    def _run_length(content: str, end: int) -> int:
        run = end + 1
        while run < len(content) and content[run] not in W_CHARS:
            run += 1
        return run - end - 1

    def _hang(self, unit_position: int, reason: str, never: bool = True) -> None:
        """Raise Hang at ``unit_position``; ``never``: the original would never return
        (else the reason says how long it would run)."""
        raise ChunkerError(
            "Hang",
            f"{reason}; the original library would never return" if never else reason,
            len(from_units(self.source[: max(unit_position, 0)])),
        )


@lru_cache(maxsize=8)
def _window_re(size: int) -> re.Pattern[str]:
    """One window of the loop: at most size units before the end, the rest (``end >=
    length``; the lookahead takes O(1)); else from its start the most units (1 to size)
    that white space follows (``end`` walked back to the last white space), else size
    units (a hard cut). Every match is a window of the loop, the last one included."""
    return re.compile(f"(?s)(?!.{{{size + 1}}}).+|.{{1,{size}}}(?=[{W_CLASS}])|.{{{size}}}")


#: the most windows a creeping run (a fraction of a unit a window) is let take: about
#: ten seconds here, where the app's watchdog stops a job by default
_MOST_WINDOWS = 8_000_000

#: below this many windows' worth of text the plain windows cost less (see below)
_FEW_WINDOWS = 16


@lru_cache(maxsize=8)
def _after_cut_re(size: int) -> re.Pattern[str]:
    """A window of the loop that starts on the white space of a soft cut (``pos`` = the
    match's start - 1), matched without that white space: the match before took it (or,
    after the first window, the caller starts one unit past it).

    Group 1 is what the window holds after its first unit: up to the last white space at
    most size units from ``pos``; the match takes that white space too, for the next
    window. With the white space taken, not looked ahead for, each step back from the
    farthest reach costs half as much. Near the end this finds windows the loop does not
    cut (there ``end >= length`` takes the rest), which ``_adjacent_windows`` mends. A
    hard cut (no white space in reach) takes all the rest with group 1 empty."""
    return re.compile(f"(?s)(.{{0,{size - 1}}})[{W_CLASS}]|.+")


def _adjacent_windows(content: str, size: int) -> list[str]:
    """The windows of F with no overlap on a whole size >= 1, each as a text whose trim
    is the window's piece.

    After a soft cut the next window starts on the cut's white space, which its trim
    drops. Matching every window after the first without that unit (``_after_cut_re``)
    leaves most of them with nothing to trim, so the trim hands back the same string
    instead of copying it: a third less copying on 10 MB. The matching stops at the
    last white space: the window from there takes the rest (``end >= length``), and so
    may a few before it, which are joined into it. A hard cut anywhere (a run of size
    units without white space) takes the plain windows of ``_window_re``, and so does a
    text of a few windows (a section's body), where the saving is less than the extra
    steps.
    """
    windows = _window_re(size)
    length = len(content)
    if length < _FEW_WINDOWS * size or size < 2:
        return windows.findall(content)
    first = windows.match(content)
    assert first is not None  # content is not empty
    cut = first.end()
    if cut == length:
        return [first.group()]
    if content[cut] not in _W_SET:  # a hard cut
        return windows.findall(content)
    # the window that starts on the last white space takes the rest; none within the
    # last size units: the rest is too long for one window (a hard cut)
    last_white = _LAST_W_RE.search(content, max(cut, length - size), length)
    if last_white is None:
        return windows.findall(content)
    last = last_white.start()
    rest = _after_cut_re(size).findall(content, cut + 1, last + 1)
    # each took its units and the white space after them, up to the last; but where a
    # hard cut took all that was left the last is "" (and so is an empty window)
    if rest and not rest[-1] and cut + 1 + sum(map(len, rest)) + len(rest) != last + 1:
        return windows.findall(content)
    rest.append(content[last + 1 :])
    # the windows that start at takes_the_rest or later: the first of them takes it all
    start, takes_the_rest = last + 1, length - size + 1  # where the last one's text starts
    final = len(rest) - 1
    while final > 0 and start - len(rest[final - 1]) - 1 >= takes_the_rest:
        final -= 1
        start -= len(rest[final]) + 1
    if final < len(rest) - 1:
        rest[final:] = [content[start:]]
    rest.insert(0, first.group())
    return _AfterCuts(rest)


class _AfterCuts(list[str]):
    """Windows of which each after the first starts one unit past where the loop's
    does (on the white space of the cut before it): they do not tile the text."""


def _trimmed(windows: list[str], plain_strip: bool) -> list[str]:
    """Each window's JS trim (``plain_strip``: ``str.strip()`` trims them as JS does, see
    ``_plain_strip``), empty ones included: the pieces and, for ``places``, their lengths."""
    if plain_strip:
        return list(map(str.strip, windows))
    return list(map(str.strip, windows, repeat(W_CHARS)))


#: the last long text split into windows at one go, and whether ``str.strip()`` trims its
#: windows as JS does (None: not asked yet)
_last_split: tuple[str, bool | None] | None = None


@also_forget
def _forget_split() -> None:
    global _last_split
    _last_split = None


def _plain_strip(content: str) -> bool:
    """True when ``str.strip()`` trims every window of ``content`` as JS ``trim`` does.
    Asked from a long text's second run on (the app runs one document at each option
    change), so that its first run scans nothing more; False until then."""
    global _last_split
    last = _last_split
    if len(content) < LONG_TEXT:
        return False
    if last is None or last[0] is not content:
        _last_split = (content, None)
        return False
    if last[1] is None:
        _last_split = last = (content, strip_trims_as_js(content))
    return bool(last[1])


@lru_cache(maxsize=8)
def _overlapping_re(size: int, overlap: int) -> re.Pattern[str]:
    """The loop's windows with 0 < overlap < size, while each cut lies past the window's
    first ``overlap`` units (so the next window starts further on).

    Group 1, in a lookahead, is the window: the rest of the text when at most size
    units are left, else up to the last white space at most size units on, at least
    overlap + 1 units. The match itself takes the window less its last ``overlap``
    units (the next window starts there): the same cut found again by the same greedy
    search. Where neither fits (the cut would step back, or a hard cut) the last
    alternative takes all the rest with group 1 empty, so the caller knows."""
    rest, space = f"(?!.{{{size + 1}}}).+", f"[{W_CLASS}]"
    window = f"{rest}|.{{{overlap + 1},{size}}}(?={space})"
    step = f"{rest}|.{{1,{size - overlap}}}(?=.{{{overlap}}}{space})"
    return re.compile(f"(?s)(?=({window}))(?:{step})|.+")


def _overlapping_windows(content: str, size: int, overlap: int) -> list[str] | None:
    """The windows of F with 0 < overlap < size; None where a cut is hard or lies within
    its window's first ``overlap`` units: there the loop cuts hard or steps back, and
    ``_split_whole`` runs it step by step (and finds a cycle if there is one). While
    every cut lies past them, each window starts after the one before: no cycle."""
    windows = _overlapping_re(size, overlap).findall(content)
    if windows and windows[-1] == "":
        return None
    return windows


def _whole(position: float) -> int:
    """A float position as a unit index for messages (0 for negative, NaN or infinite)."""
    return int(position) if 0 < position < 2**53 else 0


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float))


def _semantic(units: str, windows: _Windows, embedder: str | None, ctx: RunContext) -> None:
    if not embedder:
        windows.split(units, 0)  # without embedFn the library runs 'fixed'
        return
    parts = [p for p in _SENTENCE_CUT_RE.split(units) if trim(p)]
    if not parts:
        windows.split(units, 0)
        return
    if len(parts) == 1:
        windows.emit({"content": windows.text(trim(parts[0]))})
        return
    vectors = embed_cached(
        embedder, [windows.text(p) for p in parts], progress=ctx.progress, check=ctx.check
    )
    groups, current = [], [parts[0]]
    cut_similarities: list[float] = []  # for the reasons only
    for i in range(1, len(parts)):
        similarity = cosine(vectors[i - 1], vectors[i])
        if similarity < SIMILARITY_THRESHOLD:  # NaN makes no boundary
            if windows.notes is not None:
                cut_similarities.append(similarity)
            groups.append(current)
            current = []
        current.append(parts[i])
    groups.append(current)
    origin = 0
    for number, group in enumerate(groups):
        text = trim(" ".join(group))
        origin = max(units.find(group[0], origin), 0)
        if windows.places is not None and not units.startswith(text, origin):
            # the group's sentences are joined by one space where the document has other
            # white space (or the group was found at an earlier copy of its first
            # sentence): its windows are not the text at a place, so no place is noted
            # from here on and the run's chunks are searched for
            windows.places = None
        if windows.notes is not None:
            why.group(windows, number, cut_similarities, text)
        if len(text) > 2 * windows.size:
            windows.split(text, origin)
        else:
            windows.emit({"content": windows.text(text)})


class _Outline:
    """What 'hierarchical' reads from a text before any option counts (§2.3, steps 1-4):
    the text before the first heading and, for each heading, its level, its text, its
    body and the texts of the headings open above it, outermost first.

    One ``split`` gives them: the text before the first heading, then for each heading
    its hashes after the first, white space, text, the white space after it and its
    body, which so starts trimmed. A body keeps its trailing white space: trimming it
    would copy the text once more, and a long body is cut as it is (``_raw_window_re``).
    """

    def __init__(self, units: str, body_starts: bool = False) -> None:
        self.units = units
        pieces = _SECTION_RE.split(units)
        #: False when no heading matched: the whole content, untrimmed, is one section
        self.headed = len(pieces) > 1
        self.before_first = pieces[0]  # untrimmed
        self.sections: list[tuple[int, str, str, tuple[str, ...]]] = []
        levels: list[int] = []
        titles: list[str] = []  # the open headings, outermost first
        spaces = repeat(W_CHARS)
        for hashes, title, body in zip(
            pieces[1::5], map(str.strip, pieces[3::5], spaces), pieces[5::5]
        ):
            level = len(hashes) + 1
            while levels and levels[-1] >= level:
                levels.pop()
                titles.pop()
            self.sections.append((level, title, body, tuple(titles)))
            levels.append(level)
            titles.append(title)
        self._body_starts: list[int] | None = None
        self._title_starts: list[int] | None = None
        if body_starts:  # from the pieces' lengths; each heading's first "#" is in none
            piece_starts = list(accumulate(map(len, pieces), initial=0))
            self._body_starts = list(map(add, piece_starts[5::5], count(1)))

    def body_start(self, number: int) -> int:
        """Where the body of section ``number`` starts in the units (for hang messages)."""
        if self._body_starts is None:  # not asked for when the outline was read
            self._body_starts = [m.end() for m in _SECTION_RE.finditer(self.units)]
        return self._body_starts[number]

    def title_start(self, number: int) -> int:
        """Where the trimmed text of heading ``number`` starts in the units."""
        if self._title_starts is None:  # read the first time the app places a run
            self._title_starts = [
                m.end(3) - len(m.group(3).lstrip(W_CHARS)) for m in _SECTION_RE.finditer(self.units)
            ]
        return self._title_starts[number]


def _outline(units: str, body_starts: bool) -> _Outline:
    """The outline of ``units``, kept for a long text (reading it is nearly half of a
    run); ``body_starts``: read where bodies start too."""
    return kept("agentos.outline", units, lambda text: _Outline(text, body_starts))


@lru_cache(maxsize=8)
def _raw_window_re(size: int) -> re.Pattern[str]:
    """``_window_re`` for a body with its trailing white space: the rest is taken once
    no text (other than white space) lies size units or more on, so every window is
    the same as in the trimmed body, but the last one holds the trailing white space,
    which its trim drops. The lookahead steps back over that white space only."""
    return re.compile(
        f"(?s)(?!.{{{size}}}.*[^{W_CLASS}]).+|.{{1,{size}}}(?=[{W_CLASS}])|.{{{size}}}"
    )


def _hierarchical(units: str, windows: _Windows) -> None:
    """The outline's sections, each as one chunk or cut into windows."""
    # whole size, no overlap, no reasons: long bodies go straight to the one-regex windows
    adjacent = windows.adjacent()
    # other windows can hang, and a hang is placed from where its body starts; the app
    # places each chunk where its body or heading starts (``places``)
    places = windows.places
    outline = _outline(units, body_starts=not adjacent or places is not None)
    text, size, chunks, notes = windows.text, windows.size, windows.chunks, windows.notes
    if not outline.headed:  # no headings: the content untrimmed, as one section
        if units:
            if notes is not None:
                why.section(windows, None, 0, units, [])
            if len(units) <= size:
                if places is not None:
                    places.append(0)
                    windows.lengths.append(len(units))
                chunks.append({"content": text(units), "index": len(chunks)})
            else:
                windows.split(units, 0, base={}, extra={})
        return
    raw = outline.before_first
    preamble = trim(raw)
    if preamble:
        if notes is not None:
            why.section(windows, None, 0, preamble, [])
        if len(preamble) <= size:
            if places is not None:
                places.append(raw.find(preamble[0]))
                windows.lengths.append(len(preamble))
            chunks.append({"content": text(preamble), "index": len(chunks)})
        else:
            windows.split(preamble, raw.find(preamble[0]), base={}, extra={})
    plain = text is str  # no surrogates: the unit strings are the chunk strings
    plain_strip = windows.plain_strip
    cut: Any = None  # the windows regex, compiled for the first long body (a size past
    # the regex's repeat limit never needs it: no text is that long)
    section_starts = windows.section_starts
    for number, (level, title, body, ancestors) in enumerate(outline.sections):
        meta: dict[str, Any] = {"headingLevel": level}
        if ancestors:
            meta["ancestorHeadings"] = list(ancestors) if plain else list(map(text, ancestors))
        heading = title if plain else text(title)
        if section_starts is not None:  # its chunks follow, up to the next section's
            section_starts.append((len(chunks), {**meta, "heading": heading}))
        if adjacent and len(body) > size:  # _split_adjacent inlined: a third of the sections
            if cut is None:
                cut = _raw_window_re(size).findall
            found = cut(body)  # the body's trailing white space is in the last window
            trimmed: Any
            if places is not None:
                trimmed = _trimmed(found, plain_strip)
                windows._note_places(found, trimmed, outline.body_start(number), 0)
            else:  # each window trimmed as the loop takes it
                trimmed = (
                    map(str.strip, found) if plain_strip else map(str.strip, found, repeat(W_CHARS))
                )
            for piece in trimmed:  # a few windows: a loop costs least
                if piece:
                    chunks.append(
                        {
                            "content": piece if plain else text(piece),
                            "heading": heading,
                            "metadata": meta.copy(),
                            "index": len(chunks),
                        }
                    )
            continue
        body = body.rstrip() if plain_strip else body.rstrip(W_CHARS)
        if notes is not None:
            why.section(windows, title, level, body, list(ancestors))
        if places is not None and (not body or len(body) <= size):
            places.append(outline.body_start(number) if body else outline.title_start(number))
            windows.lengths.append(len(body) if body else len(title))
        if not body:
            chunks.append(
                {"content": heading, "heading": heading, "metadata": meta, "index": len(chunks)}
            )
        elif len(body) <= size:
            chunks.append(
                {
                    "content": body if plain else text(body),
                    "heading": heading,
                    "metadata": meta,
                    "index": len(chunks),
                }
            )
        else:
            where = outline.body_start(number)
            windows.split(body, where, base=meta, extra={"heading": heading})


#: a layout block: its kind ("code", "table" or "prose"), its text (a prose block's
#: trimmed) and where that text starts in the units
_Block = tuple[str, str, int]


def _layout_blocks(units: str) -> list[_Block]:
    """Code fences at column 0, runs of lines holding '|', and the prose between them
    (§2.5), empty prose left out: what 'layout' reads from a text before any option counts.

    Works on line offsets: a run of lines joined with LF is the slice that spans them.
    Prose runs to the next "|" or "\n```" (each found once with str.find and kept until
    passed), a table to the first line without "|".
    """
    blocks: list[_Block] = []
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


def _kept_layout_blocks(units: str) -> list[_Block]:
    """``_layout_blocks`` of ``units``, kept for a long text (finding the blocks is most
    of a run)."""
    return kept("agentos.layout-blocks", units, _layout_blocks)


def _layout(units: str, windows: _Windows) -> None:
    """Each block a chunk: code and tables whole, prose whole when it fits, else cut
    into windows."""
    text, size, chunks, notes = windows.text, windows.size, windows.chunks, windows.notes
    whole = type(size) is int and size >= 1  # a prose block that fits is one chunk
    # a text without surrogate halves needs no conversion: its slices are the chunks
    convert = text is not str
    places, lengths, plain_strip = windows.places, windows.lengths, windows.plain_strip
    block_chunks = windows.block_chunks  # where the code and table blocks are, if noted
    # whole size, no overlap, no reasons: a short prose block is cut here (see below)
    adjacent, few_windows = windows.adjacent(), _FEW_WINDOWS * (size if whole else 0)
    cut: Any = None  # the windows regex, compiled for the first long prose block
    for kind, block, start in _kept_layout_blocks(units):
        if notes is not None:
            why.block(windows, kind, len(block))
        if kind != "prose":
            if places is not None:
                places.append(start)
                lengths.append(len(block))
                if block_chunks is not None:
                    block_chunks.setdefault(kind, []).append(len(chunks))
            chunks.append(
                {
                    "content": text(block) if convert else block,
                    "metadata": {"type": kind},
                    "index": len(chunks),
                }
            )
        elif whole and len(block) <= size:
            if places is not None:
                places.append(start)
                lengths.append(len(block))
            chunks.append({"content": text(block) if convert else block, "index": len(chunks)})
        elif adjacent and len(block) < few_windows:
            # ``split`` inlined for a prose block of a few windows (most of them): the
            # plain windows tile it, each trimmed to its piece
            if cut is None:
                cut = _window_re(size).findall
            found = cut(block)
            trimmed = _trimmed(found, plain_strip)
            if places is not None:
                windows._note_places(found, trimmed, start, 0)
            for piece in trimmed:
                if piece:
                    chunks.append(
                        {"content": text(piece) if convert else piece, "index": len(chunks)}
                    )
        else:
            windows.split(block, start)


def chunking_engine(
    content: str,
    options: dict[str, Any] | None,
    embedder: str | None = None,
    ctx: RunContext | None = None,
    places: list[int] | None = None,
) -> list[dict[str, Any]]:
    """``await new ChunkingEngine().chunk(content, options)`` with ``embedFn`` = the named
    embedder (none: 'semantic' runs as 'fixed'). Returns the DocumentChunk list.
    ``places``: filled with where each chunk's content starts in the UTF-16 units, in
    chunk order, while the port knows each chunk's place."""
    return _engine_run(content, options, embedder, ctx, places).chunks


def _engine_run(
    content: str,
    options: dict[str, Any] | None,
    embedder: str | None,
    ctx: RunContext | None,
    places: list[int] | None,
) -> _Windows:
    """``chunking_engine``'s run: the windows routine, holding the chunks and what was
    noted of them (``places`` and beside them ``_Windows.lengths``, ``block_chunks`` and
    ``section_starts``)."""
    if options is None:
        raise ChunkerError("TypeError", "Cannot read properties of undefined (reading 'chunkSize')")
    strategy = options.get("strategy")
    if strategy not in STRATEGIES:
        shown = (
            "undefined"  # a missing key; a null one is String(null)
            if "strategy" not in options
            else "null"
            if strategy is None
            else (str(strategy).lower() if isinstance(strategy, bool) else str(strategy))
        )
        raise ChunkerError("Error", f'ChunkingEngine: unknown strategy "{shown}"')
    units, surrogates = unit_view(content)
    windows = _Windows(
        option(options, "chunkSize", 512), option(options, "chunkOverlap", 64), units, surrogates
    )
    if ctx is not None and ctx.explain is not None:
        windows.notes = ctx.explain
    windows.places = places
    if places is not None and strategy == "hierarchical":
        windows.section_starts = []
    elif places is not None:  # the rest carry no metadata but a layout block's
        windows.block_chunks = {}
    windows.plain_strip = _plain_strip(units)
    if strategy == "fixed":
        windows.split(units, 0)
    elif strategy == "semantic":
        _semantic(units, windows, embedder, ctx or RunContext())
    elif strategy == "hierarchical":
        _hierarchical(units, windows)
    else:
        _layout(units, windows)
    return windows


def _section_chunks(
    starts: list[tuple[int, dict[str, Any]]], count: int
) -> list[tuple[int, int, dict[str, Any]]]:
    """Each section's chunks, from the first to the next section's first (``starts``:
    ``_Windows.section_starts``; ``count``: how many chunks there are), and its metadata."""
    ends = [first for first, _ in starts[1:]] + [count]
    return [(first, end, meta) for (first, meta), end in zip(starts, ends) if end > first]


def _kind(chunk: dict[str, Any], metadata: Mapping[str, Any], strategy: str) -> str:
    """A chunk's boundary kind: a layout block's type, a section, else the strategy."""
    if "type" in metadata:
        return metadata["type"]
    return "heading" if "heading" in chunk else strategy


class PlacedChunks(list):
    """The DocumentChunk list, with where the port cut each chunk (``places``), each
    one's length there (``lengths``) and, for a strategy whose chunks carry no metadata
    but a layout block's, the chunk numbers of each kind of block (``block_chunks``; None
    for another); for 'hierarchical', each section's chunks, first to last (the last
    not included), and its metadata (``section_chunks``)."""

    def __init__(
        self,
        chunks: list[dict[str, Any]],
        places: list[int],
        lengths: list[int] | None = None,
        block_chunks: dict[str, list[int]] | None = None,
        section_chunks: list[tuple[int, int, dict[str, Any]]] | None = None,
    ) -> None:
        super().__init__(chunks)
        self.places = places
        self.lengths = lengths
        self.block_chunks = block_chunks
        self.section_chunks = section_chunks


def _kind_column(
    strategy: str, count: int, chunks_by_kind: dict[str, list[int]], typed: bool = False
) -> KindColumn:
    """Each chunk's kind: the strategy's, but for the chunks of ``chunks_by_kind`` (their
    numbers, by kind), named in the order they first come. ``typed``: those chunks carry
    their kind as their metadata's "type" (layout blocks), given once for each kind."""
    ids = np.zeros(count, dtype=np.uint32)
    chunks_by_kind = {kind: numbers for kind, numbers in chunks_by_kind.items() if numbers}
    firsts = {kind: numbers[0] for kind, numbers in chunks_by_kind.items()}
    if count > sum(map(len, chunks_by_kind.values())):  # some chunk is the strategy's own
        for numbers in chunks_by_kind.values():
            ids[numbers] = 1  # marked, to find the first unmarked one
        firsts[strategy] = int(np.argmin(ids))
    names = tuple(sorted(firsts, key=firsts.__getitem__))
    ids[:] = names.index(strategy) if strategy in firsts else 0
    for kind, numbers in chunks_by_kind.items():
        ids[numbers] = names.index(kind)
    metadata = {names.index(kind): {"type": kind} for kind in chunks_by_kind} if typed else {}
    return KindColumn(names, array("I", ids.tobytes()), metadata)


def _kinds_and_metadata(
    native: Any, strategy: str
) -> tuple[KindColumn | list[str], dict[int, dict]]:
    """Each chunk's kind and, by chunk number, the metadata its span carries: what
    ``chunk_metadata`` and ``_kind`` say. From what the port noted while it cut them
    (``PlacedChunks``), where it did, reading no chunk; else from each chunk."""
    block_chunks = getattr(native, "block_chunks", None)
    if block_chunks is not None:  # the strategy's windows, and the layout blocks
        return _kind_column(strategy, len(native), block_chunks, typed=True), {}
    section_chunks = getattr(native, "section_chunks", None)
    if section_chunks is not None:  # each section's chunks carry its metadata and heading
        by_chunk: dict[int, dict] = {}
        for first, end, meta in section_chunks:  # one object for each section
            by_chunk.update(dict.fromkeys(range(first, end), meta))
        return _kind_column(strategy, len(native), {"heading": list(by_chunk)}), by_chunk
    # a run the port did not note (``run``, not ``run_to_place``): read from each chunk.
    # Only sections and layout blocks carry more than their content and index (the
    # others are passed over in C: a dict's len)
    kinds = [strategy] * len(native)
    metadata: dict[int, dict] = {}
    for i in compress(count(), map(lt, repeat(2), map(len, native))):
        chunk = native[i]
        if "heading" in chunk or "metadata" in chunk:
            meta = chunk_metadata(chunk)
            kinds[i] = _kind(chunk, meta, strategy)
            if "heading" in chunk:
                meta["heading"] = chunk["heading"]
            if meta:
                metadata[i] = meta
    return kinds, metadata


class ChunkingEngineEntry(Entry):
    id = "agentos.ChunkingEngine"
    library = "agentos"
    title = "ChunkingEngine"
    summary = (
        "Four strategies over one fixed-window routine: fixed windows with overlap, "
        "embedding-similarity groups, heading sections, and code/table/prose blocks."
    )
    size_unit = "units"
    boundary_kinds = ("fixed", "semantic", "hierarchical", "layout", "heading", "code", "table")
    uses_embedder = True  # the semantic strategy's embedFn
    params = (
        Param(
            "strategy",
            "choice",
            "fixed",
            "how the content is cut",
            choices=STRATEGIES,
            group="Strategy",
            preset=True,
        ),
        Param(
            "chunkSize",
            "int",
            512,
            "window size in UTF-16 units (the original never returns for 0 or less)",
            1,
            100_000,
            group="Sizes",
            role="max",
        ),
        Param(
            "chunkOverlap",
            "int",
            64,
            "units each window repeats from the one before",
            0,
            100_000,
            group="Sizes",
            role="overlap",
        ),
    )

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        return self._run(document, options, ctx).chunks

    def run_to_place(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        """``run``, noting where the port cut each chunk it can tell (``spans`` reads it)."""
        places: list[int] = []
        windows = self._run(document, options, ctx, places)
        starts, count = windows.section_starts, len(windows.chunks)
        sections = None if starts is None else _section_chunks(starts, count)
        return PlacedChunks(windows.chunks, places, windows.lengths, windows.block_chunks, sections)

    def _run(
        self,
        document: Document,
        options: dict[str, Any],
        ctx: RunContext,
        places: list[int] | None = None,
    ) -> _Windows:
        try:
            return _engine_run(document.text, options, ctx.embedder, ctx, places)
        except ChunkerError as error:
            if error.name == "Hang" and error.position is not None:
                line = document.text.count("\n", 0, error.position) + 1
                error.message += f" (line {line})"
                error.args = (f"{error.name}: {error.message}",)
            raise

    def chunk_texts(self, native: Any) -> list[str]:
        return list(map(itemgetter("content"), native))

    def chunk_kind(self, chunk: Any, options: Mapping[str, Any]) -> str:
        return _kind(chunk, chunk.get("metadata") or {}, str(options.get("strategy") or "fixed"))

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> SpanTable:
        """The located spans as columns: tens of thousands of windows on a long text."""
        kinds, metadata = _kinds_and_metadata(native, str(options.get("strategy") or "fixed"))
        places = getattr(native, "places", None)
        if places is not None:
            lengths = getattr(native, "lengths", None)
            contents = ChunkTexts(native, "content")
            table = placed_table(document.text, contents, places, kinds, metadata, lengths)
            if table is not None:
                return table
        return located_table(document.text, self.chunk_texts(native), kinds, metadata)

    def code(self, options: dict[str, Any]) -> str:
        return (
            "import { ChunkingEngine } from '@framers/agentos';\n\n"
            f"const chunks = await new ChunkingEngine().chunk(text, "
            f"{js_literal(options)});\n"
        )
