"""What a corpus evaluation's report shows, as data: the means of each setting (a value of
the swept option, or the one setting), each document's figures (the spread), the worst
questions with their excerpts and chunks as text, and the settings the run had. The HTML
page (chunkview/corpus_report.py) and the window draw it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chunkview.core.analysis.corpus import CorpusResult

#: how many questions the report shows as the worst
WORST = 10
#: each figure's name in the tables and plots (the report's and the Audit dock's)
FIGURE_NAMES = {
    "recall": "recall",
    "precision": "precision",
    "iou": "IoU",
    "precision_omega": "precision Ω",
    "iou_omega": "IoU Ω",
}
#: each figure's colour (Okabe-Ito), as the Sweep dock draws recall, precision and IoU;
#: the Ω pair in the colours of the top-k pair
FIGURE_COLOURS = {
    "recall": "#0072B2",
    "precision": "#D55E00",
    "iou": "#009E73",
    "precision_omega": "#D55E00",
    "iou_omega": "#009E73",
}


def figure_shown(value: float | None) -> str:
    """A mean as ``chunkview eval`` prints it (three decimals), '-' when not computed."""
    return "-" if value is None else f"{value:.3f}"


@dataclass(frozen=True)
class DocumentFigures:
    """One document's mean IoU and IoU Ω (None: not computed, or it failed)."""

    corpus_id: str
    iou: float | None
    iou_omega: float | None


@dataclass(frozen=True)
class Column:
    """One setting over the corpus: a value of the swept option, the one setting, or the
    compared one."""

    label: str
    #: the swept option's value; None for a setting that is not a point of a sweep
    value: float | None
    means: dict[str, float | None]
    chunks: int
    files: int
    documents: list[DocumentFigures]
    failed: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ChunkText:
    corpus_id: str
    index: int
    text: str


@dataclass(frozen=True)
class WorstQuestion:
    """A question at the bottom of its setting, with what a reader needs to see why."""

    number: int
    corpus_id: str
    question: str
    figures: dict[str, float | None]
    excerpts: list[str]
    #: the chunks retrieved (with a retriever), else the chunks holding the excerpts
    chunks: list[ChunkText]
    retrieved: bool


@dataclass(frozen=True)
class CorpusReport:
    #: entry, options, param, values, retriever, top_k, compared entry and options, paths
    settings: dict[str, Any]
    columns: list[Column]
    compared: Column | None
    #: the figure the worst are ranked by, and the setting they come from
    worst_by: str
    worst_of: str
    worst: list[WorstQuestion]

    @property
    def retrieval(self) -> bool:
        return self.settings.get("retriever") is not None


def column(label: str, value: float | None, result: CorpusResult) -> Column:
    documents = [
        DocumentFigures(d["corpus_id"], d["means"]["iou"], d["means"]["iou_omega"])
        for d in result.document_means()
        if d["status"] == "ok" and d["questions"]
    ]
    return Column(
        label, value, result.means, result.chunks, result.files, documents, list(result.failed)
    )


def _chunks(data: Mapping[str, Any]) -> tuple[list[ChunkText], bool]:
    if "retrieved_texts" in data:
        pairs = zip(data["retrieved"], data["retrieved_texts"], strict=True)
        return [ChunkText(c, i, text) for (c, i), text in pairs], True
    return [ChunkText(c, i, text) for c, i, text in data.get("holding", [])], False


def worst_questions(result: CorpusResult, by: str, count: int = WORST) -> list[WorstQuestion]:
    """The ``count`` questions lowest in figure ``by`` (ties: the file's order)."""
    numbered = [(n, q) for n, q in enumerate(result.questions, 1) if q is not None]
    numbered = [(n, q) for n, q in numbered if q.get(by) is not None]
    numbered.sort(key=lambda pair: (pair[1][by], pair[0]))
    worst = []
    for number, data in numbered[:count]:
        chunks, retrieved = _chunks(data)
        figures = {name: data.get(name) for name in result.means if name != "whole"}
        worst.append(
            WorstQuestion(
                number,
                data["corpus_id"],
                data["question"],
                figures,
                list(data.get("excerpts", [])),
                chunks,
                retrieved,
            )
        )
    return worst


def build_report(
    settings: Mapping[str, Any],
    labelled: Sequence[tuple[str, float | None, CorpusResult]],
    compared: tuple[str, CorpusResult] | None = None,
    worst: int = WORST,
) -> CorpusReport:
    """The report of a run: ``labelled`` is each setting (label, swept value, result) in
    the run's order. The worst questions come from the best setting by IoU (IoU Ω without
    a retriever), as a reader asks first why the best still misses."""
    columns = [column(label, value, result) for label, value, result in labelled]
    by = "iou" if settings.get("retriever") is not None else "iou_omega"
    ranked = [(i, c.means.get(by)) for i, c in enumerate(columns)]
    scored = [(i, m) for i, m in ranked if m is not None]
    best = max(scored, key=lambda pair: pair[1])[0] if scored else 0
    label, _value, result = labelled[best]
    return CorpusReport(
        dict(settings),
        columns,
        column(compared[0], None, compared[1]) if compared is not None else None,
        by,
        label,
        worst_questions(result, by, worst),
    )
