"""``chunkview eval FILE --entry E --questions Q.jsonl``: retrieval figures of one setting."""

from __future__ import annotations

import sys

from chunkview.commands.common import Parser, UsageError, json_object
from chunkview.core.document import KINDS
from chunkview.jsonout import dumps


def _parse(argv: list[str]):
    parser = Parser(
        prog="chunkview eval",
        description="Recall, precision and IoU of a chunking setting on questions whose "
        "answers are ranges of the document (chunking_evaluation's JSONL format).",
    )
    parser.add_argument("file")
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
    parser.add_argument("--tokenizer", help="tokenizer the chunker uses (wordpunct, cl100k)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser.parse_args(argv)


def _figure(value: float | None) -> str:
    return "   -  " if value is None else f"{value:6.3f}"


def format_report(report) -> str:
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


def main(argv: list[str]) -> int:
    from chunkview import api
    from chunkview.core import registry
    from chunkview.core.document import kind_for_path, load_document
    from chunkview.core.errors import ChunkerError, DocumentError
    from chunkview.core.eval import RETRIEVERS, QuestionsError, evaluate, load_questions

    try:
        args = _parse(argv)
        options = json_object("--options", args.options)
        retriever = None if args.retriever == "none" else args.retriever
        if retriever is not None and retriever not in RETRIEVERS:
            raise UsageError(
                f"--retriever: unknown {args.retriever!r}; one of {', '.join(RETRIEVERS)}, none"
            )
        if args.top_k < 1:
            raise UsageError("--top-k must be 1 or more")
        registry.get(args.entry)
        questions = load_questions(args.questions)
        document = load_document(args.file, args.doc or kind_for_path(args.file))
    except UsageError as exc:
        print(f"chunkview eval: {exc}", file=sys.stderr)
        return 2
    except KeyError as exc:
        print(f"chunkview eval: {exc.args[0]}", file=sys.stderr)
        return 2
    except (DocumentError, QuestionsError) as exc:
        print(f"chunkview eval: {exc}", file=sys.stderr)
        return 1
    try:
        layout = api.spans(
            args.entry, document, options, embedder=args.embedder, tokenizer=args.tokenizer
        )
        report = evaluate(layout, questions, retriever, args.top_k)
    except ChunkerError as exc:
        print(f"chunkview eval: {exc.name}: {exc.message}", file=sys.stderr)
        return 1
    except QuestionsError as exc:
        print(f"chunkview eval: {exc}", file=sys.stderr)
        return 1
    print(dumps(report.to_json(), indent=None) if args.json else format_report(report))
    return 0
