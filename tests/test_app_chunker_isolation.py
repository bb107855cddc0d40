"""A chunker file opened in the window runs its top-level code in the chunking process
only: the window lists the functions from the process's description of the file, a file
that raises, exits or hangs at its top level is a message naming its file and line and
the window keeps what it shows; the files opened are remembered between launches."""

import os
import time

import pytest
from conftest import settle
from PySide6.QtCore import QSettings

from chunkview.app.main_window import MainWindow
from chunkview.core import registry
from chunkview.core.model.document import Document

TEXT = "# Title\n\nA first paragraph here.\n\n## Part\n\nSecond part, with words.\n"

TOP_LEVEL = """\
import os

with open({marker!r}, "a") as handle:
    handle.write(f"{{os.getpid()}}\\n")
os.environ["CHUNKVIEW_TEST_WINDOW_TOP_LEVEL"] = "set"


def paragraphs(text, max_chars: int = 200):
    \"\"\"Blank-line paragraphs, cut at max_chars.\"\"\"
    return [p[:max_chars] for p in text.split("\\n\\n")]


def lines(text):
    return [line for line in text.split("\\n") if line]
"""

EXITS = """\
import os


os._exit(7)


def f(text):
    return [text]
"""

HANGS = """\
import time

while True:
    time.sleep(0.01)


def f(text):
    return [text]
"""


@pytest.fixture(autouse=True)
def _registry_as_before():
    """The files' entries registered here are left out of the later tests' registry."""
    registry.entries()
    before = dict(registry._entries)
    yield
    registry._entries.clear()
    registry._entries.update(before)


def _items(window):
    combo = window.chunker.entry_combo
    return [combo.itemData(i) for i in range(combo.count())]


def _open(qtbot, window, path, signal="loaded"):
    with qtbot.waitSignal(getattr(window.chunker_files, signal), timeout=15000):
        assert window.chunker_files.open_file(str(path))


def test_top_level_code_runs_in_the_chunking_process_only(qtbot, window, tmp_path):
    marker = tmp_path / "marker"
    mine = tmp_path / "mine.py"
    mine.write_text(TOP_LEVEL.format(marker=str(marker)), encoding="utf-8")
    window.set_document(Document(TEXT, None, "markdown"))
    settle(qtbot, window)
    _open(qtbot, window, mine)
    assert f"{mine}:paragraphs" in _items(window) and f"{mine}:lines" in _items(window)
    assert window.chunker.entry_summary.text() == "Blank-line paragraphs, cut at max_chars."
    assert [p.name for p in window.model.entry.params] == ["max_chars"]
    settle(qtbot, window)
    assert len(window.result.layout.spans) == 4
    # the file's top level ran in the chunking process, never here
    pids = set(marker.read_text().split())
    assert pids == {str(window.worker.service.pid)} and str(os.getpid()) not in pids
    assert "CHUNKVIEW_TEST_WINDOW_TOP_LEVEL" not in os.environ


@pytest.mark.parametrize(
    ("source", "line", "words"),
    [
        (EXITS, 4, "os._exit(7)"),
        (HANGS, 4, "still running after"),
        ("import json\n\nCONFIG = json.loads('{')\n", 3, "JSONDecodeError"),
    ],
    ids=["exits", "hangs", "raises"],
)
def test_a_file_whose_top_level_fails_is_named_and_the_window_keeps_its_state(
    qtbot, window, tmp_path, source, line, words
):
    window.worker.set_budgets(timeout=1.0)
    window.set_document(Document(TEXT, None, "markdown"))
    settle(qtbot, window)
    shown = window.result
    bad = tmp_path / "bad.py"
    bad.write_text(source, encoding="utf-8")
    asked = time.monotonic()
    _open(qtbot, window, bad, "load_failed")
    assert time.monotonic() - asked < 3  # within the watchdog's budget and a margin
    message = window.error_label.text()
    assert "Cannot load bad.py" in message and f"bad.py, line {line}" in message, message
    assert words in message
    if source is not HANGS and source is not EXITS:  # an exception's traceback, a click away
        view = window.chunker.traceback_view
        assert "Show traceback" in message and view.isHidden()
        window.error_label.linkActivated.emit("load-traceback")
        assert not view.isHidden() and "Traceback" in view.toPlainText()
        assert f'bad.py", line {line}' in view.toPlainText()
        assert "Hide traceback" in window.error_label.text()
        window.error_label.linkActivated.emit("load-traceback")
        assert view.isHidden()
    # what the window showed stays, and the next run works at once
    assert window.model.entry_id == "agentos.SemanticChunker" and window.result is shown
    assert not any(str(data).startswith(str(bad)) for data in _items(window))
    window.set_document(Document(TEXT + "More.\n", None, "markdown"))
    settle(qtbot, window)
    assert window.result is not shown and window.result.layout.spans
    window.worker.set_budgets(timeout=60)


def _second_window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    return win


def test_opened_chunker_files_are_remembered_and_a_gone_one_is_dropped(qtbot, window, tmp_path):
    marker = tmp_path / "marker"
    mine = tmp_path / "mine.py"
    mine.write_text(TOP_LEVEL.format(marker=str(marker)), encoding="utf-8")
    other = tmp_path / "other.py"
    other.write_text("def words(text):\n    return text.split()\n", encoding="utf-8")
    _open(qtbot, window, other)
    _open(qtbot, window, mine)
    window.select_entry(f"{mine}:lines", {})
    settle(qtbot, window)
    window.close()

    # the next launch: both files listed again, the function chosen last chosen again
    again = _second_window(qtbot, tmp_path)
    again.restore_session()
    qtbot.waitUntil(lambda: again.model.entry_id == f"{mine}:lines", timeout=15000)
    assert {f"{mine}:paragraphs", f"{other}:words"} <= set(_items(again))
    settle(qtbot, again)
    assert again.error_label.isHidden()
    again.close()

    # a file gone since: left out with a note, no error, and forgotten
    other.unlink()
    third = _second_window(qtbot, tmp_path)
    third.restore_session()
    qtbot.waitUntil(lambda: third.model.entry_id == f"{mine}:lines", timeout=15000)
    assert not any(str(data).startswith(str(other)) for data in _items(third))
    assert "other.py" in third.statusBar().currentMessage()
    assert "gone" in third.statusBar().currentMessage()
    assert third.error_label.isHidden()
    assert third.remembered.chunker_files() == [str(mine)]
    third.close()
