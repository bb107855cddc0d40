"""``chunkview diff FILE --entry A [--entry-b B]``: layout A against layout B of one file,
boundary by boundary."""

from __future__ import annotations

import argparse
from typing import Any

from chunkview.commands.chunk_input import entry_for_checks, read_input
from chunkview.commands.common import REPORTED, Parser, json_object, report
from chunkview.core.analysis.compare import BoundaryComparison, compare_boundaries
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import KINDS, Document
from chunkview.core.runtime import ChunkPool, chunk_job
from chunkview.core.text.jsonout import dumps


def parse(argv: list[str]) -> argparse.Namespace:
    parser = Parser(prog="chunkview diff")
    parser.add_argument("file")
    parser.add_argument("--entry", required=True, help="A: entry id")
    parser.add_argument("--options", help="A: options object as JSON")
    parser.add_argument("--entry-b", help="B: entry id (default: A's)")
    parser.add_argument("--options-b", help="B: options object as JSON")
    parser.add_argument("--doc", choices=KINDS, help="document kind (default: by file name)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    return parser.parse_args(argv)


def _layouts_in_pool(document: Document, sides: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The Layout JSON of each (entry, options) on ``document``, side by side in chunking
    processes; a ChunkerError (with the side's letter) for a side that fails."""
    jobs = [chunk_job(entry_id, document, options, "spans") for entry_id, options in sides]
    with ChunkPool(len(jobs)) as pool:
        outcomes = list(pool.map(jobs))
    for side, outcome in zip("ab", outcomes):
        if outcome.error is not None:
            raise ChunkerError(outcome.error.name, f"{side.upper()}: {outcome.error.message}")
    return [outcome.value for outcome in outcomes]


def _print_comparison(
    comparison: BoundaryComparison, sides: list[tuple[str, dict[str, Any]]], as_json: bool
) -> None:
    if as_json:
        data = comparison.to_json()
        for side, (entry_id, options) in zip("ab", sides):
            data[side] = {"entry": entry_id, "options": options, "boundaries": data[side]}
        print(dumps(data, indent=None))
        return
    print(comparison.summary())
    for change in comparison.changes:
        if change.kind == "moved":
            print(f"moved    {change.a} -> {change.b} ({change.distance:+d})")
        elif change.kind != "kept":
            print(f"{change.kind:8} {change.at}")


def main(argv: list[str]) -> int:
    try:
        args = parse(argv)
        sides = [
            (args.entry, json_object("--options", args.options)),
            (args.entry_b or args.entry, json_object("--options-b", args.options_b)),
        ]
        # a chunker file's function described by a chunking process (once for both
        # sides when they share it), never imported here
        checked = {entry_id: entry_for_checks(entry_id) for entry_id in dict(sides)}
        for entry_id, options in sides:
            checked[entry_id].check_options(options)
        document = read_input(args.file, args.doc)
        layouts = _layouts_in_pool(document, sides)
    except REPORTED as exc:
        return report(exc)
    a, b = (
        [s["own_start"] for s in layout["spans"] if s["located"] != "missing"] for layout in layouts
    )
    _print_comparison(compare_boundaries(a, b, len(document.text)), sides, args.json)
    return 0
