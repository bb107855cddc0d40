"""``chunkview sweep FILE --entry E --param NAME --values V``: a row of figures per value of
one numeric option."""

from __future__ import annotations

import argparse
from typing import Any

from chunkview.commands.chunk_input import entry_for_checks, read_input
from chunkview.commands.common import REPORTED, Parser, json_object, report
from chunkview.commands.swept_option import stepped_values
from chunkview.core.batch.sweep import (
    FIGURES,
    SweepPlan,
    column_heads,
    figure_text,
    sweep,
)
from chunkview.core.chunkers.entry import Entry
from chunkview.core.model.document import KINDS
from chunkview.core.text.jsonout import dumps


def parse(argv: list[str]) -> argparse.Namespace:
    parser = Parser(prog="chunkview sweep")
    parser.add_argument("file")
    parser.add_argument("--entry", required=True, help="entry id")
    parser.add_argument("--options", help="options object as JSON (the other options)")
    parser.add_argument("--param", required=True, help="the numeric option to step")
    parser.add_argument("--values", required=True, help="start:stop:step or a,b,c")
    parser.add_argument("--doc", choices=KINDS, help="document kind (default: by file name)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    return parser.parse_args(argv)


def _rows(args: argparse.Namespace) -> tuple[Entry, list[dict[str, Any]]]:
    """The entry (a chunker file's function described, never imported here) and the
    sweep's rows, after checking the option it steps and the values it takes."""
    options = json_object("--options", args.options)
    entry = entry_for_checks(args.entry)
    values = stepped_values(entry, options, args.param, args.values)
    document = read_input(args.file, args.doc)
    return entry, sweep(SweepPlan(args.entry, document, options, args.param, values))


def main(argv: list[str]) -> int:
    try:
        args = parse(argv)
        entry, rows = _rows(args)
    except REPORTED as exc:
        return report(exc)
    if args.json:
        print(dumps(rows, indent=None))
        return 0
    print("\t".join([args.param, *column_heads(entry.size_unit)]))
    for row in rows:
        if row["error"]:
            print(f"{row['value']}\t{row['error']['name']}: {row['error']['message']}")
        else:
            print("\t".join([f"{row['value']}", *(figure_text(k, row[k]) for k in FIGURES)]))
    return 0
