"""The chunk table at the window's default size: headers whole, numbers whole, kinds
named (or shown as their colours where the panel is narrow), columns a user shows or
hides from the header's menu and finds again after a restart; and a stale layout's label
in a bar of its own, over no row of the table, the statistics or the editor."""

from dataclasses import replace

import pytest
from conftest import CORPUS, settle
from PySide6.QtCore import QRect, QSettings, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QStyle, QWidget

from chunkview.app.chunk_table import COLUMNS
from chunkview.app.main_window import DEFAULT_SAMPLE, MainWindow
from chunkview.app.markup import escape
from chunkview.app.table_columns import TABLE_COLUMNS

#: the window's first size in the README's screenshots (tools/view_screenshots.py)
DEFAULT_WINDOW = (1500, 900)


def open_window(qtbot, settings_file):
    settings = QSettings(str(settings_file), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.resize(*DEFAULT_WINDOW)
    win.show()
    return win


def close_window(win):
    win.close()
    win.views.shutdown()
    win.worker.stop()


@pytest.fixture
def window(qtbot, tmp_path):
    win = open_window(qtbot, tmp_path / "settings.ini")
    win.select_entry("agentos.SemanticChunker", {"targetSize": 300, "overlap": 40})
    yield win
    close_window(win)


def shown_columns(table):
    return [c for c in range(len(COLUMNS)) if not table.isColumnHidden(c)]


def assert_headers_whole(table):
    """Each shown header's label fits inside the style's margins of its section, where
    Qt would cut it short with "…"."""
    header = table.horizontalHeader()
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    metrics = header.fontMetrics()
    for column in shown_columns(table):
        label = table.model().headerData(column, Qt.Orientation.Horizontal)
        assert label == TABLE_COLUMNS[column].label
        room = header.sectionSize(column) - 2 * margin
        assert metrics.horizontalAdvance(label) <= room, label
        assert metrics.elidedText(label, Qt.TextElideMode.ElideRight, room) == label


@pytest.mark.parametrize("document", [DEFAULT_SAMPLE, CORPUS / "acorn-readme.md"])
def test_at_the_default_size_headers_numbers_and_kinds_are_whole(qtbot, window, document):
    assert window.open_path(document, sample=document == DEFAULT_SAMPLE)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: window.result.tokens is not None)
    table = window.table
    window.tabs.setCurrentWidget(table)
    qtbot.wait(20)
    shown = shown_columns(table)
    # chars are the unit here: the UTF-8 bytes are hidden at first, the rest shown
    assert window.result.layout.size_unit != "bytes"
    assert [COLUMNS[c] for c in shown] == [n for n in COLUMNS if n != "bytes"]
    assert_headers_whole(table)
    # the columns fill the table's width, no wider
    assert sum(table.columnWidth(c) for c in shown) == table.viewport().width()
    assert not table.horizontalScrollBar().isVisible()
    # every number shows whole, right-aligned under its header
    model, metrics = table.model(), table.fontMetrics()
    spans = window.result.layout.spans
    for name, values in (
        ("#", [s.index for s in spans]),
        ("start", [s.start for s in spans]),
        ("end", [s.end for s in spans]),
        ("chars", [len(s.text) for s in spans]),
        ("tokens", window.result.tokens),
    ):
        column = COLUMNS.index(name)
        widest = max(metrics.horizontalAdvance(str(v)) for v in values)
        assert table.columnWidth(column) >= widest + 6, name
        alignment = Qt.AlignmentFlag(
            model.data(model.index(0, column), Qt.ItemDataRole.TextAlignmentRole)
        )
        assert alignment & Qt.AlignmentFlag.AlignRight, name
    # each kind by its colour, and by its name where the name shows whole: never "hea…"
    kind = COLUMNS.index("kind")
    first = model.index(0, kind)
    assert model.data(first, Qt.ItemDataRole.DecorationRole) is not None
    assert spans[0].kind in model.data(first, Qt.ItemDataRole.ToolTipRole)
    widest_kind = max(metrics.horizontalAdvance(k) for k in window.result.layout.kinds)
    if model.data(first) is not None:
        assert model.data(first) == spans[0].kind
        assert table.columnWidth(kind) >= table.iconSize().width() + widest_kind + 8
    else:  # a colour alone, where the names leave the first words too little room
        assert table.columnWidth(kind) < table.iconSize().width() + widest_kind + 8
    if document == DEFAULT_SAMPLE:  # the sample's few kinds have room
        assert model.data(first) == spans[0].kind
    # the first words take the rest, room for more than a word
    first_words = COLUMNS.index("first words")
    assert table.columnWidth(first_words) >= metrics.horizontalAdvance("first words of")


def test_short_headers_say_their_whole_meaning(qtbot, window):
    model = window.table.model()

    def tip(name):
        return model.headerData(
            COLUMNS.index(name), Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole
        )

    assert model.headerData(COLUMNS.index("tokens"), Qt.Orientation.Horizontal) == "tok"
    assert tip("tokens").startswith("<p>tokens: ") and "cl100k tokens" in tip("tokens")
    placed = tip("placed")
    assert placed.startswith("<p>placed: ") and "= exactly" in placed and "≈ after" in placed


def test_a_narrow_panel_shows_the_kinds_as_their_colours_with_the_name_in_the_tooltip(
    qtbot, window
):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    table, model = window.table, window.table.model()
    window.tabs.setCurrentWidget(table)
    kind = COLUMNS.index("kind")
    assert model.data(model.index(0, kind)) == window.result.layout.spans[0].kind
    total = sum(window.splitter.sizes())
    narrowest = window.tabs.minimumWidth()
    window.splitter.setSizes([300, total - 300 - narrowest, narrowest])
    qtbot.waitUntil(lambda: model.data(model.index(0, kind)) is None)
    # no name cut to "hea…": the colour alone, the name in the row's tooltip
    assert model.data(model.index(0, kind), Qt.ItemDataRole.DecorationRole) is not None
    tip = model.data(model.index(0, kind), Qt.ItemDataRole.ToolTipRole)
    assert window.result.layout.spans[0].kind in tip
    assert_headers_whole(table)
    # room again: the names come back
    window.splitter.setSizes([260, 700, total - 960])
    qtbot.waitUntil(lambda: model.data(model.index(0, kind)) is not None)


def menu_action(table, name):
    menu = table.header_menu()
    return next(a for a in menu.actions() if a.data() == name)


def test_the_header_menu_hides_a_column_and_a_new_window_remembers(qtbot, tmp_path):
    settings_file = tmp_path / "settings.ini"
    win = open_window(qtbot, settings_file)
    table = win.table
    header = table.horizontalHeader()
    assert header.contextMenuPolicy() == Qt.ContextMenuPolicy.CustomContextMenu
    end, bytes_ = COLUMNS.index("end"), COLUMNS.index("bytes")
    # the number and the start are always shown: their entries cannot be unchecked
    for name in ("#", "start"):
        action = menu_action(table, name)
        assert action.isChecked() and not action.isEnabled()
    assert not table.isColumnHidden(end) and table.isColumnHidden(bytes_)
    action = menu_action(table, "end")
    assert action.isChecked() and action.isEnabled()
    action.trigger()  # unchecked: hidden
    assert table.isColumnHidden(end)
    menu_action(table, "bytes").trigger()  # checked: shown
    assert not table.isColumnHidden(bytes_)
    assert not menu_action(table, "end").isChecked()
    close_window(win)
    # a new window on the same settings shows the columns as they were left
    again = open_window(qtbot, settings_file)
    try:
        assert again.table.isColumnHidden(end) and not again.table.isColumnHidden(bytes_)
        # and Default Columns brings back the first start's set
        reset = next(
            a for a in again.table.header_menu().actions() if a.text() == "Default Columns"
        )
        reset.trigger()
        assert not again.table.isColumnHidden(end) and again.table.isColumnHidden(bytes_)
    finally:
        close_window(again)
    third = open_window(qtbot, settings_file)
    try:
        assert not third.table.isColumnHidden(end) and third.table.isColumnHidden(bytes_)
    finally:
        close_window(third)


def test_presentation_mode_keeps_to_its_columns_and_gives_back_the_chosen_ones(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    table = window.table
    window.tabs.setCurrentWidget(table)
    menu_action(table, "placed").trigger()  # a user hides the placed marks
    window.presentation.presentation.trigger()
    qtbot.wait(50)
    assert [COLUMNS[c] for c in shown_columns(table)] == ["#", "kind", "chars", "tokens"]
    assert_headers_whole(table)  # in the large type too
    window.presentation.presentation.trigger()
    qtbot.wait(50)
    assert not window.presentation.presenting
    expected = [n for n in COLUMNS if n not in ("bytes", "placed")]
    assert [COLUMNS[c] for c in shown_columns(table)] == expected
    assert_headers_whole(table)


def rect_in(widget: QWidget, rect: QRect, common: QWidget) -> QRect:
    """``rect`` (in ``widget``'s coordinates) in ``common``'s."""
    return QRect(widget.mapTo(common, rect.topLeft()), rect.size())


def test_a_stale_layout_label_covers_no_row(qtbot, window):
    from chunkview.core.model.document import Document

    window.select_entry("agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 300})
    window.set_document(Document("word " * 400, None, "text"))
    settle(qtbot, window)
    views, table = window.views, window.table
    bars = (views.editor_stale_bar, views.results_stale_bar)
    assert not any(bar.isVisible() for bar in bars)
    before = {w: rect_in(w, w.rect(), window) for w in (table, window.editor)}
    window.params.set_value("chunkSize", -5)
    settle(qtbot, window)
    assert views.stale.stale
    label = 'last good: agentos.ChunkingEngine {"strategy": "fixed", "chunkSize": 300}'
    qtbot.waitUntil(lambda: all(bar.isVisible() for bar in bars))
    for bar in bars:
        assert bar.label == label and escape(label) in bar.toolTip()
    # the narrow panel's bar cuts the label at its width, as wide as the panel
    right = views.results_stale_bar
    assert right.text().endswith("…") and label.startswith(right.text()[:-1])
    assert right.fontMetrics().horizontalAdvance(right.text()) <= right.contentsRect().width()
    assert views.editor_stale_bar.text() == label  # the editor's is wide enough
    results_bar = rect_in(views.results_stale_bar, views.results_stale_bar.rect(), window)
    editor_bar = rect_in(views.editor_stale_bar, views.editor_stale_bar.rect(), window)
    # the chunk table: pushed down, its header and first row under the bar
    window.tabs.setCurrentWidget(table)
    qtbot.wait(20)
    header = table.horizontalHeader()
    header_rect = rect_in(header, header.rect(), window)
    row = table.visualRect(table.model().index(0, 0))
    row = rect_in(
        table.viewport(), QRect(0, row.top(), table.viewport().width(), row.height()), window
    )
    assert not results_bar.intersects(header_rect) and not results_bar.intersects(row)
    assert results_bar.bottom() < header_rect.top() < row.top()
    assert rect_in(table, table.rect(), window).top() > before[table].top()
    # the statistics' first row, "chunks"
    window.tabs.setCurrentWidget(window.stats)
    qtbot.wait(20)
    summary = window.stats.summary
    assert summary.text().startswith("<table><tr><td>chunks</td>")
    first_line = QRect(0, 0, summary.width(), summary.fontMetrics().height() + summary.margin())
    assert not results_bar.intersects(rect_in(summary, first_line, window))
    assert results_bar.bottom() < rect_in(summary, summary.rect(), window).top()
    # the editor's first line of text
    editor = window.editor
    line = editor.cursorRect(QTextCursor(editor.document()))
    line = rect_in(
        editor.viewport(), QRect(0, line.top(), editor.viewport().width(), line.height()), window
    )
    assert not editor_bar.intersects(line) and editor_bar.bottom() < line.top()
    assert rect_in(editor, editor.rect(), window).top() > before[window.editor].top()
    # the two bars stand level, at the top of their panels
    assert editor_bar.top() == results_bar.top()
    # a good run takes the bars away and the views back up
    window.params.set_value("chunkSize", 200)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: not any(bar.isVisible() for bar in bars))
    assert rect_in(table, table.rect(), window).top() == before[table].top()
    assert rect_in(editor, editor.rect(), window) == before[window.editor]


def test_a_new_layout_keeps_the_column_widths_while_its_counts_are_pending(qtbot, window):
    """The token counts and UTF-8 sizes come after a layout: till then their columns
    keep the last layout's widths, so an option change does not narrow a column for
    "…" and widen it again for the count (laying the header out and painting the whole
    table twice more at each change)."""
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    table = window.table
    counted = window.result
    assert counted.tokens is not None and counted.layout.complete
    widths = [table.columnWidth(c) for c in range(len(COLUMNS))]
    resized: list[tuple[int, int, int]] = []
    table.horizontalHeader().sectionResized.connect(lambda *args: resized.append(args))
    pending = replace(counted, tokens=None)
    table.show_result(pending)  # as a new layout arrives, before its counts
    assert resized == [] and [table.columnWidth(c) for c in range(len(COLUMNS))] == widths
    table.show_counts(counted.tokens, "cl100k")  # then the counts, of as many digits
    assert resized == []
