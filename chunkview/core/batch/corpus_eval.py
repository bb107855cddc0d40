"""Corpus evaluation as pool jobs: each document is read, chunked and scored for the Ω
figures in a chunking process (``eval_document``); the driver folds the small results and,
with a retriever, ranks the chunks of the whole corpus for each question.

The pool is anything with ``map(jobs, ordered=False)`` yielding ``JobOutcome``s: the local
``ChunkPool`` or the Ray pool (core/batch/ray_pool.py), so the answers are the same.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chunkview.core import registry
from chunkview.core.analysis.corpus import CorpusResult, DocumentChunks, retrieve_over_corpus
from chunkview.core.analysis.eval import Question, QuestionsError, evaluate
from chunkview.core.batch.audit import iter_files
from chunkview.core.batch.engine import Pool
from chunkview.core.build import chunk_layout
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import ChunkerError, DocumentError
from chunkview.core.io.read import load_document
from chunkview.core.runtime import Job


@dataclass(frozen=True)
class CorpusDocument:
    path: str
    #: the path relative to the corpus folder (as a question's corpus_id names it)
    corpus_id: str


def corpus_documents(paths: Sequence[str]) -> Iterator[CorpusDocument]:
    """The documents under ``paths``, walked lazily: a folder's files named by their path
    relative to it (POSIX separators), a file given as itself by its path as given."""
    for root in paths:
        if os.path.isdir(root):
            for path in iter_files([root]):
                yield CorpusDocument(path, Path(os.path.relpath(path, root)).as_posix())
        else:
            yield CorpusDocument(root, Path(root).as_posix())


def only_document(paths: Sequence[str]) -> CorpusDocument | None:
    """The corpus's document when it holds exactly one (two are enough to look at)."""
    first_two = list(itertools.islice(corpus_documents(paths), 2))
    return first_two[0] if len(first_two) == 1 else None


def assign_questions(
    questions: Sequence[Question], only: CorpusDocument | None
) -> dict[str, list[int]]:
    """The indexes of the questions on each document, by corpus_id. A question without
    corpus_id goes to the ``only`` document; with several documents it is refused."""
    by_document: dict[str, list[int]] = {}
    for number, question in enumerate(questions, 1):
        corpus_id = question.corpus_id
        if corpus_id is None:
            if only is None:
                raise QuestionsError(
                    f"question {number} has no corpus_id: with several documents each "
                    "question must name its document (its path relative to the folder)"
                )
            corpus_id = only.corpus_id
        by_document.setdefault(corpus_id, []).append(number - 1)
    return by_document


def check_named(by_document: Mapping[str, list[int]], seen: set[str]) -> None:
    """Refuse a corpus_id that named no document of the corpus (told after the walk)."""
    for corpus_id, indexes in by_document.items():
        if corpus_id not in seen:
            raise QuestionsError(
                f"question {indexes[0] + 1}: corpus_id {corpus_id!r} names no document "
                "of the corpus"
            )


def eval_document(
    path: str,
    corpus_id: str,
    entry_id: str,
    options: Mapping[str, Any],
    *,
    kind: str | None = None,
    questions: Sequence[Question] = (),
    keep_chunks: bool = False,
    keep_texts: bool = False,
) -> dict[str, Any]:
    """Read and chunk one document, score its questions' Ω figures (a pool job: it runs in
    a chunking process under the watchdog). The located chunks come back only when
    ``keep_chunks`` (a corpus retrieval needs them); with ``keep_texts`` each question's
    excerpts and the chunks holding them come back as text (a report shows them)."""
    record: dict[str, Any] = {"corpus_id": corpus_id}
    try:
        document = load_document(path, kind)
    except DocumentError as exc:
        return {**record, "status": "error", "message": str(exc)}
    entry = registry.get(entry_id)
    chosen = {k: v for k, v in options.items() if v is not None}
    try:
        entry.check_options(chosen)
        _, layout = chunk_layout(entry, document, chosen, RunContext())
    except ChunkerError as exc:
        status = "hang" if exc.name == "Hang" else "error"
        return {**record, "status": status, "message": f"{exc.name}: {exc.message}"}
    try:
        report = evaluate(layout, questions, None)
    except QuestionsError as exc:
        return {**record, "status": "error", "message": f"{path}: {exc}"}
    located = [s for s in layout.spans if s.located != "missing"]
    by_index = {s.index: s.text for s in located}
    results = []
    for question in report.questions:
        data = question.to_json()
        data["corpus_id"] = corpus_id
        if keep_texts:
            data["excerpts"] = [document.text[r.start : r.end] for r in question.references]
            holding = sorted({i for r in question.references for i in r.chunks})
            data["holding"] = [[corpus_id, i, by_index[i]] for i in holding]
        results.append(data)
    record.update(status="ok", chunks=len(located), questions=results)
    if keep_chunks:
        record["spans"] = [(s.start, s.end, s.text, s.index) for s in located]
    return record


@dataclass(frozen=True)
class Setting:
    """One configuration evaluated over the corpus: an entry and its options."""

    entry_id: str
    options: Mapping[str, Any]
    label: str = ""


def corpus_eval(
    documents: Iterable[CorpusDocument],
    questions: Sequence[Question],
    settings: Sequence[Setting],
    pool: Pool,
    *,
    only: CorpusDocument | None = None,
    kind: str | None = None,
    retriever: str | None = None,
    top_k: int = 5,
    progress: Callable[[], None] | None = None,
    keep_texts: bool = False,
) -> list[CorpusResult]:
    """One CorpusResult per setting, every (document, setting) pair a job on ``pool``,
    taken as they finish. ``documents`` are read lazily; what stays per document is its
    chunk count, its questions' figures, and its chunks only when a retriever ranks them.
    ``only``: the corpus's one document (questions without corpus_id go to it).
    ``keep_texts``: each question keeps its excerpts and its chunks as text (a report)."""
    by_document = assign_questions(questions, only)
    keep = retriever is not None
    count = len(settings)
    seen: set[str] = set()

    def jobs() -> Iterator[Job]:
        for doc in documents:
            if doc.corpus_id in by_document:
                seen.add(doc.corpus_id)
            asked = [questions[i] for i in by_document.get(doc.corpus_id, [])]
            for setting in settings:
                yield Job(
                    eval_document,
                    (doc.path, doc.corpus_id, setting.entry_id, dict(setting.options)),
                    {
                        "kind": kind,
                        "questions": asked,
                        "keep_chunks": keep,
                        "keep_texts": keep_texts,
                    },
                    label=f"{setting.entry_id} on {doc.path}",
                )

    folds = [_Fold(by_document, keep_texts) for _ in settings]
    for outcome in pool.map(jobs(), ordered=False):
        order, setting_index = divmod(outcome.index, count)
        path, corpus_id = outcome.job.args[:2]
        if outcome.error is None:
            record = outcome.value
        else:
            error = outcome.error
            hang = getattr(error, "reason", None) == "time" or error.name == "Hang"
            record = {
                "corpus_id": corpus_id,
                "status": "hang" if hang else "error",
                "message": f"{error.name}: {error.message}",
            }
        folds[setting_index].add(order, path, record)
        if progress is not None:
            progress()
    check_named(by_document, seen)
    return [fold.result(questions, retriever, top_k) for fold in folds]


class _Fold:
    """The records of one setting, folded as they come: per question its figures, per
    document with questions (or failed) a summary, the chunks only for a retrieval."""

    def __init__(self, by_document: Mapping[str, list[int]], keep_texts: bool = False) -> None:
        self.by_document = by_document
        self.keep_texts = keep_texts
        self.results: dict[int, dict[str, Any]] = {}
        self.summaries: dict[int, dict[str, Any]] = {}
        self.failed: dict[int, str] = {}
        self.chunked: dict[int, DocumentChunks] = {}
        self.documents = 0
        self.chunks = 0

    def add(self, order: int, path: str, record: dict[str, Any]) -> None:
        self.documents += 1
        corpus_id = record["corpus_id"]
        summary = {"corpus_id": corpus_id, "status": record["status"]}
        if record["status"] != "ok":
            summary["message"] = record["message"]
            self.failed[order] = f"{path}: {record['status']}: {record['message']}"
            self.summaries[order] = summary
            return
        self.chunks += record["chunks"]
        if corpus_id in self.by_document:
            self.summaries[order] = {**summary, "chunks": record["chunks"]}
            for index, data in zip(self.by_document[corpus_id], record["questions"], strict=True):
                self.results[index] = data
        if "spans" in record:
            self.chunked[order] = DocumentChunks(corpus_id, record["spans"])

    def result(
        self, questions: Sequence[Question], retriever: str | None, top_k: int
    ) -> CorpusResult:
        results = [self.results.get(i) for i in range(len(questions))]
        if retriever is not None:
            asked = [
                (questions[i].question, [(r.start, r.end) for r in questions[i].references], data)
                for i, data in enumerate(results)
                if data is not None
            ]
            # the documents' walk order, not the order they finished, breaks ranking ties
            chunked = [self.chunked[order] for order in sorted(self.chunked)]
            retrieve_over_corpus(asked, chunked, retriever, top_k, keep_texts=self.keep_texts)
        return CorpusResult(
            results,
            [self.summaries[order] for order in sorted(self.summaries)],
            retriever,
            top_k,
            [self.failed[order] for order in sorted(self.failed)],
            files=self.documents,
            total_chunks=self.chunks,
        )
