"""Evaluation over a corpus: questions that name their document (``corpus_id``), retrieval
over the chunks of every document, as Chroma's chunking evaluation does.

Each document is scored on its own for the Ω figures (they need only its chunks); the
retrieval figures rank the chunks of the whole corpus for each question and take the top k.
A retrieved chunk of another document holds none of the excerpts but its length counts in
precision and IoU (chunking_evaluation sums every retrieved chunk's length there).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chunkview.core.analysis.eval import Ranker, scores

FIGURES = ("recall", "precision", "iou", "precision_omega", "iou_omega")


def mean_figures(questions: Iterable[Mapping[str, Any]]) -> dict[str, float | None]:
    """Means of the figures over question results (a figure left None is skipped), and
    the share of questions whose every reference lies whole in one chunk."""
    rows = list(questions)
    means: dict[str, float | None] = {}
    for name in FIGURES:
        values = [r[name] for r in rows if r.get(name) is not None]
        means[name] = statistics.fmean(values) if values else None
    means["whole"] = statistics.fmean(bool(r["whole"]) for r in rows) if rows else None
    return means


@dataclass
class DocumentChunks:
    """A document's located chunks, kept for the corpus retrieval."""

    corpus_id: str
    #: (start, end, text, chunk index) of every located chunk
    chunks: list[tuple[int, int, str, int]]


@dataclass
class CorpusResult:
    """Figures of one configuration over the corpus."""

    #: per question, in the questions file's order (a question of a failed document: None)
    questions: list[dict[str, Any] | None]
    #: per document with questions, or failed: corpus_id, status, chunks or message
    documents: list[dict[str, Any]]
    retriever: str | None
    top_k: int
    failed: list[str] = field(default_factory=list)
    #: documents chunked, and their chunks (those without questions included)
    files: int = 0
    total_chunks: int = 0

    @property
    def chunks(self) -> int:
        return self.total_chunks

    @property
    def scored(self) -> list[dict[str, Any]]:
        return [q for q in self.questions if q is not None]

    @property
    def means(self) -> dict[str, float | None]:
        return mean_figures(self.scored)

    def document_means(self) -> list[dict[str, Any]]:
        by_document: dict[str, list[dict[str, Any]]] = {}
        for q in self.scored:
            by_document.setdefault(q["corpus_id"], []).append(q)
        rows = []
        for doc in self.documents:
            found = by_document.get(doc["corpus_id"], [])
            rows.append({**doc, "questions": len(found), "means": mean_figures(found)})
        return rows

    def to_json(self) -> dict[str, Any]:
        return {
            "retriever": self.retriever,
            "top_k": self.top_k,
            "files": self.files,
            "chunks": self.chunks,
            "documents": self.document_means(),
            "questions": self.questions,
            "means": self.means,
            "failed": self.failed,
        }


def retrieve_over_corpus(
    questions: Sequence[tuple[str, Sequence[tuple[int, int]], dict[str, Any]]],
    documents: Sequence[DocumentChunks],
    retriever: str,
    top_k: int,
    *,
    keep_texts: bool = False,
) -> None:
    """Rank the chunks of every document (in ``documents``' order, which breaks ties) for
    each question (its text, excerpt ranges and result) and fill the result's retrieval
    figures from the top ``top_k``; with ``keep_texts`` the retrieved chunks' texts too."""
    owners: list[tuple[str, int, int, int]] = []  # corpus_id, start, end, chunk index
    texts: list[str] = []
    for doc in documents:
        for start, end, text, index in doc.chunks:
            owners.append((doc.corpus_id, start, end, index))
            texts.append(text)
    ranker = Ranker(texts, retriever)
    for text, excerpts, result in questions:
        top = ranker.rank(text)[: max(top_k, 0)]
        own = [(owners[i][1], owners[i][2]) for i in top if owners[i][0] == result["corpus_id"]]
        foreign = sum(
            owners[i][2] - owners[i][1] for i in top if owners[i][0] != result["corpus_id"]
        )
        found = scores(excerpts, own, foreign)
        result["retrieved"] = [[owners[i][0], owners[i][3]] for i in top]
        if keep_texts:
            result["retrieved_texts"] = [texts[i] for i in top]
        result.update(recall=found.recall, precision=found.precision, iou=found.iou)
