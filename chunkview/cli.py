"""The ``chunkview`` command: the GUI launcher and the headless subcommands."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping
from typing import Any

from chunkview import __version__, api
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


def list_entries() -> list[dict[str, Any]]:
    """Every entry and its options as JSON data. A printed ``default`` is what the library
    uses when the option is left out, so passing it back changes nothing; an option without
    one is best left out (its help says what the library then does); a ``preset`` default
    is the panel's starting value where the library has none, and is always passed; ``when``
    names the settings under which an option applies
    (the library refuses it otherwise)."""
    listed = []
    for entry in registry.entries():
        params = []
        for param in entry.params:
            data = param.to_json()
            if param.omitted(param.default):  # the panel's "leave it out" value
                for key in ("default", "special", "minimum"):
                    data.pop(key, None)
                if "choices" in data:
                    data["choices"] = [c for c in data["choices"] if c != param.special]
            params.append(data)
        listed.append(
            {
                "id": entry.id,
                "library": entry.library,
                "title": entry.title,
                "summary": getattr(entry, "summary", ""),
                "sizeUnit": getattr(entry, "size_unit", "chars"),
                "params": params,
            }
        )
    return listed


def headless(argv: list[str]) -> int:
    """Run a subcommand; return the exit status."""
    try:
        args = _parse(argv)
        if args.command == "list":
            print(dumps(list_entries(), indent=2))
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


USAGE = (
    "usage: chunkview [FILE]            open the inspector (a sample without FILE)\n"
    "       chunkview run|spans ENTRY [FILE|-] [--options JSON] ...\n"
    "       chunkview list               every entry, its options and defaults, as JSON\n"
    "       chunkview render FILE --entry ENTRY [--options JSON] [--query Q] "
    "--out OUT.png|OUT.html\n"
    "       chunkview --version"
)
NO_DISPLAY_HINT = (
    "chunkview: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset); "
    "run it in a desktop session, or set QT_QPA_PLATFORM=offscreen to run without a screen"
)


def _launch_problem(argv: list[str]) -> str | None:
    """Why these arguments cannot open the window, as one line; None when they can."""
    if len(argv) > 1:
        return f"one file at most, got {len(argv)} arguments (see chunkview --help)"
    if not argv:
        return None
    word = argv[0]
    if word.startswith("-") and word != "-":
        return f"unknown option {word} (see chunkview --help)"
    if os.path.isdir(word):
        return f"{word} is a folder, not a file"
    if not os.path.isfile(word):
        return (
            f"{word}: no such file, nor a command ({', '.join(SUBCOMMANDS)}; see chunkview --help)"
        )
    return None


def display_available(environ: Mapping[str, str] = os.environ) -> bool:
    """False where Qt would abort for want of a screen: Linux and the BSDs with neither an
    X11 nor a Wayland display and no platform plugin chosen."""
    if sys.platform in ("win32", "darwin"):
        return True
    return any(environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        try:
            status = headless(argv)
            sys.stdout.flush()  # here, where a closed pipe can still be caught
            return status
        except BrokenPipeError:  # `chunkview list | head`: the reader left, no traceback
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if argv and argv[0] in ("-V", "--version"):
        print(f"chunkview {__version__}")
        return 0
    problem = _launch_problem(argv)
    if problem is not None:
        print(f"chunkview: {problem}", file=sys.stderr)
        return 2
    if not display_available():
        print(NO_DISPLAY_HINT, file=sys.stderr)
        return 1
    from chunkview.app.main_window import launch

    return launch(argv[0] if argv else None)


if __name__ == "__main__":
    sys.exit(main())
