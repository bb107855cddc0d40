"""Session files in the real window (offscreen: real widgets, worker thread and chunking
process): a view saved and reopened in a new window, a document changed since, files
that cannot be opened; and each document's questions kept across a restart."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import CORPUS, settle
from PySide6.QtGui import QTextCursor
from tokenizer_files_helpers import write_tiktoken

from chunkview.app.files import DEFAULT_SAMPLE
from chunkview.app.main_window import MainWindow
from chunkview.app.question_memory import QUESTIONS_FOLDER
from chunkview.core.analysis.eval import Question, Reference
from chunkview.core.model.document import Document
from chunkview.core.saved.document_questions import (
    HASH_SLICE,
    DocumentQuestions,
    document_key,
    save_document_questions,
    text_sha256,
)


def a_document(tmp_path: Path) -> Path:
    """A copy of a corpus document in a folder of its own (its session goes beside it)."""
    folder = tmp_path / "work"
    folder.mkdir(exist_ok=True)
    path = folder / "acorn.md"
    path.write_bytes((CORPUS / "acorn-readme.md").read_bytes())
    return path


def questions_on(text: str) -> list[Question]:
    found = []
    for question, answer in (("What parses?", "parser"), ("Where are plugins?", "plugin")):
        start = text.index(answer)
        found.append(Question(question, (Reference(answer, start, start + len(answer)),)))
    return found


def test_a_saved_session_reopens_the_same_view_in_a_new_window(qtbot, window, new_window, tmp_path):
    document = a_document(tmp_path)
    assert window.open_path(document)
    settle(qtbot, window)
    # B: a layout of mastra's chunk, pinned; then A: SemanticChunker at other sizes
    window.select_entry("mastra.chunk", {"strategy": "recursive", "maxSize": 300, "overlap": 20})
    settle(qtbot, window)
    b_options = window.result.request.options
    window.pin_button.click()
    window.select_entry("agentos.SemanticChunker", {"targetSize": 250, "maxSize": 700})
    settle(qtbot, window)
    a_options = window.result.request.options
    assert window.model.pinned.request.entry_id == "mastra.chunk"
    panel = window.views.eval_panel
    questions = questions_on(window.document.text)
    panel.set_questions(questions)
    panel.top_k.setValue(3)
    window.set_theme("dark")
    window.presentation.zoom(2)
    window.search_box.setText("parser")
    window.model.select_chunk(3)
    session = document.parent / "view.chunkview.json"
    try:
        assert window.sessions.save_session(str(document.parent / "view")) == str(session)
        saved = json.loads(session.read_text(encoding="utf-8"))
        assert saved["document"]["path"] == "acorn.md"  # beside it: relative
        assert saved["b"]["mode"] == "pinned"

        # a new window, as `chunkview view.chunkview.json` opens it
        again = new_window(tmp_path / "again.ini")
        assert again.presentation.steps == 0 and again.theme_mode == "system"
        again.restore_session(str(session))
        qtbot.waitUntil(
            lambda: (
                again.model.pinned is not None
                and again.result is not None
                and again.result.request.entry_id == "agentos.SemanticChunker"
            ),
            timeout=30000,
        )
        settle(qtbot, again)
        model = again.model
        assert again.document.path == str(document)
        assert again.document.text == window.document.text
        assert model.entry_id == "agentos.SemanticChunker"
        assert again.result.request.options == a_options
        assert again.params.options() == a_options
        assert model.b_source == "pinned"
        assert model.pinned.request.entry_id == "mastra.chunk"
        assert model.pinned.request.options == b_options
        assert model.comparison().diff.counts == window.model.comparison().diff.counts
        assert again.views.eval_panel.questions == questions
        assert again.views.eval_panel.top_k.value() == 3
        assert again.theme_mode == "dark" and again.menus.themes["dark"].isChecked()
        assert again.presentation.steps == 2
        assert again.search_box.text() == "parser" and model.query == "parser"
        qtbot.waitUntil(lambda: model.selected == 3, timeout=10000)
        assert not again.sessions.bar.isVisible()  # the same document: nothing to say
    finally:
        window.set_theme("system")


def test_a_second_configuration_comes_back_and_a_changed_document_is_noted(
    qtbot, window, new_window, tmp_path
):
    document = a_document(tmp_path)
    assert window.open_path(document)
    settle(qtbot, window)
    compare = window.views.compare
    compare.set_b("mastra.chunk", {"strategy": "recursive", "maxSize": 200})
    qtbot.waitUntil(lambda: "From A to B" in compare.summary.text(), timeout=30000)
    b_options = window.model.b_options
    session = tmp_path / "elsewhere" / "s.chunkview.json"
    session.parent.mkdir()
    assert window.sessions.save_session(str(session))
    saved = json.loads(session.read_text(encoding="utf-8"))
    assert saved["document"]["path"] == str(document)  # not below the session: absolute
    assert saved["b"] == {"mode": "config", "id": "mastra.chunk", "options": b_options}
    # the document changes after the session was saved
    document.write_text(document.read_text(encoding="utf-8") + "\nOne more line.\n")

    again = new_window(tmp_path / "again.ini")
    assert again.open_path(session)
    settle(qtbot, again)
    qtbot.waitUntil(lambda: again.model.pinned is not None, timeout=30000)
    assert again.model.b_source == "config"
    assert (again.model.b_entry_id, again.model.b_options) == ("mastra.chunk", b_options)
    assert again.views.compare.config_radio.isChecked()
    assert again.model.pinned.layout.document.text.endswith("One more line.\n")
    bar = again.sessions.bar
    assert bar.isVisible()
    assert "acorn.md changed since this session was saved" in bar.message.text()
    assert again.document.text.endswith("One more line.\n")  # the text as it is now
    # the note is about that document: it goes when another is shown
    assert again.open_path(DEFAULT_SAMPLE, sample=True)
    assert not bar.isVisible()


def test_a_session_that_cannot_be_opened_leaves_the_window_as_it_was(qtbot, window, tmp_path):
    document = a_document(tmp_path)
    assert window.open_path(document)
    settle(qtbot, window)
    window.select_entry("smartchunk", {"maxSize": 300})
    settle(qtbot, window)
    session = document.parent / "s.chunkview.json"
    assert window.sessions.save_session(str(session))
    good = json.loads(session.read_text(encoding="utf-8"))
    before = (window.document, window.model.entry_id, window.model.options)
    bar = window.sessions.bar

    def refused(path: Path, said: str) -> None:
        assert not window.open_path(path)
        text = bar.message.text()
        assert bar.isVisible() and text.startswith("Cannot open the session: ")
        assert said in text and "\n" not in text
        assert (window.document, window.model.entry_id, window.model.options) == before
        bar.close_button.click()
        assert not bar.isVisible()

    broken = tmp_path / "broken.chunkview.json"
    broken.write_text('{"format": "chunkview-session", "version": 1, "docu', encoding="utf-8")
    refused(broken, "broken.chunkview.json: not a chunkview session file (not valid JSON")
    newer = tmp_path / "work" / "newer.chunkview.json"
    newer.write_text(json.dumps({**good, "version": 7}), encoding="utf-8")
    refused(newer, "saved by a newer chunkview (session format 7; this one reads up to 2)")
    unknown = tmp_path / "work" / "unknown.chunkview.json"
    unknown.write_text(json.dumps({**good, "entry": {"id": "nope.Chunker"}}), encoding="utf-8")
    refused(unknown, "its chunker nope.Chunker is not available here")
    moved = tmp_path / "moved.chunkview.json"  # its relative path finds nothing there
    moved.write_text(session.read_text(encoding="utf-8"), encoding="utf-8")
    refused(moved, f"its document {tmp_path / 'acorn.md'} is missing")
    # a file shown with its NUL bytes as ␀ is not its file's text, nor untitled: refused
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"text\x00more text\n")
    assert window.files.open_path(binary, show_nuls="\u2400")
    assert window.document.text == "text\u2400more text\n"
    assert window.sessions.save_session(str(tmp_path / "none.chunkview.json")) is None
    said = bar.message.text()
    assert said.startswith("Cannot save the session: binary.txt is shown with its NUL bytes")
    assert said.endswith("save the document to a file first") and "\n" not in said
    assert not (tmp_path / "none.chunkview.json").exists()
    # a text with no file of its own, not even edited, is kept as its text
    window.set_document(Document("a text typed in, never saved"))
    assert window.sessions.save_session(str(tmp_path / "none.chunkview.json"))
    saved = json.loads((tmp_path / "none.chunkview.json").read_text(encoding="utf-8"))
    assert saved["document"] == {
        "encoding": "utf-8",
        "kind": "text",
        "text": "a text typed in, never saved",
    }


def select(window: MainWindow, start: int, end: int) -> None:
    cursor = window.editor.textCursor()
    cursor.setPosition(window.editor.to_editor(start))
    cursor.setPosition(window.editor.to_editor(end), QTextCursor.MoveMode.KeepAnchor)
    window.editor.setTextCursor(cursor)


def test_questions_are_kept_across_a_restart_of_the_window(qtbot, new_window, tmp_path):
    settings = tmp_path / "settings.ini"
    document = a_document(tmp_path)
    first = new_window(settings)
    first.restore_session(str(document))
    settle(qtbot, first)
    panel = first.views.eval_panel
    start = first.document.text.index("parser")
    select(first, start, start + len("parser"))
    panel.question_box.setText("What does acorn give?")
    panel.mark_button.click()
    assert len(panel.questions) == 1
    marked = list(panel.questions)
    # quitting with the questions never saved by hand
    first.close()
    kept = list((tmp_path / "settings-data" / QUESTIONS_FOLDER).glob("*.json"))
    assert len(kept) == 1

    second = new_window(settings)
    second.restore_session()  # the last document, as a launch opens it
    settle(qtbot, second)
    assert second.document.path == str(document)
    again = second.views.eval_panel
    assert again.questions == marked
    # each document has its own: none for a sample, and the first's back with it
    assert second.open_path(DEFAULT_SAMPLE, sample=True)
    assert again.questions == []
    assert second.open_path(document)
    assert again.questions == marked
    qtbot.waitUntil(lambda: again.table.rowCount() == 1, timeout=20000)
    again.table.selectRow(0)
    again.remove_button.click()  # removed: nothing kept for it any more
    assert again.questions == [] and not kept[0].exists()


def test_questions_the_data_folder_would_not_take_are_written_at_quit(qtbot, new_window, tmp_path):
    settings = tmp_path / "settings.ini"
    blocker = tmp_path / "settings-data"  # a file where the data folder goes
    blocker.write_text("")
    document = a_document(tmp_path)
    first = new_window(settings)
    first.restore_session(str(document))
    settle(qtbot, first)
    questions = questions_on(first.document.text)
    first.views.eval_panel.set_questions(questions)
    assert first.question_memory.unsaved
    assert "The questions are not kept for next time" in first.statusBar().currentMessage()
    blocker.unlink()  # the folder can be made again
    first.close()
    second = new_window(settings)
    second.restore_session()
    settle(qtbot, second)
    assert second.views.eval_panel.questions == questions


def test_a_long_text_without_a_file_gets_its_questions_once_hashed(qtbot, new_window, tmp_path):
    settings = tmp_path / "settings.ini"
    text = (CORPUS / "acorn-readme.md").read_text(encoding="utf-8")
    long_text = "\n\n".join([text] * (HASH_SLICE * 2 // len(text) + 1))
    key = document_key(None, long_text)
    marked = tuple(questions_on(long_text))
    folder = tmp_path / "settings-data" / QUESTIONS_FOLDER
    save_document_questions(folder, DocumentQuestions(key, text_sha256(long_text), marked))
    window = new_window(settings)
    window.set_document(Document(long_text))
    # the hash is made a slice per turn of the event loop, not while opening
    assert window.question_memory.key is None
    qtbot.waitUntil(lambda: window.question_memory.key == key, timeout=20000)
    assert tuple(window.views.eval_panel.questions) == marked


CHUNKER_FILE = """\
import os

with open(os.path.join(os.path.dirname(__file__), "loaded-by.txt"), "a") as marker:
    marker.write(f"{os.getpid()}\\n")


def paragraphs(text, max_chars: int = 200):
    return [p[:max_chars] for p in text.split("\\n\\n")]


def lines(text, skip_headings: bool = False):
    return [l for l in text.split("\\n") if l and not (skip_headings and l.startswith("#"))]
"""


@pytest.mark.usefixtures("registry_as_before")
def test_a_session_of_a_chunker_files_function_reopens_the_file_and_the_counter(
    qtbot, window, new_window, tmp_path
):
    document = a_document(tmp_path)
    mine = document.parent / "mine.py"
    mine.write_text(CHUNKER_FILE, encoding="utf-8")
    tokenizer = str(write_tiktoken(document.parent / "tiny.tiktoken"))
    assert window.open_path(document)
    settle(qtbot, window)
    with qtbot.waitSignal(window.chunker_files.loaded, timeout=15000):
        assert window.chunker_files.open_file(str(mine))
    settle(qtbot, window)
    # B: the file's other function, pinned; A: paragraphs at another size
    window.select_entry(f"{mine}:lines", {"skip_headings": True})
    settle(qtbot, window)
    window.pin_button.click()
    window.select_entry(f"{mine}:paragraphs", {"max_chars": 40})
    settle(qtbot, window)
    assert window.token_counter.use(tokenizer)
    session = document.parent / "mine.chunkview.json"
    saved_a = [s.text for s in window.result.layout.spans]
    saved_b = [s.text for s in window.model.pinned.layout.spans]
    assert window.sessions.save_session(str(session)) == str(session)
    saved = json.loads(session.read_text(encoding="utf-8"))
    # beside the session: relative, so the folder can be moved
    assert saved["entry"] == {"id": "mine.py:paragraphs", "options": {"max_chars": 40}}
    assert saved["b"]["id"] == "mine.py:lines"
    assert saved["token_counter"] == "tiny.tiktoken"

    again = new_window(tmp_path / "again.ini")
    assert again.token_counter.path is None
    again.restore_session(str(session))
    qtbot.waitUntil(
        lambda: (
            again.model.pinned is not None
            and again.result is not None
            and again.result.request.entry_id == f"{mine}:paragraphs"
        ),
        timeout=30000,
    )
    settle(qtbot, again)
    assert again.model.entry_id == f"{mine}:paragraphs"
    assert again.chunker.entry_combo.currentData() == f"{mine}:paragraphs"
    assert again.result.request.options == {"max_chars": 40}
    assert again.params.options() == {"max_chars": 40}
    assert [s.text for s in again.result.layout.spans] == saved_a
    assert again.model.pinned.request.entry_id == f"{mine}:lines"
    assert again.model.pinned.request.options == {"skip_headings": True}
    assert [s.text for s in again.model.pinned.layout.spans] == saved_b
    # the file is listed and watched, described by the chunking process only
    assert str(mine) in again.chunker_files.files
    assert str(mine) in again.chunker_files.watcher.files()
    loaded_by = (document.parent / "loaded-by.txt").read_text(encoding="utf-8").split()
    assert loaded_by and str(os.getpid()) not in loaded_by
    # tokens counted with the session's tokenizer file
    assert again.token_counter.path == tokenizer
    assert again.token_counter.file_action.isChecked()
    assert again.model.token_counter == tokenizer
    assert not again.sessions.bar.isVisible()


@pytest.mark.usefixtures("registry_as_before")
def test_a_session_whose_chunker_file_is_gone_is_refused(qtbot, window, tmp_path):
    document = a_document(tmp_path)
    assert window.open_path(document)
    settle(qtbot, window)
    before = (window.document, window.model.entry_id)
    session = document.parent / "gone.chunkview.json"
    window.sessions.save_session(str(session))
    data = json.loads(session.read_text(encoding="utf-8"))
    data["entry"] = {"id": "gone.py:paragraphs", "options": {}}
    session.write_text(json.dumps(data), encoding="utf-8")
    assert not window.open_path(session)
    text = window.sessions.bar.message.text()
    assert f"its chunker file {document.parent / 'gone.py'} is missing" in text
    assert (window.document, window.model.entry_id) == before


def _recent(window: MainWindow) -> list[str]:
    menu = window.files.recent_menu
    assert menu is not None
    return [action.text() for action in menu.actions()]


def test_sessions_are_in_open_recent_when_saved_or_opened_and_reopen_as_sessions(
    qtbot, window, tmp_path
):
    document = a_document(tmp_path)
    assert window.open_path(document)
    settle(qtbot, window)
    window.select_entry("smartchunk", {"maxSize": 300})
    settle(qtbot, window)
    session = document.parent / "recent.chunkview.json"
    assert window.sessions.save_session(str(session))
    assert _recent(window)[:2] == [str(session), str(document)]
    # another document and chunker; then the session, chosen in Open Recent
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    window.select_entry("mastra.chunk", {"maxSize": 100})
    settle(qtbot, window)
    other = document.parent / "other.md"
    other.write_text("# Other\n\nA text.\n", encoding="utf-8")
    assert window.open_path(other)
    assert _recent(window)[:3] == [str(other), str(session), str(document)]
    menu = window.files.recent_menu
    menu.actions()[1].trigger()
    qtbot.waitUntil(lambda: window.model.entry_id == "smartchunk", timeout=10000)
    settle(qtbot, window)
    assert window.document.path == str(document)  # the session's view, not its JSON
    assert window.result.request.options["maxSize"] == 300
    assert _recent(window)[:3] == [str(session), str(document), str(other)]


@pytest.mark.usefixtures("registry_as_before")
def test_a_second_configuration_of_a_chunker_files_function_comes_back(
    qtbot, window, new_window, tmp_path
):
    document = a_document(tmp_path)
    mine = document.parent / "mine.py"
    mine.write_text(CHUNKER_FILE, encoding="utf-8")
    assert window.open_path(document)
    settle(qtbot, window)
    window.select_entry("smartchunk", {"maxSize": 300})
    settle(qtbot, window)
    session = document.parent / "config.chunkview.json"
    assert window.sessions.save_session(str(session))
    data = json.loads(session.read_text(encoding="utf-8"))
    data["b"] = {"mode": "config", "id": "mine.py:lines", "options": {"skip_headings": True}}
    session.write_text(json.dumps(data), encoding="utf-8")

    again = new_window(tmp_path / "again.ini")
    again.restore_session(str(session))
    compare = again.views.compare
    qtbot.waitUntil(lambda: "From A to B" in compare.summary.text(), timeout=30000)
    model = again.model
    assert model.entry_id == "smartchunk"
    assert (model.b_source, model.b_entry_id) == ("config", f"{mine}:lines")
    assert model.b_options == {"skip_headings": True}
    assert compare.entry_combo.currentData() == f"{mine}:lines"
    assert str(mine) in again.chunker_files.files


@pytest.mark.usefixtures("registry_as_before")
def test_a_document_opened_while_the_chunker_file_loads_is_not_replaced(
    qtbot, window, new_window, tmp_path
):
    document = a_document(tmp_path)
    mine = document.parent / "mine.py"
    mine.write_text(CHUNKER_FILE, encoding="utf-8")
    assert window.open_path(document)
    settle(qtbot, window)
    session = document.parent / "moved-on.chunkview.json"
    assert window.sessions.save_session(str(session))
    data = json.loads(session.read_text(encoding="utf-8"))
    data["entry"] = {"id": "mine.py:paragraphs", "options": {}}
    session.write_text(json.dumps(data), encoding="utf-8")

    again = new_window(tmp_path / "again.ini")
    again.select_entry("smartchunk")
    with qtbot.waitSignal(again.chunker_files.loaded, timeout=15000):
        assert again.open_path(session)  # waits for the file's description...
        assert again.open_path(DEFAULT_SAMPLE, sample=True)  # ...and the user moves on
    settle(qtbot, again)
    assert again.document.path == str(DEFAULT_SAMPLE)
    assert again.model.entry_id == "smartchunk"
    assert str(mine) in again.chunker_files.files  # listed all the same
