"""Corpus evaluation as pool jobs: each document is read, chunked and scored for the Ω
figures in a chunking process (``eval_document``); the driver folds the small results and,
with a retriever, ranks the chunks of the whole corpus for each question.

The pool is anything with ``map(jobs, ordered=False)`` yielding ``JobOutcome``s: the local
``ChunkPool`` or the Ray pool (core/batch/ray_pool.py), so the answers are the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
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


def corpus_documents(paths: Sequence[str]) -> list[CorpusDocument]:
    """The documents under ``paths``: a folder's files named by their path relative to it
    (POSIX separators), a file given as itself by its path as given."""
    documents = []
    for root in paths:
        if os.path.isdir(root):
            for path in iter_files([root]):
                documents.append(CorpusDocument(path, Path(os.path.relpath(path, root)).as_posix()))
        else:
            documents.append(CorpusDocument(root, Path(root).as_posix()))
    return documents


def assign_questions(
    questions: Sequence[Question], documents: Sequence[CorpusDocument]
) -> dict[str, list[int]]:
    """The indexes of the questions on each document, by corpus_id. A question without
    corpus_id goes to the only document; with several it is refused, as is a corpus_id
    naming no document."""
    known = {d.corpus_id for d in documents}
    by_document: dict[str, list[int]] = {d.corpus_id: [] for d in documents}
    for number, question in enumerate(questions, 1):
        corpus_id = question.corpus_id
        if corpus_id is None:
            if len(documents) != 1:
                raise QuestionsError(
                    f"question {number} has no corpus_id: with {len(documents)} documents "
                    "each question must name its document (its path relative to the folder)"
                )
            corpus_id = documents[0].corpus_id
        if corpus_id not in known:
            raise QuestionsError(
                f"question {number}: corpus_id {corpus_id!r} names no document of the corpus"
            )
        by_document[corpus_id].append(number - 1)
    return by_document


def eval_document(
    path: str,
    corpus_id: str,
    entry_id: str,
    options: Mapping[str, Any],
    kind: str | None,
    questions: Sequence[Question],
    keep_chunks: bool,
) -> dict[str, Any]:
    """Read and chunk one document, score its questions' Ω figures (a pool job: it runs in
    a chunking process under the watchdog). The located chunks come back only when
    ``keep_chunks`` (a corpus retrieval needs them)."""
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
    results = []
    for question in report.questions:
        data = question.to_json()
        data["corpus_id"] = corpus_id
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
    documents: Sequence[CorpusDocument],
    questions: Sequence[Question],
    settings: Sequence[Setting],
    pool: Pool,
    *,
    kind: str | None = None,
    retriever: str | None = None,
    top_k: int = 5,
    progress: Callable[[], None] | None = None,
) -> list[CorpusResult]:
    """One CorpusResult per setting, every (setting, document) pair a job on ``pool``,
    taken as they finish. Only the questions' figures are kept per document (and the
    chunks when a retriever ranks them)."""
    by_document = assign_questions(questions, documents)
    keep = retriever is not None
    jobs = (
        Job(
            eval_document,
            (
                doc.path,
                doc.corpus_id,
                setting.entry_id,
                dict(setting.options),
                kind,
                [questions[i] for i in by_document[doc.corpus_id]],
                keep,
            ),
            label=f"{setting.entry_id} on {doc.path}",
        )
        for setting in settings
        for doc in documents
    )
    per_setting: list[dict[str, dict[str, Any]]] = [{} for _ in settings]
    for outcome in pool.map(jobs, ordered=False):
        setting_index, doc_index = divmod(outcome.index, len(documents))
        doc = documents[doc_index]
        if outcome.error is None:
            record = outcome.value
        else:
            error = outcome.error
            hang = getattr(error, "reason", None) == "time" or error.name == "Hang"
            record = {
                "corpus_id": doc.corpus_id,
                "status": "hang" if hang else "error",
                "message": f"{error.name}: {error.message}",
            }
        per_setting[setting_index][doc.corpus_id] = record
        if progress is not None:
            progress()
    return [
        _fold(records, documents, questions, by_document, retriever, top_k)
        for records in per_setting
    ]


def _fold(
    records: Mapping[str, dict[str, Any]],
    documents: Sequence[CorpusDocument],
    questions: Sequence[Question],
    by_document: Mapping[str, list[int]],
    retriever: str | None,
    top_k: int,
) -> CorpusResult:
    """The records of one setting in the documents' and the questions' order."""
    results: list[dict[str, Any] | None] = [None] * len(questions)
    summaries = []
    failed = []
    chunked = []
    for doc in documents:
        record = records[doc.corpus_id]
        summary = {"corpus_id": doc.corpus_id, "status": record["status"]}
        if record["status"] != "ok":
            summary["message"] = record["message"]
            failed.append(f"{doc.path}: {record['status']}: {record['message']}")
            summaries.append(summary)
            continue
        summary["chunks"] = record["chunks"]
        summaries.append(summary)
        for index, data in zip(by_document[doc.corpus_id], record["questions"], strict=True):
            results[index] = data
        if retriever is not None:
            chunked.append(DocumentChunks(doc.corpus_id, record["spans"]))
    if retriever is not None:
        asked = [
            (questions[i].question, [(r.start, r.end) for r in questions[i].references], data)
            for i, data in enumerate(results)
            if data is not None
        ]
        retrieve_over_corpus(asked, chunked, retriever, top_k)
    return CorpusResult(results, summaries, retriever, top_k, failed)
