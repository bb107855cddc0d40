"""The views on the real window, offscreen: inspector, compare, sweep, overview strip,
keyboard navigation. Real widgets, real signals, real worker threads and processes."""

import pytest
from conftest import CORPUS, settle
from PySide6.QtCore import QPoint, QSettings, Qt

from chunkview.app.main_window import DEFAULT_SAMPLE, MainWindow
from chunkview.core.batch.sweep import pool_runner
from chunkview.core.build import build_layout
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span
from chunkview.core.views.inspect import show_white_space


@pytest.fixture
def window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.select_entry("agentos.SemanticChunker", {"targetSize": 300, "overlap": 40})
    win.resize(1400, 860)
    win.show()
    yield win
    win.views.shutdown()
    win.worker.stop()


def open_sample(qtbot, win):
    assert win.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, win)


def test_inspector_shows_the_selected_chunk_exactly(qtbot, window):
    open_sample(qtbot, window)
    inspector = window.views.inspector
    assert inspector.shown is None
    layout = window.result.layout
    index = next(s.index for s in layout.spans if s.start < s.own_start)  # one with overlap
    window.model.select_chunk(index)
    span = layout.spans[index]
    text = inspector.toPlainText()
    assert inspector.shown == index and f"Chunk #{index}" in text
    assert show_white_space(span.text) in text  # exact text, white space made visible
    assert f"{span.start:,}–{span.end:,}" in text
    assert f"{len(span.text.encode('utf-8')):,} UTF-8 bytes" in text
    overlap = layout.document.text[span.start : span.own_start]
    assert f"repeats {len(overlap):,} chars" in text and show_white_space(overlap) in text
    qtbot.waitUntil(lambda: window.result.tokens is not None, timeout=20000)
    qtbot.wait(20)
    assert f"{window.result.tokens[index]:,} cl100k tokens" in inspector.toPlainText()


def test_inspector_diffs_a_normalized_chunk_against_the_source(qtbot, window):
    open_sample(qtbot, window)
    text = window.model.document.text
    # a layout whose chunk 1 the library returned with its white space rewritten
    spans = [
        Span(0, 0, 20, 0, "paragraph", text[:20]),
        Span(1, 20, 60, 20, "paragraph", " ".join(text[20:60].split()) + "!", "normalized"),
    ]
    window.result.layout = build_layout(window.model.document, spans)
    window.model.select_chunk(1)
    page = window.views.inspector.toHtml()
    plain = window.views.inspector.toPlainText()
    assert "Against the source" in plain and "only in the chunk" in plain
    assert "<s>" in page or "line-through" in page  # the source's own white space
    assert "!" in plain


def test_table_keys_move_the_editor_and_a_click_in_an_overlap_selects_its_colour(qtbot, window):
    open_sample(qtbot, window)
    window.tabs.setCurrentWidget(window.table)
    window.table.setFocus()
    window.table.select_chunk(1)
    assert window.model.selected == 1
    qtbot.keyClick(window.table, Qt.Key.Key_Down)
    assert window.model.selected == 2 and window.editor._selected == 2
    qtbot.keyClick(window.table, Qt.Key.Key_Up)
    assert window.model.selected == 1
    # a point inside chunk 2's overlap is painted in chunk 1's colour: chunk 1 it is
    spans = window.result.layout.spans
    span = next(s for s in spans if s.start < s.own_start and s.index > 0)
    window.model.select_chunk(None)
    window.editor.click_at(window.editor.to_editor(span.start))
    before = spans[span.index - 1]
    assert before.own_start <= span.start < before.end
    assert window.model.selected == before.index
    painted = window.editor.chunk_ranges()
    assert painted[before.index][0] <= span.start < painted[before.index][1]


def test_compare_with_a_second_configuration_and_step_with_f8(qtbot, window):
    open_sample(qtbot, window)
    compare = window.views.compare
    compare.set_b("mastra.chunk", {"strategy": "recursive", "maxSize": 300, "overlap": 0})
    qtbot.waitUntil(lambda: window.model.pinned is not None, timeout=30000)
    comparison = window.model.comparison()
    diff = comparison.diff
    b_starts = sorted({s.own_start for s in comparison.pinned.layout.spans})
    assert comparison.pinned.request.entry_id == "mastra.chunk" and diff.b == b_starts
    assert comparison.pinned.layout.complete  # B's worker sends whole layouts
    assert diff.summary() in compare.summary.text()
    assert window.editor._diff is diff
    # F8 steps to the next difference after the cursor, Shift+F8 back, in the editor
    places = diff.differences()
    assert len(places) >= 2
    window.editor.show_position(0)
    window.views.next_difference.trigger()
    here = window.editor.to_point(window.editor.textCursor().position())
    assert here == places[0] or (places[0] == 0 and here == places[1])
    window.views.next_difference.trigger()
    after = window.editor.to_point(window.editor.textCursor().position())
    assert after > here and after in places
    window.views.previous_difference.trigger()
    assert window.editor.to_point(window.editor.textCursor().position()) == here
    assert window.views.next_difference.shortcut().toString() == "F8"
    assert window.views.previous_difference.shortcut().toString() == "Shift+F8"
    # B follows A's options: changing A recomputes the comparison, not B
    window.params.set_value("targetSize", 120)
    settle(qtbot, window)
    assert window.model.comparison().diff.a == sorted(
        {s.own_start for s in window.result.layout.spans}
    )
    assert window.model.comparison().diff.b == b_starts


def test_side_by_side_shows_b_scrolled_with_a(qtbot, window):
    text = (CORPUS / "acorn-readme.md").read_text(encoding="utf-8")
    window.set_document(Document(text, None, "markdown"))
    settle(qtbot, window)
    window.model.pin()
    window.params.set_value("targetSize", 900)
    settle(qtbot, window)
    compare = window.views.compare
    compare.side_by_side.setChecked(True)
    qtbot.wait(50)
    b_editor = compare.b_editor
    assert b_editor.isVisible() and b_editor.toPlainText() == window.editor.toPlainText()
    assert b_editor._result is window.model.pinned
    window.editor.verticalScrollBar().setValue(window.editor.verticalScrollBar().maximum() // 2)
    qtbot.wait(50)
    a_top = window.editor.visible_points()[0]
    b_first, b_last = b_editor.visible_points()
    assert b_first <= a_top <= b_last
    compare.side_by_side.setChecked(False)
    assert not b_editor.isVisible()


def test_overview_strip_marks_the_whole_document_and_scrolls(qtbot, window):
    text = (CORPUS / "acorn-readme.md").read_text(encoding="utf-8")
    window.set_document(Document(text * 3, None, "markdown"))
    settle(qtbot, window)
    strip = window.views.overview
    window.search_box.setText("parser")
    qtbot.waitUntil(lambda: not window.searcher.running, timeout=60000)
    qtbot.waitUntil(
        lambda: "hit" in strip.bins and strip.bins["hit"].sum() == len(strip.hit_points) > 0,
        timeout=60000,
    )
    rows = strip.height()
    boundaries = strip.bins["boundary"]
    assert len(boundaries) == rows
    assert boundaries.sum() == len({s.own_start for s in window.result.layout.spans})
    assert strip.bins["hit"].sum() == len(strip.hit_points)
    # a click in the lower half scrolls the editor there
    qtbot.mouseClick(strip, Qt.MouseButton.LeftButton, pos=QPoint(5, int(rows * 0.75)))
    qtbot.wait(100)
    first, last = window.editor.visible_points()
    target = strip.point_at(rows * 0.75)
    assert first <= target <= last and first > len(text)


def test_sweep_plots_each_value_and_a_click_applies_it(qtbot, window):
    open_sample(qtbot, window)
    sweep = window.views.sweep
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("targetSize"))
    sweep.values_edit.setText("100:500:100")
    sweep.runner = pool_runner(workers=1)  # chunking processes; one, beside the other tests
    assert sweep.start()
    qtbot.waitUntil(lambda: not sweep.running, timeout=60000)
    assert [r["value"] for r in sorted(sweep.rows, key=lambda r: r["value"])] == [
        100,
        200,
        300,
        400,
        500,
    ]
    xs, ys = sweep.curves["chunks"].getData()
    assert list(xs) == [100, 200, 300, 400, 500]
    assert list(ys) == [r["chunks"] for r in sorted(sweep.rows, key=lambda r: r["value"])]
    # the current value (300) is marked; clicking the point at 100 applies 100
    assert all(m.isVisible() and m.value() == 300 for m in sweep.shown_markers())
    curve = sweep.curves["chunks"]
    point = curve.scatter.points()[0]
    curve.scatter.sigClicked.emit(curve.scatter, [point], None)
    settle(qtbot, window)
    assert window.result.request.options["targetSize"] == 100
    assert len(window.result.layout.spans) == sweep.rows_by_value()[100]["chunks"]
    assert all(m.value() == 100 for m in sweep.shown_markers())
    # another option picked for the next sweep: the plots shown, their name, their
    # marker and a click on them are still targetSize's
    max_size = window.result.request.options.get("maxSize")
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("maxSize"))
    assert sweep.plotted_param == "targetSize"
    assert sweep._value_label.text == "targetSize"  # pyqtgraph's LabelItem keeps it so
    assert all(m.value() == 100 for m in sweep.shown_markers())
    point = curve.scatter.points()[1]
    curve.scatter.sigClicked.emit(curve.scatter, [point], None)
    settle(qtbot, window)
    assert window.result.request.options["targetSize"] == 200
    assert window.result.request.options.get("maxSize") == max_size


def test_sweep_reports_bad_values_and_refused_ones(qtbot, window):
    open_sample(qtbot, window)
    sweep = window.views.sweep
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("targetSize"))
    sweep.values_edit.setText("9:1:1")
    assert not sweep.start()
    assert "start:stop:step" in sweep.message.text()

    def runner(jobs):
        for index, job in enumerate(jobs):
            if job.label == "targetSize=200":
                yield index, ChunkerError("RangeError", "no, not 200")
            else:
                yield index, job.function(*job.args)

    sweep.runner = runner
    sweep.values_edit.setText("100,200")
    assert sweep.start()
    qtbot.waitUntil(lambda: not sweep.running, timeout=60000)
    assert "1 refused" in sweep.message.text() and "RangeError" in sweep.message.text()
    assert list(sweep.curves["chunks"].getData()[0]) == [100]


def test_histogram_stacks_kinds_and_labels_each_limit_where_it_is(qtbot, window):
    window.select_entry("agentos.SemanticChunker", {"targetSize": 300, "maxSize": 600})
    open_sample(qtbot, window)
    window.tabs.setCurrentWidget(window.stats)  # drawn when its tab is shown
    histogram = window.stats.histogram
    assert histogram.limits.get("target") == 300 and histogram.limits.get("max") == 600
    for role, name in (("target", "target 300"), ("max", "maxSize 600"), ("min", "minSize")):
        line = histogram.lines[role]
        assert line.value() == histogram.limits[role]
        assert line.label.toPlainText().startswith(name)
    located = [s for s in window.result.layout.spans if s.located != "missing"]
    kinds = {s.kind for s in located}
    assert set(histogram.bars) == kinds
    total = sum(sum(bars.opts["height"]) for bars in histogram.bars.values())
    assert total == len(located)
    axis = histogram.getPlotItem().getAxis("bottom")
    assert axis.labelText == "chunk size (UTF-16 code units)"


def test_html_export_carries_the_comparison(qtbot, window, tmp_path):
    open_sample(qtbot, window)
    window.model.pin()
    window.params.set_value("targetSize", 120)
    settle(qtbot, window)
    diff = window.model.comparison().diff
    path = window.menus.export_view_as("html", str(tmp_path / "view.html"))
    page = open(path, encoding="utf-8").read()
    assert diff.summary() in page and "agentos.SemanticChunker" in page
    for kind, count in diff.counts.items():
        assert page.count(f'class="df {kind}"') == count


def test_f8_without_a_comparison_says_why(qtbot, window):
    open_sample(qtbot, window)
    assert window.views.step_difference() is None
    assert "pin a layout" in window.statusBar().currentMessage()


def test_plots_follow_the_theme(qtbot, window):
    open_sample(qtbot, window)
    window.tabs.setCurrentWidget(window.stats)  # the histogram is drawn when seen
    window.views.sweep_dock.show()
    qtbot.wait(50)
    window.set_theme("dark")
    qtbot.wait(50)
    assert window.stats.histogram.backgroundBrush().color().lightness() < 128
    assert window.views.sweep.plots_widget.backgroundBrush().color().lightness() < 128
    window.set_theme("light")
    qtbot.wait(50)
    assert window.stats.histogram.backgroundBrush().color().lightness() > 128
    assert window.views.sweep.plots_widget.backgroundBrush().color().lightness() > 128
