"""File > Open Chunker… in the real window (offscreen), with its worker thread and chunking
process: a .py file's functions in the picker, the file watched so a save runs the new
code, a user's exception shown with its file and line and its traceback one click away,
and a function that never returns stopped by the watchdog."""

import os
import time

import pytest
from conftest import settle
from PySide6.QtWidgets import QFileDialog

from chunkview.core import registry
from chunkview.core.model.document import Document

TEXT = "# Title\n\nA first paragraph here.\n\n## Part\n\nSecond part, with words.\n"

MINE = """\
def paragraphs(text, max_chars: int = 200):
    \"\"\"Blank-line paragraphs, cut at max_chars.\"\"\"
    return [p[:max_chars] for p in text.split("\\n\\n")]


def lines(text):
    return [line for line in text.split("\\n") if line]
"""

FAILS = """\
def _helper(text):
    return text.split()[99]


def fails(text):
    words = _helper(text)
    return [words]
"""

LOOPS = """\
def forever(text):
    while True:
        pass
"""


@pytest.fixture(autouse=True)
def _registry_as_before():
    """The files' entries registered here are left out of the later tests' registry."""
    registry.entries()  # the built-in entries, loaded before the snapshot
    before = dict(registry._entries)
    yield
    registry._entries.clear()
    registry._entries.update(before)


def _write(path, source):
    """Write ``source`` as an editor saving by rename would (a new file put in place),
    with a later modification time so the save is seen even within one clock tick."""
    temporary = path.with_suffix(".tmp")
    temporary.write_text(source, encoding="utf-8")
    later = time.time() + 2
    os.utime(temporary, (later, later))
    os.replace(temporary, path)


def _open(qtbot, window, path):
    """Open a chunker file and wait for the chunking process's description of it."""
    with qtbot.waitSignal(window.chunker_files.loaded, timeout=15000):
        assert window.chunker_files.open_file(str(path))


def _picker_items(window):
    combo = window.chunker.entry_combo
    return [(combo.itemText(i).strip(), combo.itemData(i)) for i in range(combo.count())]


def test_open_chunker_lists_its_functions_and_a_save_runs_the_new_code(
    qtbot, window, tmp_path, monkeypatch
):
    mine = tmp_path / "mine.py"
    mine.write_text(MINE, encoding="utf-8")
    window.set_document(Document(TEXT, None, "markdown"))
    settle(qtbot, window)
    # the menu's own action, the dialog answered with the file
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(mine), "*.py"))
    )
    with qtbot.waitSignal(window.chunker_files.loaded, timeout=15000):
        window.menus.open_chunker.trigger()
    items = _picker_items(window)
    assert ("— mine.py —", f"file:{mine}") in items
    assert ("paragraphs", f"{mine}:paragraphs") in items and ("lines", f"{mine}:lines") in items
    assert window.model.entry_id == f"{mine}:paragraphs"
    assert window.chunker.entry_combo.currentData() == f"{mine}:paragraphs"
    settle(qtbot, window)
    assert [s.text for s in window.result.layout.spans] == [
        "# Title",
        "A first paragraph here.",
        "## Part",
        "Second part, with words.\n",
    ]

    # choosing the file's other function in the picker runs it like any entry
    combo = window.chunker.entry_combo
    combo.setCurrentIndex(combo.findData(f"{mine}:lines"))
    settle(qtbot, window)
    assert window.model.entry_id == f"{mine}:lines"
    shown = [s.text for s in window.result.layout.spans]
    assert shown[:2] == ["# Title", "A first paragraph here."]

    # saved in an editor (replaced by rename): the layout follows, with no other action
    _write(mine, MINE.replace("if line]", 'if line and not line.startswith("#")]'))
    qtbot.waitUntil(
        lambda: (
            window.result is not None
            and [s.text for s in window.result.layout.spans]
            == ["A first paragraph here.", "Second part, with words."]
        ),
        timeout=15000,
    )
    # watched again after the replacement: a second save is followed too
    _write(mine, MINE.replace("if line]", "if line.startswith('#')]"))
    qtbot.waitUntil(
        lambda: [s.text for s in window.result.layout.spans] == ["# Title", "## Part"],
        timeout=15000,
    )
    assert window.error_label.isHidden()


def test_a_function_that_raises_shows_its_line_and_the_traceback_on_a_click(
    qtbot, window, tmp_path
):
    failing = tmp_path / "failing.py"
    failing.write_text(FAILS, encoding="utf-8")
    window.set_document(Document(TEXT, None, "markdown"))
    settle(qtbot, window)
    _open(qtbot, window, failing)
    settle(qtbot, window)
    assert not window.error_label.isHidden()
    message = window.error_label.text()
    # one clear line: the user's file and the line the error came from
    assert "IndexError" in message and "failing.py, line 2, in _helper" in message, message
    assert "Show traceback" in message
    view = window.chunker.traceback_view
    assert view.isHidden()
    window.error_label.linkActivated.emit("traceback")  # the link's click
    assert not view.isHidden()
    traceback = view.toPlainText()
    assert "Traceback" in traceback and "line 6, in fails" in traceback
    assert "line 2, in _helper" in traceback and "IndexError" in traceback
    assert "Hide traceback" in window.error_label.text()
    window.error_label.linkActivated.emit("traceback")
    assert view.isHidden()

    # fixed on disk: the layout comes back and the failure box goes
    _write(failing, FAILS.replace("[99]", "[0]"))
    qtbot.waitUntil(lambda: window.error_label.isHidden(), timeout=15000)
    settle(qtbot, window)
    assert [s.text for s in window.result.layout.spans] == ["#"]


def test_a_function_that_never_returns_is_stopped_and_the_window_answers(qtbot, window, tmp_path):
    loops = tmp_path / "loops.py"
    loops.write_text(LOOPS + "\n\n" + MINE, encoding="utf-8")
    window.worker.set_budgets(timeout=1.0)
    window.set_document(Document(TEXT, None, "markdown"))
    settle(qtbot, window)
    _open(qtbot, window, loops)
    window.select_entry(f"{loops}:forever", {})
    window.submit()
    asked = time.monotonic()
    # the window answers while the chunking process spins: events are handled
    answered = []
    qtbot.wait(300)
    window.search_box.setText("paragraph")
    answered.append(window.search_box.text())
    assert answered == ["paragraph"]
    qtbot.waitUntil(lambda: not window.error_label.isHidden(), timeout=15000)
    assert time.monotonic() - asked < 10
    assert "Chunking stopped" in window.error_label.text(), window.error_label.text()
    # the next chunker runs at once in a fresh process
    window.select_entry(f"{loops}:paragraphs", {})
    settle(qtbot, window)
    assert window.error_label.isHidden()
    assert len(window.result.layout.spans) == 4
    window.worker.set_budgets(timeout=60)


def test_a_file_with_no_chunker_says_so(qtbot, window, tmp_path):
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n", encoding="utf-8")
    with qtbot.waitSignal(window.chunker_files.load_failed, timeout=15000):
        assert window.chunker_files.open_file(str(empty))
    assert "Cannot load empty.py" in window.error_label.text()
    broken = tmp_path / "broken.py"
    broken.write_text("def f(text):\n    return [\n", encoding="utf-8")
    with qtbot.waitSignal(window.chunker_files.load_failed, timeout=15000):
        assert window.chunker_files.open_file(str(broken))
    assert "broken.py" in window.error_label.text()
    assert not window.chunker_files.open_file(str(tmp_path / "absent.py"))
    assert "Cannot load absent.py" in window.error_label.text()
