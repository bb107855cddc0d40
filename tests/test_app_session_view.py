"""What a session keeps of the view beyond the model, in the real window (offscreen: real
widgets, worker thread and chunking process): the editor's and the lanes dock's
colouring, side by side, the open docks, the document's unsaved edits and an untitled
document's text, saved and reopened in a new window; a version 1 session and the README's
example opened as written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import CORPUS, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from test_session_file import SAMPLE, readme_session_example

from chunkview.app.main_window import MainWindow
from chunkview.core.analysis.eval import Question, Reference
from chunkview.core.saved.session_file import file_sha256


def a_document(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir(exist_ok=True)
    path = folder / "acorn.md"
    path.write_bytes((CORPUS / "acorn-readme.md").read_bytes())
    return path


def docks_open(window: MainWindow) -> dict[str, bool]:
    views = window.views
    docks = {
        "lanes": views.lanes_dock,
        "sweep": views.sweep_dock,
        "eval": views.eval_dock,
        "audit": views.audit_dock,
    }
    return {name: dock.toggleViewAction().isChecked() for name, dock in docks.items()}


def reopened(qtbot, window: MainWindow, session: Path, entry_id: str) -> None:
    window.restore_session(str(session))
    qtbot.waitUntil(
        lambda: window.result is not None and window.result.request.entry_id == entry_id,
        timeout=30000,
    )
    settle(qtbot, window)


def test_the_colouring_side_by_side_and_docks_come_back_in_a_new_window(
    qtbot, window, new_window, tmp_path
):
    document = a_document(tmp_path)
    assert window.open_path(document)
    window.select_entry("mastra.chunk", {"strategy": "recursive", "maxSize": 300})
    settle(qtbot, window)
    window.pin_button.click()
    window.select_entry("smartchunk", {"maxSize": 250})
    settle(qtbot, window)
    # colour by reason, as the link above the editor does; the lanes dock by reason too
    assert 'href="reason"' in window.view.legend.text()
    window.view.legend.linkActivated.emit("reason")
    assert window.editor.by_reason and 'href="kind"' in window.view.legend.text()
    lanes = window.views.lanes
    lanes.colour_by.setCurrentIndex(lanes.colour_by.findData(True))
    window.views.compare.side_by_side.setChecked(True)
    # the lanes and audit docks opened from the View menu, the sweep opened then closed
    for dock in (window.views.lanes_dock, window.views.audit_dock, window.views.sweep_dock):
        dock.toggleViewAction().trigger()
    window.views.sweep_dock.toggleViewAction().trigger()
    assert docks_open(window) == {"lanes": True, "sweep": False, "eval": False, "audit": True}
    session = document.parent / "view.chunkview.json"
    assert window.sessions.save_session(str(session)) == str(session)
    saved = json.loads(session.read_text(encoding="utf-8"))
    assert saved["version"] == 2
    assert "text" not in saved["document"]  # not edited: the session names the file
    assert saved["view"]["colour_by"] == "reason" and saved["view"]["lanes_colour_by"] == "reason"
    assert saved["view"]["side_by_side"] is True
    assert saved["view"]["docks"] == docks_open(window)

    # a new window with the sweep dock open: the session closes it
    again = new_window(tmp_path / "again.ini")
    again.views.sweep_dock.toggleViewAction().trigger()
    assert not again.editor.by_reason and not again.views.compare.side_by_side.isChecked()
    reopened(qtbot, again, session, "smartchunk")
    qtbot.waitUntil(lambda: again.model.pinned is not None, timeout=30000)
    settle(qtbot, again)
    assert again.editor.by_reason
    assert "colour by kind</a>" in again.view.legend.text()  # the legend says it, too
    again_lanes = again.views.lanes
    assert again_lanes.canvas.by_reason and again_lanes.colour_by.currentData() is True
    compare = again.views.compare
    assert compare.side_by_side.isChecked()
    assert compare.b_editor.isVisible() and "mastra.chunk" in compare.b_title.text()
    assert docks_open(again) == {"lanes": True, "sweep": False, "eval": False, "audit": True}
    assert again.views.lanes_dock.isVisible()
    assert not again.sessions.bar.isVisible()


def test_a_version_1_session_leaves_the_docks_and_colours_by_kind(
    qtbot, window, new_window, tmp_path
):
    document = a_document(tmp_path)
    assert window.open_path(document)
    window.select_entry("smartchunk", {"maxSize": 250})
    settle(qtbot, window)
    session = document.parent / "old.chunkview.json"
    assert window.sessions.save_session(str(session))
    # as chunkview wrote it with format 1: no colouring, side by side nor docks
    data = json.loads(session.read_text(encoding="utf-8"))
    data["version"] = 1
    for key in ("colour_by", "lanes_colour_by", "side_by_side", "docks"):
        del data["view"][key]
    session.write_text(json.dumps(data, indent=2), encoding="utf-8")

    again = new_window(tmp_path / "again.ini")
    again.views.sweep_dock.toggleViewAction().trigger()
    again.view.set_colour_by_reason(True)
    again.views.compare.side_by_side.setChecked(True)
    reopened(qtbot, again, session, "smartchunk")
    assert again.result.request.options["maxSize"] == 250
    assert not again.editor.by_reason  # the defaults: by kind, side by side off
    assert not again.views.compare.side_by_side.isChecked()
    # the docks were not kept by version 1: as the window had them
    assert docks_open(again) == {"lanes": False, "sweep": True, "eval": False, "audit": False}


def test_unsaved_edits_are_kept_in_the_session_and_come_back_unsaved(
    qtbot, window, new_window, tmp_path
):
    document = a_document(tmp_path)
    on_disk = document.read_bytes()
    assert window.open_path(document)
    window.select_entry("smartchunk", {"maxSize": 250})
    settle(qtbot, window)
    qtbot.keyClicks(window.editor, "Edited here. ")
    assert window.model.modified and window.windowTitle().endswith("*")
    settle(qtbot, window)
    edited = window.model.sync_text().text
    assert edited.startswith("Edited here. ") and edited != on_disk.decode("utf-8")
    session = document.parent / "edits.chunkview.json"
    assert window.sessions.save_session(str(session)) == str(session)
    assert "with the document's unsaved edits" in window.statusBar().currentMessage()
    saved = json.loads(session.read_text(encoding="utf-8"))["document"]
    assert saved["text"] == edited
    assert saved["sha256"] == file_sha256(document)  # of the file as it is
    assert (saved["path"], saved["encoding"], saved["kind"]) == ("acorn.md", "utf-8", "markdown")
    assert document.read_bytes() == on_disk  # saving a session writes no document

    again = new_window(tmp_path / "again.ini")
    reopened(qtbot, again, session, "smartchunk")
    assert again.document.text == edited and again.document.path == str(document)
    assert again.model.modified and again.windowTitle().endswith("*")
    assert again.editor.plain_text().startswith("Edited here. ")
    assert again.result.layout.document.text == edited  # the chunks are of the edits
    bar = again.sessions.bar
    assert bar.isVisible()
    note = bar.message.text()
    assert "The text of acorn.md comes from the session" in note
    assert "on disk differs from it" in note and "\n" not in note
    assert document.read_bytes() == on_disk
    # Save writes the edits to the file, as for any edited document
    assert again.files.save()
    assert document.read_text(encoding="utf-8") == edited and not again.model.modified

    # the file saved since: the session's text is the file's, nothing unsaved to say
    third = new_window(tmp_path / "third.ini")
    reopened(qtbot, third, session, "smartchunk")
    assert third.document.text == edited and not third.model.modified
    assert not third.sessions.bar.isVisible()


def test_unsaved_edits_of_a_document_gone_since_come_back_to_be_saved_there(
    qtbot, window, new_window, tmp_path
):
    document = a_document(tmp_path)
    assert window.open_path(document)
    window.select_entry("smartchunk", {"maxSize": 250})
    settle(qtbot, window)
    qtbot.keyClicks(window.editor, "Mine. ")
    settle(qtbot, window)
    edited = window.model.sync_text().text
    session = document.parent / "gone.chunkview.json"
    assert window.sessions.save_session(str(session))
    document.unlink()

    again = new_window(tmp_path / "again.ini")
    reopened(qtbot, again, session, "smartchunk")
    assert again.document.text == edited and again.model.modified
    note = again.sessions.bar.message.text()
    assert f"the file {document} is missing; Save writes this text there" in note
    assert again.files.save()
    assert document.read_text(encoding="utf-8") == edited
    # deleted before the session is saved: the edits are kept all the same, with no hash
    qtbot.keyClicks(again.editor, "More. ")
    settle(qtbot, again)
    document.unlink()
    later = document.parent / "later.chunkview.json"
    assert again.sessions.save_session(str(later)) == str(later)
    saved = json.loads(later.read_text(encoding="utf-8"))["document"]
    assert saved["sha256"] is None and saved["text"].startswith("More. Mine. ")


def test_the_readme_example_opens_as_written(qtbot, new_window, tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    shutil.copy(SAMPLE, folder / "guide.md")
    session = folder / "guide.chunkview.json"
    session.write_text(readme_session_example(), encoding="utf-8")
    window = new_window(tmp_path / "settings.ini")
    try:
        reopened(qtbot, window, session, "agentos.SemanticChunker")
        qtbot.waitUntil(lambda: window.model.pinned is not None, timeout=30000)
        settle(qtbot, window)
        assert window.document.path == str(folder / "guide.md")
        assert window.result.request.options["targetSize"] == 250
        assert window.model.pinned.request.entry_id == "mastra.chunk"
        assert window.theme_mode == "dark" and window.presentation.steps == 2
        assert window.editor.by_reason and window.views.lanes.colour_by.currentData() is False
        assert docks_open(window) == {"lanes": True, "sweep": False, "eval": False, "audit": False}
        assert len(window.views.eval_panel.questions) == 1
        assert not window.sessions.bar.isVisible()  # the sample's bytes, as hashed
    finally:
        window.set_theme("system")


def test_an_edited_sample_comes_back_edited_and_save_asks_where(
    qtbot, window, new_window, tmp_path
):
    assert window.open_path(SAMPLE, sample=True)
    window.select_entry("smartchunk", {"maxSize": 250})
    settle(qtbot, window)
    qtbot.keyClicks(window.editor, "My notes. ")
    settle(qtbot, window)
    edited = window.model.sync_text().text
    session = tmp_path / "sample.chunkview.json"
    assert window.sessions.save_session(str(session))
    saved = json.loads(session.read_text(encoding="utf-8"))["document"]
    assert (saved["sample"], saved["text"]) == ("guide.md", edited)

    again = new_window(tmp_path / "again.ini")
    reopened(qtbot, again, session, "smartchunk")
    assert again.document.text == edited and again.model.modified
    assert again.files.sample and again.files.path_on_disk() is None  # Save asks where
    assert "the sample on disk differs from it" in again.sessions.bar.message.text()
    assert SAMPLE.read_text(encoding="utf-8") != edited  # the sample is never written


def test_an_untitled_document_typed_in_comes_back_untitled_and_unsaved(
    qtbot, window, new_window, tmp_path, monkeypatch
):
    # the window as a launch makes it before any document is opened: untitled and empty
    assert window.document.path is None and window.document.text == ""
    window.view.kind_combo.setCurrentIndex(window.view.kind_combo.findData("markdown"))
    window.select_entry("smartchunk", {"maxSize": 40})
    window.editor.setFocus()
    qtbot.keyClicks(window.editor, "# Typed notes")
    for _ in range(2):
        qtbot.keyClick(window.editor, Qt.Key.Key_Return)
    qtbot.keyClicks(window.editor, "A parser reads the text. Plugins add to it, one by one.")
    settle(qtbot, window)
    typed = window.model.sync_text().text
    assert typed.startswith("# Typed notes") and typed.endswith("one by one.")
    assert window.document.path is None and window.model.modified
    start = typed.index("parser")
    questions = [Question("What reads?", (Reference("parser", start, start + len("parser")),))]
    window.views.eval_panel.set_questions(questions)
    window.search_box.setText("parser")
    options = window.result.request.options
    assert options["maxSize"] == 40 and len(window.result.layout.spans) > 1
    spans = [(s.start, s.end) for s in window.result.layout.spans]

    session = tmp_path / "typed.chunkview.json"
    assert window.sessions.save_session(str(session)) == str(session)
    assert "with the untitled document's text" in window.statusBar().currentMessage()
    saved = json.loads(session.read_text(encoding="utf-8"))
    # its text, kind and encoding: no file to name, nor bytes to hash
    assert saved["document"] == {"encoding": "utf-8", "kind": "markdown", "text": typed}
    assert not window.sessions.bar.isVisible()  # saved, not refused

    again = new_window(tmp_path / "again.ini")
    reopened(qtbot, again, session, "smartchunk")
    assert again.document.text == typed and again.editor.plain_text() == typed
    assert again.document.path is None and again.document.kind == "markdown"
    assert again.model.modified and again.windowTitle() == "chunkview — untitled *"
    assert again.files.path_on_disk() is None and not again.files.sample
    assert again.view.kind_combo.currentData() == "markdown"
    bar = again.sessions.bar
    assert bar.isVisible()
    note = bar.message.text()
    assert "untitled document's text comes from the session" in note
    assert "Save asks where to write it" in note and "\n" not in note
    # the rest as for a file: the entry and its options, the questions, the search
    assert again.model.entry_id == "smartchunk"
    assert again.result.request.options == options and again.params.options() == options
    assert [(s.start, s.end) for s in again.result.layout.spans] == spans
    assert again.views.eval_panel.questions == questions
    assert again.search_box.text() == "parser" and again.model.query == "parser"

    # Save asks where, as for any untitled document, and writes the text there
    asked: list[str] = []
    target = tmp_path / "typed.md"

    def where(_parent, _title, suggested, *_rest, **_named):
        asked.append(suggested)
        return str(target), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", where)
    assert again.files.save()
    assert asked == ["untitled"]
    assert target.read_text(encoding="utf-8") == typed
    assert again.document.path == str(target) and not again.model.modified


def test_the_note_on_an_untitled_document_goes_when_another_is_made(
    qtbot, window, new_window, tmp_path
):
    window.select_entry("smartchunk", {"maxSize": 40})
    assert window.files.new_document("Notes typed in. They were never saved to a file.")
    settle(qtbot, window)
    session = tmp_path / "notes.chunkview.json"
    assert window.sessions.save_session(str(session)) == str(session)

    again = new_window(tmp_path / "again.ini")
    reopened(qtbot, again, session, "smartchunk")
    bar = again.sessions.bar
    assert bar.isVisible() and "untitled document's text" in bar.message.text()
    # File › New from Clipboard: another untitled document, which the note is not about
    assert again.files.new_document("Another text, pasted.")
    assert again.document.text == "Another text, pasted."
    assert not bar.isVisible()


def test_the_dock_in_front_of_those_tabbed_together_comes_back_in_front(
    qtbot, window, new_window, tmp_path
):
    """The sweep, eval and audit docks share one place, as tabs: a session keeps which
    of them was on view, not only that each was open."""
    document = a_document(tmp_path)
    assert window.open_path(document)
    settle(qtbot, window)
    views = window.views
    for dock in (views.sweep_dock, views.eval_dock, views.audit_dock):
        dock.toggleViewAction().trigger()
    views.eval_dock.raise_()
    qtbot.waitUntil(lambda: on_view(views.eval_dock) and not on_view(views.audit_dock))
    session = document.parent / "tabs.chunkview.json"
    assert window.sessions.save_session(str(session)) == str(session)
    saved = json.loads(session.read_text(encoding="utf-8"))
    assert saved["view"]["front_dock"] == "eval"

    again = new_window(tmp_path / "again.ini")
    reopened(qtbot, again, session, window.model.entry_id)
    other = again.views
    qtbot.waitUntil(lambda: on_view(other.eval_dock))
    assert docks_open(again) == {"lanes": False, "sweep": True, "eval": True, "audit": True}
    assert not on_view(other.sweep_dock) and not on_view(other.audit_dock)


def on_view(dock) -> bool:
    """Something of ``dock`` is on screen (a dock behind another's tab is visible all the
    same)."""
    return not dock.visibleRegion().isEmpty()


def test_a_session_saved_during_step_through_keeps_the_docks_it_hid_open(
    qtbot, window, new_window, tmp_path
):
    document = a_document(tmp_path)
    assert window.open_path(document)
    settle(qtbot, window)
    window.views.lanes_dock.toggleViewAction().trigger()
    assert docks_open(window)["lanes"]
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_F9)
    assert window.step_through.active and not window.views.lanes_dock.isVisible()
    session = document.parent / "stepping.chunkview.json"
    assert window.sessions.save_session(str(session)) == str(session)
    saved = json.loads(session.read_text(encoding="utf-8"))
    assert saved["view"]["docks"]["lanes"] is True  # hidden a while, open all the same
    qtbot.keyClick(window.step_through, Qt.Key.Key_Escape)
    assert window.views.lanes_dock.isVisible()

    again = new_window(tmp_path / "again.ini")
    reopened(qtbot, again, session, window.model.entry_id)
    assert again.views.lanes_dock.isVisible() and docks_open(again)["lanes"]
