"""The real window on odd documents and odd settings, as a new user would drive it."""

from conftest import CORPUS, settle

from chunkview.core.session import ModelEvent


def test_a_new_document_that_fails_shows_none_of_the_old_documents_chunks(qtbot, window):
    assert window.open_path(CORPUS / "acorn-readme.md")
    settle(qtbot, window)
    assert window.table.chunk_model.total() > 0
    window.select_entry("agentos.chunkTurns")  # not a transcript: SyntaxError
    settle(qtbot, window)
    assert "last good run" in window.error_label.text()
    assert window.table.chunk_model.total() > 0  # same document: the last layout stays
    assert window.open_path(CORPUS / "redis-readme.md")
    settle(qtbot, window)
    assert not window.error_label.isHidden()
    assert "No chunks" in window.error_label.text()
    assert window.table.chunk_model.total() == 0
    assert window.result.layout.document.text == window.document.text
    assert window.tabs.tabText(2) == "Warnings"


def test_closing_the_window_during_a_sweep_kills_its_processes(qtbot, window):
    from chunkview.core.batch.sweep import pool_runner
    from chunkview.core.model.document import Document

    text = (CORPUS / "redis-readme.md").read_text(encoding="utf-8")
    window.set_document(Document("\n\n".join([text] * 250), None, "markdown"))  # ~4.4 MB
    sweep = window.views.sweep
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("targetSize"))
    sweep.values_edit.setText("100:1000:100")  # a second or more each
    sweep.runner = pool_runner(workers=1)
    assert sweep.start()
    qtbot.wait(1500)  # the first value is chunking in the pool's process
    assert sweep._job.job_thread.is_alive()
    window.close()
    # the pool's process is killed at once: the sweep's thread does not wait for the job
    sweep._job.job_thread.join(2.0)
    assert not sweep._job.job_thread.is_alive()
    assert len(sweep.rows) < 10


def test_step_through_says_why_there_is_nothing_to_step_through(qtbot, window):
    from chunkview.core.model.document import Document

    window.set_document(Document("", None, "text"))
    settle(qtbot, window)
    window.step_through.set_active(True)
    assert window.step_through.counter.text() == "No chunks"
    assert "made no chunks of this 0-character document" in window.step_through.reason.text()
    window.select_entry("agentos.chunkTurns")
    window.set_document(Document("not a transcript", None, "text"))
    settle(qtbot, window)
    assert "SyntaxError" in window.step_through.reason.text()
    assert not window.step_through.next_button.isEnabled()


def test_gutter_numbers_sit_on_the_wrapped_line_their_chunk_starts_on(qtbot, window):
    from PySide6.QtGui import QTextCursor

    from chunkview.core.model.document import Document

    window.select_entry("agentos.SemanticChunker", {"targetSize": 300, "maxSize": 300})
    window.set_document(Document("word " * 2000, None, "text"))  # one line, many chunks
    settle(qtbot, window)
    editor = window.editor
    editor._gutter.repaint()
    labels = dict((index, y) for y, index in editor.gutter_labels)
    assert len(labels) >= 3
    spans = window.result.layout.spans
    for index, y in labels.items():
        cursor = QTextCursor(editor.document())
        cursor.setPosition(editor.to_editor(spans[index].own_start))
        assert abs(editor.cursorRect(cursor).top() - y) <= 3, (index, y)


def test_switching_entries_never_leaves_the_old_form_painted(window):
    old_body = window.params._body
    assert old_body.isVisible()
    window.select_entry("semantic-chunking.chunkit")  # no event loop in between
    assert window.params._body is not old_body
    assert not old_body.isVisible()


def test_saving_questions_where_it_cannot_says_so_and_keeps_them(window, tmp_path):
    from chunkview.core.analysis.eval import Question, Reference

    panel = window.views.eval_panel
    panel.set_questions([Question("where?", (Reference("text", 0, 4),))])
    assert not panel.save_questions(str(tmp_path / "gone" / "questions.jsonl"))
    assert "Cannot save the questions" in panel.means.text()
    assert len(panel.questions) == 1


def test_a_second_configuration_follows_a_new_document_without_asking_to_pin(qtbot, window):
    compare = window.views.compare
    assert window.open_path(CORPUS / "acorn-readme.md")
    settle(qtbot, window)
    compare.set_b("agentos.SemanticChunker", {"targetSize": 300})
    qtbot.waitUntil(lambda: "From A to B" in compare.summary.text(), timeout=30000)
    said = []  # what the panel says as A's new result is shown, before B's comes
    window.model.subscribe(ModelEvent.RESULT, lambda _r: said.append(compare.summary.text()))
    assert window.open_path(CORPUS / "redis-readme.md")
    settle(qtbot, window)
    assert said and not any("pin again" in text for text in said), said
    qtbot.waitUntil(lambda: "From A to B" in compare.summary.text(), timeout=30000)
    assert window.model.pinned.layout.document.text == window.document.text


def test_mastra_headers_preset_follows_the_strategy_until_edited(qtbot, window):
    """The html strategy starts with selector headers, markdown with marker headers; a
    value the user typed stays when the strategy changes."""
    window.select_entry("mastra.chunk", {"strategy": "html"})
    assert window.open_path(CORPUS / "what-is-rustdoc.html")
    settle(qtbot, window)
    assert window.result.request.options["headers"] == [["h1", "title"], ["h2", "section"]]
    assert len(window.result.layout.spans) > 0
    window.params.set_value("strategy", "markdown")
    settle(qtbot, window)
    assert window.result.request.options["headers"] == [["#", "title"], ["##", "section"]]
    # a value that is also a selector: "###" as a selector loops forever in the original
    window.params.set_value("headers", [["h3", "sub"]])
    window.params.set_value("strategy", "html")
    settle(qtbot, window)
    assert window.result.request.options["headers"] == [["h3", "sub"]]


def test_a_fraction_typed_in_the_panel_reaches_the_port_as_in_js(qtbot, window):
    """Options are JS numbers: chunkOverlap 0.5 gives node's [a, a, b, b, c]."""
    from PySide6.QtCore import Qt

    from chunkview.app.params import NumberBox
    from chunkview.core.model.document import Document

    window.select_entry("agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 2})
    window.set_document(Document("a b c"))
    settle(qtbot, window)
    for name, typed in (("chunkOverlap", "0.5"), ("chunkSize", "2")):
        box = window.params.field_widget(name).findChild(NumberBox)
        box.lineEdit().selectAll()
        qtbot.keyClicks(box.lineEdit(), typed)
        qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)
    settle(qtbot, window)
    assert window.result.request.options["chunkOverlap"] == 0.5
    assert [s.text for s in window.result.layout.spans] == ["a", "a", "b", "b", "c"]
    box = window.params.field_widget("chunkSize").findChild(NumberBox)
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), "-5")
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)
    settle(qtbot, window)
    assert window.model.options["chunkSize"] == -5  # not clamped to a minimum
    assert window.model.failure is not None and window.model.failure.name == "Hang"
