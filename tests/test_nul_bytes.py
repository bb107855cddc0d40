"""A file with NUL bytes: refused with its name and the first NUL's byte offset, and
opened anyway on request with each NUL shown as ␀; core and the real window."""

from __future__ import annotations

import pytest
from conftest import settle
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QMessageBox

from chunkview.core.errors import DocumentError
from chunkview.core.io.read import NulBytesError, load_document
from chunkview.core.model.document import NUL_SHOWN

ODD = b"# Log\n\nline one\x00\x00 line two\n\nend\x00\n"
FIRST_NUL = ODD.index(b"\x00")


def test_the_refusal_names_the_file_and_the_first_nul_byte(tmp_path):
    path = tmp_path / "odd.md"
    path.write_bytes(ODD)
    with pytest.raises(NulBytesError) as caught:
        load_document(path)
    assert caught.value.offset == FIRST_NUL == 15
    assert str(caught.value) == (
        f"{path}: this looks like a binary file (a NUL byte at offset {FIRST_NUL})"
    )
    assert isinstance(caught.value, DocumentError)  # every caller's one-line message


def test_opened_anyway_each_nul_is_shown(tmp_path):
    path = tmp_path / "odd.md"
    path.write_bytes(ODD + b"\xff")  # and a byte that is not UTF-8
    document = load_document(path, show_nuls=NUL_SHOWN)
    assert document.text == (f"# Log\n\nline one{NUL_SHOWN * 2} line two\n\nend{NUL_SHOWN}\n\ufffd")
    assert document.kind == "markdown" and document.path == str(path)


def nul_box(qtbot, window) -> QMessageBox:
    qtbot.waitUntil(lambda: window.files.nul_box is not None and window.files.nul_box.isVisible())
    return window.files.nul_box


def test_refusing_keeps_the_current_text(qtbot, window, tmp_path):
    good = tmp_path / "good.md"
    good.write_text("# Kept\n\nthe text being worked on\n", encoding="utf-8")
    assert window.open_path(good)
    settle(qtbot, window)
    window.editor.insertPlainText("an unsaved edit. ")
    settle(qtbot, window)
    before = window.model.sync_text().text
    odd = tmp_path / "odd.md"
    odd.write_bytes(ODD)
    assert not window.open_path(odd)
    box = nul_box(qtbot, window)
    assert "odd.md holds a NUL byte at byte offset 15" in box.text()
    shown = window.files.nul_stand_in()
    assert f"each NUL shown as {shown}" in box.informativeText()
    box.grab().save(str(tmp_path / "nul-question.png"))
    qtbot.wait(50)
    assert window.document.path == str(good)  # nothing replaced while asked
    box.button(QMessageBox.StandardButton.Cancel).click()
    qtbot.waitUntil(lambda: window.files.nul_box is None)
    settle(qtbot, window)
    assert window.document.path == str(good)
    assert window.editor.toPlainText() == before and window.model.modified


def test_opening_anyway_shows_each_nul_and_save_asks_for_a_name(qtbot, window, tmp_path):
    odd = tmp_path / "odd.md"
    odd.write_bytes(ODD)
    assert not window.open_path(odd)
    box = nul_box(qtbot, window)
    box.button(QMessageBox.StandardButton.Cancel)  # offered beside it
    window.files.show_nuls_button.click()
    qtbot.waitUntil(lambda: window.document.path == str(odd))
    settle(qtbot, window)
    # ␀, or a sign the editor's font can draw where it has no ␀ (no empty boxes)
    shown = window.files.nul_stand_in()
    assert QFontMetrics(window.editor.font()).inFontUcs4(ord(shown))
    text = window.editor.toPlainText()
    assert text.count(shown) == 3 and "\x00" not in text
    assert text.index(shown) == FIRST_NUL  # ASCII before it: bytes and characters agree
    assert window.result is not None and window.result.layout.spans  # chunked like any text
    assert f"3 NUL bytes shown as {shown}" in window.statusBar().currentMessage()
    # not the file's text: Save must not write it over the file
    assert window.files.path_on_disk() is None and window.files.nuls_shown
    assert odd.read_bytes() == ODD
    window.grab().save(str(tmp_path / "nul-shown.png"))
