"""What a new layout repaints and lays out again: only what changed, and what the user sees
stays right (legend, tab names, statistics, the chunk inspector)."""

import pytest
from conftest import settle
from PySide6.QtCore import QPoint, QSettings
from PySide6.QtGui import QImage

from chunkview.app.main_window import MainWindow
from chunkview.core.model.document import Document
from chunkview.core.session import ModelEvent

SECTION = (
    "## Section {n}\n\nApples grow on trees in the orchard. Pears ripen later in the year. "
    "Plums come last, in the autumn rain.\n\n```sh\nnpm install acorn\n```\n\n"
)
TEXT = "".join(SECTION.format(n=n) for n in range(40))


@pytest.fixture
def window(qtbot, tmp_path):
    win = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(win)
    win.select_entry("agentos.SemanticChunker", {"targetSize": 200, "minSize": 0})
    # wide enough that the result tabs have room beside their names (the editor keeps
    # half the window: at 1300 px the tabs' names are cut short)
    win.resize(1600, 800)
    win.show()
    win.set_document(Document(TEXT, None, "markdown"))
    settle(qtbot, win)
    yield win
    win.views.shutdown()
    win.worker.stop()


def change(qtbot, win, target):
    win.params.set_value("targetSize", target)
    win.submit()
    settle(qtbot, win)


def test_the_legend_keeps_its_line_while_the_reasons_follow_the_layout(qtbot, window):
    legend = window.view.legend
    assert 'href="reason"' in legend.text()  # this run records why each boundary is there
    height = legend.heightForWidth(legend.width())
    editor_top = window.editor.mapTo(window, QPoint(0, 0)).y()
    seen = []  # the legend as each new layout is first shown, before its reasons come
    window.model.subscribe(
        ModelEvent.RESULT, lambda result: seen.append((result.layout.complete, legend.text()))
    )
    for target in (150, 260, 180):
        change(qtbot, window, target)
    assert any(not complete for complete, _text in seen), "no layout came before its details"
    for _complete, text in seen:
        assert 'href="reason"' in text
    assert legend.heightForWidth(legend.width()) == height
    assert window.editor.mapTo(window, QPoint(0, 0)).y() == editor_top


def test_the_warnings_tab_names_its_count_and_a_longer_name_gets_room(qtbot, window):
    # the token counts first: the warnings panel names its tab again when they come (on
    # a busy machine well after the layout)
    qtbot.waitUntil(lambda: window.result.tokens is not None, timeout=10000)
    qtbot.wait(20)
    tabs = window.tabs
    count = len(tabs.warnings_panel.counts()) and sum(tabs.warnings_panel.counts().values())
    assert tabs.tabText(2) == (f"Warnings ({count})" if count else "Warnings")
    bar = tabs.tabBar()
    # then the window's last layout pass (the right pane may still be at its first
    # width), with room beside the tabs for a longer name
    qtbot.waitUntil(
        lambda: (
            tabs.width() > bar.sizeHint().width() + 80 and bar.width() == bar.sizeHint().width()
        ),
        timeout=5000,
    )
    width = bar.width()
    tabs.set_tab_text(2, "Warnings (123456)")
    # the bar may grow in more than one layout pass on a busy machine: wait for the last
    qtbot.waitUntil(lambda: bar.width() == min(bar.sizeHint().width(), tabs.width()), timeout=5000)
    wide = bar.width()
    assert wide > width
    last = bar.tabRect(bar.count() - 1)
    assert last.right() < bar.width()  # the last tab is whole, not cut off
    tabs.set_tab_text(2, "Warnings")
    qtbot.waitUntil(lambda: bar.width() == bar.sizeHint().width(), timeout=5000)
    assert bar.width() < wide


def test_statistics_shown_on_opening_their_tab_are_of_the_latest_layout(qtbot, window):
    tabs = window.tabs
    assert tabs.currentWidget() is window.table
    for target in (150, 320):
        change(qtbot, window, target)
    chunks = len(window.result.layout.spans)
    tabs.setCurrentWidget(window.stats)
    qtbot.waitUntil(lambda: window.stats.isVisible(), timeout=2000)
    summary = window.stats.summary.text()
    assert f"<tr><td>chunks</td><td align=right>&nbsp;&nbsp;{chunks}</td></tr>" in summary
    # while shown, a new layout's figures replace them at once
    change(qtbot, window, 150)
    chunks = len(window.result.layout.spans)
    summary = window.stats.summary.text()
    assert f"<tr><td>chunks</td><td align=right>&nbsp;&nbsp;{chunks}</td></tr>" in summary


def test_the_inspector_follows_a_new_layout_and_empties_without_a_selection(qtbot, window):
    inspector = window.views.inspector
    window.model.select_chunk(2)
    span = window.result.layout.spans[2]
    assert f"{span.start:,}–{span.end:,}" in inspector.toPlainText()
    change(qtbot, window, 120)
    span = window.result.layout.spans[2]
    assert inspector.shown == 2
    assert f"{span.start:,}–{span.end:,}" in inspector.toPlainText()
    window.model.select_chunk(None)
    assert inspector.shown is None and inspector.toPlainText() == ""
    change(qtbot, window, 260)
    assert inspector.shown is None and inspector.toPlainText() == ""


def on_screen(win):
    """What the window shows now (its backing store), as an image."""
    shown = win.screen().grabWindow(win.winId(), 0, 0, win.width(), win.height()).toImage()
    return shown.convertToFormat(QImage.Format.Format_ARGB32)


def repainted(win):
    """The window painted afresh, every widget of it."""
    return win.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)


def differing_pixels(one: QImage, other: QImage) -> int:
    import numpy as np

    assert one.size() == other.size()
    return int(
        (
            np.frombuffer(one.constBits(), np.uint32) != np.frombuffer(other.constBits(), np.uint32)
        ).sum()
    )


def shows_all_of_it(qtbot, win):
    """Once the token counts are in and the repaints asked for are done (the token
    column's, the overview's refresh), the screen is what a full repaint gives: a part
    left unrepainted would stay stale however long one waits. (A stray pixel or two at
    the edge of a plot drawn for the first time is not a stale part.)"""
    qtbot.waitUntil(lambda: win.result.tokens is not None, timeout=20000)
    qtbot.waitUntil(lambda: differing_pixels(on_screen(win), repainted(win)) <= 4, timeout=3000)


def test_after_each_change_the_window_shows_what_a_full_repaint_shows(qtbot, window):
    # the repaints a new layout asks for are only what changed (a column of the table,
    # no tab panel, no legend): nothing on screen may be left from the layout before
    window.model.select_chunk(1)
    for target in (150, 260, 180, 320):
        change(qtbot, window, target)
        shows_all_of_it(qtbot, window)
    window.tabs.setCurrentWidget(window.stats)
    change(qtbot, window, 150)
    shows_all_of_it(qtbot, window)


def test_the_layout_replaced_is_freed_a_moment_after_the_paint(qtbot, window):
    """The layout no longer shown is kept through the paint and the moment after it (the
    next input comes first), then freed."""
    import time
    import weakref

    from chunkview.app.main_window import FREE_AFTER_MS

    replaced = weakref.ref(window.model.result)
    window.params.set_value("targetSize", 321)
    window.submit()
    qtbot.waitUntil(lambda: window.shown_generation == window.generation, timeout=30000)
    painted = time.monotonic()
    qtbot.wait(FREE_AFTER_MS // 3)
    assert replaced() is not None  # not freed with the paint
    qtbot.waitUntil(lambda: replaced() is None, timeout=5000)
    assert time.monotonic() - painted >= FREE_AFTER_MS / 1000 * 0.9
