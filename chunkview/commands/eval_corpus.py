"""``chunkview eval FOLDER|FILE... --questions Q.jsonl``: the figures of a setting over a
corpus (questions naming their document by ``corpus_id``), a sweep of one option over it,
and a second configuration beside it; on the local pool or on Ray (``--ray``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from chunkview.commands.chunk_input import entry_for_checks
from chunkview.commands.common import UsageError, json_object
from chunkview.commands.swept_option import stepped_values
from chunkview.core.analysis.corpus import CorpusResult
from chunkview.core.analysis.eval import Question
from chunkview.core.batch.corpus_eval import (
    Setting,
    corpus_documents,
    corpus_eval,
    only_document,
)
from chunkview.core.batch.engine import open_pool
from chunkview.core.chunkers.entry import Entry
from chunkview.core.text.jsonout import dumps
from chunkview.core.views.corpus_report import build_report
from chunkview.corpus_report import render_report, save_report


def _figure(value: float | None) -> str:
    return "   -  " if value is None else f"{value:6.3f}"


def _means_line(means: dict[str, Any]) -> str:
    whole = f"{100 * means['whole']:.0f}%" if means.get("whole") is not None else "-"
    return (
        f"{_figure(means['recall'])}  {_figure(means['precision'])}  {_figure(means['iou'])}  "
        f"{_figure(means['precision_omega'])}  {_figure(means['iou_omega'])}  {whole:>5}"
    )


HEADER = "recall  precis     IoU   precΩ    IoUΩ  whole"


def format_corpus(result: CorpusResult, title: str) -> str:
    """Per question, per document and corpus means as aligned tables."""
    lines = [
        f"{title} · {result.files} files · {result.chunks} chunks"
        + f" · retriever {result.retriever or 'none'}"
        + (f" · top {result.top_k} over the corpus" if result.retriever else ""),
        f" #  {HEADER}  document · question",
    ]
    for number, q in enumerate(result.questions, 1):
        if q is None:
            lines.append(f"{number:2d}  (its document failed)")
            continue
        lines.append(
            f"{number:2d}  {_means_line(q | {'whole': 1.0 if q['whole'] else 0.0})}  "
            f"{q['corpus_id']} · {' '.join(q['question'].split())[:50]}"
        )
    lines.append(f"\n    {HEADER}  chunks  document (mean of its questions)")
    for doc in result.document_means():
        if doc["status"] != "ok":
            lines.append(f"    {doc['status']}: {doc['message']}  {doc['corpus_id']}")
            continue
        lines.append(
            f"    {_means_line(doc['means'])}  {doc['chunks']:>6}  {doc['corpus_id']} "
            f"({doc['questions']} question{'' if doc['questions'] == 1 else 's'})"
        )
    lines.append(
        f"\n    {_means_line(result.means)}  {result.chunks:>6}  corpus mean of "
        f"{len(result.scored)} question{'' if len(result.scored) == 1 else 's'}"
    )
    return "\n".join(lines)


def _row(value: float | None, result: CorpusResult) -> dict[str, Any]:
    row: dict[str, Any] = {"value": value, "chunks": result.chunks, **result.means}
    if result.failed:
        row["failed"] = result.failed
    return row


def best_values(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The value with the highest mean IoU, and the one with the highest IoU Ω."""
    best: dict[str, Any] = {}
    for name in ("iou", "iou_omega"):
        ranked = [r for r in rows if r.get(name) is not None]
        if ranked:
            top = max(ranked, key=lambda r: r[name])
            best[name] = {"value": top["value"], name: top[name]}
    return best


def format_sweep(param: str, rows: list[dict[str, Any]], best: dict[str, Any]) -> str:
    lines = [f"{param:>10}  chunks  {HEADER}"]
    for row in rows:
        lines.append(f"{row['value']:>10g}  {row['chunks']:>6}  {_means_line(row)}")
        for failure in row.get("failed", []):
            lines.append(f"{'':>10}  {failure}")
    for name, found in best.items():
        lines.append(f"best {name}: {param} = {found['value']:g} ({found[name]:.3f})")
    return "\n".join(lines)


def settings_of(args: argparse.Namespace, options: dict[str, Any], entry: Entry) -> list[Setting]:
    """The configurations to run: the entry (``entry``, at each value of --param), then the
    compared one when --compare-entry is given (chunker files described, never imported)."""
    if args.param:
        settings = [
            Setting(args.entry, {**options, args.param: v}, f"{args.param}={v:g}")
            for v in stepped_values(entry, options, args.param, args.values)
        ]
    else:
        settings = [Setting(args.entry, options, args.entry)]
    if args.compare_entry:
        entry_for_checks(args.compare_entry, args.timeout)  # KeyError: an unknown entry
        compared = json_object("--compare-options", args.compare_options)
        settings.append(Setting(args.compare_entry, compared, args.compare_entry))
    elif args.compare_options:
        raise UsageError("--compare-options needs --compare-entry")
    return settings


def _progress(
    paths: list[str], settings: int
) -> tuple[Callable[[], None] | None, Callable[[], None]]:
    """A bar on stderr when it is a terminal (the files counted first, as audit does)."""
    if not sys.stderr.isatty():
        return None, lambda: None
    from tqdm import tqdm

    total = settings * sum(1 for _ in corpus_documents(paths))
    bar = tqdm(total=total, unit="doc", file=sys.stderr, dynamic_ncols=True)
    return lambda: bar.update(1), bar.close


def write_report(
    args: argparse.Namespace,
    options: dict[str, Any],
    retriever: str | None,
    settings: list[Setting],
    results: list[CorpusResult],
    compared: CorpusResult | None,
) -> None:
    """The HTML report of the run (--report), its settings as the command was given them."""
    shown = {
        "corpus": " ".join(args.paths),
        "questions": args.questions,
        "entry": args.entry,
        "options": options,
        "param": args.param,
        "values": args.values,
        "retriever": retriever,
        "top_k": args.top_k if retriever else None,
        "compared entry": args.compare_entry,
        "compared options": json_object("--compare-options", args.compare_options)
        if args.compare_entry
        else None,
    }
    labelled = [
        (f"{s.options[args.param]:g}", s.options[args.param], r)
        if args.param
        else (s.label, None, r)
        for s, r in zip(settings, results, strict=False)
    ]
    # the compared setting named by its entry, or as "compared" when it is the same entry
    other = args.compare_entry if args.compare_entry != args.entry else "compared"
    pair = (other, compared) if compared is not None else None
    report = build_report(shown, labelled, pair)
    save_report(render_report(report), args.report)


def run(
    args: argparse.Namespace,
    questions: list[Question],
    options: dict[str, Any],
    retriever: str | None,
    entry: Entry,
) -> int:
    """Evaluate ``entry`` (as ``entry_for_checks`` gives it), print the tables or one JSON
    object; 1 when a document failed."""
    settings = settings_of(args, options, entry)
    try:
        memory = args.max_memory  # checked by max_memory_argument (None: half the RAM)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    step, close = _progress(args.paths, len(settings))
    try:
        with open_pool(
            args.jobs, timeout=args.timeout, max_memory=memory, ray=args.ray, paths=args.paths
        ) as pool:
            results = corpus_eval(
                corpus_documents(args.paths),
                questions,
                settings,
                pool,
                only=only_document(args.paths),
                kind=args.doc,
                retriever=retriever,
                top_k=args.top_k,
                progress=step,
                keep_texts=bool(args.report),
            )
    finally:
        close()
    compared = results.pop() if args.compare_entry else None
    data: dict[str, Any]
    if args.param:
        rows = [_row(s.options[args.param], r) for s, r in zip(settings, results, strict=False)]
        best = best_values(rows)
        data = {"param": args.param, "retriever": retriever, "top_k": args.top_k}
        data |= {"rows": rows, "best": best}
        text = format_sweep(args.param, rows, best)
    else:
        data = {"entry": args.entry, "options": options, **results[0].to_json()}
        text = format_corpus(results[0], args.entry)
    if compared is not None:
        data["compare"] = {"entry": args.compare_entry, **compared.to_json()}
        text += "\n\n" + format_corpus(compared, f"compared: {args.compare_entry}")
    if args.report:
        write_report(args, options, retriever, settings, results, compared)
    print(dumps(data, indent=None) if args.json else text)
    return 1 if any(r.failed for r in results) or (compared and compared.failed) else 0
