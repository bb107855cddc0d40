"""Saving from the window: through core save_document, asking before a read-only file."""

import stat

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from chunkview.app.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    yield win
    win.worker.stop()


def test_read_only_file_is_replaced_only_when_the_user_says_so(qtbot, window, tmp_path):
    path = tmp_path / "locked.md"
    path.write_text("# Old\n", encoding="utf-8")
    assert window.open_path(path)
    path.chmod(0o444)
    window.editor.setPlainText("# New\n")
    asked = []

    def answer(reply):
        def question(*args, **_kwargs):
            asked.append(args[1])
            return reply

        return question

    buttons = QMessageBox.StandardButton
    qtbot_patch = pytest.MonkeyPatch()
    try:
        qtbot_patch.setattr(QMessageBox, "question", answer(buttons.Cancel))
        assert not window.save()
        assert path.read_text(encoding="utf-8") == "# Old\n" and asked == ["Read-only file"]
        qtbot_patch.setattr(QMessageBox, "question", answer(buttons.Yes))
        assert window.save()
    finally:
        qtbot_patch.undo()
    assert path.read_text(encoding="utf-8") == "# New\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o444  # still read-only
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".ini") == ["locked.md"]


def test_save_keeps_mode_and_symlink(qtbot, window, tmp_path):
    target = tmp_path / "real.md"
    target.write_text("# Old\n", encoding="utf-8")
    target.chmod(0o664)
    link = tmp_path / "link.md"
    link.symlink_to(target)
    assert window.open_path(link)
    window.editor.setPlainText("# New\n")
    assert window.save()
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "# New\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o664
