"""Issue 34's option controls, in the real window: log-scale sliders, option history,
notes on contradicting settings, stale layouts, zoom and presentation mode."""

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
