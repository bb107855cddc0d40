"""The Audit dock evaluates its folder with a questions file: the corpus means it shows,
of the setting on view or of each value of a swept option, are ``chunkview eval``'s, and
the plots draw them; Stop ends the run's processes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import settle

ROOT = Path(__file__).resolve().parent.parent
DOCS = {
    "a.md": "# Fruit\n\nApples grow on trees. Bananas are yellow.\n\nCherries are small and red.\n",
    "b.txt": "Dogs bark loudly at night. Eels swim in rivers and lakes. Foxes hunt at dawn.\n",
    "sub/c.txt": "Grapes make wine. Honey is sweet and sticky. Ice melts in the sun.\n",
}
ASKED = [
    ("where do apples grow", "a.md", "Apples grow on trees."),
    ("colour of cherries", "a.md", "Cherries are small and red."),
    ("what do eels do", "b.txt", "Eels swim in rivers and lakes."),
    ("when do foxes hunt", "b.txt", "Foxes hunt at dawn."),
    ("is honey sweet", "sub/c.txt", "Honey is sweet and sticky."),
]
OPTIONS = {"strategy": "sentence", "maxSize": 40, "overlap": 0}
FIGURES = ("recall", "precision", "IoU", "precision Ω", "IoU Ω")
KEYS = ("recall", "precision", "iou", "precision_omega", "iou_omega")


def make_corpus(root: Path) -> tuple[Path, Path]:
    folder = root / "corpus"
    for name, text in DOCS.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    lines = []
    for question, corpus_id, excerpt in ASKED:
        start = DOCS[corpus_id].index(excerpt)
        reference = {"content": excerpt, "start_index": start, "end_index": start + len(excerpt)}
        lines.append(
            json.dumps({"question": question, "corpus_id": corpus_id, "references": [reference]})
        )
    questions = root / "questions.jsonl"
    questions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder, questions


def cli_eval(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "chunkview", "eval", *args, "--json", "--jobs", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def evaluate(qtbot, window, folder: Path, questions: Path, retriever: str = "bm25"):
    audit = window.views.audit
    window.views.show_panel(audit)
    panel = audit.evaluation
    panel.jobs = 1  # one chunking process beside the other tests
    audit.folder_edit.setText(str(folder))
    panel.questions_edit.setText(str(questions))
    panel.retriever_combo.setCurrentText(retriever)
    assert panel.start()
    assert audit.tabs.currentWidget() is panel
    qtbot.waitUntil(lambda: not panel.running, timeout=60000)
    return panel


def shown(means: dict) -> list[str]:
    return ["-" if means[k] is None else f"{means[k]:.3f}" for k in KEYS]


def test_the_dock_shows_the_corpus_means_of_chunkview_eval(qtbot, window, tmp_path):
    window.select_entry("mastra.chunk", OPTIONS)
    settle(qtbot, window)
    folder, questions = make_corpus(tmp_path)
    panel = evaluate(qtbot, window, folder, questions)
    assert panel.failure == ""
    expected = cli_eval(
        str(folder), "--entry", "mastra.chunk", "--options", json.dumps(OPTIONS),
        "--questions", str(questions),
    )  # fmt: skip
    (row,) = panel.means_shown()
    assert [row[name] for name in FIGURES] == shown(expected["means"])
    assert row["chunks"] == str(expected["chunks"]) and row["setting"] == "mastra.chunk"
    assert panel.progress.value() == panel.progress.maximum() == 3
    assert panel.progress.text() == "3 / 3 documents"
    assert "3 documents, 5 of 5 questions scored" in panel.message.text()
    # the Ω figures alone without a retriever, as --retriever none gives them
    panel = evaluate(qtbot, window, folder, questions, retriever="none")
    omega = cli_eval(
        str(folder), "--entry", "mastra.chunk", "--options", json.dumps(OPTIONS),
        "--questions", str(questions), "--retriever", "none",
    )  # fmt: skip
    (row,) = panel.means_shown()
    assert [row[name] for name in FIGURES] == shown(omega["means"])
    assert row["recall"] == "-"


def test_a_swept_option_shows_and_plots_the_means_per_value(qtbot, window, tmp_path):
    window.select_entry("mastra.chunk", OPTIONS)
    settle(qtbot, window)
    folder, questions = make_corpus(tmp_path)
    panel = window.views.audit.evaluation
    panel.param_combo.setCurrentIndex(panel.param_combo.findData("maxSize"))
    panel.values_edit.setText("20,40,80")
    panel = evaluate(qtbot, window, folder, questions)
    expected = cli_eval(
        str(folder), "--entry", "mastra.chunk", "--options", json.dumps(OPTIONS),
        "--questions", str(questions), "--param", "maxSize", "--values", "20,40,80",
    )  # fmt: skip
    rows = panel.means_shown()
    assert [r["setting"] for r in rows] == ["20", "40", "80"]
    for row, cli_row in zip(rows, expected["rows"], strict=True):
        assert [row[name] for name in FIGURES] == shown(cli_row)
        assert row["chunks"] == str(cli_row["chunks"])
    assert panel.progress.value() == panel.progress.maximum() == 9
    assert panel.progress.text() == "9 / 9 documents × values"  # 3 documents at 3 values
    for key in KEYS:
        xs, ys = panel.plotted(key)
        assert xs == [20.0, 40.0, 80.0]
        assert ys == [cli_row[key] for cli_row in expected["rows"]]
    assert panel._plots_widget is not None and panel._plots_widget.isVisible()
    # Report… writes the page chunkview eval --report writes, with the figures shown
    assert panel.report_button.isEnabled()
    page_path = tmp_path / "report.html"
    assert panel.save_report(str(page_path))
    page = page_path.read_text(encoding="utf-8")
    table = page.split("<h2>Corpus means</h2>", 1)[1].split("</table>", 1)[0]
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", table)]
    assert [c[:6] for c in cells[1:]] == [
        [r["setting"], *(r[name] for name in FIGURES)] for r in rows
    ]
    assert page.count("<svg") == 4 and "The worst questions" in page
    assert not panel.save_report(str(tmp_path / "missing" / "report.html"))
    assert "cannot be written" in panel.message.text()


def test_stop_ends_the_run_and_says_so(qtbot, window, tmp_path):
    window.select_entry("mastra.chunk", OPTIONS)
    settle(qtbot, window)
    folder, questions = make_corpus(tmp_path)
    for n in range(40):  # enough documents that Stop comes before the end
        (folder / f"more-{n}.txt").write_text(DOCS["b.txt"] * 200, encoding="utf-8")
    audit = window.views.audit
    window.views.show_panel(audit)
    panel = audit.evaluation
    panel.jobs = 1
    audit.folder_edit.setText(str(folder))
    panel.questions_edit.setText(str(questions))
    assert panel.start()
    qtbot.waitUntil(lambda: panel.progress.value() >= 1, timeout=60000)
    panel.stop()
    qtbot.waitUntil(lambda: not panel.running, timeout=10000)
    assert panel.outcome is None and panel.means_shown() == []
    assert panel.message.text() == "Stopped before the end."
    assert panel.progress.value() < panel.progress.maximum() == 43
    assert panel.run_button.isEnabled() and not panel.stop_button.isEnabled()


def test_a_missing_questions_file_is_one_line(qtbot, window, tmp_path):
    folder, _questions = make_corpus(tmp_path)
    audit = window.views.audit
    audit.folder_edit.setText(str(folder))
    audit.evaluation.questions_edit.setText(str(tmp_path / "nope.jsonl"))
    assert not audit.evaluation.start()
    assert "nope.jsonl" in audit.evaluation.message.text()
    assert not audit.evaluation.running


def test_a_failed_document_is_named_in_one_line(qtbot, window, tmp_path):
    window.select_entry("mastra.chunk", OPTIONS)
    settle(qtbot, window)
    folder, questions = make_corpus(tmp_path)
    (folder / "broken.txt").write_bytes(b"\x00\x01 not text \x00")
    panel = evaluate(qtbot, window, folder, questions)
    text = panel.message.text()
    assert "1 documents failed; the first: " in text, text
    assert text.split("the first: ", 1)[1].startswith(str(folder / "broken.txt"))
    assert "['" not in text
