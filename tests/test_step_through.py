"""The step-through mode and the reasons in the window: real widgets, the real worker."""

import html

import pytest
from PySide6.QtCore import QSettings, Qt

from chunkview.app.main_window import MainWindow
from chunkview.app.step_through import PRESENTATION_POINTS
from chunkview.core.model.document import Document
from chunkview.core.views.replay import cascade_stages

TEXT = "First paragraph here.\n\nSecond one, short.\n\n" + " ".join(f"word{i}" for i in range(30))


@pytest.fixture
def window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.select_entry("smartchunk", {"maxSize": 60, "minSize": 0})
    win.resize(1300, 800)
    win.show()
    win.set_document(Document(TEXT, None, "text"))
    qtbot.waitUntil(
        lambda: (
            win.result is not None
            and win.shown_generation == win.generation
            and not win.model.details_pending  # the reasons follow the layout
        ),
        timeout=20000,
    )
    yield win
    win.worker.stop()


def test_next_walks_to_the_next_boundary_and_shows_its_reason(qtbot, window):
    step = window.step_through
    window.step_through.toggle_action.trigger()
    assert step.isVisible() and not window.chunker.isVisible() and not window.tabs.isVisible()
    assert step.index == 0 and "Start of the text" in step.counter.text()
    assert not step.previous_button.isEnabled()
    spans = window.result.layout.spans
    qtbot.mouseClick(step.next_button, Qt.MouseButton.LeftButton)
    assert step.index == 1
    assert step.counter.text() == f"Boundary 1 of {len(spans) - 1}"
    assert "new paragraph" in step.reason.text() and "20 bytes ≤ maxSize 60" in step.reason.text()
    assert step.editor.current == spans[1].own_start
    assert step.editor.textCursor().position() == spans[1].own_start
    qtbot.keyClick(step, Qt.Key.Key_Right)
    assert step.index == 2
    assert "cut at words" in step.reason.text()
    qtbot.keyClick(step, Qt.Key.Key_Left)
    assert step.index == 1
    qtbot.keyClick(step, Qt.Key.Key_End)
    assert step.index == len(spans) - 1 and not step.next_button.isEnabled()
    assert "overlap" in step.reason.text()


def test_zoom_and_leaving_the_mode(qtbot, window):
    step = window.step_through
    step.set_active(True)
    assert step.editor.font().pointSize() == PRESENTATION_POINTS
    qtbot.keyClick(step, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert step.editor.font().pointSize() == PRESENTATION_POINTS + 2
    qtbot.keyClick(step, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert step.editor.font().pointSize() == PRESENTATION_POINTS
    qtbot.keyClick(step, Qt.Key.Key_Escape)
    assert not step.isVisible() and window.chunker.isVisible() and window.tabs.isVisible()
    assert not step.toggle_action.isChecked()


def test_a_new_result_while_stepping_keeps_the_walk_in_range(qtbot, window):
    step = window.step_through
    step.set_active(True)
    step.go_to(99)
    assert step.index == len(window.result.layout.spans) - 1
    window.params.set_value("maxSize", 400)
    qtbot.waitUntil(
        lambda: (
            window.shown_generation == window.generation
            and not window.model.details_pending
            and window.result.request.options["maxSize"] == 400
        ),
        timeout=20000,
    )
    assert step.index <= len(window.result.layout.spans) - 1
    assert step.counter.text()


def test_tooltip_says_why_a_chunk_starts_and_ends(window):
    spans = window.result.layout.spans
    tip = window.editor.tooltip_for(spans[1])
    assert "<b>starts here:</b> new paragraph" in tip
    assert "<b>ends here:</b> new paragraph, " in tip


def test_boundaries_coloured_by_reason(qtbot, window):
    assert 'href="reason"' in window.view.legend.text()
    window.view.legend.linkActivated.emit("reason")
    qtbot.wait(20)
    labels = {run.label for run in window.editor.runs() if run.kind == "boundary"}
    assert labels <= {"paragraph", "full-word", "start"} and "paragraph" in labels
    assert "full-word" in window.view.legend.text()
    assert 'href="kind"' in window.view.legend.text()
    window.view.legend.linkActivated.emit("kind")
    qtbot.wait(20)
    labels = {run.label for run in window.editor.runs() if run.kind == "boundary"}
    assert "paragraph" in labels and "full-word" not in labels


def test_chunk_table_rows_say_why_the_chunk_starts_and_ends(window):
    model = window.table.model()
    tip = model.data(model.index(1, 0), Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("<b>starts here:</b> new paragraph: at the first level")
    assert "<b>ends here:</b> new paragraph, " in tip


def test_chunk_inspector_lists_the_reasons_of_both_ends(qtbot, window):
    window.model.select_chunk(1)
    qtbot.waitUntil(lambda: window.views.inspector.shown == 1, timeout=5000)
    text = window.views.inspector.toPlainText()
    assert "Why the library cut here" in text and "What the cut falls on" not in text
    assert "starts here (paragraph): new paragraph: at the first level every paragraph" in text
    assert "ends here (paragraph): new paragraph, " in text


# ----- the cascade replay --------------------------------------------------------------------
def _chunk_with_stages(spans, at_least: int) -> int:
    return next(i for i in range(len(spans)) if len(cascade_stages(spans, i)) >= at_least)


def test_replay_shows_the_stages_of_the_chunk_in_order(qtbot, window):
    step = window.step_through
    step.set_active(True)
    spans = window.result.layout.spans
    index = _chunk_with_stages(spans, 3)
    step.go_to(index)
    expected = cascade_stages(spans, index)
    assert [s.name for s in expected] == ["gathered", "split", "overlapped"]
    step.replay.set_interval(80)
    shown = []
    step.stage_shown.connect(
        lambda i, name: shown.append(
            (name, step.editor.stage_ranges(), step.counter.text(), step.reason.text())
        )
    )
    qtbot.mouseClick(step.replay_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: step.replay.state == "done", timeout=5000)
    assert [name for name, _, _, _ in shown] == ["gathered", "split", "overlapped"]
    for k, ((_name, ranges, counter, words), stage) in enumerate(zip(shown, expected)):
        assert (stage.name, stage.start, stage.end) in ranges
        assert counter == f"Replay · step {k + 1} of 3"
        assert html.escape(stage.text.split("; ")[0]) in words
    assert ("overlapped:focus", spans[index].start, spans[index].own_start) in shown[2][1]
    assert "paragraph of 199 bytes &gt; maxSize 60" in shown[0][3]
    assert "words packed into" in shown[1][3]
    # the last stage stays on screen, with the chunk colours off, until the user moves on
    assert step.editor.stage == expected[-1] and step.editor.chunk_ranges() == {}
    assert "Replay again" in step.replay_button.text()


def test_replay_pauses_resumes_and_next_still_walks(qtbot, window):
    step = window.step_through
    step.set_active(True)
    spans = window.result.layout.spans
    index = _chunk_with_stages(spans, 3)
    step.go_to(index)
    step.replay.set_interval(1000)
    qtbot.keyClick(step, Qt.Key.Key_R)
    assert step.replay.state == "playing" and step.replay.index == 0
    assert "Pause" in step.replay_button.text()
    qtbot.mouseClick(step.replay_button, Qt.MouseButton.LeftButton)
    assert step.replay.state == "paused" and "Resume" in step.replay_button.text()
    qtbot.wait(1300)  # longer than a stage: a replay still playing would have moved on
    assert step.replay.index == 0 and step.editor.stage.name == "gathered"
    qtbot.mouseClick(step.replay_button, Qt.MouseButton.LeftButton)
    assert step.replay.state == "playing" and step.editor.stage.name == "split"
    qtbot.mouseClick(step.next_button, Qt.MouseButton.LeftButton)
    assert step.index == index + 1 and step.replay.state == "stopped"
    assert step.editor.stage is None and step.editor.stage_ranges() == []
    assert step.counter.text().startswith("Boundary") and step.editor.chunk_ranges()
    qtbot.wait(1300)  # the stopped replay shows nothing more
    assert step.editor.stage is None


def test_a_chunk_made_in_one_step_has_nothing_to_replay(qtbot, window):
    step = window.step_through
    step.set_active(True)
    step.go_to(1)  # "Second one, short.": a paragraph that fits
    assert len(cascade_stages(window.result.layout.spans, 1)) == 1
    assert not step.replay_button.isEnabled()
    qtbot.keyClick(step, Qt.Key.Key_R)
    assert step.replay.state == "stopped" and step.editor.stage is None


def test_the_title_shows_list_options_as_json_without_markup(qtbot, window):
    step = window.step_through
    step.set_active(True)
    window.params.set_value("strategies", ["paragraph", "word"])
    qtbot.waitUntil(
        lambda: (
            window.shown_generation == window.generation
            and window.result.request.options.get("strategies") == ["paragraph", "word"]
        ),
        timeout=20000,
    )
    assert 'strategies=["paragraph", "word"]' in step.title.text()
    assert step.title.textFormat() == Qt.TextFormat.PlainText
