"""``chunkview render FILE --out OUT.png|OUT.html``: the inspector's view of one file,
drawn offscreen to an image or written as a page."""

from __future__ import annotations

import argparse

from chunkview.app.render import render_file
from chunkview.commands.chunk_input import checked_options, entry_for_checks
from chunkview.commands.common import REPORTED, Parser, report


def parse(argv: list[str]) -> argparse.Namespace:
    parser = Parser(prog="chunkview render")
    parser.add_argument("file")
    parser.add_argument("--entry", default="agentos.SemanticChunker")
    parser.add_argument("--options")
    parser.add_argument("--query", default="")
    parser.add_argument("--out", required=True)
    parser.add_argument("--dark", action="store_true")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    try:
        args = parse(argv)
        # as ``run`` checks them (a chunker file described by a chunking process)
        options = checked_options(args.entry, args.options, entry_for_checks(args.entry))
        return render_file(
            args.file,
            args.entry,
            options,
            args.query,
            args.out,
            dark=args.dark,
        )
    except REPORTED as exc:
        return report(exc)
