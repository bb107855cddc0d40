"""The result tabs at laptop widths, the Sweep and Retrieval eval docks, and a sweep that
plots the retrieval means of the Eval panel's questions. Real window, real worker, real
chunking processes, offscreen."""

from __future__ import annotations

from conftest import settle
from PySide6.QtWidgets import QTabBar

from chunkview.app.files import DEFAULT_SAMPLE
from chunkview.app.sweep_panel import RETRIEVAL
from chunkview.core.analysis.eval import Question, Reference
from chunkview.core.batch.eval_point import eval_point
from chunkview.core.batch.sweep import pool_runner


def open_sample(qtbot, window) -> None:
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)


def test_every_result_tab_fits_without_scroll_arrows_at_laptop_widths(qtbot, window, tmp_path):
    open_sample(qtbot, window)
    # counts in the titles make them widest: a search with hits, and warnings
    window.search_box.setText("chunk")
    qtbot.waitUntil(lambda: window.tabs.tabText(3).startswith("Search ("), timeout=10000)
    qtbot.waitUntil(lambda: "…" not in window.tabs.tabText(3), timeout=10000)
    for width in (1280, 1400):
        window.resize(width, 860)
        qtbot.wait(50)
        window.tabs.setTabText(2, "Warnings (128)")  # as wide as a count gets in practice
        bar: QTabBar = window.tabs.tabBar()
        # every tab whole on the bar: no scroll arrows, no elided title
        assert bar.sizeHint().width() <= window.tabs.width(), width
        right = bar.tabRect(bar.count() - 1).right()
        assert right <= bar.width(), (width, right, bar.width())
        for i in range(bar.count()):
            assert window.tabs.tabToolTip(i), window.tabs.tabText(i)
        window.grab().save(str(tmp_path / f"window-{width}.png"))
    titles = [window.tabs.tabText(i).split(" (")[0] for i in range(window.tabs.count())]
    assert titles == ["Chunks", "Stats", "Warnings", "Search", "Compare"]


def test_sweep_and_eval_open_from_the_view_menu_and_are_remembered(qtbot, window):
    views = window.views
    assert not views.sweep_dock.isVisible() and not views.eval_dock.isVisible()
    # the sweep's plots (half a second of start-up) are built when the dock first shows
    assert not views.sweep._plots
    view_menu = window.menus.menus[3]
    entries = {a.text().replace("&", ""): a for a in view_menu.actions()}
    entries["Retrieval Eval"].trigger()
    assert views.eval_dock.isVisible() and views.eval_panel.isVisible()
    assert entries["Retrieval Eval"].shortcut().toString() == "Ctrl+Shift+E"
    entries["Sweep an Option"].trigger()
    assert views.sweep_dock.isVisible()
    assert len(views.sweep._plots) == len(views.sweep.curves) - 2 >= 5  # two plots draw two
    markers = views.sweep.shown_markers()
    assert markers and all(m.isVisible() and m.value() == 1000 for m in markers)
    entries["Retrieval Eval"].trigger()  # toggles it shut
    assert not views.eval_dock.isVisible()
    # the window's state keeps the docks: the next launch opens the sweep again
    window.remember_session()
    from chunkview.app.main_window import MainWindow

    again = MainWindow(window.settings)
    qtbot.addWidget(again)
    again.show()
    try:
        assert again.views.sweep_dock.isVisible()
        assert not again.views.eval_dock.isVisible()
    finally:
        again.views.shutdown()
        again.worker.stop()


def test_step_through_sets_the_open_docks_aside_and_back(qtbot, window):
    views = window.views
    views.show_panel(views.eval_panel)
    assert views.eval_dock.isVisible() and not views.sweep_dock.isVisible()
    window.step_through.toggle_action.trigger()
    assert window.step_through.active
    assert not views.eval_dock.isVisible()
    window.step_through.toggle_action.trigger()
    assert views.eval_dock.isVisible() and not views.sweep_dock.isVisible()


def questions_on(text: str) -> list[Question]:
    """Two questions whose answers are sentences of the guide sample."""
    found = []
    for question, answer in (
        ("What does overlap cost?", "Repeated text is embedded and stored twice"),
        ("Which sizes do chunkers take?", "Most chunkers take three numbers"),
    ):
        start = text.index(answer)
        found.append(Question(question, (Reference(answer, start, start + len(answer)),)))
    return found


def test_a_sweep_plots_the_retrieval_means_core_eval_gives(qtbot, window, tmp_path):
    open_sample(qtbot, window)
    views = window.views
    sweep, panel = views.sweep, views.eval_panel
    views.show_panel(sweep)
    window.resize(1400, 860)
    qtbot.wait(50)
    # without questions the sweep draws the chunking figures only, and says how to add them
    assert not set(RETRIEVAL) & set(sweep.shown_plots())
    questions = questions_on(window.document.text)
    panel.set_questions(questions)
    panel.top_k.setValue(2)
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("targetSize"))
    sweep.values_edit.setText("150,400,1000")
    sweep.runner = pool_runner(workers=1)  # chunking processes, one beside the other tests
    assert sweep.start()
    assert "retrieval of 2 questions (bm25, top 2)" in sweep.message.text()
    qtbot.waitUntil(lambda: not sweep.running, timeout=60000)
    assert set(RETRIEVAL) <= set(sweep.shown_plots())
    assert all(sweep.plots[title].isVisible() for title in RETRIEVAL)
    assert "Retrieval: mean of 2 questions (bm25, top 2)" in sweep.message.text()
    assert sweep.columns > 1  # the dock is wide: the plots stand in a grid
    options = {k: v for k, v in window.model.options.items() if v is not None}
    for figure in ("recall", "precision", "iou"):
        xs, ys = sweep.curves[figure].getData()
        assert list(xs) == [150, 400, 1000]
        for value, plotted in zip(xs, ys, strict=True):
            expected = eval_point(
                "agentos.SemanticChunker",
                window.document,
                options,
                questions,
                "bm25",
                2,
                "targetSize",
                int(value),
            )
            assert plotted == expected[figure], (figure, value)
    # the figures differ between values: the plot says something
    assert len(set(sweep.curves["iou"].getData()[1])) > 1
    window.grab().save(str(tmp_path / "sweep-with-retrieval.png"))
    # a click on a retrieval point applies its value
    curve = sweep.curves["iou"]
    point = curve.scatter.points()[0]
    curve.scatter.sigClicked.emit(curve.scatter, [point], None)
    settle(qtbot, window)
    assert window.result.request.options["targetSize"] == 150
    assert all(m.value() == 150 for m in sweep.shown_markers())


def test_a_sweep_says_when_retrieval_cannot_be_scored(qtbot, window):
    open_sample(qtbot, window)
    sweep = window.views.sweep
    # an answer past the text's end (questions made on a longer text)
    end = len(window.document.text)
    window.views.eval_panel.set_questions(
        [Question("gone?", (Reference("x", end + 10, end + 20),))]
    )
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("targetSize"))
    sweep.values_edit.setText("300,600")
    sweep.runner = pool_runner(workers=1)
    assert sweep.start()
    qtbot.waitUntil(lambda: not sweep.running, timeout=60000)
    assert "Retrieval not scored" in sweep.message.text()
    assert "past the document's end" in sweep.message.text()
    assert list(sweep.curves["chunks"].getData()[0]) == [300, 600]  # chunk figures stand
    xs, _ys = sweep.curves["recall"].getData()
    assert xs is None or len(xs) == 0


def test_the_sweep_plots_span_the_values_to_try_before_and_during_a_sweep(qtbot, window):
    # empty axes around the current value alone (999.6 to 1000.4) said nothing: they span
    # the typed values, and a new sweep over other values moves them there
    open_sample(qtbot, window)
    sweep = window.views.sweep
    window.views.show_panel(sweep)
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("targetSize"))
    sweep.values_edit.setText("300:2400:300")
    plots = [sweep.plots[title] for title in sweep.shown_plots()]
    for plot in plots:
        low, high = plot.viewRange()[0]
        assert low < 300 < 2400 < high and high - low < 2400, (low, high)
    sweep.values_edit.setText("oops")  # unreadable: the axes stay, Sweep says why
    assert plots[0].viewRange()[0][0] < 300
    sweep.values_edit.setText("-1e308,1e308")  # no axis spans it: the axes stay
    assert plots[0].viewRange()[0][0] < 300
    sweep.values_edit.setText("100,150")
    sweep.runner = pool_runner(workers=1)
    assert sweep.start()
    qtbot.waitUntil(lambda: not sweep.running, timeout=60000)
    sweep.values_edit.setText("4000,5000")  # after a sweep typing leaves its points framed
    low, high = plots[0].viewRange()[0]
    assert low < 100 and 150 < high < 400
    assert sweep.start()  # a new sweep frames its own values
    low, high = plots[0].viewRange()[0]
    assert 3900 < low < 4000 and 5000 < high < 5100
    qtbot.waitUntil(lambda: not sweep.running, timeout=60000)
    assert list(sweep.curves["chunks"].getData()[0]) == [4000, 5000]
