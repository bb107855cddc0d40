"""The window as a desktop application: remembered settings, drops, menus, export, help."""

import csv
import io
import json
import os

import pytest
from conftest import settle
from PySide6.QtCore import QMimeData, QPoint, QSettings, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from chunkview import __version__
from chunkview.app import theme
from chunkview.app.main_window import MainWindow
from chunkview.app.settings import AppSettings, fit_to_screen

DOC = "# Title\n\nFirst paragraph about apples.\n\n## Part\n\nSecond paragraph about pears.\n"


def settings_at(path):
    return QSettings(str(path / "settings.ini"), QSettings.Format.IniFormat)


def make_window(qtbot, settings, path=None):
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.restore_session(path)
    win.show()
    settle(qtbot, win)
    return win


def close(win):
    win.close()
    win.worker.stop()


@pytest.fixture
def document(tmp_path):
    path = tmp_path / "doc.md"
    path.write_text(DOC, encoding="utf-8")
    return path


@pytest.fixture
def window(qtbot, tmp_path, document):
    win = make_window(qtbot, settings_at(tmp_path), str(document))
    yield win
    close(win)


def test_settings_survive_a_restart(qtbot, tmp_path, document):
    first = make_window(qtbot, settings_at(tmp_path), str(document))
    first.select_entry("mastra.chunk", {"strategy": "markdown", "maxSize": 500})
    settle(qtbot, first)
    first.resize(780, 640)  # the offscreen screen is 800 x 800
    qtbot.wait(20)
    first.splitter.setSizes([330, 60, 390])
    sizes = first.splitter.sizes()
    first.set_white_space(True)
    first.set_theme("light")
    close(first)

    second = make_window(qtbot, settings_at(tmp_path))  # no file given: the last one
    try:
        assert second.model.entry_id == "mastra.chunk"
        options = second.params.options()
        assert options["strategy"] == "markdown" and options["maxSize"] == 500
        assert second.document.path == str(document)
        assert second.splitter.sizes() == sizes
        assert (second.width(), second.height()) == (780, 640)
        assert second.menus.white_space.isChecked()
        assert second.menus.themes["light"].isChecked()
        assert AppSettings(settings_at(tmp_path)).recent_files() == [str(document)]
    finally:
        close(second)


def test_recent_files_are_absolute_and_dead_ones_dropped(qtbot, tmp_path, monkeypatch, window):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "relative.md").write_text("# R\n\ntext\n")
    assert window.open_path("relative.md")
    recent = window.remembered.recent_files()
    assert recent[0] == str(tmp_path / "relative.md")
    assert all(os.path.isabs(p) for p in recent)
    os.remove(tmp_path / "relative.md")
    window.files.refresh_recent()
    assert str(tmp_path / "relative.md") not in window.remembered.recent_files()
    assert [
        a.text() for a in window.menus.recent_menu.actions()
    ] == window.remembered.recent_files()


def test_the_window_fits_the_screen(qtbot, window):
    available = window.screen().availableGeometry()
    window.resize(available.width() * 2, available.height() * 2)
    window.move(available.right() + 500, available.bottom() + 500)
    fit_to_screen(window)
    frame = window.frameGeometry()
    assert available.contains(frame), (available, frame)


def drop(widget, path):
    """Drag ``path`` over ``widget`` and drop it, as the platform does: through the
    window, which finds the widget under the point."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    window = widget.window()
    point = widget.mapTo(window, QPoint(12, 12))
    args = (point, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton)
    args = (*args, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window.windowHandle(), QDragEnterEvent(*args))
    event = QDropEvent(*args)
    QApplication.sendEvent(window.windowHandle(), event)
    return event.isAccepted()


def test_a_file_dropped_on_the_editor_opens(qtbot, tmp_path, window):
    other = tmp_path / "dropped.txt"
    other.write_text("Dropped text. It opens.\n")
    before = window.editor.toPlainText()
    assert drop(window.editor.viewport(), other)
    assert window.document.path == str(other)
    assert "file://" not in window.editor.toPlainText()
    assert window.editor.toPlainText() != before
    third = tmp_path / "third.md"
    third.write_text("# Third\n")
    drop(window.search_box, third)  # a line edit would take the address as text
    assert window.document.path == str(third)
    assert "file://" not in window.search_box.text()


def test_find_copy_chunk_and_navigate(qtbot, window):
    window.activateWindow()
    window.menus.find.trigger()
    qtbot.waitUntil(lambda: window.search_box.hasFocus())
    window.search_box.setText("pears")
    settle(qtbot, window)
    window.menus.next_hit.trigger()
    hit = window.searcher.hits[0]
    assert window.model.selected == hit.chunk
    spans = window.result.layout.spans
    window.menus.first_chunk.trigger()
    assert window.model.selected == 0
    window.menus.next_chunk.trigger()
    assert window.model.selected == min(1, len(spans) - 1)
    window.menus.last_chunk.trigger()
    assert window.model.selected == len(spans) - 1
    assert window.menus.copy_chunk.isEnabled()
    window.menus.copy_chunk.trigger()
    assert QGuiApplication.clipboard().text() == spans[-1].text


def test_copy_as_code_with_invalid_json_says_so(qtbot, tmp_path):
    win = make_window(qtbot, settings_at(tmp_path))
    try:
        win.select_entry("mastra.chunk", {"strategy": "recursive"})
        settle(qtbot, win)
        QGuiApplication.clipboard().setText("before")
        field = win.params._fields["separators"]
        field.line.setText("[not json")
        win.menus.copy_code.trigger()  # no traceback, a message
        assert QGuiApplication.clipboard().text() == "before"
        assert not win.error_label.isHidden()
        assert "separators" in win.error_label.text()
        field.line.setText('["\\n\\n"]')
        win.menus.copy_code.trigger()
        assert "MDocument" in QGuiApplication.clipboard().text()
    finally:
        close(win)


def test_export_chunks_and_view(qtbot, tmp_path, monkeypatch, window):
    spans = window.result.layout.spans
    targets = iter(
        str(tmp_path / name) for name in ("c.json", "c.jsonl", "c.csv", "v.html", "v.png")
    )
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (next(targets), ""))
    window.menus.export_chunks["json"].trigger()
    window.menus.export_chunks["jsonl"].trigger()
    window.menus.export_chunks["csv"].trigger()
    window.menus.export_view["html"].trigger()
    window.menus.export_view["png"].trigger()
    data = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert [c["text"] for c in data["chunks"]] == [s.text for s in spans]
    assert data["entry"] == window.model.entry_id
    lines = (tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["start"] for line in lines] == [s.start for s in spans]
    rows = list(csv.DictReader(io.StringIO((tmp_path / "c.csv").read_text(encoding="utf-8"))))
    assert [r["text"] for r in rows] == [s.text for s in spans]
    assert "<html" in (tmp_path / "v.html").read_text(encoding="utf-8").lower()
    assert (tmp_path / "v.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_themes_and_white_space(qtbot, window):
    window.menus.themes["dark"].trigger()
    assert theme.is_dark()
    summary = window.chunker.entry_summary
    fg = summary.palette().color(summary.foregroundRole())
    bg = summary.palette().color(QPalette.ColorRole.Window)
    assert contrast(fg, bg) >= 4.5, (fg.name(), bg.name())
    # search hits stand apart from both chunk tints
    hit = theme.search_colour(True)
    for i in range(2):
        tint = theme.chunk_colour(i, True)
        assert abs(hit.lightness() - tint.lightness()) > 60 or abs(hit.hue() - tint.hue()) > 20
    window.menus.themes["light"].trigger()
    assert not theme.is_dark()
    window.menus.themes["system"].trigger()
    assert theme.is_dark() == theme.system_is_dark()
    assert window.remembered.theme() == "system"
    window.menus.white_space.trigger()
    flags = window.editor.document().defaultTextOption().flags()
    assert flags & flags.ShowTabsAndSpaces


def luminance(colour):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.red())
        + 0.7152 * channel(colour.green())
        + 0.0722 * channel(colour.blue())
    )


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_help_about_and_shortcuts(qtbot, window):
    window.menus.about.trigger()
    box = window.menus.about_box
    assert box is not None and box.isVisible()
    for text in (__version__, "0.9.164", "1.3.6", "3.0.2", "smartchunk"):
        assert text in box.text()
    box.close()
    window.menus.shortcuts.trigger()
    rows = window.menus.shortcut_rows()
    assert ("Edit", "Find", QGuiApplication.translate("", "Ctrl+F")) in rows or any(
        r[1] == "Find" for r in rows
    )
    assert any(r[1] == "Next Search Hit" for r in rows)
    assert window.menus.shortcuts_dialog.isVisible()
    window.menus.shortcuts_dialog.close()


def test_reopen_with_encoding(qtbot, tmp_path, window):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Café crème. Déjà vu.\n".encode("iso-8859-1"))
    assert not window.open_path(latin)  # not UTF-8: refused, with a message
    assert window.menus.reopen("iso-8859-1")
    assert window.document.text.startswith("Café crème.")
    assert window.document.path == str(latin)


def test_sample_is_labelled_by_its_name(qtbot, tmp_path):
    win = make_window(qtbot, settings_at(tmp_path))
    try:
        assert win.document.name == "guide.md"
        assert "guide.md" in win.windowTitle()
        assert win.status_doc.text().startswith("guide.md")
        assert win.files.path_on_disk() is None  # Save asks where to write it
    finally:
        close(win)


def test_a_status_message_hides_the_document_label(qtbot, window):
    assert window.status_doc.isVisible()
    window.statusBar().showMessage("Cannot open the file")
    assert not window.status_doc.isVisible()
    window.statusBar().clearMessage()
    assert window.status_doc.isVisible()


def test_mastra_headers_are_sent_as_shown(qtbot, window):
    window.select_entry("mastra.chunk", {"strategy": "markdown"})
    settle(qtbot, window)
    assert window.params.options()["headers"] == [["#", "title"], ["##", "section"]]
    metadata = [s.metadata for s in window.result.layout.spans]
    assert {"title": "Title", "section": "Part"} in metadata
    window.select_entry("mastra.chunk", {"strategy": "html"})
    settle(qtbot, window)
    assert window.error_label.isHidden()


def test_a_file_not_in_utf8_is_offered_in_its_likely_encoding(qtbot, tmp_path, monkeypatch, window):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Café crème, déjà vu: plus de texte à deviner ici.\n".encode("cp1252"))
    asked = []

    def question(*args, **kwargs):
        asked.append(args[2])
        return QMessageBox.StandardButton.Open

    monkeypatch.setattr(QApplication, "platformName", staticmethod(lambda: "xcb"))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    assert window.open_path(latin)
    assert len(asked) == 1 and "not UTF-8" in asked[0]
    # opened in the encoding the question named (charset-normalizer's guess)
    assert f"likely {window.document.encoding}" in asked[0]
    assert window.document.text.startswith("Café cr")
    assert window.status_doc.text().endswith(window.document.encoding)


def test_a_document_reopened_in_an_encoding_is_saved_in_it(qtbot, tmp_path, window):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Déjà vu.\n".encode("iso-8859-1"))
    assert not window.open_path(latin)
    assert window.menus.reopen("iso-8859-1")
    window.editor.moveCursor(window.editor.textCursor().MoveOperation.End)
    window.editor.insertPlainText("Encore été.\n")
    assert window.save()
    assert latin.read_bytes() == "Déjà vu.\nEncore été.\n".encode("iso-8859-1")


def test_every_entry_fits_a_small_screen(qtbot, window):
    """1920 x 1080 at scale 2 leaves about 960 x 500: no panel may demand more width."""
    from chunkview.core import registry

    for entry in registry.entries():
        window.select_entry(entry.id)
        settle(qtbot, window)
        assert window.minimumSizeHint().width() <= 800, entry.id
