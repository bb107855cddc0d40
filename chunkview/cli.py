"""The ``chunkview`` command: the GUI launcher and the headless subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from chunkview import api
from chunkview.core import registry
from chunkview.core.document import KINDS, Document, decode_text, kind_for_path, load_document
from chunkview.core.errors import ChunkerError, DocumentError
from chunkview.jsonout import dumps

SUBCOMMANDS = ("run", "spans", "list", "render")


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        raise UsageError(message)


def _json_arg(name: str, value: str | None) -> Any:
    if value is None:
        return None
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{name} is not valid JSON ({exc.msg} at column {exc.colno})") from None


def _chunk_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("entry", help="entry id, e.g. agentos.SemanticChunker")
    parser.add_argument("file", nargs="?", default="-", help="input file, or - for stdin")
    parser.add_argument("--options", help="options object as JSON")
    parser.add_argument("--doc", choices=KINDS, help="document kind (default: by file name)")
    parser.add_argument("--metadata", help="metadata object as JSON")
    parser.add_argument("--embedder", help="embedder name (hash64, minilm)")
    parser.add_argument("--tokenizer", help="tokenizer name (wordpunct, cl100k)")


def _read_input(path: str, kind: str | None) -> Document:
    if path == "-":
        text, bom = decode_text(sys.stdin.buffer.read(), "<stdin>")
        return Document(text=text, kind=kind or "text", bom=bom)
    return load_document(path, kind or kind_for_path(path))


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = _Parser(prog="chunkview", description="Inspect text chunking.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (
        ("run", "print the library's own result as JSON"),
        ("spans", "print the Layout (where each chunk lies) as JSON"),
    ):
        _chunk_args(sub.add_parser(name, help=help_text))
    sub.add_parser("list", help="list every entry with its parameters and defaults")
    render = sub.add_parser("render", help="render the view to a PNG or HTML file")
    render.add_argument("file")
    render.add_argument("--entry", default="agentos.SemanticChunker")
    render.add_argument("--options")
    render.add_argument("--query", default="")
    render.add_argument("--out", required=True)
    render.add_argument("--dark", action="store_true")
    return parser.parse_args(argv)


def _list_entries() -> str:
    lines = []
    for entry in registry.entries():
        lines.append(f"{entry.id}  ({entry.title}, {entry.library})")
        for p in entry.params:
            extra = (
                f" [{p.minimum:g}..{p.maximum:g}]"
                if p.minimum is not None and p.maximum is not None
                else ""
            )
            choices = f" one of {', '.join(map(str, p.choices))}" if p.choices else ""
            when = (
                ""
                if not p.when
                else " (when "
                + ", ".join(f"{k} in {'|'.join(map(str, v))}" for k, v in p.when.items())
                + ")"
            )
            lines.append(
                f"    {p.name} = {json.dumps(p.default)}  {p.kind}{extra}{choices}{when}  {p.help}"
            )
    return "\n".join(lines)


def headless(argv: list[str]) -> int:
    """Run a subcommand; return the exit status."""
    try:
        args = _parse(argv)
        if args.command == "list":
            print(_list_entries())
            return 0
        if args.command == "render":
            from chunkview.app.render import render_file

            return render_file(
                args.file,
                args.entry,
                _json_arg("--options", args.options),
                args.query,
                args.out,
                dark=args.dark,
            )
        options = _json_arg("--options", args.options) or {}
        if not isinstance(options, dict):
            raise UsageError("--options must be a JSON object")
        metadata = _json_arg("--metadata", args.metadata)
        registry.get(args.entry)
        document = _read_input(args.file, args.doc)
    except UsageError as exc:
        print(f"chunkview: {exc}", file=sys.stderr)
        return 2
    except KeyError as exc:
        print(f"chunkview: {exc.args[0]}", file=sys.stderr)
        return 2
    except DocumentError as exc:
        print(f"chunkview: {exc}", file=sys.stderr)
        return 1
    call = api.run if args.command == "run" else api.spans
    try:
        result = call(
            args.entry,
            document,
            options,
            metadata=metadata,
            embedder=args.embedder,
            tokenizer=args.tokenizer,
        )
    except ChunkerError as exc:
        print(dumps(exc.to_json()))
        return 1
    print(dumps(result if args.command == "run" else result.to_json(), indent=None))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        return headless(argv)
    if argv and argv[0] in ("-h", "--help"):
        print(
            "usage: chunkview [FILE]            open the inspector (a sample without FILE)\n"
            "       chunkview run|spans ENTRY [FILE|-] [--options JSON] ...\n"
            "       chunkview list\n"
            "       chunkview render FILE --entry ENTRY [--options JSON] [--query Q] "
            "--out OUT.png|OUT.html"
        )
        return 0
    from chunkview.app.main_window import launch

    return launch(argv[0] if argv else None)


if __name__ == "__main__":
    sys.exit(main())
