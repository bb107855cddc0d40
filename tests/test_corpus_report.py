"""``chunkview eval FOLDER --report OUT.html``: a page that stands alone (nothing fetched),
whose means are the figures the command prints, and whose chunk texts are escaped."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from chunkview.core.analysis.corpus import CorpusResult
from chunkview.core.views.corpus_report import build_report

ROOT = Path(__file__).resolve().parent.parent
A = "Apples <b>grow</b> on trees & bushes. Bananas are yellow. Cherries are small."
B = "Dogs bark <script>alert(1)</script> loudly. Eels swim in rivers."
SENTENCES = {"strategy": "sentence", "overlap": 0}
#: a reference to another place: a page must not load anything
FETCHED = re.compile(r"""(?:src|href|xlink:href)\s*=\s*["']?\s*(?:https?:)?//""", re.I)


def chunkview(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chunkview", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _question(text: str, corpus_id: str, excerpt: str, doc: str) -> dict:
    start = doc.index(excerpt)
    reference = {"content": excerpt, "start_index": start, "end_index": start + len(excerpt)}
    return {"question": text, "corpus_id": corpus_id, "references": [reference]}


@pytest.fixture
def corpus(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_text(A, encoding="utf-8")
    (folder / "b.txt").write_text(B, encoding="utf-8")
    questions: list[dict[str, Any] | None] = [
        _question("what grows on trees", "a.txt", "Apples <b>grow</b> on trees & bushes.", A),
        _question("colour of bananas", "a.txt", "Bananas are yellow.", A),
        _question("do dogs bark", "b.txt", "Dogs bark <script>alert(1)</script> loudly.", B),
        _question("where do eels swim", "b.txt", "Eels swim in rivers.", B),
    ]
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(q) for q in questions) + "\n", encoding="utf-8")
    return folder, path


def _table_rows(page: str) -> list[list[str]]:
    """The corpus means table's rows, as the cells' text."""
    table = page.split("<h2>Corpus means</h2>", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table)[1:]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in rows]


def _printed_rows(stdout: str) -> list[list[str]]:
    """The sweep table's value and figure columns as printed (value, chunks, 5 figures)."""
    lines = stdout.splitlines()[1:]
    return [line.split()[:7] for line in lines if re.match(r"\s+\d", line)]


def test_a_sweep_report_stands_alone_and_shows_the_printed_means(corpus, tmp_path):
    folder, questions = corpus
    out = tmp_path / "report.html"
    done = chunkview(
        "eval", str(folder), "--entry", "mastra.chunk", "--options", json.dumps(SENTENCES),
        "--questions", str(questions), "--param", "maxSize", "--values", "20,40,80",
        "--jobs", "1", "--report", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert not FETCHED.search(page)
    assert "<script" not in page.replace("&lt;script", "") and "<link" not in page
    assert "<img" not in page
    # a plot per pair (recall · precision · IoU, the Ω pair) and the spread, all inline
    assert page.count("<svg") == 4
    printed = _printed_rows(done.stdout)
    shown = _table_rows(page)
    assert [row[0] for row in printed] == ["20", "40", "80"]
    assert len(shown) == 3
    for printed_row, shown_row in zip(printed, shown, strict=True):
        value, chunks, *figures = printed_row
        assert shown_row[0] == value
        assert shown_row[1:6] == figures
        assert shown_row[7] == chunks
    # the settings, as given
    for setting in ("mastra.chunk", "maxSize", "20,40,80", "bm25", "&quot;sentence&quot;"):
        assert setting in page


def test_a_report_escapes_the_chunk_texts_and_excerpts(corpus, tmp_path):
    folder, questions = corpus
    out = tmp_path / "report.html"
    done = chunkview(
        "eval", str(folder), "--entry", "mastra.chunk",
        "--options", json.dumps({**SENTENCES, "maxSize": 30}), "--questions", str(questions),
        "--retriever", "none", "--jobs", "1", "--report", str(out), "--json",
        "--compare-entry", "mastra.chunk", "--compare-options", '{"strategy": "character"}',
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in page and "<b>grow</b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Apples &lt;b&gt;grow&lt;/b&gt; on trees &amp; bushes." in page
    worst = page.split("The worst questions", 1)[1]
    assert worst.count('class="q"') == 4 and "chunks holding the excerpts" in worst
    # the one setting's row: the Ω figures as --json gives them, the retrieval ones '-'
    data = json.loads(done.stdout)
    row, compared = _table_rows(page)
    for shown, means in ((row, data["means"]), (compared, data["compare"]["means"])):
        assert shown[1:4] == ["-", "-", "-"]
        assert shown[4:6] == [f"{means['precision_omega']:.3f}", f"{means['iou_omega']:.3f}"]
    assert (row[0], compared[0]) == ("mastra.chunk", "compared")
    assert page.count("<svg") == 2  # the Ω pair and its spread, no retrieval plots


def test_a_report_that_cannot_be_written_is_one_line(corpus, tmp_path):
    folder, questions = corpus
    done = chunkview(
        "eval", str(folder), "--entry", "mastra.chunk", "--questions", str(questions),
        "--retriever", "none", "--jobs", "1",
        "--report", str(tmp_path / "missing" / "report.html"),
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0 and "cannot be written" in done.stderr
    assert not list(tmp_path.glob("missing*"))


def _result(figures: Sequence[float | None], corpus_id: str = "a.txt") -> CorpusResult:
    questions: list[dict[str, Any] | None] = [
        {"question": f"q{i}", "corpus_id": corpus_id, "whole": True, "iou_omega": v,
         "precision_omega": v, "recall": None, "precision": None, "iou": None,
         "holding": [[corpus_id, i, f"chunk {i}"]], "excerpts": [f"excerpt {i}"]}
        for i, v in enumerate(figures)
    ]  # fmt: skip
    documents = [{"corpus_id": corpus_id, "status": "ok", "chunks": len(figures)}]
    return CorpusResult(questions, documents, None, 5, files=1, total_chunks=len(figures))


def test_the_worst_questions_come_from_the_best_setting_lowest_first():
    low, high = _result([0.2, 0.4, 0.1]), _result([0.9, 0.5, 0.7])
    report = build_report({"retriever": None}, [("10", 10, low), ("20", 20, high)], worst=2)
    assert (report.worst_by, report.worst_of) == ("iou_omega", "20")
    assert [q.number for q in report.worst] == [2, 3]
    assert report.worst[0].chunks[0].text == "chunk 1" and report.worst[0].excerpts == ["excerpt 1"]
    assert [c.means["iou_omega"] for c in report.columns] == [
        pytest.approx(0.7 / 3),
        pytest.approx(2.1 / 3),
    ]
