"""``chunkview run ENTRY [FILE|-]``: the library's own result for one input, as JSON."""

from __future__ import annotations

import argparse

from chunkview.commands.chunk_input import add_arguments, chunk_and_print
from chunkview.commands.common import Parser, UsageError, report


def parse(argv: list[str]) -> argparse.Namespace:
    parser = Parser(prog="chunkview run")
    add_arguments(parser)
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    try:
        args = parse(argv)
    except UsageError as exc:
        return report(exc)
    return chunk_and_print("run", args)
