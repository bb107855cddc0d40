"""Compare's details (issue 34): the inspector follows the difference stepped to, side by
side opens in step with A, options shown as JSON, and Stop resets every control."""

import json

import pytest
from conftest import CORPUS, settle

from chunkview.app.main_window import DEFAULT_SAMPLE
from chunkview.core.model.document import Document


def pinned_and_changed(qtbot, window):
    """The sample, its layout pinned as B, then A with other options."""
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    window.model.pin(True)
    window.params.set_values({"targetSize": 100, "minSize": 10, "overlap": 0})
    settle(qtbot, window)
    return window.views.compare


def test_the_inspector_follows_the_current_difference(qtbot, window):
    compare = pinned_and_changed(qtbot, window)
    inspector = window.views.inspector
    places = window.model.targets("difference")
    assert len(places) >= 3
    window.editor.show_position(0)
    for n in range(3):
        found = compare.step(forward=True)
        assert found == places[n] or (places[0] == 0 and found == places[n + 1])
        chunk = window.model.chunk_at(found)
        span = window.result.layout.spans[chunk]
        assert span.own_start <= found < span.end
        assert window.model.selected == chunk and inspector.shown == chunk
        assert f"Chunk #{chunk}" in inspector.toPlainText()
        # the cursor stands on the difference, not on the chunk's start
        assert window.editor.to_point(window.editor.textCursor().position()) == found
    back = compare.step(forward=False)
    assert window.model.selected == window.model.chunk_at(back) == inspector.shown


@pytest.mark.parametrize("wrapped", [True, False])
def test_side_by_side_opens_scrolled_to_where_a_is(qtbot, window, wrapped):
    # short lines: A's scroll bar stays put as B's column narrows it
    text = (
        (CORPUS / "acorn-readme.md").read_text(encoding="utf-8")
        if wrapped
        else "".join(f"line {n} of a text in short lines.\n" for n in range(3000))
    )
    window.set_document(Document(text, None, "markdown"))
    settle(qtbot, window)
    window.model.pin()
    window.params.set_value("targetSize", 900)
    settle(qtbot, window)
    bar = window.editor.verticalScrollBar()
    bar.setValue(bar.maximum() * 2 // 3)  # A well down the text before B is shown
    qtbot.wait(20)
    a_top = window.editor.visible_points()[0]
    assert a_top > len(text) // 3
    compare = window.views.compare
    compare.side_by_side.setChecked(True)
    b_editor = compare.b_editor
    # in step as it opens (a long text: as soon as B's editor holds that far), not only
    # after the next scroll or re-wrap
    assert b_editor.isVisible()
    qtbot.waitUntil(lambda: not b_editor.loading)
    b_first, b_last = b_editor.visible_points()
    assert b_first <= a_top <= b_last
    qtbot.wait(50)  # and still once the narrower editors have wrapped again
    b_first, b_last = b_editor.visible_points()
    assert b_first <= window.editor.visible_points()[0] <= b_last


def test_compare_shows_option_values_as_json(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    heading = next(p for p in window.model.entry.params if p.name == "respectHeadings")
    window.params.set_value("respectHeadings", not heading.default)  # a JSON true or false
    settle(qtbot, window)
    compare = pinned_and_changed(qtbot, window)
    b_options = window.model.pinned.request.options
    assert any(isinstance(v, bool) or v is None for v in b_options.values())  # true / null
    shown = json.dumps(b_options, separators=(", ", ": "))
    summary = compare.summary.text()
    assert shown.replace('"', "&quot;") in summary or shown in summary
    assert "True" not in summary and "None" not in summary and "'" not in summary
    label = window.compare_label.text()
    assert shown in label or shown.replace('"', "&quot;") in label


def test_stop_resets_every_control(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    compare = window.views.compare
    compare.set_b("mastra.chunk", {"strategy": "recursive", "maxSize": 300, "overlap": 0})
    qtbot.waitUntil(lambda: window.model.pinned is not None, timeout=30000)
    compare.side_by_side.setChecked(True)
    window.editor.show_position(0)
    compare.step(forward=True)
    assert compare.position_label.text().startswith("difference 1 of")
    assert compare.stop_button.isEnabled()
    assert compare.config_box.isEnabled() and not compare.pin_button.isEnabled()
    compare.stop_button.click()
    settle(qtbot, window)
    assert window.model.pinned is None and window.model.b_source == "pinned"
    assert compare.pinned_radio.isChecked() and not compare.config_radio.isChecked()
    assert not compare.config_box.isEnabled() and compare.pin_button.isEnabled()
    assert not compare.side_by_side.isChecked() and not compare.b_editor.isVisible()
    assert compare.position_label.text() == ""
    assert not compare.previous_button.isEnabled() and not compare.next_button.isEnabled()
    assert window.editor._current_difference is None
    assert compare.summary.text().startswith("Pin a layout")
    assert not compare.stop_button.isEnabled()  # nothing left to stop
    # B's configuration is the shown chunker's again, at the shown options
    assert compare.entry_combo.currentData() == window.model.entry_id
    assert compare.params.options() == window.params.options()
    assert not window.pin_button.isChecked() and window.compare_label.isHidden()
    qtbot.wait(300)
    assert window.model.pinned is None  # nothing ran B again
