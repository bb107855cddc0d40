"""Corpus evaluation (``chunkview eval FOLDER``): a hand-computed two-document case, the Ω
means against an independent count from ``chunkview spans``, sweeps and a compared setting."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chunkview.core.analysis.corpus import DocumentChunks, retrieve_over_corpus
from chunkview.core.analysis.eval import Question, QuestionsError, Reference
from chunkview.core.batch.corpus_eval import CorpusDocument, assign_questions, check_named

ROOT = Path(__file__).resolve().parent.parent
SENTENCES = json.dumps({"strategy": "sentence", "maxSize": 25, "overlap": 0})
A = "Apples grow on trees. Bananas are yellow. Cherries are small and red."
B = "Dogs bark loudly. Eels swim in rivers."


def chunkview(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chunkview", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def question(text: str, corpus_id: str | None, start: int, end: int, doc: str) -> str:
    data = {
        "question": text,
        "references": [{"content": doc[start:end], "start_index": start, "end_index": end}],
    }
    if corpus_id is not None:
        data["corpus_id"] = corpus_id
    return json.dumps(data)


@pytest.fixture
def two_documents(tmp_path):
    folder = tmp_path / "corpus"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.txt").write_text(A, encoding="utf-8")
    (folder / "sub" / "b.txt").write_text(B, encoding="utf-8")
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        "\n".join(
            [
                question("yellow bananas", "a.txt", 22, 41, A),
                question("small red cherries", "a.txt", 42, 69, A),
                question("eels rivers", "sub/b.txt", 18, 38, B),
                question("barking dogs", "sub/b.txt", 10, 30, B),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    return folder, questions


def test_two_documents_against_hand_computed_figures(two_documents):
    # chunks (mastra sentence, maxSize 25): a.txt 0..21 22..41 42..64 65..69;
    # b.txt 0..17 18..38
    folder, questions = two_documents
    done = chunkview(
        "eval", str(folder), "--entry", "mastra.chunk", "--options", SENTENCES,
        "--questions", str(questions), "--top-k", "1", "--json", "--jobs", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    q1, q2, q3, q4 = data["questions"]
    corpus_ids = [q["corpus_id"] for q in data["questions"]]
    assert corpus_ids == ["a.txt", "a.txt", "sub/b.txt", "sub/b.txt"]
    # Ω: q1 and q3 lie whole in one chunk of their own length
    assert (q1["precision_omega"], q1["iou_omega"]) == (1.0, 1.0)
    assert (q3["precision_omega"], q3["iou_omega"]) == (1.0, 1.0)
    # q2 (42..69) in chunks 42..64 and 65..69: 26 of its 27 characters, 64..65 unused
    assert q2["precision_omega"] == 1.0 and q2["iou_omega"] == pytest.approx(26 / 27)
    # q4 (10..30) in chunks 0..17 and 18..38: 19 in common, 37 retrieved, 17..18 unused
    assert q4["precision_omega"] == pytest.approx(19 / 37)
    assert q4["iou_omega"] == pytest.approx(19 / 38)
    # top 1 over the six chunks of the corpus
    assert q1["retrieved"] == [["a.txt", 1]] and (q1["recall"], q1["iou"]) == (1.0, 1.0)
    assert q2["retrieved"] == [["a.txt", 2]]
    assert (q2["recall"], q2["precision"]) == (pytest.approx(22 / 27), 1.0)
    assert q2["iou"] == pytest.approx(22 / 27)
    assert q4["retrieved"] == [["sub/b.txt", 0]]
    assert (q4["recall"], q4["precision"]) == (pytest.approx(7 / 20), pytest.approx(7 / 17))
    assert q4["iou"] == pytest.approx(7 / 30)
    means = data["means"]
    assert means["precision_omega"] == pytest.approx((3 + 19 / 37) / 4)
    assert means["iou_omega"] == pytest.approx((2 + 26 / 27 + 0.5) / 4)
    assert means["recall"] == pytest.approx((1 + 22 / 27 + 1 + 7 / 20) / 4)
    docs = {d["corpus_id"]: d for d in data["documents"]}
    assert docs["a.txt"]["chunks"] == 4 and docs["sub/b.txt"]["chunks"] == 2
    assert docs["a.txt"]["means"]["iou_omega"] == pytest.approx((1 + 26 / 27) / 2)
    assert docs["sub/b.txt"]["means"]["precision_omega"] == pytest.approx((1 + 19 / 37) / 2)
    assert (data["chunks"], data["files"]) == (6, 2)

    omega = chunkview(
        "eval", str(folder), "--entry", "mastra.chunk", "--options", SENTENCES,
        "--questions", str(questions), "--retriever", "none", "--jobs", "1",
    )  # fmt: skip
    assert omega.returncode == 0, omega.stderr
    assert "corpus mean of 4 questions" in omega.stdout and "retriever none" in omega.stdout


def test_a_chunk_of_another_document_counts_in_precision_and_iou():
    apples = DocumentChunks("a.txt", [(0, 21, "Apples grow on trees.", 0)])
    dogs = DocumentChunks("b.txt", [(0, 17, "Dogs bark loudly.", 0), (18, 38, "Eels swim.", 1)])
    result: dict = {"corpus_id": "a.txt"}
    retrieve_over_corpus([("apples and dogs", [(0, 21)], result)], [apples, dogs], "bm25", 2)
    assert sorted(map(tuple, result["retrieved"])) == [("a.txt", 0), ("b.txt", 0)]
    assert result["recall"] == 1.0
    assert result["precision"] == pytest.approx(21 / 38)
    assert result["iou"] == pytest.approx(21 / 38)


def test_questions_without_corpus_id_are_refused_on_several_documents():
    plain = Question("q", (Reference("", 0, 1),))
    with pytest.raises(QuestionsError, match="question 1 has no corpus_id"):
        assign_questions([plain], None)
    only = CorpusDocument("x/a.txt", "a.txt")
    assert assign_questions([plain], only) == {"a.txt": [0]}
    named = Question("q", (Reference("", 0, 1),), "c.txt")
    with pytest.raises(QuestionsError, match=r"question 2: corpus_id 'c\.txt' names no document"):
        check_named(assign_questions([plain, named], only), {"a.txt"})


def test_the_command_refuses_questions_without_corpus_id(two_documents, tmp_path):
    folder, _ = two_documents
    plain = tmp_path / "plain.jsonl"
    plain.write_text(question("apples", None, 0, 5, A) + "\n", encoding="utf-8")
    done = chunkview(
        "eval", str(folder), "--entry", "mastra.chunk", "--questions", str(plain),
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith("chunkview eval: question 1 has no corpus_id")
    assert done.stderr.count("\n") == 1


def omega_from_spans(path: Path, options: str, refs: list[tuple[int, int]]):
    """precision Ω and IoU Ω of one-reference questions, counted character by character
    from the spans ``chunkview spans`` prints (no code of the evaluation)."""
    done = chunkview("spans", "mastra.chunk", str(path), "--options", options)
    assert done.returncode == 0, done.stderr
    chunks = [(s["start"], s["end"]) for s in json.loads(done.stdout)["spans"]]
    figures = []
    for start, end in refs:
        excerpt = set(range(start, end))
        holding = [(s, e) for s, e in chunks if excerpt & set(range(s, e))]
        covered = set().union(*(set(range(s, e)) for s, e in holding))
        common = len(excerpt & covered)
        chunk_sum = sum(e - s for s, e in holding)
        figures.append((common / chunk_sum, common / (chunk_sum + len(excerpt - covered))))
    return figures


def test_corpus_omega_means_equal_an_independent_count_from_spans(tmp_path):
    corpus = ROOT / "tests" / "corpus"
    names = ["argparse-readme.md", "email-architecture.rst", "smartchunk-readme.txt"]
    options = json.dumps({"strategy": "recursive", "maxSize": 300, "overlap": 40})
    lines, expected = [], []
    for name in names:
        text = (corpus / name).read_text(encoding="utf-8")
        refs = [(start, start + 150 + 37 * n) for n, start in enumerate((50, 1200, 3000, 5100))]
        for start, end in refs:
            lines.append(question(text[start : start + 30], name, start, end, text))
        expected += omega_from_spans(corpus / name, options, refs)
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in names:
        (folder / name).write_bytes((corpus / name).read_bytes())
    questions = tmp_path / "q.jsonl"
    questions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = chunkview(
        "eval", str(folder), "--entry", "mastra.chunk", "--options", options,
        "--questions", str(questions), "--retriever", "none", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    means = json.loads(done.stdout)["means"]
    assert means["precision_omega"] == pytest.approx(sum(p for p, _ in expected) / len(expected))
    assert means["iou_omega"] == pytest.approx(sum(i for _, i in expected) / len(expected))
    assert means["recall"] is None and means["iou"] is None


def test_a_sweep_over_the_corpus_with_a_compared_setting(two_documents):
    folder, questions = two_documents
    done = chunkview(
        "eval", str(folder), "--entry", "mastra.chunk", "--options", SENTENCES,
        "--questions", str(questions), "--retriever", "none", "--json", "--jobs", "1",
        "--param", "maxSize", "--values", "25,1000",
        "--compare-entry", "mastra.chunk", "--compare-options", SENTENCES,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    low, high = data["rows"]
    assert (low["value"], low["chunks"]) == (25, 6)
    assert low["iou_omega"] == pytest.approx((2 + 26 / 27 + 0.5) / 4)
    assert high["chunks"] == 2  # a sentence chunk of 1000 holds each document whole
    assert data["best"]["iou_omega"]["value"] == 25
    assert data["compare"]["means"]["iou_omega"] == low["iou_omega"]
