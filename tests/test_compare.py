"""Boundary comparison: kept, moved (within the tolerance), added, removed."""

from chunkview.core.analysis.compare import compare_boundaries, compare_layouts, tolerance
from chunkview.core.build import build_layout
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span


def kinds(comparison):
    return [(c.kind, c.a, c.b) for c in comparison.changes]


def test_kept_moved_added_removed():
    # A: 0 100 200 300 ; B: 0 110 200 250 400 (length 500)
    result = compare_boundaries([0, 100, 200, 300], [0, 110, 200, 250, 400], 500)
    assert kinds(result) == [
        ("kept", 0, 0),
        ("moved", 100, 110),
        ("kept", 200, 200),
        ("added", None, 250),
        ("removed", 300, None),
        ("added", None, 400),
    ]
    # 250 meets B chunks of 50 (200..250) and 150 (250..400): tolerance 25 < |300 - 250|
    assert tolerance([0, 110, 200, 250, 400], 3, 500) == 25
    assert result.counts == {"kept": 2, "moved": 1, "added": 2, "removed": 1}
    assert result.summary() == "2 kept, 1 moved by 10 chars, 2 added, 1 removed"
    assert result.changes[1].distance == 10
    assert result.differences() == [110, 250, 300, 400]


def test_closest_pairs_match_first_and_each_boundary_once():
    # two A candidates near one B boundary: the nearer is moved, the other removed
    result = compare_boundaries([0, 95, 108], [0, 100], 300)
    assert ("moved", 95, 100) in kinds(result)
    assert ("removed", 108, None) in kinds(result)
    # a distance range in the summary
    spread = compare_boundaries([0, 100, 300], [0, 104, 320], 500)
    assert spread.summary() == "1 kept, 2 moved by 4-20 chars, 0 added, 0 removed"


def test_same_boundaries_are_all_kept_and_no_differences():
    result = compare_boundaries([0, 5, 9], [9, 0, 5, 5], 20)
    assert result.counts == {"kept": 3, "moved": 0, "added": 0, "removed": 0}
    assert result.differences() == []


def test_changes_between_finds_a_moved_stretch_that_crosses_the_range():
    result = compare_boundaries([0, 1000], [0, 1040], 3000)
    assert [c.kind for c in result.changes_between(1010, 1020)] == ["moved"]
    assert result.changes_between(1100, 1200) == []
    assert [c.kind for c in result.changes_between(0, 0)] == ["kept"]


def test_layouts_use_own_starts_of_placed_chunks():
    text = "aaaa bbbb cccc dddd"
    a = build_layout(
        Document(text),
        [Span(0, 0, 10, 0, "x", text[:10]), Span(1, 5, 19, 10, "x", text[5:])],
    )
    b = build_layout(
        Document(text),
        [
            Span(0, 0, 15, 0, "x", text[:15]),
            Span(1, 15, 19, 15, "x", text[15:]),
            Span(2, 15, 15, 15, "x", "zzz", "missing"),
        ],
    )
    result = compare_layouts(a, b)
    assert result.a == [0, 10] and result.b == [0, 15]
    # 15 meets B chunks of 15 and 4: tolerance 2, so 10 -> 15 is not a move
    assert kinds(result) == [("kept", 0, 0), ("removed", 10, None), ("added", None, 15)]
