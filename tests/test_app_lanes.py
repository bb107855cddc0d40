"""Issue 34's "seeing overlaps and chunks", in the real window: the whole extent of the
selected chunk and of the one under the mouse outlined in the editor, and the lanes view
(overlapping chunks in lanes of their own, linked to the editor both ways)."""

import time

import numpy as np
import pytest
from conftest import settle
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QTextCursor, QWheelEvent
from PySide6.QtWidgets import QApplication

from chunkview.app.main_window import DEFAULT_SAMPLE


@pytest.fixture
def overlapping(qtbot, window):
    """The sample chunked with an overlap: most chunks repeat the end of the one before."""
    window.select_entry("agentos.SemanticChunker", {"targetSize": 300, "overlap": 60})
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    return window


def repeating(window):
    """A chunk that repeats text of the one before (its extent starts before its own part)."""
    spans = window.result.layout.spans
    return next(s for s in spans if s.index > 1 and s.start < s.own_start)


def move_mouse(widget, point: QPoint) -> None:
    """A mouse move with no button down, as Qt delivers it to the widget."""
    event = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(point),
        QPointF(widget.mapToGlobal(point)),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, event)


def position_rect(editor, point: int):
    cursor = QTextCursor(editor.document())
    cursor.setPosition(editor.to_editor(point))
    return editor.cursorRect(cursor)


def test_selecting_a_chunk_outlines_its_whole_extent_overlap_included(qtbot, overlapping):
    window, editor = overlapping, overlapping.editor
    span = repeating(window)
    window.model.select_chunk(span.index)
    qtbot.waitUntil(lambda: bool(editor.outline_paths))
    (outline,) = editor.outlines()
    # the whole extent: from where its repeated text starts, not from its own part
    assert (outline.chunk, outline.start, outline.end) == (span.index, span.start, span.end)
    assert outline.start < span.own_start and not outline.hovered
    # the path drawn runs from the line the overlap starts on to the line the chunk ends on
    editor.show_position(span.start)
    editor.viewport().repaint()
    path = editor.outline_paths[outline].boundingRect()
    top, bottom = position_rect(editor, span.start), position_rect(editor, span.end - 1)
    assert top.top() >= 0 and bottom.bottom() <= editor.viewport().height()
    assert position_rect(editor, span.own_start).top() > top.top()  # the overlap: lines above
    assert abs(path.top() - top.top()) <= 2 and abs(path.bottom() - bottom.bottom()) <= 3
    # selecting none: no outline
    window.model.select_chunk(None)
    qtbot.waitUntil(lambda: not editor.outlines())
    editor.viewport().repaint()
    assert editor.outline_paths == {}


def test_hovering_a_chunk_outlines_it_dashed_and_leaving_clears_it(qtbot, overlapping):
    window, editor = overlapping, overlapping.editor
    span = repeating(window)
    editor.show_position(span.own_start)
    qtbot.wait(50)
    middle = (span.own_start + span.end) // 2
    rect = position_rect(editor, middle)
    move_mouse(editor.viewport(), rect.center())
    outlines = editor.outlines()
    assert [(o.chunk, o.start, o.end, o.hovered) for o in outlines] == [
        (span.index, span.start, span.end, True)
    ]
    editor.viewport().repaint()
    assert not editor.outline_paths[outlines[0]].isEmpty()
    # the chunk before is selected: both are outlined, the selected one solid
    window.model.select_chunk(span.index - 1)
    qtbot.waitUntil(lambda: len(editor.outlines()) == 2)
    assert {(o.chunk, o.hovered) for o in editor.outlines()} == {
        (span.index - 1, False),
        (span.index, True),
    }
    QApplication.sendEvent(editor, QEvent(QEvent.Type.Leave))
    assert [(o.chunk, o.hovered) for o in editor.outlines()] == [(span.index - 1, False)]


def open_lanes(qtbot, window):
    window.views.show_panel(window.views.lanes)
    canvas = window.views.lanes.canvas
    window.resizeDocks([window.views.lanes_dock], [180], Qt.Orientation.Vertical)
    qtbot.waitUntil(lambda: canvas.lanes is not None and canvas.isVisible())
    canvas.repaint()
    return canvas


def test_the_lanes_view_puts_overlapping_chunks_in_different_lanes(qtbot, overlapping):
    window = overlapping
    canvas = open_lanes(qtbot, window)
    spans = window.result.layout.spans
    lanes = canvas.lanes.lane.tolist()
    assert len(lanes) == len(spans) and canvas.lanes.count >= 2
    pairs = [(a, b) for a in spans for b in spans if a.index < b.index]
    meeting = [(a, b) for a, b in pairs if a.start < b.end and b.start < a.end]
    assert meeting  # the overlap makes neighbours meet
    assert all(lanes[a.index] != lanes[b.index] for a, b in meeting)
    # the image has each lane's bars: a column under a chunk's bar is drawn
    assert canvas.image is not None and canvas.image.height() >= canvas.lanes.count
    summary = window.views.lanes.summary.text()
    assert f"{len(spans):,} chunks in {canvas.lanes.count} lanes" in summary
    # a new layout: new lanes, and none when no chunk overlaps
    window.params.set_value("overlap", 0)
    settle(qtbot, window)
    qtbot.waitUntil(
        lambda: canvas.lanes is not None and len(canvas.lanes) == len(window.result.layout.spans)
    )
    qtbot.waitUntil(lambda: canvas.lanes.count == 1)


def test_lanes_are_assigned_a_slice_per_turn_and_match_all_at_once(qtbot, overlapping, monkeypatch):
    from chunkview.app import lanes_view
    from chunkview.core.views.lanes import LaneAssignment, lanes_of

    canvas = open_lanes(qtbot, overlapping)
    slices = []

    class Counted(LaneAssignment):
        def advance(self, count=None):
            slices.append(count)
            return super().advance(count)

    monkeypatch.setattr(lanes_view, "LANES_SLICE", 2)
    monkeypatch.setattr(lanes_view, "LaneAssignment", Counted)
    # overlaps deeper than one neighbour: more than two lanes, assigned over several turns
    overlapping.select_entry(
        "agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 300, "chunkOverlap": 200}
    )
    settle(qtbot, overlapping)
    result = overlapping.result
    qtbot.waitUntil(
        lambda: (
            not canvas.assigning
            and canvas.lanes is not None
            and len(canvas.lanes) == len(result.layout.spans)
        )
    )
    assert canvas.lanes.count >= 3
    assert len(slices) >= len(result.layout.spans) // 2 and set(slices) == {2}
    assert canvas.lanes.lane.tolist() == lanes_of(result.layout).lane.tolist()


def test_clicking_a_bar_selects_its_chunk_and_the_editor_scrolls_to_it(qtbot, overlapping):
    window, editor = overlapping, overlapping.editor
    canvas = open_lanes(qtbot, window)
    editor.show_position(0)
    last = window.result.layout.spans[-1]
    assert not editor.chunk_visible(last.index)
    rect = canvas.bar_rect(last.index)
    assert rect is not None
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=rect.center().toPoint())
    assert window.model.selected == last.index
    qtbot.waitUntil(lambda: editor.chunk_visible(last.index))
    assert [o.chunk for o in editor.outlines()] == [last.index]
    assert window.table.selected_chunk() == last.index
    # the lanes view outlines the selected bar; hovering another outlines it in the editor
    other = window.result.layout.spans[1]
    move_mouse(canvas, canvas.bar_rect(other.index).center().toPoint())
    assert canvas.hovered == other.index
    assert {(o.chunk, o.hovered) for o in editor.outlines()} == {
        (last.index, False),
        (other.index, True),
    }
    assert f"chunk {other.index}" in canvas.tooltip_for(other.index)


def wheel(widget, x: float, notches: int, sideways: int = 0) -> None:
    position = QPointF(x, widget.height() / 2)
    event = QWheelEvent(
        position,
        QPointF(widget.mapToGlobal(position.toPoint())),
        QPoint(0, 0),
        QPoint(120 * sideways, 120 * notches),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def test_wheel_zooms_around_the_mouse_drag_pans_and_the_view_follows_the_editor(qtbot, overlapping):
    window, editor = overlapping, overlapping.editor
    canvas = open_lanes(qtbot, window)
    length = len(window.document.text)
    assert (canvas.first, canvas.last) == (0, length)
    x = canvas.width() * 0.25
    under = canvas.point_at(x)
    wheel(canvas, x, 3)
    assert canvas.last - canvas.first < length * 0.6
    assert abs(canvas.point_at(x) - under) < 1  # the place under the mouse stays
    # a sideways swipe pans, keeping the zoom
    span, before = canvas.last - canvas.first, canvas.first
    wheel(canvas, x, 0, sideways=-2)
    assert canvas.first > before and abs(canvas.last - canvas.first - span) < 1e-6
    wheel(canvas, x, 0, sideways=2)
    assert abs(canvas.first - before) < 1e-6
    # a drag to the left shows what lies to the right
    before = canvas.first
    qtbot.mousePress(canvas, Qt.MouseButton.LeftButton, pos=QPoint(int(x), 5))
    move = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(x - 100, 5),
        QPointF(canvas.mapToGlobal(QPoint(int(x) - 100, 5))),
        Qt.MouseButton.LeftButton,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(canvas, move)
    qtbot.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=QPoint(int(x) - 100, 5))
    assert canvas.first > before
    assert window.model.selected is None  # a drag selects nothing
    # the editor scrolled to the end: the view pans to show what the editor shows
    editor.show_position(length - 1)
    qtbot.wait(20)
    first, last = editor.visible_points()
    assert canvas.first <= first and last <= canvas.last + 1
    # the editor's cursor is marked where it is
    editor.show_position(1234)
    assert canvas.cursor_point() == 1234
    # Fit shows the whole document again
    window.views.lanes.fit_button.click()
    assert (canvas.first, canvas.last) == (0, length)


def test_colour_by_reason_recolours_the_bars(qtbot, overlapping):
    canvas = open_lanes(qtbot, overlapping)
    by_kind = canvas.image.copy()
    overlapping.views.lanes.colour_by.setCurrentIndex(1)
    assert canvas.by_reason
    canvas.repaint()
    assert canvas.image != by_kind  # the sample's boundaries have reasons of other colours


def test_a_100000_chunk_layout_is_drawn_by_pixel_in_bounded_time(qtbot):
    """Drawing 100,000 chunks costs the view's width (bench/lanes.py measures it); the
    bound here is generous, for a busy machine."""
    from array import array

    from chunkview.app.lanes_view import LaneFrame, bar_pixels
    from chunkview.core.model.document import Document
    from chunkview.core.model.span_table import SpanTable
    from chunkview.core.model.spans import Layout, SizeStats
    from chunkview.core.views.lanes import lanes_of

    count, step = 100_000, 100
    text = "word " * (count * step // 5 + 50)
    starts = array("q", range(0, count * step, step))
    table = SpanTable(
        starts,
        array("q", (s + step + 30 for s in starts)),
        starts,
        ("paragraph", "heading"),
        array("I", (i % 2 for i in range(count))),
        array("B", bytes(count)),
        text,
    )
    stats = SizeStats.of([])
    layout = Layout(Document(text, None, "text"), table, [], [], [], stats, stats)
    lanes = lanes_of(layout)
    assert lanes.count == 2
    began = time.perf_counter()
    pixels = bar_pixels(layout, lanes, LaneFrame(0, len(text), 1500, 20, 2), False, 0)
    took = time.perf_counter() - began
    assert pixels.shape == (40, 1500)
    # every column of both lanes holds a bar (the chunks cover the text twice over)
    assert np.count_nonzero(pixels[5]) == 1500 and np.count_nonzero(pixels[25]) == 1500
    assert took < 1.0


def test_the_lanes_keys_select_neighbours_zoom_go_to_the_ends_and_fit(qtbot, overlapping):
    window, editor = overlapping, overlapping.editor
    canvas = open_lanes(qtbot, window)
    spans = window.result.layout.spans
    assert canvas.focusPolicy() & Qt.FocusPolicy.TabFocus
    canvas.setFocus()
    window.model.select_chunk(None)
    # none selected: Right takes the first chunk on view, then the next ones
    qtbot.keyClick(canvas, Qt.Key.Key_Right)
    assert window.model.selected == 0
    qtbot.keyClick(canvas, Qt.Key.Key_Right)
    qtbot.keyClick(canvas, Qt.Key.Key_Right)
    assert window.model.selected == 2
    qtbot.keyClick(canvas, Qt.Key.Key_Left)
    assert window.model.selected == 1
    assert [o.chunk for o in editor.outlines()] == [1]  # as a click: the editor follows
    qtbot.keyClick(canvas, Qt.Key.Key_Left)
    qtbot.keyClick(canvas, Qt.Key.Key_Left)  # past the first: stays
    assert window.model.selected == 0
    # + zooms in around the middle, - back out
    whole = canvas.last - canvas.first
    middle = (canvas.first + canvas.last) / 2
    qtbot.keyClick(canvas, Qt.Key.Key_Plus)
    qtbot.keyClick(canvas, Qt.Key.Key_Plus)
    zoomed = canvas.last - canvas.first
    assert zoomed == pytest.approx(whole / 1.25**2)
    assert (canvas.first + canvas.last) / 2 == pytest.approx(middle, abs=1)
    qtbot.keyClick(canvas, Qt.Key.Key_Minus)
    assert canvas.last - canvas.first == pytest.approx(zoomed * 1.25)
    # End and Home keep the zoom and go to the document's ends
    span = canvas.last - canvas.first
    length = len(window.document.text)
    qtbot.keyClick(canvas, Qt.Key.Key_End)
    assert canvas.last == pytest.approx(length) and canvas.last - canvas.first == pytest.approx(
        span
    )
    # Right from the last chunk stays there; Left walks back
    window.model.select_chunk(len(spans) - 1)
    qtbot.keyClick(canvas, Qt.Key.Key_Right)
    assert window.model.selected == len(spans) - 1
    qtbot.keyClick(canvas, Qt.Key.Key_Home)
    assert canvas.first == 0 and canvas.last - canvas.first == pytest.approx(span)
    qtbot.keyClick(canvas, Qt.Key.Key_F)
    assert (canvas.first, canvas.last) == (0.0, float(length))


def test_hovering_the_gutter_outlines_the_chunk_there(qtbot, overlapping):
    window, editor = overlapping, overlapping.editor
    span = repeating(window)
    editor.show_position(span.own_start)
    editor.viewport().repaint()
    gutter = editor._gutter
    gutter.repaint()
    # the chunk's number in the gutter: hovering it outlines that chunk, whole
    (y,) = [top for top, index in editor.gutter_labels if index == span.index]
    move_mouse(gutter, QPoint(2, y + 2))
    assert [(o.chunk, o.start, o.end, o.hovered) for o in editor.outlines()] == [
        (span.index, span.start, span.end, True)
    ]
    # a line with no number: the chunk at its start, as hovering its text finds it
    height = editor.fontMetrics().height()
    bands = [(top, top + height) for top, _index in editor.gutter_labels]
    unlabelled = [
        y
        for y in range(0, editor.viewport().height() - height, 4)
        if not any(top <= y < bottom for top, bottom in bands)
    ]
    assert unlabelled
    free = unlabelled[len(unlabelled) // 2]
    move_mouse(gutter, QPoint(2, free))
    expected = editor.span_at_position(editor.cursorForPosition(QPoint(0, free)).position())
    assert [o.chunk for o in editor.outlines()] == [expected.index]
    # leaving the gutter clears it; a press there selects the hovered chunk
    QApplication.sendEvent(gutter, QEvent(QEvent.Type.Leave))
    assert editor.outlines() == []
    qtbot.mouseClick(gutter, Qt.MouseButton.LeftButton, pos=QPoint(2, y + 2))
    assert window.model.selected == span.index
