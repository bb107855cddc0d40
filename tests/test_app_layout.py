"""Issue 34's layout details at a laptop's 1280 px: the editor keeps half the window, the
chunk table's columns fit, the histogram's legend covers no label, long fields show their
start and the whole value in a tooltip, and units are named alike everywhere."""

import pytest
from conftest import CORPUS, settle
from PySide6.QtCore import QSettings

from chunkview.app.chunk_table import COLUMNS
from chunkview.app.main_window import DEFAULT_SAMPLE, MainWindow


@pytest.fixture
def laptop(qtbot, tmp_path):
    """A first start (no saved sizes) in a 1280 x 800 window."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.select_entry("agentos.SemanticChunker")
    win.resize(1280, 800)
    win.show()
    yield win
    win.views.shutdown()
    win.worker.stop()


def test_the_editor_keeps_half_the_window(qtbot, laptop):
    assert laptop.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, laptop)
    assert laptop.width() == 1280
    assert laptop.editor.width() >= laptop.width() / 2
    # the panels beside it keep their least widths
    chunker, _view, tabs = laptop.splitter.sizes()
    assert chunker >= laptop.chunker.minimumWidth() and tabs >= laptop.tabs.minimumWidth()
    # the result tabs' names are cut short, not hidden: every tab is in the bar
    bar = laptop.tabs.tabBar()
    assert bar.tabRect(bar.count() - 1).right() <= bar.width()
    assert all(laptop.tabs.tabToolTip(i) for i in range(bar.count()))
    # and it stays so as the window grows (the side panels get their share too), until
    # a user moves a handle or something else sets the panels' widths
    laptop.resize(1600, 900)
    qtbot.wait(20)
    assert laptop.editor.width() >= 800
    assert laptop.splitter.sizes()[2] > tabs
    laptop.splitter.splitterMoved.emit(laptop.splitter.sizes()[0] + 50, 1)
    assert not laptop.panel_sizes.active


def test_sizes_set_by_another_hand_are_left_alone(qtbot, laptop):
    settle(qtbot, laptop)
    qtbot.wait(20)
    assert laptop.panel_sizes.active
    total = sum(laptop.splitter.sizes())
    laptop.splitter.setSizes([400, total - 800, 400])  # as presentation mode does
    laptop.resize(1400, 800)
    qtbot.wait(20)
    assert not laptop.panel_sizes.active
    assert laptop.splitter.sizes()[0] == 400


def test_the_chunk_table_columns_fit_at_1280(qtbot, laptop):
    assert laptop.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, laptop)
    table = laptop.table
    table.parentWidget().parentWidget().setCurrentWidget(table)
    qtbot.wait(20)
    widths = [table.columnWidth(c) for c in range(len(COLUMNS))]
    assert sum(widths) <= table.viewport().width()
    assert not table.horizontalScrollBar().isVisible()
    # the numbers are whole: each number column holds its widest value
    spans = laptop.result.layout.spans
    metrics = table.fontMetrics()
    for name, values in (
        ("start", [s.start for s in spans]),
        ("end", [s.end for s in spans]),
        ("chars", [len(s.text) for s in spans]),
    ):
        widest = max(metrics.horizontalAdvance(str(v)) for v in values)
        assert table.columnWidth(COLUMNS.index(name)) >= widest + 6, name
    # a header cut short names itself whole in its tooltip
    model = table.model()
    from PySide6.QtCore import Qt

    tip = model.headerData(
        COLUMNS.index("tokens"), Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole
    )
    assert tip.startswith("<p>tokens:")
    # a wide table gives each column its full width
    laptop.splitter.setSizes([260, 400, 900])
    qtbot.wait(20)
    assert table.columnWidth(COLUMNS.index("kind")) == table._natural[COLUMNS.index("kind")]


def test_the_histogram_legend_covers_no_label(qtbot, laptop):
    laptop.select_entry("smartchunk")  # two kinds and two limits
    assert laptop.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, laptop)
    laptop.tabs.setCurrentWidget(laptop.stats)
    qtbot.waitUntil(lambda: bool(laptop.stats.histogram.lines))
    histogram = laptop.stats.histogram
    for width in (histogram.width(), 260):  # a narrow one wraps the legend in rows
        histogram.resize(width, 300)
        histogram._fit_legend()
        qtbot.wait(20)
        legend = histogram.legend.sceneBoundingRect()
        view = histogram.getPlotItem().vb.sceneBoundingRect()
        assert len(histogram.legend.items) >= 2 and legend.height() > 0
        assert not legend.intersects(view)  # above the plot
        for line in histogram.lines.values():
            label = line.label.sceneBoundingRect()
            assert not label.intersects(legend), line.label.toPlainText()
        # every entry shows whole inside the widget
        for _sample, label in histogram.legend.items:
            assert histogram.rect().contains(label.sceneBoundingRect().toRect())


def test_a_long_field_shows_its_start_and_the_whole_value_in_its_tooltip(qtbot, laptop):
    laptop.select_entry("smartchunk")
    settle(qtbot, laptop)
    line = laptop.params.field("strategies").line
    value = line.text()
    assert line.fontMetrics().horizontalAdvance(value) > line.width()  # longer than its box
    assert line.cursorPosition() == 0  # its start in view
    assert value in line.toolTip().replace("&quot;", '"')
    short = laptop.params.field("locale").line
    assert short.toolTip() == ""  # one that fits keeps the option's help (the row's)


def test_units_are_named_alike_in_stats_sweep_and_the_command_line(qtbot, laptop, capsys):
    from chunkview.commands import sweep as sweep_command
    from chunkview.core.batch.sweep import column_heads, figure_text

    laptop.select_entry("mastra.chunk", {"strategy": "recursive", "maxSize": 300})
    assert laptop.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, laptop)
    laptop.tabs.setCurrentWidget(laptop.stats)
    qtbot.waitUntil(lambda: bool(laptop.stats.histogram.lines))
    unit = "UTF-16 code units"  # mastra counts in them
    assert unit in laptop.stats.summary.text()
    assert unit in laptop.stats.histogram.getPlotItem().getAxis("bottom").labelText
    heads = column_heads(laptop.result.layout.size_unit)
    assert f"median size ({unit})" in heads and "over maxSize (% of chunks)" in heads
    # the command line's table: the same words, a share as a percent as the Sweep plots it
    assert figure_text("over_max", 0.25) == "25%" and figure_text("chunks", 7) == "7"
    status = sweep_command.main(
        [str(CORPUS / "acorn-readme.md"), "--entry", "mastra.chunk", "--options",
         '{"strategy": "recursive", "maxSize": 300, "overlap": 0}', "--param", "maxSize",
         "--values", "300"]
    )  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert status == 0 and out[0].split("\t")[1:] == heads
    assert out[1].split("\t")[4].endswith("%")


def test_the_docks_open_below_and_leave_the_editor_half_the_width(qtbot, laptop):
    from PySide6.QtCore import Qt

    assert laptop.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, laptop)
    views = laptop.views
    for dock in (views.sweep_dock, views.eval_dock, views.audit_dock):
        views.show_panel(dock.widget())
        qtbot.waitUntil(dock.isVisible)
        qtbot.wait(20)
        assert laptop.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea
        assert laptop.editor.width() >= laptop.width() / 2, dock.objectName()
        assert laptop.editor.height() >= 200  # the text stays readable above the dock


def test_warning_rows_are_elided_with_the_whole_message_in_their_tooltip(qtbot, laptop):
    from PySide6.QtCore import Qt

    laptop.select_entry("smartchunk")  # warns on the sample (chunks over maxSize and more)
    assert laptop.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, laptop)
    rows = laptop.warnings
    assert rows.rows.total() > 0
    assert rows.textElideMode() == Qt.TextElideMode.ElideRight
    assert rows.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    index = rows.rows.index(0, 0)
    message = rows.rows.item(0).message
    tip = rows.rows.data(index, Qt.ItemDataRole.ToolTipRole)
    assert message.replace("&", "&amp;").replace("<", "&lt;") in tip


def test_presentation_mode_gives_the_columns_left_their_full_width(qtbot, laptop):
    assert laptop.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, laptop)
    table = laptop.table
    table.parentWidget().parentWidget().setCurrentWidget(table)
    laptop.presentation.presentation.trigger()
    qtbot.wait(50)
    assert laptop.presentation.presenting
    shown = [c for c in range(len(COLUMNS)) if not table.isColumnHidden(c)]
    assert len(shown) < len(COLUMNS)
    # the hidden columns take no room: the few left are not cut short, and the kind (the
    # first words hidden) takes the rest, the numbers at the right
    rest = COLUMNS.index("kind")
    assert rest in shown
    for column in shown:
        assert table.columnWidth(column) >= table._natural[column], COLUMNS[column]
        if column != rest:
            assert table.columnWidth(column) == table._natural[column], COLUMNS[column]
    assert table.columnWidth(rest) > table._natural[rest]
    assert sum(table.columnWidth(c) for c in shown) == table.viewport().width()
