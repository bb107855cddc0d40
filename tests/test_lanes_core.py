"""The lanes view's data (core/views/lanes.py): greedy lanes, bars per pixel, labels."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkview.core.model.document import Document
from chunkview.core.model.span_table import SpanTable
from chunkview.core.model.spans import Layout, SizeStats, Span
from chunkview.core.views.lanes import (
    NO_LANE,
    LaneAssignment,
    assign_lanes,
    bar_at,
    bar_labels,
    first_free,
    greedy_lanes,
    lanes_of,
    pixel_bars,
)


def layout_of(places, text="x" * 100, kinds=None):
    spans = [
        Span(i, start, end, start, (kinds or {}).get(i, "fixed"), text[start:end])
        for i, (start, end) in enumerate(places)
    ]
    stats = SizeStats.of([])
    return Layout(Document(text, None, "text"), spans, [], [], [], stats, stats)


def overlapping_pairs(starts, ends, lanes):
    """Pairs of chunks that share text and a lane (there must be none)."""
    return [
        (i, j)
        for i in range(len(starts))
        for j in range(i + 1, len(starts))
        if lanes[i] == lanes[j] != NO_LANE and starts[i] < ends[j] and starts[j] < ends[i]
    ]


def test_overlapping_chunks_take_separate_lanes_and_others_share_lane_0():
    # 0 and 1 overlap; 2 overlaps 1 only; 3 stands alone; 4, 5, 6 all meet at 45
    starts = [0, 8, 18, 30, 40, 42, 44]
    ends = [10, 20, 25, 35, 50, 48, 46]
    lanes = assign_lanes(np.array(starts), np.array(ends)).tolist()
    assert lanes == [0, 1, 0, 0, 0, 1, 2]
    assert not overlapping_pairs(starts, ends, lanes)


def test_chunks_that_only_touch_share_a_lane():
    assert assign_lanes(np.array([0, 10, 20]), np.array([10, 20, 30])).tolist() == [0, 0, 0]


def test_the_overlap_only_with_the_one_before_path_alternates():
    starts = np.arange(0, 1000, 10)
    lanes = assign_lanes(starts, starts + 14)
    assert lanes.tolist() == [k % 2 for k in range(100)]


def test_many_lanes_take_the_heaps_few_the_list():
    starts = np.arange(0, 2000, 10)
    lanes = assign_lanes(starts, starts + 195)  # each meets the nineteen before
    assert lanes.tolist() == [k % 20 for k in range(200)]
    sliced = LaneAssignment(starts, starts + 195)  # the heaps take over mid-slice
    while not sliced.advance(7):
        pass
    assert sliced.lanes.tolist() == lanes.tolist()
    lanes = assign_lanes(starts, starts + 35)  # each meets the three before
    assert lanes.tolist() == [k % 4 for k in range(200)]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 300), st.integers(0, 120)), min_size=3, max_size=80),
    st.integers(1, 7),
)
def test_slices_of_an_assignment_give_the_lanes_of_all_at_once(pieces, slice_size):
    starts = np.array([s for s, _w in pieces], dtype=np.int64)  # in any order
    ends = starts + np.array([w for _s, w in pieces], dtype=np.int64)
    assignment = LaneAssignment(starts, ends)
    turns = 0
    while not assignment.advance(slice_size):
        turns += 1
    assert assignment.lanes.tolist() == assign_lanes(starts, ends).tolist()
    order = np.lexsort((ends, starts))
    assert assignment.lanes[order].tolist() == greedy_lanes(
        starts[order].tolist(), ends[order].tolist()
    )


def test_unordered_spans_and_missing_ones():
    lanes = assign_lanes(
        np.array([20, 0, 5, 7]), np.array([30, 10, 15, 7]), np.array([True, True, True, False])
    )
    assert lanes.tolist() == [0, 0, 1, NO_LANE]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 200), st.integers(0, 40)), min_size=0, max_size=60))
def test_fast_paths_agree_with_the_reference_and_lanes_never_overlap(pieces):
    pieces.sort()
    starts = np.array([s for s, _w in pieces], dtype=np.int64)
    ends = starts + np.array([w for _s, w in pieces], dtype=np.int64)
    reference = greedy_lanes(starts.tolist(), ends.tolist())
    assert assign_lanes(starts, ends).tolist() == reference
    assert first_free(starts.tolist(), ends.tolist(), []) == reference
    assert not overlapping_pairs(starts.tolist(), ends.tolist(), reference)
    # no more lanes than chunks meeting at one point (an empty chunk meets its point)
    if len(pieces):
        depth = max(
            int(((starts <= p) & ((ends > p) | (ends == starts) & (starts == p))).sum())
            for p in range(int(ends.max()) + 1)
        )
        assert max(reference) + 1 <= max(depth, 1)


def test_lanes_of_a_layout_and_of_its_packed_table_are_the_same():
    places = [(0, 12), (10, 22), (20, 30), (30, 44), (40, 60), (58, 70)]
    layout = layout_of(places)
    lanes = lanes_of(layout)
    assert lanes.count == 2
    assert [m.tolist() for m in lanes.members] == [[0, 2, 3, 5], [1, 4]]
    packed = layout_of(places)
    packed.spans = SpanTable.from_spans(layout.spans, layout.document.text)
    assert lanes_of(packed).lane.tolist() == lanes.lane.tolist()


def test_pixel_bars_find_each_columns_chunk_and_a_short_one_inside_a_column():
    layout = layout_of([(0, 50), (50, 51), (51, 100)])
    lanes = lanes_of(layout)
    columns = pixel_bars(lanes, 0, 0, 100, 10)  # 10 points a column
    assert columns.tolist() == [0, 0, 0, 0, 0, 2, 2, 2, 2, 2]
    narrow = pixel_bars(lanes, 0, 45, 55, 10)  # a point a column
    assert narrow.tolist() == [0, 0, 0, 0, 0, 1, 2, 2, 2, 2]
    assert pixel_bars(lanes, 0, 200, 300, 4).tolist() == [-1] * 4
    assert pixel_bars(lanes, 5, 0, 100, 3).tolist() == [-1] * 3  # no such lane


def test_bar_at_a_point_and_with_slack():
    lanes = lanes_of(layout_of([(0, 10), (8, 20), (30, 40)]))
    assert bar_at(lanes, 0, 5) == 0 and bar_at(lanes, 1, 9) == 1
    assert bar_at(lanes, 0, 25) is None
    assert bar_at(lanes, 0, 27, slack=4) == 2
    assert bar_at(lanes, 3, 5) is None


def test_bar_labels_by_kind_and_by_reason_from_spans_and_columns():
    from chunkview.core.model.explain import Reason, ReasonColumns

    layout = layout_of([(0, 10), (10, 20), (20, 30)], kinds={1: "heading"})
    layout.spans[2].reason = Reason(20, "paragraph break", "a blank line")
    assert bar_labels(layout, [0, 1, 2]) == ["fixed", "heading", "fixed"]
    assert bar_labels(layout, [0, 1, 2], by_reason=True) == ["fixed", "heading", "paragraph break"]
    table = SpanTable.from_spans(layout.spans, layout.document.text)
    table.reasons = ReasonColumns(table.reasons)
    layout.spans = table
    assert bar_labels(layout, [2, 0, 1], by_reason=True) == ["paragraph break", "fixed", "heading"]
    assert bar_labels(layout, [1]) == ["heading"]
