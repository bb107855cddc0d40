"""The code-point <-> editor position mapping, checked against a real QTextDocument."""

import pytest
from conftest import CORPUS

from chunkview.core.text.js import to_units
from chunkview.core.text.offsets import EditorOffsets, editor_text, text_from_editor

TEXTS = [
    "plain ascii\nlines\n",
    "crlf\r\nlines\r\n\r\nend",
    "emoji 😀 and 👍🏽 mixed\r\nwith CRLF 🎉\r\n",
    "\ufeffbom first",
    "lone\rcarriage\r\nand crlf",
    "a\r\r\nb",
    "東京 🗼 タワー\n",
]


def _qt_document(text):
    from PySide6.QtGui import QTextDocument

    document = QTextDocument()
    document.setPlainText(editor_text(text))
    return document


def _utf16(text):
    return len(text.encode("utf-16-le")) // 2


@pytest.mark.parametrize("text", TEXTS)
def test_mapping_matches_qt(qapp, text):
    document = _qt_document(text)
    offsets = EditorOffsets(text)
    assert offsets.editor_length == document.characterCount() - 1
    raw = to_units(document.toRawText())  # Qt positions count UTF-16 units
    for point in range(len(text) + 1):
        position = offsets.to_editor(point)
        # the character at `point` is the one Qt shows at `position`
        if point < len(text) and text[point] not in "\r\n\ufeff":
            assert raw[position : position + _utf16(text[point])] == to_units(text[point])
        if not (point == 0 and text.startswith("\ufeff")):  # the dropped BOM
            assert offsets.to_point(position) <= point


@pytest.mark.parametrize("text", TEXTS)
def test_round_trip_on_character_starts(text):
    offsets = EditorOffsets(text)
    for point in range(len(text) + 1):
        if point and text[point - 1 : point + 1] == "\r\n":
            continue  # the LF of a CRLF has no editor position of its own
        if point == 0 and text.startswith("\ufeff"):
            continue
        assert offsets.to_point(offsets.to_editor(point)) == point


def test_inside_an_emoji_rounds_to_its_start():
    offsets = EditorOffsets("a😀b")
    assert [offsets.to_point(p) for p in range(5)] == [0, 1, 1, 2, 3]


def test_corpus_files_with_crlf_and_emoji(qapp):
    text = (CORPUS / "debug-readme.md").read_text(encoding="utf-8")
    text = text.replace("\n", "\r\n") + "\r\n🎉 done 😀\r\n"
    document = _qt_document(text)
    offsets = EditorOffsets(text)
    raw = to_units(document.toRawText())  # Qt positions count UTF-16 units
    for word in ("debug", "🎉", "done"):
        point = text.rindex(word)
        position = offsets.to_editor(point)
        assert raw[position : position + _utf16(word)] == to_units(word)


def test_text_back_from_the_editor_keeps_the_newline_style():
    assert text_from_editor("a\u2029b\u2029", "\r\n") == "a\r\nb\r\n"
    assert text_from_editor("a\u2029b", "") == "a\nb"
