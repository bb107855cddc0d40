"""``chunkview eval FILE --entry E --questions Q.jsonl``: retrieval figures of one setting;
on a folder or several files, over the corpus (commands/eval_corpus.py)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from chunkview import api
from chunkview.commands import eval_corpus
from chunkview.commands.chunk_input import entry_for_checks
from chunkview.commands.common import Parser, UsageError, capped_jobs, json_object, most_jobs
from chunkview.commands.swept_option import stepped_values
from chunkview.core.analysis.eval import (
    RETRIEVERS,
    EvalReport,
    Question,
    QuestionsError,
    evaluate,
    load_questions,
)
from chunkview.core.batch.eval_point import eval_point
from chunkview.core.batch.ray_pool import RayUnavailable
from chunkview.core.chunkers.entry import Entry
from chunkview.core.errors import Cancelled, ChunkerError, DocumentError
from chunkview.core.io.read import load_document
from chunkview.core.model.document import KINDS, Document, kind_for_path
from chunkview.core.runtime import ChunkPool, ChunkService, Job, describe_options, quick_context
from chunkview.core.runtime.limits import max_memory_argument, timeout_argument
from chunkview.core.text.jsonout import dumps


def parse(argv: list[str]) -> argparse.Namespace:
    parser = Parser(
        prog="chunkview eval",
        description="Recall, precision and IoU of a chunking setting on questions whose "
        "answers are ranges of the document (chunking_evaluation's JSONL format).",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="a file, or a folder (or several files): a corpus, each question naming its "
        "document by corpus_id, the path relative to the folder",
    )
    parser.add_argument("--entry", required=True, help="entry id, e.g. mastra.chunk")
    parser.add_argument("--options", help="options object as JSON")
    parser.add_argument("--doc", choices=KINDS, help="document kind (default: by file name)")
    parser.add_argument("--questions", required=True, help="JSONL: question, references")
    parser.add_argument(
        "--retriever",
        default="bm25",
        help="bm25, an embedder (hash64, minilm), or none for the Ω figures only",
    )
    parser.add_argument("--top-k", type=int, default=5, help="chunks retrieved per question")
    parser.add_argument("--embedder", help="embedder the chunker uses (hash64, minilm)")
    parser.add_argument(
        "--tokenizer",
        metavar="NAME|PATH",
        help="tokenizer the chunker uses: wordpunct, cl100k, or the path of a tokenizer.json "
        "(Hugging Face) or .tiktoken file",
    )
    parser.add_argument(
        "--param", help="step this numeric option and print the means at each value"
    )
    parser.add_argument("--values", help="with --param: start:stop:step or a,b,c")
    parser.add_argument(
        "--jobs",
        type=int,
        help=f"with --param: chunking processes (default: one per core; at most {most_jobs()})",
    )
    parser.add_argument(
        "--timeout",
        type=timeout_argument,
        default=60.0,
        help="seconds per value, a corpus: per document (0.1 to 86400)",
    )
    parser.add_argument(
        "--max-memory",
        type=max_memory_argument,
        help="a corpus: memory budget per process, e.g. 2G",
    )
    parser.add_argument("--compare-entry", help="a corpus: a second configuration beside it")
    parser.add_argument("--compare-options", help="options of --compare-entry as JSON")
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="a corpus: run on Ray (the cluster at ADDRESS, else a local Ray); "
        "needs pip install 'chunkview[ray]'",
    )
    parser.add_argument(
        "--report",
        metavar="OUT.html",
        help="a corpus: write a self-contained HTML report (plots, spread, worst questions)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser.parse_args(argv)


def _figure(value: float | None) -> str:
    return "   -  " if value is None else f"{value:6.3f}"


def format_report(report: EvalReport) -> str:
    """The report as an aligned table, one question a line, and the means."""
    lines = [
        f"{report.chunks} chunks · retriever {report.retriever or 'none'}"
        + (f" · top {report.top_k}" if report.retriever else ""),
        " #  whole  chunks      recall  precis     IoU   precΩ    IoUΩ  question",
    ]
    for number, q in enumerate(report.questions, 1):
        holding = sorted({c for r in q.references for c in r.chunks})
        chunks = ",".join(map(str, holding[:4])) + ("…" if len(holding) > 4 else "")
        lines.append(
            f"{number:2d}  {'yes' if q.whole else 'no ':>5}  {chunks:<10} "
            f"{_figure(q.recall)}  {_figure(q.precision)}  {_figure(q.iou)}  "
            f"{_figure(q.precision_omega)}  {_figure(q.iou_omega)}  {q.question[:60]}"
        )
    m = report.means
    whole = f"{100 * m['whole']:.0f}%" if m["whole"] is not None else "-"
    lines.append(
        f"    {whole:>5}  {'':<10} {_figure(m['recall'])}  {_figure(m['precision'])}  "
        f"{_figure(m['iou'])}  {_figure(m['precision_omega'])}  {_figure(m['iou_omega'])}  "
        f"mean of {len(report.questions)} questions"
    )
    return "\n".join(lines)


def format_sweep(param: str, rows: list[dict[str, Any]]) -> str:
    """Mean figures per value of the stepped option, and which value scores best."""
    lines = [f"{param:>10}  chunks  recall  precis     IoU   precΩ    IoUΩ  whole"]
    for row in rows:
        if row.get("error"):
            lines.append(f"{row['value']:>10g}  {row['error']}")
            continue
        whole = f"{100 * row['whole']:.0f}%" if row["whole"] is not None else "-"
        lines.append(
            f"{row['value']:>10g}  {row['chunks']:>6}  {_figure(row['recall'])}  "
            f"{_figure(row['precision'])}  {_figure(row['iou'])}  "
            f"{_figure(row['precision_omega'])}  {_figure(row['iou_omega'])}  {whole:>5}"
        )
    scored = [r for r in rows if not r.get("error")]
    for name in ("iou", "iou_omega"):
        ranked = [r for r in scored if r.get(name) is not None]
        if ranked:
            best = max(ranked, key=lambda r: r[name])
            lines.append(f"best {name}: {param} = {best['value']:g} ({best[name]:.3f})")
    return "\n".join(lines)


def sweep_rows(
    args: argparse.Namespace,
    entry: Entry,
    document: Document,
    options: dict[str, Any],
    questions: list[Question],
    retriever: str | None,
) -> list[dict[str, Any]]:
    """One row of means per value, computed on the chunking pool."""
    values = stepped_values(entry, options, args.param, args.values)
    jobs = [
        Job(
            eval_point,
            (args.entry, document, options, questions, retriever, args.top_k, args.param, v),
            label=f"{args.param}={v:g}",
        )
        for v in values
    ]
    rows = []
    with ChunkPool(args.jobs, timeout=args.timeout) as pool:
        for outcome in pool.map(jobs):
            error = outcome.error  # None when the job gave a value
            if error is None:
                rows.append(outcome.value)
            else:
                rows.append(
                    {"value": values[outcome.index], "error": f"{error.name}: {error.message}"}
                )
    return rows


def _evaluate_one(
    entry_id: str,
    document: Document,
    options: dict[str, Any],
    embedder: str | None,
    tokenizer: str | None,
    questions: list[Question],
    retriever: str | None,
    top_k: int,
) -> EvalReport:
    """Chunk ``document`` and score ``questions`` on its chunks (in a chunking process)."""
    layout = api.spans(entry_id, document, options, embedder=embedder, tokenizer=tokenizer)
    return evaluate(layout, questions, retriever, top_k)


def _evaluated_in_process(
    args: argparse.Namespace,
    document: Document,
    options: dict[str, Any],
    questions: list[Question],
    retriever: str | None,
) -> EvalReport:
    """One document's report, chunked in a chunking process under the time and memory
    budgets (a chunker file is imported there only)."""
    with ChunkService(
        timeout=args.timeout, max_memory=args.max_memory, context=quick_context()
    ) as service:
        return service.call_as(
            describe_options(args.entry, options),
            _evaluate_one,
            args.entry,
            document,
            options,
            args.embedder,
            args.tokenizer,
            questions,
            retriever,
            args.top_k,
        )


def _is_corpus(args: argparse.Namespace) -> bool:
    """A folder, several files, or an option only a corpus run has."""
    return (
        len(args.paths) > 1
        or os.path.isdir(args.paths[0])
        or args.ray is not None
        or bool(args.compare_entry)
        or bool(args.report)
    )


def main(argv: list[str]) -> int:
    try:
        args = parse(argv)
        options = json_object("--options", args.options)
        retriever = None if args.retriever == "none" else args.retriever
        if retriever is not None and retriever not in RETRIEVERS:
            raise UsageError(
                f"--retriever: unknown {args.retriever!r}; one of {', '.join(RETRIEVERS)}, none"
            )
        if args.top_k < 1:
            raise UsageError("--top-k must be 1 or more")
        args.jobs = capped_jobs("eval", args.jobs)
        # a chunker file's function described by a chunking process, never imported here
        entry = entry_for_checks(args.entry, args.timeout)
        questions = load_questions(args.questions)
        if _is_corpus(args):
            return eval_corpus.run(args, questions, options, retriever, entry)
        document = load_document(args.paths[0], args.doc or kind_for_path(args.paths[0]))
    except UsageError as exc:
        print(f"chunkview eval: {exc}", file=sys.stderr)
        return 2
    except KeyError as exc:
        print(f"chunkview eval: {exc.args[0]}", file=sys.stderr)
        return 2
    except (DocumentError, QuestionsError, RayUnavailable) as exc:
        print(f"chunkview eval: {exc}", file=sys.stderr)
        return 1
    except ChunkerError as exc:  # a chunker file that does not load
        print(f"chunkview eval: {exc.name}: {exc.message}", file=sys.stderr)
        return 1
    if args.param:
        try:
            rows = sweep_rows(args, entry, document, options, questions, retriever)
        except UsageError as exc:
            print(f"chunkview eval: {exc}", file=sys.stderr)
            return 2
        data = {"param": args.param, "retriever": retriever, "top_k": args.top_k, "rows": rows}
        print(dumps(data, indent=None) if args.json else format_sweep(args.param, rows))
        return 0
    try:
        report = _evaluated_in_process(args, document, options, questions, retriever)
    except Cancelled:  # interrupted from outside (a signal)
        return 1
    except ChunkerError as exc:
        print(f"chunkview eval: {exc.name}: {exc.message}", file=sys.stderr)
        return 1
    except QuestionsError as exc:
        print(f"chunkview eval: {exc}", file=sys.stderr)
        return 1
    print(dumps(report.to_json(), indent=None) if args.json else format_report(report))
    return 0
