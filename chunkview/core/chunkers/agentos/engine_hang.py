"""The hang rule of agentos ChunkingEngine's window routine F (spec/agentos.md §2.2, "The
routine can loop forever"), in one place: both F's (engine_reference.py, engine_fast.py)
ask it at the same steps and it raises ``ChunkerError("Hang")`` with the rule and the
place, where the original would never return.

F's only state is ``pos``; a call that takes a position it had before never returns. A
cycle must step back (forward steps only grow ``pos``), so on whole numbers a position
stepped back from twice is a cycle, found within 2n windows. Sizes that are not whole
numbers can also fall for ever below the text or creep on a fraction of a unit a window:
those are watched too (``Watch.step``).
"""

from __future__ import annotations

import math
from typing import Any

from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import W_CHARS, from_units, number_text

#: the most windows a creeping run (a fraction of a unit a window) is let take: about
#: ten seconds here, where the app's watchdog stops a job by default
MOST_WINDOWS = 8_000_000


def whole_position(position: float) -> int:
    """A float position as a unit index for messages (0 for negative, NaN or infinite)."""
    return int(position) if 0 < position < 2**53 else 0


class HangRule:
    """What makes F hang for one run's chunkSize and chunkOverlap (``given``: as the user
    wrote them, for messages; ``size``/``overlap``: the JS numbers), on ``source``: the
    whole input in UTF-16 units, for saying where."""

    def __init__(self, given: tuple[Any, Any], size: float, overlap: float, source: str) -> None:
        self.given = given
        self.size, self.overlap = size, overlap
        self.source = source
        #: both whole numbers: F runs on int positions (else on floats, as JS does)
        self.whole = type(size) is int and type(overlap) is int

    def watch(self, text: str, origin: int, lo: int = 0, hi: int | None = None) -> Watch:
        """The watch over one call of F on ``content`` = ``text[lo:hi]``, which starts
        at ``origin`` in the source; raises Hang at once where the call can be seen never
        to return. The watch counts positions in ``content``."""
        hi = len(text) if hi is None else hi
        size, overlap, length = self.size, self.overlap, hi - lo
        if self.whole and size < 1 and overlap >= size and length:
            # end = pos + size <= pos: the window never moves forward
            how = "stays at" if size == 0 else "keeps stepping back from"
            self.hang(
                origin,
                f"{how} position {self.where(origin)} with chunkSize {self.shown(0)} "
                f"(below 1) and chunkOverlap {self.shown(1)} >= chunkSize {self.shown(0)}",
            )
        if not self.whole and 0 < size <= overlap and length > overlap + size + 2:
            # every step back lands at or before `overlap` and every step forward is one
            # window at most, so no window reaches past overlap + size: the end
            self.hang(
                origin,
                f"keeps stepping back and never passes position "
                f"{self.where(origin, overlap + size)} with chunkOverlap {self.shown(1)} "
                f">= chunkSize {self.shown(0)}",
            )
        return Watch(self, text, origin, lo, hi)

    def where(self, origin: int, position: float = 0) -> int:
        """A position in the content as the user counts it (code points)."""
        return len(from_units(self.source[: max(origin + whole_position(position), 0)]))

    def shown(self, which: int) -> str:
        return number_text(self.given[which])

    def hang(self, unit_position: int, reason: str, never: bool = True) -> None:
        """Raise Hang at ``unit_position``; ``never``: the original would never return
        (else the reason says how long it would run)."""
        raise ChunkerError(
            "Hang",
            f"{reason}; the original library would never return" if never else reason,
            len(from_units(self.source[: max(unit_position, 0)])),
        )


class Watch:
    """One call of F watched: the positions stepped back from, and for sizes that are
    not whole numbers how far the windows got (a creep, a fall)."""

    def __init__(self, rule: HangRule, text: str, origin: int, lo: int, hi: int) -> None:
        self.rule, self.origin = rule, origin
        self.text, self.lo, self.hi = text, lo, hi  # the content: text[lo:hi]
        self.stepped_back_from: set[float] = set()
        size, overlap, length = rule.size, rule.overlap, hi - lo
        # Below this every index read is negative (undefined) and a size that is not a
        # positive whole number can only move the window further down: it never returns.
        self.floor = min(0.0, overlap) - abs(size) - 2
        self.falls = not (size >= 1 and float(size).is_integer())
        # A run that neither repeats nor falls can still creep (a fraction of a unit per
        # window), and the original returns once it reaches the end: every this many
        # windows the run is checked (``_check_creep``); on a long text no later than a
        # tenth of the windows a run is let take, so a run that wanders for ever on one is
        # stopped in seconds, not after tens of millions of windows
        self.interval = min(250_000 + 64 * length, MOST_WINDOWS // 10)
        self.check_at, self.highest_at_check = self.interval, 0.0
        self.highest = 0.0
        self.advances = 0  # windows that started further on than any before, since a check
        self.windows = 0

    def stepped_back(self, position: float, end: float) -> None:
        """The window at ``position`` cut at ``end`` and the next starts at or before
        ``position``: the second time from one position is a cycle."""
        if position not in self.stepped_back_from:
            self.stepped_back_from.add(position)
            return
        rule, origin = self.rule, self.origin
        where = rule.where(origin, position)
        if not rule.whole:
            rule.hang(
                origin + whole_position(position),
                f"keeps stepping back to position {where} with chunkSize {rule.shown(0)} "
                f"and chunkOverlap {rule.shown(1)}",
            )
        if rule.overlap >= rule.size:
            reason = (
                f"keeps stepping back from position {where} with chunkOverlap "
                f"{rule.shown(1)} >= chunkSize {rule.shown(0)}"
            )
        else:
            reason = (
                f"keeps stepping back from position {where}: the last white space in the "
                f"window lies within its first {rule.shown(1)} units (chunkOverlap), "
                f"and a run of {_run_length(self.text, self.lo + int(end), self.hi)} units "
                f"without white space follows"
            )
        rule.hang(origin + int(position), reason)

    def step(self, position: float, end: float, following: float) -> None:
        """Every window of F: the window at ``position`` cut at ``end``; the next starts
        at ``following``."""
        self.windows += 1
        if following <= position:
            self.stepped_back(position, end)
        rule = self.rule
        if self.falls and following < self.floor:
            rule.hang(
                self.origin,
                f"keeps moving the window backwards from position "
                f"{rule.where(self.origin, position)} without end with chunkSize "
                f"{rule.shown(0)} and chunkOverlap {rule.shown(1)}",
            )
        if position > self.highest:
            self.highest = position
            self.advances += 1
        if self.windows > self.check_at:
            self._check_creep()
            self.check_at += self.interval
            self.highest_at_check, self.advances = self.highest, 0

    def _check_creep(self) -> None:
        """After another ``interval`` windows: a run that would reach the end within
        ``MOST_WINDOWS`` windows at its pace runs on. Else it hangs: one that got no
        further, or only now and then a little (fractional starts wandering), would never
        return; one that creeps on at every window would, after that many windows."""
        rule, highest, windows = self.rule, self.highest, self.windows
        progress = (highest - self.highest_at_check) / self.interval  # units a window
        length = self.hi - self.lo
        needed = windows + (length - highest) / progress if progress > 0 else math.inf
        if needed <= MOST_WINDOWS:
            return
        at = self.origin + whole_position(highest)
        if self.advances < self.interval // 2:
            rule.hang(
                at,
                f"has not passed position {rule.where(self.origin, highest)} after "
                f"{windows} windows with chunkSize {rule.shown(0)} and chunkOverlap "
                f"{rule.shown(1)}",
            )
        rule.hang(
            at,
            f"creeps on about {progress:.2g} units a window with chunkSize "
            f"{rule.shown(0)} and chunkOverlap {rule.shown(1)}: about {needed:,.0f} "
            f"windows to the end, more than the {MOST_WINDOWS:,} chunkview runs "
            f"(the original library runs them all)",
            never=False,
        )


def _run_length(text: str, end: int, hi: int) -> int:
    """How many units without white space follow the cut at ``end``, before ``hi``."""
    run = end + 1
    while run < hi and text[run] not in W_CHARS:
        run += 1
    return run - end - 1
