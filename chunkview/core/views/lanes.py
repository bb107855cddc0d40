"""The lanes view's data: each chunk a bar on the document's axis, overlapping chunks in
separate lanes (no Qt).

Lanes are assigned greedily, in order of start: a chunk goes to the lowest lane whose last
chunk ended at or before the chunk's start (interval partitioning, so no more lanes than
chunks meet at one point). The usual layout, where a chunk overlaps at most the one before,
is assigned with whole columns (numpy); any other in one pass, which a window may take a
slice at a time (``LaneAssignment``).

A paint never walks the chunks: ``pixel_bars`` finds, for each pixel column of one lane, the
chunk drawn there by binary search over that lane's starts, so drawing 100,000 chunks costs
the width of the view, not their number.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from chunkview.core.model.explain import ReasonColumns
from chunkview.core.model.span_table import SpanTable
from chunkview.core.model.spans import Layout

#: up to this many lanes, first-fit scans a list of the lanes' last ends; from the chunk
#: that opens one more, two heaps
FEW_LANES = 8
#: the lane of a chunk that is drawn in none (placed nowhere: ``located == "missing"``)
NO_LANE = -1


def assign_lanes(
    starts: np.ndarray, ends: np.ndarray, placed: np.ndarray | None = None
) -> np.ndarray:
    """The lane of each chunk (``starts``/``ends`` in code points, in any order): the lowest
    lane free at its start, taking chunks by start (then by end). A chunk not ``placed``
    gets ``NO_LANE``."""
    assignment = LaneAssignment(starts, ends, placed)
    assignment.advance()
    return assignment.lanes


class LaneAssignment:
    """``assign_lanes`` a slice at a time: ``advance(count)`` takes up to ``count`` more
    chunks, so a window spreads 100,000 deeply overlapping chunks over event-loop turns.
    The usual layouts, where no chunk meets the one two before, are assigned at once with
    whole columns; any other by first-fit over the lanes' last ends (a list scanned from
    lane 0 while the lanes are few, else a heap of busy lanes and one of free lanes)."""

    def __init__(
        self, starts: np.ndarray, ends: np.ndarray, placed: np.ndarray | None = None
    ) -> None:
        starts = np.asarray(starts, dtype=np.int64)
        ends = np.asarray(ends, dtype=np.int64)
        #: each chunk's lane, complete once ``done``
        self.lanes = np.full(len(starts), NO_LANE, dtype=np.int32)
        chosen = np.arange(len(starts)) if placed is None else np.flatnonzero(placed)
        s, e = starts[chosen], ends[chosen]
        if len(s) > 1 and not bool((s[1:] > s[:-1]).all()):  # by start, then by end
            order = np.lexsort((e, s))
            chosen, s, e = chosen[order], s[order], e[order]
        self._chosen = chosen
        self._next = 0
        self._lane_ends: list[int] = []  # first-fit's list: each lane's last end
        self._busy: list[tuple[int, int]] = []  # the heaps: (end, lane) and free lanes
        self._free: list[int] = []
        self._starts, self._ends = s, e
        self._heaps = False  # more lanes than few: the heaps took over from the list
        count = len(s)
        reach = np.maximum.accumulate(e) if count else e  # the furthest end so far
        if count < 3 or bool((s[2:] >= reach[:-2]).all()):
            # no chunk meets the one two before (nor any earlier): a run of chunks each
            # overlapping the one before alternates lanes 0 and 1 from its first, and a
            # chunk meeting nothing before it starts a run in lane 0 (both lanes free)
            meets = np.zeros(count, dtype=bool)
            meets[1:] = s[1:] < reach[:-1]
            run_first = np.maximum.accumulate(np.where(meets, 0, np.arange(count)))
            self.lanes[chosen] = (np.arange(count) - run_first) % 2
            self._next = count

    @property
    def done(self) -> bool:
        return self._next >= len(self._chosen)

    def advance(self, count: int | None = None) -> bool:
        """Assign up to ``count`` more chunks (None: all); True when all are assigned."""
        if self.done:
            return True
        stop = len(self._chosen) if count is None else min(self._next + count, len(self._chosen))
        starts = self._starts[self._next : stop].tolist()
        ends = self._ends[self._next : stop].tolist()
        found: list[int] = []
        if not self._heaps:
            found = first_free(starts, ends, self._lane_ends, FEW_LANES)
            starts, ends = starts[len(found) :], ends[len(found) :]
            if starts:  # more lanes than few: the heaps from here, the lanes as they are
                self._busy = [(last, lane) for lane, last in enumerate(self._lane_ends)]
                heapq.heapify(self._busy)
                self._heaps = True
        if starts:
            found += greedy_lanes(starts, ends, self._busy, self._free)
        # each slice's lanes written as it is assigned: the last turn no more than others
        self.lanes[self._chosen[self._next : stop]] = found
        self._next = stop
        return self.done


def greedy_lanes(
    starts: Sequence[int],
    ends: Sequence[int],
    busy: list[tuple[int, int]] | None = None,
    free: list[int] | None = None,
) -> list[int]:
    """The reference: one pass over chunks sorted by start, a heap of the busy lanes by
    their end and a heap of the free lanes by number (given: carried on from a slice
    before)."""
    busy = [] if busy is None else busy
    free = [] if free is None else free
    lanes = []
    for start, end in zip(starts, ends, strict=True):
        while busy and busy[0][0] <= start:
            heapq.heappush(free, heapq.heappop(busy)[1])
        lane = heapq.heappop(free) if free else len(busy) + len(free)
        heapq.heappush(busy, (end, lane))
        lanes.append(lane)
    return lanes


def first_free(
    starts: Sequence[int], ends: Sequence[int], lane_ends: list[int], most: int | None = None
) -> list[int]:
    """``greedy_lanes`` for few lanes: each lane's last end in ``lane_ends`` (carried on
    from a slice before), scanned from lane 0 (half the time of the heaps). Stops before
    the chunk that would open lane ``most`` (its lanes: those of the chunks before it)."""
    lanes: list[int] = []
    append = lanes.append
    for start, end in zip(starts, ends, strict=True):
        for lane, last in enumerate(lane_ends):
            if last <= start:
                lane_ends[lane] = end
                append(lane)
                break
        else:
            if len(lane_ends) == most:
                break
            append(len(lane_ends))
            lane_ends.append(end)
    return lanes


@dataclass(frozen=True)
class Lanes:
    """Every chunk's bar: its ends and lane (span order), and each lane's chunks by start."""

    starts: np.ndarray
    ends: np.ndarray
    lane: np.ndarray
    #: per lane, the indexes of its chunks sorted by start
    members: tuple[np.ndarray, ...] = field(repr=False)
    length: int

    @property
    def count(self) -> int:
        """How many lanes."""
        return len(self.members)

    def __len__(self) -> int:
        return len(self.starts)


def layout_columns(layout: Layout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Starts, ends and placed-or-not of every span, in span order (a packed layout's from
    its columns, building no span)."""
    spans = layout.spans
    if isinstance(spans, SpanTable):
        starts, ends, _own, placed, _kinds = spans.columns()
        return starts, ends, placed
    count = len(spans)
    starts = np.fromiter((s.start for s in spans), np.int64, count)
    ends = np.fromiter((s.end for s in spans), np.int64, count)
    placed = np.fromiter((s.located != "missing" for s in spans), bool, count)
    return starts, ends, placed


def lanes_of(layout: Layout) -> Lanes:
    """The lanes of a layout's chunks, at once."""
    starts, ends, placed = layout_columns(layout)
    return lanes_from(starts, ends, assign_lanes(starts, ends, placed), len(layout.document.text))


def lanes_from(starts: np.ndarray, ends: np.ndarray, lane: np.ndarray, length: int) -> Lanes:
    """The lanes of chunks whose lanes are assigned (``LaneAssignment.lanes``)."""
    count = int(lane.max()) + 1 if len(lane) else 0
    by_lane = np.argsort(lane, kind="stable")  # span order within a lane: by start mostly
    bounds = np.searchsorted(lane[by_lane], np.arange(count + 1), side="left")
    members = []
    for k in range(count):
        indexes = by_lane[bounds[k] : bounds[k + 1]]
        lane_starts = starts[indexes]
        if len(indexes) > 1 and not bool((lane_starts[1:] >= lane_starts[:-1]).all()):
            indexes = indexes[np.argsort(lane_starts, kind="stable")]
        members.append(indexes)
    return Lanes(starts, ends, lane, tuple(members), length)


def pixel_bars(lanes: Lanes, lane: int, first: float, last: float, width: int) -> np.ndarray:
    """For each of ``width`` pixel columns showing ``first..last`` (code points), the index
    of the chunk of ``lane`` drawn there, or -1: of the chunks meeting a column, the last
    to start in it (a short chunk inside a column still shows)."""
    if width <= 0 or not 0 <= lane < lanes.count or last <= first:
        return np.full(max(width, 0), -1, dtype=np.int64)
    members = lanes.members[lane]
    starts, ends = lanes.starts[members], lanes.ends[members]
    step = (last - first) / width
    left = first + step * np.arange(width)
    right = left + step
    j = np.searchsorted(starts, right, side="left") - 1
    shown = j >= 0
    j = np.clip(j, 0, None)
    # a column meets a bar that reaches past its left edge; a zero-width one at its place
    meets = (ends[j] > left) | ((ends[j] == starts[j]) & (starts[j] >= left))
    return np.where(shown & meets, members[j], -1)


def bar_at(lanes: Lanes, lane: int, point: float, slack: float = 0.0) -> int | None:
    """The chunk of ``lane`` under ``point`` (code points), or within ``slack`` of it."""
    if not 0 <= lane < lanes.count:
        return None
    members = lanes.members[lane]
    starts, ends = lanes.starts[members], lanes.ends[members]
    j = int(np.searchsorted(starts, point + slack, side="right")) - 1
    # the chunk starting last at or before the point, else the one just after it
    for k in (j, j + 1):
        if 0 <= k < len(members) and starts[k] - slack <= point < ends[k] + slack:
            return int(members[k])
    if 0 <= j < len(members) and starts[j] == ends[j] and abs(starts[j] - point) <= slack:
        return int(members[j])
    return None


def bar_labels(layout: Layout, indexes: Sequence[int], by_reason: bool = False) -> list[str]:
    """What each bar of ``indexes`` is coloured by: its kind, or with ``by_reason`` the rule
    of its boundary's reason (its kind when it has none), as ``boundary_label`` says. A
    packed layout's are read from its columns, building no span."""
    spans = layout.spans
    if not isinstance(spans, SpanTable):
        return [
            s.reason.rule if by_reason and s.reason is not None else s.kind
            for s in (spans[i] for i in indexes)
        ]
    kinds = [spans.kinds[spans.kind_ids[i]] for i in indexes]
    if not by_reason or not spans.reasons:
        return kinds
    reasons = spans.reasons
    if isinstance(reasons, ReasonColumns) and len(reasons.indexes):
        known = np.frombuffer(reasons.indexes, np.int64)
        wanted = np.asarray(indexes, dtype=np.int64)
        at = np.clip(np.searchsorted(known, wanted), 0, len(known) - 1)
        rule_ids = np.frombuffer(reasons.rule_ids, np.uint32)[at].tolist()
        found = (known[at] == wanted).tolist()
        return [
            reasons.rules[rule] if has else kind
            for rule, has, kind in zip(rule_ids, found, kinds, strict=True)
        ]
    labels = []
    for i, kind in zip(indexes, kinds, strict=True):
        reason = reasons.get(i)
        labels.append(reason.rule if reason is not None else kind)
    return labels
