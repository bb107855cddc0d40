"""What keeps the window live on long documents: the layout follows edits until the next
one arrives, colours never blank on a keystroke, a new query drops the old search, the
chunk table hands rows over in batches, a long text loads in pieces."""

import pytest
from conftest import settle
from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest

from chunkview.app import chunk_table, editor, searcher
from chunkview.app.main_window import DEBOUNCE_MS, MainWindow
from chunkview.core.model.document import Document
from chunkview.core.session import ModelEvent

PARAGRAPH = "Apples grow on trees in the orchard. Pears ripen later in the year.\n\n"


@pytest.fixture
def window(qtbot, tmp_path):
    win = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(win)
    win.select_entry("agentos.SemanticChunker", {"targetSize": 60, "minSize": 0, "overlap": 0})
    win.resize(1300, 800)
    win.show()
    yield win
    win.worker.stop()


def open_text(qtbot, win, text):
    win.set_document(Document(text, None, "markdown"))
    settle(qtbot, win)


def painted_positions(ed):
    """Editor positions of each painted chunk background: {chunk: (start, end)}."""
    return {
        int(s.format.property(editor.QTextFormat.Property.UserProperty)): (
            s.cursor.selectionStart(),
            s.cursor.selectionEnd(),
        )
        for s in ed.extraSelections()
        if s.format.property(editor.QTextFormat.Property.UserProperty) is not None
    }


def type_at(qtbot, win, point, keys):
    ed = win.editor
    cursor = QTextCursor(ed.document())
    cursor.setPosition(point)
    ed.setTextCursor(cursor)
    ed.setFocus()
    QTest.keyClicks(ed, keys)
    win._debounce.stop()  # hold the new layout back: what shows is the old one, moved
    qtbot.wait(10)  # the queued decoration pass


def test_the_layout_follows_an_edit_and_the_colours_stay(qtbot, window):
    open_text(qtbot, window, PARAGRAPH * 6)
    spans = window.result.layout.spans
    assert len(spans) >= 4
    before = painted_positions(window.editor)
    generation = window.shown_generation
    edit_at = spans[1].own_start + 3  # inside chunk 1
    type_at(qtbot, window, edit_at, "xyz")
    assert window.shown_generation == generation  # still the old layout
    after = painted_positions(window.editor)
    assert after, "a keystroke blanked the chunk colours"
    for index, (start, end) in before.items():
        if start > edit_at:  # chunks after the edit moved by its length
            assert after[index] == (start + 3, end + 3)
        elif end <= edit_at:  # chunks before it stayed
            assert after[index] == (start, end)
    assert after[1] == (before[1][0], before[1][1] + 3)  # the edited chunk grew
    assert window.editor.to_editor(spans[3].own_start) == spans[3].own_start + 3
    # the new layout, when it comes, is of the edited text and drops the shift
    window._debounce.start(0)
    settle(qtbot, window)
    assert window.shown_generation > generation
    assert "xyz" in window.result.layout.document.text
    assert window.editor.to_editor(5) == 5


def test_a_deletion_moves_later_chunks_back(qtbot, window):
    open_text(qtbot, window, PARAGRAPH * 6)
    before = painted_positions(window.editor)
    spans = window.result.layout.spans
    ed = window.editor
    cursor = QTextCursor(ed.document())
    cursor.setPosition(spans[0].own_start + 2)
    cursor.setPosition(spans[0].own_start + 6, QTextCursor.MoveMode.KeepAnchor)
    cursor.removeSelectedText()
    window._debounce.stop()
    qtbot.wait(10)
    after = painted_positions(ed)
    assert after[2] == (before[2][0] - 4, before[2][1] - 4)


def test_edits_made_while_a_layout_runs_keep_following(qtbot, window):
    open_text(qtbot, window, PARAGRAPH * 6)
    spans = window.result.layout.spans
    type_at(qtbot, window, spans[1].own_start, "ab")
    window.submit()  # the run reads the text with "ab" ...
    type_at(qtbot, window, 0, "cd")  # ... and this edit comes after it
    settle(qtbot, window)
    layout = window.result.layout
    assert layout.document.text.startswith("Apples") and "ab" in layout.document.text
    # the shown layout is of the text before "cd": its offsets are still shifted by 2
    assert window.editor.to_editor(layout.spans[2].own_start) == layout.spans[2].own_start + 2
    assert window.editor.plain_text() == window.editor.document().toRawText().replace(
        "\u2029", "\n"
    )


def test_a_new_query_drops_the_search_under_way(qtbot, window, monkeypatch):
    monkeypatch.setattr(searcher, "SLICE", 0.0)  # the smallest slices: 64 chunks each
    open_text(qtbot, window, PARAGRAPH * 400)
    assert len(window.result.layout.spans) > 200
    window.search_box.setText("apple")
    first = window.searcher.search
    assert window.searcher.running and not first.done
    window.search_box.setText("pear")
    assert window.searcher.search is not first and not first.done  # dropped mid-way
    qtbot.waitUntil(lambda: not window.searcher.running)
    assert first.hits and len(first.hits) < len(window.result.layout.spans)
    hits = window.searcher.hits
    assert len(hits) == len(window.result.layout.spans)
    assert all("Pears" in h.snippet for h in hits)
    assert window.hits.model().total() == len(hits)


def test_the_chunk_table_hands_rows_over_in_batches(qtbot, window, monkeypatch):
    monkeypatch.setattr(chunk_table, "BATCH", 50)
    open_text(qtbot, window, PARAGRAPH * 200)
    model = window.table.chunk_model
    total = len(window.result.layout.spans)
    assert total > 120
    assert model.rowCount() == 50 and model.total() == total
    assert model.canFetchMore()
    model.fetchMore()
    assert model.rowCount() == 100
    window.model.select_chunk(total - 1)  # selecting a chunk fetches up to it
    assert model.rowCount() == total and window.table.selected_chunk() == total - 1
    assert not model.canFetchMore()


def test_a_new_layout_with_as_many_rows_to_show_changes_the_cells_not_the_rows(
    qtbot, window, monkeypatch
):
    # a reset would repaint the header and scroll bars and drop the selected row
    monkeypatch.setattr(chunk_table, "BATCH", 50)
    open_text(qtbot, window, PARAGRAPH * 200)
    table, model = window.table, window.table.chunk_model
    window.model.select_chunk(3)
    assert table.selected_chunk() == 3
    before = window.result.layout.spans
    resets = []
    model.modelReset.connect(lambda: resets.append(1))
    window.params.set_value("targetSize", 140)
    window.submit()
    settle(qtbot, window)
    after = window.result.layout.spans
    assert len(after) != len(before) and len(after) > 50
    assert not resets and model.rowCount() == 50
    assert table.selected_chunk() == 3 == window.model.selected
    end = chunk_table.COLUMNS.index("end")
    for row in (0, 3, 49):
        shown = model.data(model.index(row, end))
        assert shown == after[row].end
    assert after[3].end != before[3].end  # the cells show the new layout, not the old
    # fewer rows than shown: the rows go, by a reset
    window.params.set_value("targetSize", 100_000)
    window.submit()
    settle(qtbot, window)
    assert resets and model.rowCount() == len(window.result.layout.spans) < 50


def test_a_new_document_clears_the_selected_row_though_the_rows_stay(qtbot, window, monkeypatch):
    # the rows are not reset when as many are shown, but the selection went with the
    # old document: the table must not keep a row the inspector no longer shows
    monkeypatch.setattr(chunk_table, "BATCH", 50)
    open_text(qtbot, window, PARAGRAPH * 200)
    window.model.select_chunk(3)
    assert window.table.selected_chunk() == 3
    open_text(qtbot, window, PARAGRAPH.replace("Apples", "Plums") * 200)
    assert window.table.chunk_model.rowCount() == 50
    assert window.model.selected is None and window.table.selected_chunk() is None


def test_a_new_document_clears_the_chunk_the_editor_showed_selected(qtbot, window):
    # the editor painted the old document's selected chunk number on the new one
    open_text(qtbot, window, PARAGRAPH * 20)
    window.model.select_chunk(3)
    assert window.editor._selected == 3
    open_text(qtbot, window, PARAGRAPH.replace("Apples", "Plums") * 20)
    assert window.model.selected is None and window.editor._selected is None


def test_a_long_text_loads_in_pieces(qtbot, window, monkeypatch):
    monkeypatch.setattr(editor, "LOAD_FIRST", 2000)
    monkeypatch.setattr(editor, "LOAD_PIECE", 1500)
    text = PARAGRAPH * 200
    window.set_document(Document(text, None, "markdown"))
    ed = window.editor
    assert ed.loading and ed.isReadOnly()
    assert 0 < ed.document().characterCount() - 1 <= 2000
    settle(qtbot, window)
    assert not ed.isReadOnly()
    assert ed.document().toRawText().replace("\u2029", "\n") == text
    assert ed.chunk_ranges()


@pytest.mark.parametrize("pace", ["quick", "slow"])
def test_a_long_text_loads_in_pieces_sized_to_the_pace_of_the_last(
    qtbot, window, monkeypatch, pace
):
    # pieces that load quicker than the slice grow (up to the most); slower ones shrink
    # to the least: the window repaints between pieces, so fewer pieces load sooner
    monkeypatch.setattr(editor, "LOAD_FIRST", 2000)
    monkeypatch.setattr(editor, "LOAD_PIECE", 1500)
    monkeypatch.setattr(editor, "LOAD_PIECE_MOST", 9000)
    monkeypatch.setattr(editor, "LOAD_SLICE", 60.0 if pace == "quick" else 1e-9)
    text = PARAGRAPH * 1000
    ed = window.editor
    loaded: list[int] = []
    ed._load_timer.timeout.connect(lambda: loaded.append(ed._loaded or len(text)))
    window.set_document(Document(text, None, "markdown"))
    settle(qtbot, window)
    assert ed.document().toRawText().replace("\u2029", "\n") == text
    sizes = [b - a for a, b in zip([2000 - len(PARAGRAPH), *loaded], loaded)][1:]
    if pace == "quick":
        assert max(sizes) <= 9000 and len(loaded) < len(text) / 7000
    else:
        assert max(sizes) <= 1500 + len(PARAGRAPH) and len(loaded) > len(text) / 1600


def test_a_long_text_keeps_its_utf16_copy_from_the_load_so_the_first_key_is_cheap(
    qtbot, window, monkeypatch
):
    # the copy the edits are kept in is made piece by piece as the text loads (at 10 MB
    # it took the first key 30 ms and more); the first key only edits it
    monkeypatch.setattr(editor, "LOAD_FIRST", 2000)
    monkeypatch.setattr(editor, "LOAD_PIECE", 1500)
    text = ("# T\n\n" + PARAGRAPH + " 😀 é\n") * 120
    window.set_document(Document(text, None, "markdown"))
    ed = window.editor
    assert ed.loading and ed._mirror is not None and len(ed._mirror) < 2 * len(text)
    settle(qtbot, window)
    mirror = ed._mirror
    assert mirror == text.encode("utf-16-le")  # whole once loaded
    type_at(qtbot, window, 5, "xy")
    assert ed._mirror is mirror  # edited where it is, not made again
    expected = ed.document().toRawText().replace("\u2029", "\n")
    assert ed.plain_text() == expected and "xy" in expected


def test_one_long_line_loads_at_one_go_and_only_what_is_on_view_is_decorated(
    qtbot, window, monkeypatch
):
    # minified JSON: one line of 200,000 characters. Qt lays a paragraph out whole at
    # every insert into it, so the rest of the line comes as one piece (in pieces of
    # 1,500 it was laid out 130 times); and a decoration pass covers the lines on view,
    # not the whole paragraph (every chunk of the text, thousands of extra selections)
    monkeypatch.setattr(editor, "LOAD_FIRST", 2000)
    monkeypatch.setattr(editor, "LOAD_PIECE", 1500)
    text = "[" + ",".join(f'{{"id":{n},"name":"item {n}"}}' for n in range(7000)) + "]\n"
    assert len(text) > 180_000 and text.count("\n") == 1
    pieces = []
    load_piece = editor.ChunkEditor._load_piece
    monkeypatch.setattr(
        editor.ChunkEditor, "_load_piece", lambda self: pieces.append(1) or load_piece(self)
    )
    window.set_document(Document(text, None, "json"))
    settle(qtbot, window)
    ed = window.editor
    assert ed.document().toRawText().replace("\u2029", "\n") == text
    assert len(pieces) == 1
    assert len(window.result.layout.spans) > 1000
    first, last = ed.visible_points()
    assert first == 0 and 0 < last < 20_000  # the lines on view, not the paragraph
    shown = ed.chunk_ranges()
    assert shown and len(shown) < 100 and max(end for _start, end in shown.values()) < 20_000


def test_a_text_of_many_short_lines_loads_a_bounded_number_of_lines_a_piece(
    qtbot, window, monkeypatch
):
    # every line is a block of the editor's document: 20,000 empty lines in one piece
    # took 0.2 s of the UI thread, so a piece holds at most LOAD_LINES of them
    monkeypatch.setattr(editor, "LOAD_FIRST", 2000)
    monkeypatch.setattr(editor, "LOAD_LINES", 500)
    text = "\n" * 6000 + "the end\n"
    sizes = []
    load_piece = editor.ChunkEditor._load_piece

    def counted(self):
        before = self.document().blockCount()
        load_piece(self)
        sizes.append(self.document().blockCount() - before)

    monkeypatch.setattr(editor.ChunkEditor, "_load_piece", counted)
    window.set_document(Document(text, None, "text"))
    settle(qtbot, window)
    assert window.editor.document().toRawText().replace("\u2029", "\n") == text
    assert len(sizes) >= 8 and max(sizes) <= 500


def test_the_text_read_for_a_run_follows_typing_pasting_and_undo(qtbot, window):
    open_text(qtbot, window, "# Title\n\nfirst line 😀 here\nsecond line\n\n" + PARAGRAPH * 3)
    ed = window.editor

    def document_text():
        return ed.document().toRawText().replace("\u2029", "\n")

    type_at(qtbot, window, 9, "ab")
    QTest.keyClick(ed, Qt.Key.Key_Return)  # a new line typed
    QTest.keyClicks(ed, "cd")
    cursor = ed.textCursor()
    cursor.insertText("pasted\nlines\u2028soft 🎉")
    cursor.setPosition(3)
    cursor.setPosition(20, QTextCursor.MoveMode.KeepAnchor)
    cursor.removeSelectedText()
    assert ed.plain_text() == document_text()
    ed.undo()
    ed.undo()
    assert ed.plain_text() == document_text()
    ed.redo()
    assert ed.plain_text() == document_text()
    assert ed._mirror is not None  # read from the kept copy, not by walking the document
    window._debounce.start(0)
    settle(qtbot, window)
    assert window.result.layout.document.text == document_text()


def test_the_warnings_follow_the_painted_layout(qtbot, window):
    """The structure checks are off the change -> paint path: the result is shown with its
    spans, and its warnings and size statistics arrive after it, the same as in-process."""
    from chunkview.core.chunkers.entry import RunContext
    from chunkview.core.runtime.pipeline import Pipeline

    events = []
    window.model.subscribe(
        ModelEvent.RESULT, lambda r: events.append(("result", r.layout.complete))
    )
    window.model.subscribe(
        ModelEvent.DETAILS, lambda r: events.append(("details", r.layout.complete))
    )
    window.select_entry("agentos.SemanticChunker", {"targetSize": 60, "maxSize": 50})
    open_text(qtbot, window, PARAGRAPH * 4 + "a sentence that runs on and on " * 9)
    assert events[-2:] == [("result", False), ("details", True)]
    layout = window.result.layout
    local = Pipeline().run(window.result.request, RunContext()).layout
    assert layout.warnings == local.warnings and layout.warnings
    assert (layout.chars, layout.bytes, list(layout.sizes)) == (
        local.chars,
        local.bytes,
        local.sizes,
    )
    assert sum(window.tabs.warnings_panel.counts().values()) == len(local.warnings)


def test_an_option_change_goes_out_at_once_and_typing_waits_for_a_pause(qtbot, window):
    # a slider step is sent on the next turn of the event loop (a drag's last value does
    # not wait for a debounce: a newer one supersedes the run in flight); steps made in
    # one slot go as one run
    open_text(qtbot, window, PARAGRAPH * 6)
    generation = window.generation
    window.params.set_value("targetSize", 70)
    window.params.set_value("targetSize", 80)
    assert window.generation == generation  # not inside the slot
    QCoreApplication.processEvents()  # the next turn: no timer of tens of ms to wait for
    assert window.generation == generation + 1
    assert window.model._submitted.options["targetSize"] == 80
    settle(qtbot, window)
    # a keystroke still waits for a pause in the typing
    generation = window.generation
    type_at(qtbot, window, 0, "x")  # (stops the timer: started again below)
    window.editor.edited.emit()
    assert window._debounce.isActive() and window._debounce.interval() >= DEBOUNCE_MS
    QCoreApplication.processEvents()
    assert window.generation == generation
