"""The Sweep dock's room: opened, it leaves the editor most of the window; its plots stand
in rows that fill the dock's width (no empty cell) at the widths a user gives it, docked or
floated, under titles that fit. Real window, real chunking processes, offscreen."""

from __future__ import annotations

import pytest
from conftest import settle

from chunkview.app.files import DEFAULT_SAMPLE
from chunkview.app.settings import DEFAULT_SIZE
from chunkview.app.small_multiples import best_rows, row_counts
from chunkview.app.sweep_panel import RETRIEVAL
from chunkview.core.analysis.eval import Question, Reference
from chunkview.core.batch.sweep import pool_runner


@pytest.mark.parametrize(
    ("count", "width", "height"),
    [(7, 1400, 220), (7, 1280, 200), (5, 1400, 220), (7, 700, 460), (7, 480, 640)],
)
def test_the_rows_hold_every_plot_with_no_empty_cell(count, width, height):
    counts = best_rows(count, width, height)
    assert sum(counts) == count
    assert max(counts) - min(counts) <= 1  # a shorter row has wider plots, no hole
    if width / height > 4:  # a wide, low dock: one row of small multiples
        assert counts == [count]
    else:  # floated, squarer: more rows, each plot still readable
        assert len(counts) > 1
        assert width / max(counts) >= 150 and height / len(counts) >= 100
    assert row_counts(7, 2) == [4, 3] and row_counts(5, 3) == [2, 2, 1]


def test_the_sweep_dock_leaves_the_editor_most_of_the_window(qtbot, window):
    window.resize(*DEFAULT_SIZE)
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    views = window.views
    entries = {a.text().replace("&", ""): a for a in window.menus.menus[3].actions()}
    entries["Sweep an Option"].trigger()  # as a user opens it
    qtbot.waitUntil(views.sweep.plots_widget.isVisible)
    qtbot.wait(50)
    # left to Qt the dock took about half the window: the editor had some 340 px of 860
    editor = window.editor.viewport().height()
    assert editor >= 0.5 * window.height(), (editor, views.sweep_dock.height())
    assert views.sweep_dock.height() <= 0.36 * window.height()
    # and its plots still read: one row of them, each taller than the least
    sweep = views.sweep
    assert sweep.row_counts == [len(sweep.shown_plots())]
    viewbox = sweep.plots["chunks"].getViewBox().sceneBoundingRect()
    assert viewbox.height() >= 100 and viewbox.width() >= 100


def test_a_users_dock_height_stands_on_the_next_launch(qtbot, window):
    from PySide6.QtCore import Qt

    from chunkview.app.main_window import MainWindow

    views = window.views
    views.show_panel(views.sweep)
    qtbot.waitUntil(views.sweep_dock.isVisible)
    window.resizeDocks([views.sweep_dock], [420], Qt.Orientation.Vertical)
    qtbot.wait(50)
    height = views.sweep_dock.height()
    assert height > 0.4 * window.height()  # taller than it opens at
    window.remember_session()
    again = MainWindow(window.settings)
    qtbot.addWidget(again)
    again.show()
    try:
        qtbot.waitUntil(again.views.sweep_dock.isVisible)
        qtbot.wait(50)
        restored = again.views.sweep_dock.height()
        # as it was left (give or take the window's own restoring), not a third again
        assert restored > 0.38 * again.height(), (restored, height, again.height())
    finally:
        again.views.shutdown()
        again.worker.stop()


def fills_its_rows(sweep) -> None:
    """Every plot on view in a row that spans the plots' width, the rows one under the
    other, the plots of a row as wide as each other, each title within its plot."""
    shown = [sweep.plots[title] for title in sweep.shown_plots()]
    assert all(plot.isVisible() for plot in shown)
    assert sum(sweep.row_counts) == len(shown)
    width = sweep.plots_widget.width()
    start = 0
    bottoms = []
    for count in sweep.row_counts:
        row = [plot.sceneBoundingRect() for plot in shown[start : start + count]]
        start += count
        assert row[0].left() <= 4 and row[-1].right() >= width - 4, (row, width)
        widths = [rect.width() for rect in row]
        assert max(widths) - min(widths) <= 2, widths
        for left, right in zip(row, row[1:]):
            assert 0 <= right.left() - left.right() <= 12  # side by side, no hole
        assert len({round(rect.top()) for rect in row}) == 1
        bottoms.append(row[0].bottom())
    assert bottoms == sorted(bottoms)
    for plot in shown:
        title = plot.titleLabel.sceneBoundingRect()
        box = plot.sceneBoundingRect()
        assert box.left() - 1 <= title.left() and title.right() <= box.right() + 1, (
            plot.titleLabel.text
        )


def test_the_plots_fill_the_dock_at_two_widths_docked_and_floated(qtbot, window, tmp_path):
    window.resize(*DEFAULT_SIZE)
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    views = window.views
    sweep = views.sweep
    text = window.document.text
    answer = "Most chunkers take three numbers"
    start = text.index(answer)
    views.eval_panel.set_questions(
        [Question("Which sizes?", (Reference(answer, start, start + len(answer)),))]
    )
    views.show_panel(sweep)
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("targetSize"))
    sweep.values_edit.setText("150,400,1000")
    sweep.runner = pool_runner(workers=1)  # chunking processes, one beside the other tests
    assert not sweep.progress.isVisible()  # the bar shows while a sweep runs, only
    assert sweep.start()
    assert sweep.progress.isVisible()
    qtbot.waitUntil(lambda: not sweep.running, timeout=60000)
    assert not sweep.progress.isVisible()
    assert set(RETRIEVAL) <= set(sweep.shown_plots()) and len(sweep.shown_plots()) == 7
    # the message beside the buttons: a line of its own would cost the plots its height
    assert sweep.message.y() < sweep.run_button.geometry().bottom()
    # the option named once, under the plots
    assert sweep._value_label is not None and "targetSize" in sweep._value_label.text
    qtbot.wait(50)
    assert sweep.row_counts == [7]
    fills_its_rows(sweep)
    window.grab().save(str(tmp_path / "docked.png"))
    # floated and resized squarer: more rows, still no hole
    dock = views.sweep_dock
    dock.setFloating(True)
    dock.resize(640, 560)
    qtbot.waitUntil(lambda: len(sweep.row_counts) > 1)
    qtbot.wait(50)
    fills_its_rows(sweep)
    assert sweep.message.y() > sweep.run_button.geometry().bottom()  # under the buttons
    dock.grab().save(str(tmp_path / "floated.png"))
    # a click on a point still applies its value, in any row
    curve = sweep.curves["warnings"]
    point = curve.scatter.points()[0]
    curve.scatter.sigClicked.emit(curve.scatter, [point], None)
    settle(qtbot, window)
    assert window.result.request.options["targetSize"] == 150
    assert all(m.isVisible() and m.value() == 150 for m in sweep.shown_markers())
    # the value axes agree, set on each plot (not linked by their place on the screen)
    ranges = {tuple(round(v) for v in sweep.plots[t].viewRange()[0]) for t in sweep.shown_plots()}
    assert len(ranges) == 1
    low, high = ranges.pop()
    assert low < 150 and 1000 < high < 1100
