"""Retrieval evaluation of a layout, with the definitions of Chroma's "Evaluating Chunking
Strategies for Retrieval" (the chunking_evaluation package): token-level, over character
ranges of the document.

For a question with excerpts E (the references) and retrieved chunks R:

- recall    = |E ∩ R| / Σ|e|
- precision = |E ∩ R| / Σ|r|          (chunk lengths summed: an overlap counts twice)
- IoU       = |E ∩ R| / (Σ|r| + |E \\ R|)

``|E ∩ R|`` is the size of the union of every chunk-reference intersection. The Ω figures
retrieve exactly the chunks that hold excerpt text (the best one can do at full recall):
precision_Ω and IoU_Ω are the two formulas above on that set, so they need no retriever.
As in chunking_evaluation, precision and IoU take the chunk ranges where the text was found.
One difference: a chunk that only touches a reference (ends where it begins) holds none of
its text here, where chunking_evaluation counts it among the Ω chunks.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from chunkview.core.model.spans import Layout
from chunkview.core.text.embed import embed_cached

Range = tuple[int, int]
RETRIEVERS = ("bm25", "hash64", "minilm")


class QuestionsError(ValueError):
    """A questions file that cannot be read; the message names the file and the line."""


@dataclass(frozen=True)
class Reference:
    content: str
    start: int
    end: int


@dataclass(frozen=True)
class Question:
    question: str
    references: tuple[Reference, ...]
    #: the document the answer lies in (its path relative to the corpus folder), as in
    #: Chroma's question sets; None for a question on a single document
    corpus_id: str | None = None


def _whole_number(data: dict[str, Any], name: str, where: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise QuestionsError(f"{where}: {name} must be a whole number, got {value!r}")
    return value


def _reference(data: Any, where: str) -> Reference:
    if not isinstance(data, dict):
        raise QuestionsError(f"{where}: a reference must be an object")
    start = _whole_number(data, "start_index", where)
    end = _whole_number(data, "end_index", where)
    if end <= start or start < 0:
        raise QuestionsError(f"{where}: the range {start}..{end} is empty or negative")
    return Reference(str(data.get("content", "")), start, end)


def parse_question(data: Any, where: str) -> Question:
    """One question in chunking_evaluation's format: ``question`` and ``references``
    (a list, or that list as a JSON string as its CSV files hold it)."""
    if not isinstance(data, dict) or not isinstance(data.get("question"), str):
        raise QuestionsError(f"{where}: expected an object with a “question” string")
    references = data.get("references")
    if isinstance(references, str):
        try:
            references = json.loads(references)
        except json.JSONDecodeError as exc:
            raise QuestionsError(f"{where}: references are not valid JSON ({exc.msg})") from None
    if not isinstance(references, list) or not references:
        raise QuestionsError(f"{where}: “references” must be a non-empty list")
    corpus_id = data.get("corpus_id")
    if corpus_id is not None and not isinstance(corpus_id, str):
        raise QuestionsError(f"{where}: corpus_id must be a string, got {corpus_id!r}")
    return Question(
        data["question"],
        tuple(_reference(r, f"{where}, reference {i + 1}") for i, r in enumerate(references)),
        corpus_id or None,
    )


def load_questions(path: str | Path) -> list[Question]:
    """Questions from a JSONL file, one object a line (blank lines skipped)."""
    name = str(path)
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise QuestionsError(f"{name}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise QuestionsError(f"{name}: cannot be read ({exc})") from None
    questions = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionsError(f"{name}:{number}: not valid JSON ({exc.msg})") from None
        questions.append(parse_question(data, f"{name}:{number}"))
    if not questions:
        raise QuestionsError(f"{name}: holds no questions")
    return questions


# ranges ---------------------------------------------------------------------------------


def union(ranges: Iterable[Range]) -> list[Range]:
    """Sorted, merged ranges (touching ranges merge)."""
    merged: list[Range] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def total(ranges: Iterable[Range]) -> int:
    return sum(end - start for start, end in ranges)


def intersection(a: Range, b: Range) -> Range | None:
    start, end = max(a[0], b[0]), min(a[1], b[1])
    return (start, end) if start < end else None


def subtract(ranges: Sequence[Range], cut: Sequence[Range]) -> list[Range]:
    """The parts of each range of ``ranges`` outside every range of ``cut`` (``ranges`` are
    not merged: overlapping references count twice, as in chunking_evaluation)."""
    left = []
    cuts = union(cut)
    for start, end in ranges:
        cursor = start
        for c_start, c_end in cuts:
            if c_end <= cursor or c_start >= end:
                continue
            if c_start > cursor:
                left.append((cursor, c_start))
            cursor = max(cursor, c_end)
        if cursor < end:
            left.append((cursor, end))
    return left


@dataclass(frozen=True)
class Scores:
    recall: float
    precision: float
    iou: float


def scores(excerpts: Sequence[Range], retrieved: Sequence[Range], foreign: int = 0) -> Scores:
    """Recall, precision and IoU of retrieved chunk ranges against excerpt ranges.
    ``foreign``: the summed length of retrieved chunks of other documents (a corpus
    retrieval), which hold none of the excerpts but count in precision and IoU."""
    hits = union(
        found
        for chunk in retrieved
        for excerpt in excerpts
        if (found := intersection(chunk, excerpt))
    )
    common = total(hits)
    chunk_sum = total(retrieved) + foreign
    unused = total(subtract(excerpts, retrieved))
    return Scores(
        recall=common / total(excerpts) if excerpts else 0.0,
        precision=common / chunk_sum if chunk_sum else 0.0,
        iou=common / (chunk_sum + unused) if chunk_sum + unused else 0.0,
    )


# retrievers -----------------------------------------------------------------------------


def _thread_lock_for_tqdm() -> None:
    """bm25s makes tqdm bars even when they are hidden, and tqdm's first bar makes a
    multiprocessing lock: a semaphore a killed chunking process would leak. A thread lock
    does here."""
    import threading

    import tqdm

    if getattr(tqdm.tqdm, "_lock", None) is None:
        tqdm.tqdm.set_lock(threading.RLock())


class Ranker:
    """Ranks a layout's chunks for queries; the index or the embeddings are built once."""

    def __init__(self, chunks: Sequence[str], retriever: str) -> None:
        if retriever not in RETRIEVERS:
            raise ValueError(f"unknown retriever {retriever!r}; one of {', '.join(RETRIEVERS)}")
        self.chunks = list(chunks)
        self.retriever = retriever
        # (index,): the index is None when no chunk has a word to index
        self._bm25: tuple[Any | None] | None = None
        self._vectors: np.ndarray | None = None

    def rank(self, query: str) -> list[int]:
        if not self.chunks:
            return []
        if self.retriever == "bm25":
            return self._rank_bm25(query)
        if self._vectors is None:
            self._vectors = np.array(embed_cached(self.retriever, self.chunks), dtype=float)
        question = np.array(embed_cached(self.retriever, [query])[0], dtype=float)
        norms = np.linalg.norm(self._vectors, axis=1) * (np.linalg.norm(question) or 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            similarity = np.where(norms > 0, self._vectors @ question / norms, 0.0)
        return sorted(range(len(self.chunks)), key=lambda i: (-float(similarity[i]), i))

    def _rank_bm25(self, query: str) -> list[int]:
        _thread_lock_for_tqdm()
        import bm25s

        if self._bm25 is None:
            tokens = bm25s.tokenize(self.chunks, stopwords="en", show_progress=False)
            index = None
            if tokens.vocab:
                index = bm25s.BM25()
                index.index(tokens, show_progress=False)
            self._bm25 = (index,)
        (index,) = self._bm25
        if index is None:  # no chunk has a word: every chunk ranks the same
            return list(range(len(self.chunks)))
        words = bm25s.tokenize([query], stopwords="en", show_progress=False, return_ids=False)[0]
        known = [w for w in words if w in index.vocab_dict]
        if not known:
            return list(range(len(self.chunks)))
        found = index.get_scores(known)
        return sorted(range(len(self.chunks)), key=lambda i: (-float(found[i]), i))


# evaluation -----------------------------------------------------------------------------


@dataclass
class ReferenceResult:
    start: int
    end: int
    #: the chunks holding any of its text, and the first chunk holding all of it (if any)
    chunks: list[int]
    whole_in: int | None
    #: the document's text at start..end equals the reference's content
    content_matches: bool

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self))


@dataclass
class QuestionResult:
    question: str
    references: list[ReferenceResult]
    precision_omega: float
    iou_omega: float
    retrieved: list[int] = field(default_factory=list)
    recall: float | None = None
    precision: float | None = None
    iou: float | None = None

    @property
    def whole(self) -> bool:
        """Every reference lies whole inside one chunk."""
        return all(r.whole_in is not None for r in self.references)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "whole": self.whole,
            "references": [r.to_json() for r in self.references],
            "retrieved": self.retrieved,
            "recall": self.recall,
            "precision": self.precision,
            "iou": self.iou,
            "precision_omega": self.precision_omega,
            "iou_omega": self.iou_omega,
        }


@dataclass
class EvalReport:
    questions: list[QuestionResult]
    retriever: str | None
    top_k: int
    chunks: int

    @property
    def means(self) -> dict[str, float | None]:
        def mean(name: str) -> float | None:
            values = [getattr(q, name) for q in self.questions]
            values = [v for v in values if v is not None]
            return statistics.fmean(values) if values else None

        return {
            "recall": mean("recall"),
            "precision": mean("precision"),
            "iou": mean("iou"),
            "precision_omega": mean("precision_omega"),
            "iou_omega": mean("iou_omega"),
            "whole": statistics.fmean(q.whole for q in self.questions) if self.questions else None,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "retriever": self.retriever,
            "top_k": self.top_k,
            "chunks": self.chunks,
            "questions": [q.to_json() for q in self.questions],
            "means": self.means,
        }


def check_references(questions: Sequence[Question], length: int) -> None:
    """Refuse references past the document's end, naming the question."""
    for number, question in enumerate(questions, 1):
        for ref in question.references:
            if ref.end > length:
                raise QuestionsError(
                    f"question {number}: reference {ref.start}..{ref.end} lies past the "
                    f"document's end ({length} characters)"
                )


def evaluate(
    layout: Layout,
    questions: Sequence[Question],
    retriever: str | None = "bm25",
    top_k: int = 5,
) -> EvalReport:
    """Figures for every question on one layout; retrieval figures when ``retriever``."""
    text = layout.document.text
    check_references(questions, len(text))
    located = [s for s in layout.spans if s.located != "missing"]
    ranges = [(s.start, s.end) for s in located]
    ranker = Ranker([s.text for s in located], retriever) if retriever else None
    results = []
    for question in questions:
        excerpts = [(r.start, r.end) for r in question.references]
        references = []
        holding: set[int] = set()
        for ref in question.references:
            chunks = [i for i, r in enumerate(ranges) if intersection(r, (ref.start, ref.end))]
            holding.update(chunks)
            whole = next(
                (i for i in chunks if ranges[i][0] <= ref.start and ref.end <= ranges[i][1]), None
            )
            references.append(
                ReferenceResult(
                    ref.start,
                    ref.end,
                    [located[i].index for i in chunks],
                    located[whole].index if whole is not None else None,
                    text[ref.start : ref.end] == ref.content,
                )
            )
        omega = scores(excerpts, [ranges[i] for i in sorted(holding)])
        result = QuestionResult(question.question, references, omega.precision, omega.iou)
        if ranker is not None:
            top = ranker.rank(question.question)[: max(top_k, 0)]
            found = scores(excerpts, [ranges[i] for i in top])
            result.retrieved = [located[i].index for i in top]
            result.recall, result.precision, result.iou = found.recall, found.precision, found.iou
        results.append(result)
    return EvalReport(results, retriever, top_k, len(located))


def question_from_selection(text: str, start: int, end: int, question: str) -> Question:
    """A question whose answer is ``text[start:end]`` (a selection marked as the answer)."""
    if not question.strip():
        raise QuestionsError("type the question first")
    if not 0 <= start < end <= len(text):
        raise QuestionsError("select the answer's text first")
    return Question(question.strip(), (Reference(text[start:end], start, end),))


def question_data(question: Question) -> dict[str, Any]:
    """One question as chunking_evaluation's object (what ``parse_question`` reads)."""
    references = [
        {"content": r.content, "start_index": r.start, "end_index": r.end}
        for r in question.references
    ]
    data: dict[str, Any] = {"question": question.question, "references": references}
    if question.corpus_id is not None:
        data["corpus_id"] = question.corpus_id
    return data


def questions_jsonl(questions: Sequence[Question]) -> str:
    """Questions in chunking_evaluation's JSONL format (what ``load_questions`` reads)."""
    return "".join(json.dumps(question_data(q), ensure_ascii=False) + "\n" for q in questions)
