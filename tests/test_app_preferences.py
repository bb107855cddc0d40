"""Edit › Preferences: the chunking budgets, on the real window, worker and process."""

from __future__ import annotations

import json
import time

from conftest import settle
from process_helpers import slow_semantic_chunker
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialogButtonBox

from chunkview.app.main_window import MainWindow
from chunkview.core.model.document import Document
from chunkview.core.runtime import DEFAULT_TIMEOUT, default_max_memory

GB = 2**30


def test_preferences_show_the_defaults_and_reset_to_them(qtbot, window, tmp_path):
    menus = window.menus
    assert menus.preferences in window.menus.menus[1].actions()  # Edit
    assert not menus.preferences.shortcut().isEmpty()
    window.settings.setValue("chunking/timeout", 3.5)
    window.settings.setValue("chunking/maxMemory", "768M")
    dialog = menus.show_preferences()
    assert dialog.isVisible()
    assert dialog.timeout.value() == 3.5 and dialog.timeout.suffix() == " s"
    assert dialog.memory.value() == 0.75 and dialog.memory.suffix() == " GB"
    assert dialog.timeout.minimum() > 0 and dialog.timeout.maximum() >= 600
    assert dialog.memory.maximum() * GB >= default_max_memory()
    dialog.grab().save(str(tmp_path / "preferences.png"))
    dialog.reset_button.click()
    assert dialog.timeout.value() == DEFAULT_TIMEOUT
    assert abs(dialog.memory.value() - default_max_memory() / GB) < 0.01
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert not dialog.isVisible()
    # defaults are not stored: they keep following the machine
    assert window.settings.value("chunking/timeout") is None
    assert window.settings.value("chunking/maxMemory") is None
    assert window.worker.service.timeout == DEFAULT_TIMEOUT
    assert window.worker.service.max_memory == default_max_memory()


def test_cancel_changes_nothing(qtbot, window):
    dialog = window.menus.show_preferences()
    dialog.timeout.setValue(0.5)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    assert window.worker.service.timeout == DEFAULT_TIMEOUT
    assert window.settings.value("chunking/timeout") is None


def test_a_lowered_timeout_stops_a_slow_job_at_once_and_is_remembered(qtbot, window, tmp_path):
    window.set_document(Document("# Notes\n\nSome text to chunk.\n", None, "markdown"))
    settle(qtbot, window)
    good = window.result
    # every run now takes two seconds more: within the default budget of ten
    window.worker.call_in_process(slow_semantic_chunker, 2.0)
    dialog = window.menus.show_preferences()
    dialog.timeout.setValue(0.5)
    dialog.memory.setValue(1.5)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert window.worker.service.timeout == 0.5
    assert window.worker.service.max_memory == int(1.5 * GB)
    asked = time.monotonic()
    window.params.set_value("targetSize", 321)
    qtbot.waitUntil(lambda: window.error_label.isVisible(), timeout=10000)
    assert time.monotonic() - asked < 1.9  # stopped by the new budget, not the slow run's end
    message = window.error_label.text()
    assert "Chunking stopped" in message
    assert "did not finish within the 0.5 s budget" in message, message
    assert "Edit › Preferences" in message
    assert window.result is good  # the last good layout stays
    window.chunker.grab().save(str(tmp_path / "stopped.png"))
    # remembered: the next launch runs under the same budgets
    assert float(window.settings.value("chunking/timeout")) == 0.5
    assert window.settings.value("chunking/maxMemory") == "1536M"
    window.settings.sync()
    again = MainWindow(QSettings(window.settings.fileName(), QSettings.Format.IniFormat))
    qtbot.addWidget(again)
    try:
        assert again.worker.service.timeout == 0.5
        assert again.worker.service.max_memory == int(1.5 * GB)
    finally:
        again.views.shutdown()
        again.worker.stop()


def test_the_sweep_runs_each_value_under_the_time_budget(qtbot, window):
    from conftest import CORPUS

    text = (CORPUS / "redis-readme.md").read_text(encoding="utf-8")
    window.set_document(Document("\n\n".join([text] * 150), None, "markdown"))  # ~3 MB
    settle(qtbot, window, timeout=120000)
    dialog = window.menus.show_preferences()
    dialog.timeout.setValue(0.1)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    sweep = window.views.sweep
    assert sweep.time_budget() == 0.1
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("targetSize"))
    sweep.values_edit.setText("700,900")
    assert sweep.start()
    qtbot.waitUntil(lambda: not sweep.running, timeout=60000)
    assert [r["error"]["name"] for r in sweep.rows] == ["Stopped", "Stopped"]
    assert "2 refused" in sweep.message.text() and "0.1 s budget" in sweep.message.text()


def test_a_sample_name_with_a_path_in_the_settings_is_refused(tmp_path):
    """A settings file edited to ``sample:../../etc/hostname`` opens no file outside the
    samples: the remembered document is dropped, and the default sample opens instead."""
    from PySide6.QtCore import QSettings

    from chunkview.app.settings import AppSettings

    stored = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    remembered = AppSettings(stored)
    for value in ("sample:../../../etc/hostname", "sample:/etc/hostname", "sample:..\\\\x"):
        stored.setValue("document", json.dumps(value))  # as AppSettings stores values
        assert remembered.last_document() is None, value
    remembered.set_last_document("guide.md", sample=True)
    assert remembered.last_document() == "sample:guide.md"


def test_bad_stored_budgets_fall_back_with_a_note_in_the_status_bar(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "bad.ini"), QSettings.Format.IniFormat)
    settings.setValue("chunking/timeout", "nan")
    settings.setValue("chunking/maxMemory", "1e30T")
    win = MainWindow(settings)
    qtbot.addWidget(win)
    try:
        assert win.worker.service.timeout == DEFAULT_TIMEOUT
        assert win.worker.service.max_memory == default_max_memory()
        message = win.statusBar().currentMessage()
        assert "stored time budget ignored" in message and "'nan'" in message
        assert "stored memory budget ignored" in message and "'1e30T'" in message
    finally:
        win.worker.stop()


def test_preferences_refuse_budgets_out_of_range(qtbot, window):
    dialog = window.menus.show_preferences()
    for typed in ("0", "-5", "nan", "inf"):
        dialog.timeout.lineEdit().selectAll()
        qtbot.keyClicks(dialog.timeout.lineEdit(), typed)
        dialog.timeout.interpretText()
        assert 0.1 <= dialog.timeout.value() <= 86_400
    dialog.timeout.setValue(1e30)
    assert dialog.timeout.value() == 86_400
    dialog.memory.setValue(0)
    assert dialog.memory.value() * GB >= 64 * 2**20
    dialog.memory.setValue(1e30)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert not dialog.isVisible()  # clamped into range: accepted
    assert window.worker.service.timeout == 86_400


def test_preferences_refuse_a_budget_the_core_refuses(qtbot, window, monkeypatch):
    dialog = window.menus.show_preferences()
    monkeypatch.setattr(dialog.timeout, "value", lambda: float("nan"))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog.isVisible() and dialog.refusal.isVisible()
    assert "Not applied: a time budget" in dialog.refusal.text()
    assert window.worker.service.timeout == DEFAULT_TIMEOUT
    assert window.settings.value("chunking/timeout") is None
    dialog.close()
