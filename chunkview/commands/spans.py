"""``chunkview spans ENTRY [FILE|-]``: the Layout of one input (where each chunk lies), as
JSON."""

from __future__ import annotations

import argparse

from chunkview.commands.chunk_input import add_arguments, chunk_and_print
from chunkview.commands.common import Parser, UsageError, report


def parse(argv: list[str]) -> argparse.Namespace:
    parser = Parser(prog="chunkview spans")
    add_arguments(parser)
    parser.add_argument(
        "--explain",
        action="store_true",
        help='add to each span why its boundary is there: a port\'s rule under "reason"; '
        "what the cut falls on (observed by chunkview, for a chunker that gives no "
        'reasons) under "cut_falls_on"',
    )
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    try:
        args = parse(argv)
    except UsageError as exc:
        return report(exc)
    return chunk_and_print("spans", args)
