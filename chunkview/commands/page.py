"""``chunkview page FILE --entry E --param NAME --values SPEC --out OUT.html``: one
self-contained page with a slider over the values, each value's chunks as the app draws
them (export_page.py)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from chunkview.commands.chunk_input import checked_options, entry_for_checks, read_input
from chunkview.commands.common import REPORTED, Parser, report
from chunkview.commands.swept_option import stepped_values
from chunkview.core.batch.page_values import PagePlan
from chunkview.core.batch.sweep import pool_runner
from chunkview.core.chunkers.entry import Entry
from chunkview.core.model.document import KINDS
from chunkview.core.runtime.limits import timeout_argument
from chunkview.core.views.page_data import FailedValue
from chunkview.export_page import make_page


def parse(argv: list[str]) -> argparse.Namespace:
    parser = Parser(prog="chunkview page")
    parser.add_argument("file")
    parser.add_argument("--entry", required=True, help="entry id")
    parser.add_argument("--options", help="options object as JSON (the other options)")
    parser.add_argument("--param", required=True, help="the numeric option the slider steps")
    parser.add_argument("--values", required=True, help="start:stop:step or a,b,c")
    parser.add_argument("--out", required=True, help="the page to write (OUT.html)")
    parser.add_argument("--entry-b", help="B, compared with each value: entry id (default: E)")
    parser.add_argument(
        "--options-b", help="B's options as JSON (B is compared when either is given)"
    )
    parser.add_argument("--embedder", help="embedder name (hash64, minilm)")
    parser.add_argument("--tokenizer", help="tokenizer name (wordpunct, cl100k)")
    parser.add_argument("--doc", choices=KINDS, help="document kind (default: by file name)")
    parser.add_argument(
        "--timeout",
        type=timeout_argument,
        default=10.0,
        metavar="SECONDS",
        help="stop the chunker at one value after this many seconds (default 10)",
    )
    return parser.parse_args(argv)


def plan_of(args: argparse.Namespace) -> tuple[Entry, PagePlan]:
    """The entry (a chunker file's function described, never imported here) and the
    page's plan, after checking the options, the option it steps and the values it takes."""
    entry = entry_for_checks(args.entry, args.timeout)
    options = checked_options(args.entry, args.options, entry)
    values = stepped_values(entry, options, args.param, args.values)
    b_entry = args.entry_b or (args.entry if args.options_b is not None else None)
    b_options: dict[str, Any] = {}
    if b_entry is not None:
        b_checked = entry if b_entry == args.entry else entry_for_checks(b_entry, args.timeout)
        b_options = checked_options(b_entry, args.options_b, b_checked)
    document = read_input(args.file, args.doc)
    return entry, PagePlan(
        args.entry,
        document,
        options,
        args.param,
        values,
        b_entry,
        b_options,
        embedder=args.embedder,
        tokenizer=args.tokenizer,
        b_embedder=args.embedder,
        b_tokenizer=args.tokenizer,
    )


def main(argv: list[str]) -> int:
    try:
        args = parse(argv)
        entry, plan = plan_of(args)
    except REPORTED as exc:
        return report(exc)
    page, run = make_page(plan, pool_runner(timeout=args.timeout), entry)
    views = run.values
    try:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(page)
    except OSError as exc:
        print(f"chunkview page: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    failed = [v for v in views if isinstance(v, FailedValue)]
    for view in failed:
        print(
            f"chunkview page: {plan.param}={view.value}: {view.name}: {view.message}",
            file=sys.stderr,
        )
    if run.b is not None and run.b.error is not None:
        print(f"chunkview page: B ({run.b.entry_id}): {run.b.error}", file=sys.stderr)
    print(
        f"{args.out}: {len(views)} values of {plan.param}"
        + (f" ({len(failed)} failed, shown as failed)" if failed else "")
        + f", {len(page.encode('utf-8')):,} bytes"
    )
    return 0
