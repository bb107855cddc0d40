"""The open file changed by another program: reloaded when nothing here would be lost,
else a bar offering Reload or Keep mine; deletion said; Save asks before replacing a
file that changed since it was read. Real files, the real watcher."""

import os

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from chunkview.app.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    yield win
    win.worker.stop()


@pytest.fixture
def opened(window, tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("# Notes\n\nfirst\n", encoding="utf-8")
    assert window.open_path(path)
    return path


def append_outside(path, text):
    """Another program appends to the file (the mtime moved on, as a slow clock may not)."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text)
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000))


def answer_questions(monkeypatch, reply):
    asked = []

    def question(*args, **_kwargs):
        asked.append(args[1])
        return reply

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def test_an_outside_change_without_edits_is_reloaded(qtbot, window, opened):
    append_outside(opened, "X\n")
    qtbot.waitUntil(lambda: window.editor.toPlainText().endswith("first\nX\n"), timeout=5000)
    assert not window.view.outside_bar.isVisible() and not window.modified
    assert "reloaded" in window.statusBar().currentMessage()
    # the reloaded file is watched still: a second change is followed too
    append_outside(opened, "Y\n")
    qtbot.waitUntil(lambda: window.editor.toPlainText().endswith("X\nY\n"), timeout=5000)


def test_an_outside_change_with_edits_offers_reload_or_keep_mine(qtbot, window, opened):
    window.editor.setPlainText("# Notes\n\nmine\n")
    assert window.modified
    append_outside(opened, "X\n")
    bar = window.view.outside_bar
    qtbot.waitUntil(bar.isVisible, timeout=5000)
    assert "notes.md changed on disk" in bar.message.text()
    assert window.editor.toPlainText() == "# Notes\n\nmine\n"  # nothing replaced unasked
    bar.keep_button.click()
    assert not bar.isVisible() and window.editor.toPlainText() == "# Notes\n\nmine\n"
    # a further change is offered again; Reload takes the file's text
    append_outside(opened, "Y\n")
    qtbot.waitUntil(bar.isVisible, timeout=5000)
    bar.reload_button.click()
    assert not bar.isVisible() and not window.modified
    assert window.editor.toPlainText() == "# Notes\n\nfirst\nX\nY\n"


def test_a_file_replaced_on_disk_is_said_so(qtbot, window, opened, tmp_path):
    window.editor.setPlainText("mine\n")
    other = tmp_path / "other.md"
    other.write_text("theirs\n", encoding="utf-8")
    os.replace(other, opened)  # an editor's save by rename
    bar = window.view.outside_bar
    qtbot.waitUntil(bar.isVisible, timeout=5000)
    assert "was replaced by another file on disk" in bar.message.text()


def test_a_deleted_file_is_said_so_and_saved_again(qtbot, window, opened, monkeypatch):
    asked = answer_questions(monkeypatch, QMessageBox.StandardButton.Cancel)
    opened.unlink()
    bar = window.view.outside_bar
    qtbot.waitUntil(bar.isVisible, timeout=5000)
    assert "was deleted or moved away on disk" in bar.message.text()
    assert not bar.reload_button.isVisible()
    assert window.editor.toPlainText() == "# Notes\n\nfirst\n"
    assert window.save() and asked == []  # nothing on disk to lose: no question
    assert opened.read_text(encoding="utf-8") == "# Notes\n\nfirst\n"
    assert not bar.isVisible()


def test_save_after_an_outside_change_asks_and_cancel_keeps_theirs(
    qtbot, window, opened, monkeypatch
):
    window.file_watch.watcher.removePaths(window.file_watch.watcher.files())  # unseen change
    window.editor.setPlainText("# Notes\n\nmine\n")
    append_outside(opened, "X\n")
    asked = answer_questions(monkeypatch, QMessageBox.StandardButton.Cancel)
    assert not window.save()
    assert asked == ["Changed on disk"] and window.modified
    assert opened.read_text(encoding="utf-8") == "# Notes\n\nfirst\nX\n"


def test_save_after_an_outside_change_asks_and_save_replaces(qtbot, window, opened, monkeypatch):
    window.file_watch.watcher.removePaths(window.file_watch.watcher.files())
    window.editor.setPlainText("# Notes\n\nmine\n")
    append_outside(opened, "X\n")
    asked = answer_questions(monkeypatch, QMessageBox.StandardButton.Save)
    assert window.save()
    assert asked == ["Changed on disk"] and not window.modified
    assert opened.read_text(encoding="utf-8") == "# Notes\n\nmine\n"
    # our own save is no outside change: no bar, no question at the next Save
    qtbot.wait(400)
    assert not window.view.outside_bar.isVisible()
    window.editor.setPlainText("# Notes\n\nmine again\n")
    assert window.save() and asked == ["Changed on disk"]


def test_own_saves_raise_no_bar(qtbot, window, opened):
    for text in ("one\n", "two\n", "three\n"):
        window.editor.setPlainText(text)
        assert window.save()
    qtbot.wait(400)
    assert not window.view.outside_bar.isVisible() and not window.modified
    assert window.editor.toPlainText() == "three\n"


def test_a_file_replaced_without_edits_is_reloaded_and_said_so(qtbot, window, opened, tmp_path):
    other = tmp_path / "other.md"
    other.write_text("theirs\n", encoding="utf-8")
    os.replace(other, opened)
    qtbot.waitUntil(lambda: window.editor.toPlainText() == "theirs\n", timeout=5000)
    assert "notes.md was replaced on disk: reloaded" in window.statusBar().currentMessage()
    assert not window.view.outside_bar.isVisible()
