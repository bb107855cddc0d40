"""Retrieval metrics against hand-computed figures, and the questions file format."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chunkview.core.analysis.eval import (
    Question,
    QuestionsError,
    Reference,
    evaluate,
    load_questions,
    scores,
    subtract,
    union,
)
from chunkview.core.build import build_layout
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span


def layout_of(text: str, *ranges: tuple[int, int]):
    spans = [Span(i, s, e, s, "test", text[s:e]) for i, (s, e) in enumerate(ranges)]
    return build_layout(Document(text), spans)


def test_range_helpers():
    assert union([(5, 8), (0, 3), (3, 4), (7, 10)]) == [(0, 4), (5, 10)]
    assert subtract([(0, 10), (20, 30)], [(5, 25)]) == [(0, 5), (25, 30)]
    assert subtract([(0, 10), (5, 10)], [(0, 7)]) == [(7, 10), (7, 10)]


def test_one_chunk_holding_the_whole_excerpt():
    figures = scores([(35, 50)], [(30, 70)])
    assert figures.recall == 1.0
    assert figures.precision == pytest.approx(15 / 40)
    assert figures.iou == pytest.approx(15 / 40)


def test_a_chunk_holding_part_of_the_excerpt():
    figures = scores([(35, 50)], [(0, 40)])
    assert figures.recall == pytest.approx(5 / 15)
    assert figures.precision == pytest.approx(5 / 40)
    # 5 in common; 40 retrieved plus the 10 of the excerpt left out
    assert figures.iou == pytest.approx(5 / 50)


def test_two_excerpts_and_overlapping_chunks_sum_chunk_lengths():
    figures = scores([(35, 50), (80, 90)], [(30, 70), (0, 40)])
    # common text 35..50 once (15); excerpts 25; chunks 40 + 40; 80..90 missed (10)
    assert figures.recall == pytest.approx(15 / 25)
    assert figures.precision == pytest.approx(15 / 80)
    assert figures.iou == pytest.approx(15 / 90)


def test_nothing_retrieved_or_nothing_in_common():
    assert scores([(0, 10)], []) == scores([(0, 10)], [(20, 30)]).__class__(0.0, 0.0, 0.0)
    far = scores([(0, 10)], [(20, 30)])
    assert (far.recall, far.precision, far.iou) == (0.0, 0.0, 0.0)


TEXT = (
    "Apples grow on trees in orchards. "  # 0..34
    "Bananas are yellow fruit from warm lands. "  # 34..76
    "Cherries are small red stone fruit."
)


def test_omega_figures_take_exactly_the_chunks_holding_excerpt_text():
    a, b = TEXT.index("Bananas"), TEXT.index("Cherries")
    layout = layout_of(TEXT, (0, a + 10), (a, b), (b, len(TEXT)))
    start, end = TEXT.index("yellow"), TEXT.index("yellow") + len("yellow fruit")
    question = Question("What colour are bananas?", (Reference("yellow fruit", start, end),))
    report = evaluate(layout, [question], retriever=None)
    (result,) = report.questions
    (ref,) = result.references
    assert ref.chunks == [1] and ref.whole_in == 1 and ref.content_matches
    assert result.whole
    assert result.precision_omega == pytest.approx(12 / (b - a))
    assert result.iou_omega == pytest.approx(12 / (b - a))
    assert result.recall is None and result.retrieved == []


def test_an_excerpt_split_across_chunks_is_not_whole():
    cut = TEXT.index("fruit from")
    layout = layout_of(TEXT, (0, cut), (cut, len(TEXT)))
    start = TEXT.index("yellow")
    question = Question("q", (Reference("yellow fruit", start, start + 12),))
    (result,) = evaluate(layout, [question], retriever=None).questions
    assert result.references[0].chunks == [0, 1] and result.references[0].whole_in is None
    assert not result.whole
    assert result.precision_omega == pytest.approx(12 / len(TEXT))


@pytest.mark.parametrize("retriever", ["bm25", "hash64"])
def test_retrievers_rank_the_chunk_that_shares_the_question_words_first(retriever):
    a, b = TEXT.index("Bananas"), TEXT.index("Cherries")
    layout = layout_of(TEXT, (0, a), (a, b), (b, len(TEXT)))
    start = TEXT.index("Cherries")
    question = Question("small red cherries stone", (Reference("", start, len(TEXT)),))
    report = evaluate(layout, [question], retriever=retriever, top_k=1)
    (result,) = report.questions
    assert result.retrieved == [2]
    assert (result.recall, result.precision, result.iou) == (1.0, 1.0, 1.0)
    assert report.means["recall"] == 1.0 and report.means["whole"] == 1.0


def test_means_over_questions():
    a = TEXT.index("Bananas")
    layout = layout_of(TEXT, (0, a), (a, len(TEXT)))
    questions = [
        Question("apples trees orchards", (Reference("", 0, 10),)),
        Question("apples trees orchards", (Reference("", a, a + 10),)),
    ]
    report = evaluate(layout, questions, retriever="bm25", top_k=1)
    assert [q.recall for q in report.questions] == [1.0, 0.0]
    assert report.means["recall"] == 0.5
    assert report.means["precision"] == pytest.approx((10 / a) / 2)


def test_questions_file_in_chunking_evaluations_format(tmp_path):
    path = tmp_path / "q.jsonl"
    refs = [{"content": "Apples", "start_index": 0, "end_index": 6}]
    path.write_text(
        json.dumps({"question": "What grows?", "references": refs})
        + "\n\n"
        + json.dumps({"question": "Again?", "references": json.dumps(refs), "corpus_id": "x"})
        + "\n",
        encoding="utf-8",
    )
    questions = load_questions(path)
    assert [q.question for q in questions] == ["What grows?", "Again?"]
    assert questions[1].references == (Reference("Apples", 0, 6),)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{", "q.jsonl:1: not valid JSON"),
        ('{"references": []}', "q.jsonl:1: expected an object"),
        ('{"question": "q", "references": []}', "must be a non-empty list"),
        (
            '{"question": "q", "references": [{"start_index": 5, "end_index": 2}]}',
            "the range 5..2 is empty",
        ),
    ],
)
def test_bad_questions_files_say_where(tmp_path, line, message):
    path = tmp_path / "q.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(QuestionsError, match=message.replace(".", r"\.")):
        load_questions(path)


def test_a_reference_past_the_end_of_the_document_is_refused():
    layout = layout_of(TEXT, (0, len(TEXT)))
    with pytest.raises(QuestionsError, match=r"question 1: reference 0\.\.999 lies past"):
        evaluate(layout, [Question("q", (Reference("", 0, 999),))], retriever=None)


def test_the_eval_command_prints_per_question_and_mean_figures(tmp_path):
    root = Path(__file__).resolve().parent.parent
    doc = tmp_path / "fruit.txt"
    doc.write_text(TEXT, encoding="utf-8")
    start = TEXT.index("Cherries")
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps(
            {
                "question": "small red cherries",
                "references": [{"content": "", "start_index": start, "end_index": len(TEXT)}],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    options = json.dumps({"strategy": "sentence", "maxSize": 45, "overlap": 0})

    command = [sys.executable, "-m", "chunkview", "eval", str(doc), "--entry", "mastra.chunk"]

    def run(*extra):
        return subprocess.run(
            [*command, "--options", options, "--questions", str(questions), *extra],
            capture_output=True,
            text=True,
            cwd=root,
            env={**os.environ, "PYTHONPATH": str(root)},
        )

    done = run("--top-k", "1", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    (question,) = data["questions"]
    assert data["retriever"] == "bm25" and data["top_k"] == 1
    assert question["whole"] and question["recall"] == 1.0
    assert data["means"]["precision_omega"] == question["precision_omega"]
    table = run("--retriever", "none")
    assert "mean of 1 questions" in table.stdout and "retriever none" in table.stdout
    bad = run("--top-k", "0")
    assert bad.returncode == 2 and bad.stderr == "chunkview eval: --top-k must be 1 or more\n"


def test_eval_over_values_of_one_option_matches_each_layout(tmp_path):
    from chunkview import api

    root = Path(__file__).resolve().parent.parent
    doc = tmp_path / "fruit.txt"
    doc.write_text(TEXT, encoding="utf-8")
    start = TEXT.index("yellow fruit")
    questions = tmp_path / "q.jsonl"
    ref = {"content": "yellow fruit", "start_index": start, "end_index": start + 12}
    questions.write_text(json.dumps({"question": "yellow bananas", "references": [ref]}) + "\n")
    base = {"strategy": "sentence", "overlap": 0}
    command = [sys.executable, "-m", "chunkview", "eval", str(doc), "--entry", "mastra.chunk"]
    sweep = ["--param", "maxSize", "--values", "45,200", "--jobs", "1", "--json"]
    done = subprocess.run(
        [
            *command,
            "--options",
            json.dumps(base),
            "--questions",
            str(questions),
            *sweep,
            "--top-k",
            "1",
        ],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert done.returncode == 0, done.stderr
    assert "leaked" not in done.stderr
    rows = json.loads(done.stdout)["rows"]
    assert [row["value"] for row in rows] == [45, 200]
    for row in rows:
        layout = api.spans("mastra.chunk", TEXT, {**base, "maxSize": row["value"]})
        report = evaluate(layout, load_questions(questions), "bm25", 1)
        assert row["chunks"] == report.chunks
        assert row["iou_omega"] == pytest.approx(report.means["iou_omega"])
        assert row["recall"] == pytest.approx(report.means["recall"])
    assert rows[0]["chunks"] > rows[1]["chunks"]


def _brute(excerpts, retrieved):
    """The same figures counted character by character."""
    covered = {i for s, e in retrieved for i in range(s, e)}
    common = len({i for s, e in excerpts for i in range(s, e)} & covered)
    missed = sum(1 for s, e in excerpts for i in range(s, e) if i not in covered)
    chunks = sum(e - s for s, e in retrieved)
    return (
        common / sum(e - s for s, e in excerpts),
        common / chunks if chunks else 0.0,
        common / (chunks + missed) if chunks + missed else 0.0,
    )


def test_scores_agree_with_counting_characters():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    ranges = st.tuples(st.integers(0, 60), st.integers(1, 30)).map(lambda p: (p[0], p[0] + p[1]))

    @settings(max_examples=300, deadline=None)
    @given(st.lists(ranges, min_size=1, max_size=3), st.lists(ranges, max_size=5))
    def check(excerpts, retrieved):
        figures = scores(excerpts, retrieved)
        recall, precision, iou = _brute(excerpts, retrieved)
        assert figures.recall == pytest.approx(recall)
        assert figures.precision == pytest.approx(precision)
        assert figures.iou == pytest.approx(iou)

    check()
