"""The Warnings and Eval tabs in the real window, offscreen (real widgets and worker)."""

from __future__ import annotations

import json

import pytest
from conftest import settle
from PySide6.QtCore import QSettings
from PySide6.QtGui import QTextCursor

from chunkview.app.main_window import MainWindow
from chunkview.core.model.document import Document

TEXT = (
    "# Apples\n\nApples grow on trees in orchards and ripen in the autumn sun.\n\n"
    "## Pears\n\nPears are sweet and soft when ripe, and they bruise easily.\n\n"
    "## Plums\n\nPlums are small stone fruit, purple or yellow, picked in summer.\n"
)


@pytest.fixture
def window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    # fixed windows of 40 units: cut sentences, and headings left at chunk ends
    win.select_entry(
        "agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 40, "chunkOverlap": 5}
    )
    win.resize(1300, 800)
    win.show()
    win.set_document(Document(TEXT, None, "markdown"))
    settle(qtbot, win)
    yield win
    win.worker.stop()


def test_warnings_are_grouped_by_kind_with_counts(qtbot, window):
    panel = window.tabs.warnings_panel
    layout = window.result.layout
    counts = {}
    for w in layout.warnings:
        counts[w.kind] = counts.get(w.kind, 0) + 1
    assert counts.get("mid-sentence", 0) >= 2
    labels = [panel.kind_box.itemText(i) for i in range(panel.kind_box.count())]
    assert labels[0] == f"All kinds ({len(layout.warnings)})"
    assert f"mid-sentence ({counts['mid-sentence']})" in labels
    panel.kind_box.setCurrentIndex(panel.kind_box.findData("mid-sentence"))
    assert window.warnings.rows.total() == counts["mid-sentence"]
    assert all(w.kind == "mid-sentence" for w in panel.shown())


def test_next_and_previous_step_through_one_kind_and_select_its_chunk(qtbot, window):
    panel = window.tabs.warnings_panel
    panel.kind_box.setCurrentIndex(panel.kind_box.findData("mid-sentence"))
    shown = panel.shown()
    shown_at = []
    window.tabs.show_position.connect(shown_at.append)
    first = panel.step(forward=True)
    second = panel.step(forward=True)
    assert (first, second) == (shown[0], shown[1])
    assert window.model.selected == second.chunk
    assert shown_at[-1] == second.start
    assert panel.step(forward=False) == shown[0]
    assert panel.step(forward=False) == shown[-1]  # wraps round


def test_the_kind_chosen_stays_when_the_layout_changes(qtbot, window):
    panel = window.tabs.warnings_panel
    panel.kind_box.setCurrentIndex(panel.kind_box.findData("mid-sentence"))
    window.params.set_value("chunkSize", 50)
    settle(qtbot, window)
    assert panel.kind() == "mid-sentence"
    assert window.warnings.rows.total() == sum(
        1 for w in window.result.layout.warnings if w.kind == "mid-sentence"
    )


def computed(qtbot, panel) -> None:
    """Wait for the figures: they are computed on a thread."""
    qtbot.waitUntil(lambda: not panel.computing, timeout=20000)


def select(window, start: int, end: int) -> None:
    cursor = window.editor.textCursor()
    cursor.setPosition(window.editor.to_editor(start))
    cursor.setPosition(window.editor.to_editor(end), QTextCursor.MoveMode.KeepAnchor)
    window.editor.setTextCursor(cursor)


def test_mark_as_answer_adds_a_question_with_its_figures(qtbot, window, tmp_path):
    panel = window.views.eval_panel
    window.views.show_panel(panel)
    start = TEXT.index("Pears are sweet")
    end = start + len("Pears are sweet")
    select(window, start, end)
    panel.question_box.setText("Which fruit is sweet?")
    panel.mark_button.click()
    computed(qtbot, panel)
    assert len(panel.questions) == 1
    (result,) = panel.report.questions
    assert result.references[0].start == start and result.references[0].end == end
    assert panel.table.rowCount() == 1
    assert panel.table.item(0, 0).text() == "Which fruit is sweet?"
    assert panel.table.item(0, 6).text() == f"{result.precision_omega:.3f}"
    assert "Mean of 1 questions" in panel.means.text()
    assert "Layout B" not in panel.means.text()
    window.model.pin(True)  # this layout becomes B; A follows the next change
    # the figures follow the layout
    before = result.precision_omega
    window.params.set_value("chunkSize", 200)
    settle(qtbot, window)
    computed(qtbot, panel)
    assert panel.report.questions[0].precision_omega != before
    assert panel.report.questions[0].references[0].whole_in is not None
    assert panel.report_b.questions[0].precision_omega == before
    b_line = panel.means.text().splitlines()[1]
    assert b_line.startswith(f"Layout B over {panel.report_b.chunks} chunks")
    path = tmp_path / "q.jsonl"
    panel.save_questions(str(path))
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["references"][0]["content"] == "Pears are sweet"


def test_loading_questions_and_a_bad_file(qtbot, window, tmp_path):
    panel = window.views.eval_panel
    window.views.show_panel(panel)
    good = tmp_path / "good.jsonl"
    start = TEXT.index("Plums are")
    ref = {"content": "Plums", "start_index": start, "end_index": start + 5}
    good.write_text(json.dumps({"question": "plums purple", "references": [ref]}) + "\n")
    assert panel.load_questions(str(good))
    computed(qtbot, panel)
    assert panel.table.rowCount() == 1 and panel.report is not None
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{nope\n")
    assert not panel.load_questions(str(bad))
    assert panel.means.text().startswith("⚠ ") and "bad.jsonl:1" in panel.means.text()
    panel.question_box.setText("No selection?")
    window.editor.setTextCursor(window.editor.textCursor())  # nothing selected
    cursor = window.editor.textCursor()
    cursor.clearSelection()
    window.editor.setTextCursor(cursor)
    panel.mark_answer()
    assert panel.means.text() == "⚠ select the answer's text first"


def test_screenshots_of_the_tabs(qtbot, window, tmp_path):
    panel = window.tabs.warnings_panel
    window.views.show_panel(panel)
    qtbot.wait(50)
    assert not window.tabs.grab().isNull()
    window.tabs.grab().save(str(tmp_path / "warnings.png"))


def test_a_token_limit_warns_about_chunks_over_it_from_the_counted_tokens(qtbot, window):
    panel = window.tabs.warnings_panel
    qtbot.waitUntil(lambda: window.result.tokens is not None, timeout=20000)
    tokens = window.result.tokens
    assert not panel.counts().get("over-limit")
    limit = min(tokens)  # every chunk with more tokens than the smallest is over it
    panel.limit_box.setCurrentText(str(limit))
    over = [n for n in tokens if n > limit]
    assert over and panel.counts()["over-limit"] == len(over)
    assert window.tabs.tabText(2) == f"Warnings ({len(panel._warnings)})"
    panel.kind_box.setCurrentIndex(panel.kind_box.findData("over-limit"))
    assert all(f"over the model's limit of {limit}" in w.message for w in panel.shown())
    panel.limit_box.setCurrentText("no token limit")
    assert not panel.counts().get("over-limit")


def test_the_navigate_menu_steps_through_the_kind_chosen_in_the_warnings_tab(qtbot, window):
    panel = window.tabs.warnings_panel
    qtbot.waitUntil(lambda: window.result.tokens is not None, timeout=20000)
    panel.limit_box.setCurrentText(str(min(window.result.tokens)))
    assert panel.counts()["over-limit"] >= 2 and panel.counts()["mid-sentence"] >= 2
    panel.kind_box.setCurrentIndex(panel.kind_box.findData("over-limit"))
    messages = []
    window.statusBar().messageChanged.connect(messages.append)
    for _ in range(4):  # mid-sentence warnings lie between these: none is stepped to
        window.menus.step_warning(1)
    stepped = [m for m in messages if m]
    assert len(stepped) == 4
    assert all("over the model's limit" in m for m in stepped)
