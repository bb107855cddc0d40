"""View › Count Tokens With in the real window: a user's tokenizer file counts the token
column, the statistics, the histogram of an entry sized in tokens and the over-limit
check (in the chunking process), is offered to the chunkers that take a tokenizer, and
is remembered between launches."""

from __future__ import annotations

import pytest
from conftest import settle
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QFileDialog
from tokenizer_files_helpers import write_tiktoken, write_tokenizer_json

from chunkview.app.chunk_table import COLUMNS
from chunkview.app.main_window import MainWindow
from chunkview.core.model.document import Document
from chunkview.core.text.tokens import count_many

TEXT = "# Title\n\nA first paragraph here.\n\n## Part\n\nSecond part, with words.\n"
#: long words cl100k cuts in several tokens, the tiny word-level tokenizer counts as one
LONG_WORDS = TEXT + "\nAntidisestablishmentarianism flabbergasted.\n"


def _counted(qtbot, window, counter):
    texts = [s.text for s in window.result.layout.spans]
    expected = count_many(texts, counter)
    qtbot.waitUntil(lambda: window.result.tokens == expected, timeout=15000)
    return expected


def test_a_tokenizer_json_counts_the_window_and_is_remembered(qtbot, window, tmp_path, monkeypatch):
    pytest.importorskip("tokenizers")
    path = str(write_tokenizer_json(tmp_path / "tokenizer.json"))
    window.select_entry("mastra.chunk", {"maxSize": 30, "overlap": 0})
    window.set_document(Document(LONG_WORDS, None, "markdown"))
    settle(qtbot, window)
    cl100k = _counted(qtbot, window, "cl100k")
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (path, "Tokenizer files"))
    )
    window.token_counter.file_action.trigger()  # the menu's own action, answered
    counted = _counted(qtbot, window, path)
    assert counted != cl100k  # word-level: a token a word or mark
    assert window.token_counter.file_action.isChecked()
    assert "tokenizer.json" in window.token_counter.file_action.text()
    window.tabs.setCurrentWidget(window.stats)
    qtbot.waitUntil(lambda: "tokenizer.json tokens" in window.stats.summary.text())
    # the table's token column shows the file's counts
    model = window.table.model()
    tokens = COLUMNS.index("tokens")
    column = [model.data(model.index(row, tokens)) for row in range(model.rowCount())]
    assert column == counted
    # and its header names whose tokens they are
    tip = model.headerData(tokens, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "tokenizer.json tokens" in tip
    # the over-limit check counts by the file too
    window.tabs.warnings_panel.limit_box.setEditText("3")
    qtbot.waitUntil(
        lambda: any(w.kind == "over-limit" for w in window.tabs.warnings_panel.shown()),
        timeout=5000,
    )
    over = [w for w in window.tabs.warnings_panel.shown() if w.kind == "over-limit"]
    assert all("tokenizer.json tokens" in w.message for w in over)
    assert len(over) == sum(n > 3 for n in counted)
    # offered to the chunkers that take a tokenizer
    combo = window.chunker.tokenizer_combo
    assert combo.findData(path) >= 0 and "tokenizer.json" in combo.itemText(combo.findData(path))
    window.close()

    # the next launch counts by it again
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    again = MainWindow(settings)
    qtbot.addWidget(again)
    assert again.token_counter.path == path and again.model.token_counter == path
    assert again.worker._worker.token_counter == path
    again.token_counter.cl100k.trigger()
    assert again.token_counter.path is None and again.chunker.tokenizer_combo.findData(path) < 0
    again.close()


def test_a_tiktoken_file_sizes_the_histogram_of_a_chunker_counting_tokens(qtbot, window, tmp_path):
    path = str(write_tiktoken(tmp_path / "tiny.tiktoken"))
    assert window.token_counter.use(path)
    window.select_entry("semantic-chunking.chunkit", {})
    combo = window.chunker.tokenizer_combo
    combo.setCurrentIndex(combo.findData(path))  # the chunker counts with the file too
    assert window.model.tokenizer == path
    window.set_document(Document(TEXT * 3, None, "markdown"))
    settle(qtbot, window)
    assert window.result.request.tokenizer == path
    counted = _counted(qtbot, window, path)
    window.tabs.setCurrentWidget(window.stats)
    histogram = window.stats.histogram
    qtbot.waitUntil(lambda: histogram.sizes == counted, timeout=5000)
    assert histogram.unit == "tokens (tiny.tiktoken)"


def test_a_file_that_is_no_tokenizer_is_refused_and_cl100k_stays(qtbot, window, tmp_path):
    bad = tmp_path / "bad.tiktoken"
    bad.write_text("not a tokenizer\n", encoding="ascii")
    assert not window.token_counter.use(str(bad))
    assert window.token_counter.path is None and window.token_counter.cl100k.isChecked()
    assert window.model.token_counter == "cl100k"
    assert "Not a tokenizer" in window.statusBar().currentMessage()
