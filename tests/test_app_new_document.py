"""File › New and File › New from Clipboard in the real window (offscreen: real widgets,
worker thread and chunking process): an untitled document, empty or holding the
clipboard's text in the kind it looks like, chunked as any document and unsaved."""

from __future__ import annotations

import pytest
from conftest import settle
from PySide6.QtCore import Qt, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QGuiApplication

from chunkview.app.main_window import DEFAULT_SAMPLE
from chunkview.core.model.document import kind_for_text

PASTED = "# Notes\n\nA parser reads the text.\n\n## Plugins\n\nEach plugin adds a rule.\n"


def test_new_gives_an_empty_untitled_document(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    assert window.result.layout.spans
    window.menus.new.trigger()
    settle(qtbot, window)
    assert window.document.path is None and window.document.text == ""
    assert window.editor.plain_text() == "" and not window.model.modified
    assert window.files.path_on_disk() is None and not window.files.sample
    assert "untitled" in window.windowTitle()


def test_new_from_clipboard_chunks_the_copied_text_as_the_kind_it_looks(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    QGuiApplication.clipboard().setText(PASTED)
    window.select_entry("agentos.SemanticChunker", {"targetSize": 40, "minSize": 5})
    window.menus.new_from_clipboard.trigger()
    settle(qtbot, window)
    assert window.editor.plain_text() == PASTED
    assert window.document.path is None and window.document.kind == "markdown"
    assert window.view.kind_combo.currentData() == "markdown"
    # no file holds it: closing or opening another document asks first
    assert window.model.modified and window.windowTitle().endswith("*")
    layout = window.result.layout
    assert window.result.request.document.text == PASTED
    assert len(layout.spans) >= 2 and layout.spans[0].start == 0


def test_new_from_an_empty_clipboard_keeps_the_document_and_says_so(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    shown = window.document.text
    QGuiApplication.clipboard().setText("")
    assert not window.menus.new_from_clipboard_text()
    assert window.document.text == shown
    assert "clipboard holds no text" in window.statusBar().currentMessage()


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ('{"a": [1, 2]}', "json"),
        ("[1, 2", "text"),  # not JSON after all
        ("<!DOCTYPE html><html><body><p>Hi</p></body></html>", "html"),
        ("\\documentclass{article}\n\\begin{document}Hi\\end{document}", "latex"),
        ("Intro.\n\n## Usage\n\nRun it.", "markdown"),
        ("```py\nx = 1\n```", "markdown"),
        ("Just a sentence. And another #hashtag.", "text"),
    ],
)
def test_kind_for_text(text, kind):
    assert kind_for_text(text) == kind


def test_returns_typed_at_the_end_keep_the_editors_copy_of_the_text(qtbot, window):
    """Qt reports a Return typed at the end of the text a second time, with the
    document's closing paragraph mark counted in: the editor's UTF-16 copy of the text
    (what a run reads) stays in step, with no cursor set past the end."""
    warnings: list[str] = []

    def handler(mode, _context, message):
        if mode != QtMsgType.QtDebugMsg:
            warnings.append(message)

    window.menus.new.trigger()
    settle(qtbot, window)
    window.editor.setFocus()
    previous = qInstallMessageHandler(handler)
    try:
        qtbot.keyClicks(window.editor, "# Title")
        qtbot.keyClick(window.editor, Qt.Key.Key_Return)
        edits, length = len(window.editor._edits), len(window.editor.plain_text())
        qtbot.keyClick(window.editor, Qt.Key.Key_Return)
        # one line end added at the end, as the offsets' map reads it (not Qt's second
        # report of the closing mark out and in again)
        assert window.editor._edits[edits:] == [(length, 0, 1)]
        qtbot.keyClicks(window.editor, "Body text.")
        qtbot.keyClick(window.editor, Qt.Key.Key_Return)
    finally:
        qInstallMessageHandler(previous)
    assert not [w for w in warnings if "out of range" in w]
    editor = window.editor
    assert editor._mirror_ok and editor._mirror is not None
    assert editor.plain_text() == "# Title\n\nBody text.\n"
    assert editor.document().toPlainText() == editor.plain_text()
    settle(qtbot, window)
    assert window.result.request.document.text == "# Title\n\nBody text.\n"
