"""Issue 34's option controls, in the real window: log-scale sliders, option history,
notes on contradicting settings, stale layouts, zoom and presentation mode."""

import pytest
from conftest import settle
from PySide6.QtCore import Qt

from chunkview.app.main_window import DEFAULT_SAMPLE
from chunkview.app.params import SLIDER_POSITIONS


def slider_values(window, name):
    """The option's value with its slider at 10%, 50% and 90% of the track."""
    field = window.params.field(name)
    values = []
    for fraction in (0.1, 0.5, 0.9):
        field.slider.setValue(round(fraction * SLIDER_POSITIONS))
        values.append(field.get())
    return values


def test_size_sliders_are_logarithmic_to_the_document_length(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    length = window.document.points_to_units(len(window.document.text))
    target = window.params.field("targetSize")
    assert target.slider.scale.top == length
    low, middle, high = slider_values(window, "targetSize")
    # the everyday sizes take most of the track: tens at 10%, hundreds from the middle
    assert 2 <= low <= 20 and 100 <= middle <= 300 and 800 <= high <= length
    settle(qtbot, window)
    assert window.result.request.options["targetSize"] == high

    window.select_entry("mastra.chunk")
    settle(qtbot, window)
    low, middle, high = slider_values(window, "maxSize")
    assert window.params.field("maxSize").slider.scale.top == length
    assert 2 <= low <= 20 and 100 <= middle <= 300 and 800 <= high <= length


def test_number_box_stays_exact_and_keys_step(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    field = window.params.field("targetSize")
    field.spin.setValue(1234)
    assert field.get() == 1234  # the slider's rounding never reaches the box
    position = field.slider.value()
    field.slider.setFocus()
    qtbot.keyClick(field.slider, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert field.get() == 1235 and field.slider.value() in (position, position + 1)
    qtbot.keyClick(field.slider, Qt.Key.Key_Right)
    coarse = field.get()
    assert 1260 < coarse < 1500  # a few percent on the log scale
    qtbot.keyClick(field.slider, Qt.Key.Key_Left)
    assert abs(field.get() - 1235) <= 5
    field.spin.setValue(5)
    qtbot.keyClick(field.slider, Qt.Key.Key_Left)
    assert 1 <= field.get() < 5  # the low end moves too


def test_slider_range_follows_the_document(qtbot, window):
    from chunkview.core.model.document import Document

    window.set_document(Document("word " * 100, None, "text"))
    settle(qtbot, window)
    assert window.params.field("targetSize").slider.scale.top == 500
    window.set_document(Document("word " * 4000, None, "text"))
    settle(qtbot, window)
    assert window.params.field("targetSize").slider.scale.top == 20000
    assert window.params.field("targetSize").get() == 1000  # the value is kept


def test_back_and_forward_walk_the_settings_tried(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    history = window.chunker.history
    history.settle_seconds = 0  # each change below stands long enough to be a step
    assert not history.back_action.isEnabled()
    for size in (200, 600):
        window.params.set_value("targetSize", size)
        settle(qtbot, window)
    bounds_600 = [s.start for s in window.result.layout.spans]
    assert len(history.steps) == 3 and history.back_action.isEnabled()
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    settle(qtbot, window)
    assert window.result.request.options["targetSize"] == 200
    assert window.params.field("targetSize").get() == 200
    assert history.forward_action.isEnabled()
    window.chunker.back_button.click()
    settle(qtbot, window)
    assert "targetSize" not in window.result.request.options  # the default, 1000
    assert not history.back_action.isEnabled()
    window.chunker.forward_button.click()
    settle(qtbot, window)
    qtbot.keyClick(window.editor, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    settle(qtbot, window)
    assert window.result.request.options["targetSize"] == 600
    assert [s.start for s in window.result.layout.spans] == bounds_600
    assert not history.forward_action.isEnabled()
    assert len(history.steps) == 3  # walking adds no steps
    # a new setting after Back drops the steps ahead
    history.back()
    settle(qtbot, window)
    window.params.set_value("overlap", 0)
    settle(qtbot, window)
    assert len(history.steps) == 3 and history.steps[-1][1]["overlap"] == 0
    # another chunker is a step too, and Back returns to SemanticChunker with its options
    window.select_entry("mastra.chunk")
    settle(qtbot, window)
    history.back()
    settle(qtbot, window)
    assert window.model.entry_id == "agentos.SemanticChunker"
    assert window.result.request.options["overlap"] == 0


def test_a_drag_is_one_step(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    history = window.chunker.history
    for size in range(300, 320):
        window.params.set_value("targetSize", size)
        settle(qtbot, window)
    assert history.back_action.isEnabled()  # the drag's end is a step once it stands
    qtbot.waitUntil(lambda: len(history.steps) == 2, timeout=5000)
    assert history.steps[-1][1] == {"targetSize": 319}


@pytest.mark.parametrize(
    "options, words",
    [
        ({"targetSize": 3000}, "targetSize (3000) is above maxSize (2000)"),
        ({"minSize": 500, "targetSize": 300}, "minSize (500) is above targetSize (300)"),
        ({"overlap": 150, "targetSize": 300}, "overlap (150) is half of targetSize (300)"),
    ],
)
def test_contradicting_settings_get_a_note_not_an_error(qtbot, window, options, words):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    note = window.chunker.note_label
    assert not note.isVisible()
    window.params.set_values(options)
    settle(qtbot, window)
    assert note.isVisible() and words in note.text()
    assert not window.error_label.isVisible()
    assert window.result.request.options == options  # the run went ahead
    window.params.reset()
    settle(qtbot, window)
    assert not note.isVisible()


def test_turn_counts_are_not_compared_with_sizes():
    from chunkview.app.option_notes import contradictions
    from chunkview.core import registry

    turns = registry.get("agentos.chunkTurns")
    assert contradictions(turns, {"maxChars": 10, "overlapTurns": 8}) == []
    engine = registry.get("agentos.ChunkingEngine")
    assert contradictions(engine, {"chunkSize": 100, "chunkOverlap": 50})


def veils(window):
    return window.views.stale.veils


def test_a_hang_leaves_the_last_good_layout_dimmed_and_labelled(qtbot, window):
    from chunkview.core.model.document import Document

    window.select_entry("agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 300})
    window.set_document(Document("word " * 400, None, "text"))
    settle(qtbot, window)
    window.tabs.setCurrentWidget(window.stats)
    good = [(s.start, s.end) for s in window.result.layout.spans]
    assert not window.views.stale.stale
    assert window.stats.histogram.lines["max"].value() == 300
    window.params.set_value("chunkSize", -5)
    settle(qtbot, window)
    assert window.model.failure is not None and window.model.failure.name == "Hang"
    # the old layout stays, dimmed and labelled, in every view of it
    assert [(s.start, s.end) for s in window.result.layout.spans] == good
    label = 'last good: agentos.ChunkingEngine {"strategy": "fixed", "chunkSize": 300}'
    assert window.views.stale.label == label
    covered = {veil.target for veil in veils(window) if not veil.isHidden()}
    assert covered == {
        window.editor,
        window.table,
        window.stats,
        window.views.overview,
        window.views.lanes.canvas,
    }
    # the histogram's lines are those of the layout shown, not of the failed settings
    assert window.stats.histogram.lines["max"].value() == 300
    status = window.status_line.run_label.text()
    assert status.startswith("Hang: ") and "Error" not in status.split(":")[0]
    # a good run of the current settings lifts the veil, with its own lines
    window.params.set_value("chunkSize", 200)
    settle(qtbot, window)
    assert not window.views.stale.stale
    assert all(veil.isHidden() for veil in veils(window))
    assert window.stats.histogram.lines["max"].value() == 200


def test_another_chunker_that_fails_names_the_layout_shown(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    window.tabs.setCurrentWidget(window.stats)
    window.select_entry("agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": -5})
    settle(qtbot, window)
    assert window.model.failure is not None
    assert window.views.stale.label.startswith("last good: agentos.SemanticChunker ")
    # SemanticChunker's lines, for SemanticChunker's layout, labelled as such
    assert set(window.stats.histogram.lines) == {"target", "max", "min"}


def point_size(widget):
    return widget.font().pointSizeF()


def test_zoom_keys_and_ctrl_wheel_grow_the_editor_and_results_and_are_remembered(
    qtbot, window, tmp_path
):
    from PySide6.QtCore import QPoint, QPointF, QSettings
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    from chunkview.app.main_window import MainWindow

    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    editor, table = window.editor, window.table
    editor_before, table_before = point_size(editor), point_size(table)
    window.editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert point_size(editor) > editor_before * 1.15
    assert point_size(table) > table_before * 1.15
    assert table.verticalHeader().defaultSectionSize() > table.fontMetrics().height()
    wheel = QWheelEvent(
        QPointF(50, 50),
        QPointF(editor.mapToGlobal(QPoint(50, 50))),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.ControlModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(editor.viewport(), wheel)
    assert window.presentation.steps == 3
    qtbot.keyClick(editor, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert window.presentation.steps == 2
    zoomed = point_size(editor)
    qtbot.keyClick(editor, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert point_size(editor) == editor_before and point_size(table) == table_before
    window.presentation.zoom(2)
    window.close()
    # a new window on the same settings opens at the same zoom
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    again = MainWindow(settings)
    qtbot.addWidget(again)
    try:
        assert again.presentation.steps == 2 and point_size(again.editor) == zoomed
        again.presentation.zoom_reset.trigger()
        assert point_size(again.editor) == editor_before
    finally:
        again.views.shutdown()
        again.worker.stop()


def test_presentation_mode_is_large_with_the_options_panel_and_step_through(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    label = window.params.field_widget("targetSize")
    combo = window.chunker.entry_combo
    sizes = {w: point_size(w) for w in (window.editor, window.table, label, combo)}
    bar = window.editor.bar_width
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_F5)
    assert window.presentation.presenting
    for widget, before in sizes.items():
        assert point_size(widget) >= before * 1.5, widget
    assert window.chunker.isVisible() and window.params.isVisible()  # the options panel
    assert window.editor.bar_width > bar
    assert not window.views.inspector.isVisible()
    assert window.table.isColumnHidden(2) and not window.table.isColumnHidden(0)
    # the text the room reads takes half the width
    panel, text, results = window.splitter.sizes()
    assert text >= (panel + text + results) * 0.5
    # a teacher drags a value and the room sees the boundaries move
    window.params.set_value("targetSize", 300)
    settle(qtbot, window)
    assert window.result.request.options["targetSize"] == 300
    # step-through works inside, and its Esc leaves it before presentation mode
    qtbot.keyClick(window.editor, Qt.Key.Key_F9)
    assert window.step_through.active
    window.step_through.next()
    assert window.step_through.index == 1
    qtbot.keyClick(window.step_through, Qt.Key.Key_Escape)
    assert not window.step_through.active and window.presentation.presenting
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_F11)
    assert window.isFullScreen()
    qtbot.keyClick(window.editor, Qt.Key.Key_Escape)
    assert not window.presentation.presenting and not window.isFullScreen()
    for widget, before in sizes.items():
        assert point_size(widget) == before, widget
    assert window.editor.bar_width == bar and not window.table.isColumnHidden(2)
    assert window.views.inspector.isVisible()


def test_every_boundary_kind_of_an_entry_has_its_own_colour(qtbot, window):
    from chunkview.app import theme
    from chunkview.core import registry
    from chunkview.core.views.kind_colours import kind_colours

    window.select_entry("smartchunk")
    colours = {theme.kind_colour(k).name() for k in registry.get("smartchunk").boundary_kinds}
    assert len(colours) == len(registry.get("smartchunk").boundary_kinds)
    assert theme.kind_colour("paragraph") != theme.kind_colour("grapheme")
    for entry in registry.entries():
        chosen = kind_colours(entry.boundary_kinds)
        assert len(set(chosen.values())) == len(entry.boundary_kinds), entry.id


def test_compare_says_difference_n_of_n_and_highlights_it(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    compare = window.views.compare
    window.model.pin(True)  # this layout becomes B
    window.params.set_values({"targetSize": 100, "minSize": 10, "overlap": 0})
    settle(qtbot, window)
    places = window.model.targets("difference")
    assert len(places) >= 2
    assert compare.position_label.text() == f"{len(places)} differences"
    window.editor.show_position(0)
    assert compare.step(forward=True) == places[0]
    assert compare.position_label.text() == f"difference 1 of {len(places)}"
    window.views.step_difference(forward=True)
    assert compare.position_label.text() == f"difference 2 of {len(places)}"
    assert window.editor._current_difference == places[1]
    assert compare.b_editor._current_difference == places[1]
    window.model.pin(False)
    settle(qtbot, window)
    assert compare.position_label.text() == "" and window.editor._current_difference is None


def test_sweep_names_the_size_unit_as_stats_does(qtbot, window):
    from chunkview.core.batch.sweep import sweep_point
    from chunkview.core.model.document import Document

    text = "é" * 50 + "\n\n" + "ü" * 50 + "\n"
    row = sweep_point("smartchunk", Document(text, None, "text"), {}, "maxSize", 120)
    # smartchunk counts UTF-8 bytes: so does the sweep's median, as Stats does
    assert row["median"] >= 100
    window.select_entry("smartchunk")
    panel = window.views.sweep
    window.views.show_panel(panel)
    qtbot.waitUntil(lambda: bool(getattr(panel, "_plots", None)))
    title = panel.plots["size"].titleLabel.text
    assert "UTF-8 bytes" in title and "chars" not in title
