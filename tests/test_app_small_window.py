"""A 1280 x 800 window: the chunk inspector shows a selected chunk's text without
scrolling (its facts in a few lines above it, the reasons below), and the chunk table
leaves out its least needed columns for room before a scroll bar comes, giving them back
when it is wider, the header menu saying which ones and keeping a user's choice."""

import pytest
from conftest import CORPUS, settle
from PySide6.QtCore import QSettings, QUrl
from PySide6.QtGui import QTextDocument

from chunkview.app.chunk_table import COLUMNS, FIRST_WORDS_LEAST
from chunkview.app.inspector import PLACED
from chunkview.app.main_window import MainWindow
from chunkview.app.table_columns import NO_ROOM
from chunkview.core.views.inspect import show_white_space


@pytest.fixture
def laptop(qtbot, tmp_path):
    """A first start (no saved sizes) in a 1280 x 800 window, on the settings file kept
    in the test's folder."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.select_entry("agentos.SemanticChunker", {"targetSize": 400, "overlap": 60})
    win.resize(1280, 800)
    win.show()
    yield win
    win.close()
    win.views.shutdown()
    win.worker.stop()


def first_line_rect(inspector, text: str):
    """Where the first line of ``text`` (as the inspector draws it) is, in the
    inspector's viewport: the first place it is found (the overlap, below, repeats it)."""
    first = next(line for line in show_white_space(text).split("\n") if line.strip("¶"))
    cursor = inspector.document().find(first[:30], 0, QTextDocument.FindFlag.FindCaseSensitively)
    assert not cursor.isNull(), first
    return inspector.cursorRect(cursor)


def test_a_selected_chunks_text_shows_in_the_inspector_without_scrolling(qtbot, laptop):
    assert laptop.open_path(CORPUS / "acorn-readme.md")
    settle(qtbot, laptop)
    laptop.views.show_panel(laptop.views.lanes)  # the lanes dock takes height from it
    qtbot.wait(50)
    inspector = laptop.views.inspector
    for index in (1, 9):  # 1: overlapping the chunk before; 9: a code block
        laptop.model.select_chunk(index)
        qtbot.waitUntil(lambda index=index: inspector.shown == index)
        qtbot.wait(20)
        assert inspector.verticalScrollBar().value() == 0
        span = laptop.result.layout.spans[index]
        line = first_line_rect(inspector, span.text)
        viewport = inspector.viewport().rect()
        assert viewport.height() < 300  # the short panel this is about
        assert viewport.contains(line), (line, viewport)
        # nothing lost: the overlap, the reasons in full and how it was placed, below
        text = inspector.toPlainText()
        assert text.index(f"Chunk #{index}") < text.index("Text as returned")
        assert text.index("Text as returned") < text.index("Why the library cut here")
        assert PLACED[span.located] in text
        reason = span.reason
        assert reason is not None and f"starts here ({reason.rule})" in text
    # the facts' link goes to the reasons in full, out of sight below the text
    assert (
        not inspector.viewport()
        .rect()
        .contains(inspector.cursorRect(inspector.document().find("Why the library cut here")))
    )
    inspector.anchorClicked.emit(QUrl("#why"))
    qtbot.wait(20)
    shown = inspector.cursorRect(inspector.document().find("Why the library cut here"))
    assert inspector.verticalScrollBar().value() > 0
    assert inspector.viewport().rect().contains(shown)


def menu_entry(table, name):
    return next(a for a in table.header_menu().actions() if a.data() == name)


def test_a_narrow_table_leaves_out_the_end_for_room_and_gives_it_back(qtbot, laptop):
    assert laptop.open_path(CORPUS / "redis-readme.md")
    settle(qtbot, laptop)
    qtbot.waitUntil(lambda: laptop.result.tokens is not None)
    table = laptop.table
    laptop.tabs.setCurrentWidget(table)
    qtbot.wait(50)
    assert laptop.result.layout.spans[-1].end >= 10_000  # five-digit offsets
    end = COLUMNS.index("end")
    first_words = COLUMNS.index("first words")
    # no sideways scrolling; the end left out for room, the first words readable
    assert not table.horizontalScrollBar().isVisible()
    assert table.isColumnHidden(end) and "end" in table.no_room
    assert table.columns.shown("end")  # a user's choice is as it was
    least = table.fontMetrics().horizontalAdvance("0") * FIRST_WORDS_LEAST
    assert table.columnWidth(first_words) >= least
    shown = [c for c in range(len(COLUMNS)) if not table.isColumnHidden(c)]
    assert sum(table.columnWidth(c) for c in shown) == table.viewport().width()
    # the menu says it is hidden for room, still checked, and a user may untick it
    entry = menu_entry(table, "end")
    assert entry.text() == "end" + NO_ROOM and entry.isEnabled() and entry.isChecked()
    entry.trigger()  # hidden by choice now, not for room
    assert not table.columns.shown("end") and "end" not in table.no_room
    menu_entry(table, "end").trigger()  # shown by choice again: left out for room
    assert table.columns.shown("end") and "end" in table.no_room
    assert (
        menu_entry(table, "chars").isEnabled() and NO_ROOM not in menu_entry(table, "chars").text()
    )
    # wider: it comes back, and the menu's entry with it
    laptop.resize(1600, 800)
    qtbot.waitUntil(lambda: not table.isColumnHidden(end))
    assert table.no_room == () and not table.horizontalScrollBar().isVisible()
    entry = menu_entry(table, "end")
    assert entry.text() == "end" and entry.isEnabled() and entry.isChecked()
    # a user hides it: it stays hidden at any width, and the choice is kept
    entry.trigger()
    assert table.isColumnHidden(end) and not table.columns.shown("end")
    laptop.resize(1280, 800)
    qtbot.waitUntil(lambda: table.viewport().width() < 400)
    assert table.isColumnHidden(end) and "end" not in table.no_room
    # the scroll bars follow the columns a moment later
    qtbot.waitUntil(lambda: not table.horizontalScrollBar().isVisible())
    assert table.columns.choices() == {"end": False}
    laptop.resize(1600, 800)
    qtbot.waitUntil(lambda: table.viewport().width() > 400)
    assert table.isColumnHidden(end)
    assert not menu_entry(table, "end").isChecked()
