"""The ``chunkview`` command: the GUI launcher and the headless subcommands."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping
from typing import Any

from chunkview import __version__, api
from chunkview.commands.common import Parser, UsageError, json_object
from chunkview.core import registry
from chunkview.core.errors import Cancelled, ChunkerError, DocumentError
from chunkview.core.io.read import NotTextError, decode_document, load_document, read_bounded
from chunkview.core.model.document import KINDS, Document, kind_for_path
from chunkview.core.text.jsonout import dumps

SUBCOMMANDS = ("run", "spans", "list", "render", "diff", "sweep", "eval", "audit")


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
    parser.add_argument(
        "--encoding", metavar="NAME", help="the input's encoding when it is not UTF-8"
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=10.0,
        metavar="SECONDS",
        help="stop the chunker after this many seconds (default 10; 0: no limit)",
    )
    parser.add_argument(
        "--max-memory",
        type=_size,
        default=None,
        metavar="SIZE",
        help="stop the chunker past this much memory, e.g. 2G (default: half the RAM)",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"takes seconds (0 for no limit), got {text!r}")
    return value


def _size(text: str) -> int:
    from chunkview.core.runtime import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"takes {exc}") from None


def _read_input(path: str, kind: str | None, encoding: str | None = None) -> Document:
    """The document to chunk, read up to the size cap whatever the source (a file, stdin,
    a FIFO, a device)."""
    if path == "-":
        data = read_bounded(sys.stdin.buffer, "<stdin>")
        return decode_document(data, "<stdin>", kind or "text", encoding)
    return load_document(path, kind or kind_for_path(path), encoding)


def _warn_unknown_options(entry_id: str, options: dict[str, Any]) -> None:
    """An option the entry does not know is passed on (the library ignores it); say so,
    with the closest known name."""
    import difflib

    known = [p.name for p in registry.get(entry_id).params]
    folded = {name.lower(): name for name in known}
    for name in options:
        if name in known:
            continue
        close = folded.get(name.lower()) or next(
            iter(difflib.get_close_matches(name, known, n=1, cutoff=0.6)), None
        )
        hint = f"; did you mean {close!r}?" if close else ""
        print(
            f"chunkview: warning: {entry_id} has no option {name!r} (the library ignores it){hint}",
            file=sys.stderr,
        )


def chunk_in_process(
    command: str,
    entry_id: str,
    document: Document,
    options: dict[str, Any],
    metadata: Any,
    embedder: str | None,
    tokenizer: str | None,
    explain: bool = False,
) -> str:
    """What ``run`` / ``spans`` print, computed in a chunking process (service.call)."""
    if command == "run":
        result = api.run(
            entry_id, document, options, metadata=metadata, embedder=embedder, tokenizer=tokenizer
        )
        return dumps(result)
    layout = api.spans(
        entry_id,
        document,
        options,
        metadata=metadata,
        embedder=embedder,
        tokenizer=tokenizer,
        explain=explain,
    )
    return dumps(layout.to_json(), indent=None)


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = Parser(prog="chunkview", description="Inspect text chunking.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (
        ("run", "print the library's own result as JSON"),
        ("spans", "print the Layout (where each chunk lies) as JSON"),
    ):
        _chunk_args(sub.add_parser(name, help=help_text))
    sub.choices["spans"].add_argument(
        "--explain", action="store_true", help="add to each span why its boundary is there"
    )
    sub.add_parser("list", help="list every entry with its parameters and defaults")
    render = sub.add_parser("render", help="render the view to a PNG or HTML file")
    render.add_argument("file")
    render.add_argument("--entry", default="agentos.SemanticChunker")
    render.add_argument("--options")
    render.add_argument("--query", default="")
    render.add_argument("--out", required=True)
    render.add_argument("--dark", action="store_true")
    diff = sub.add_parser("diff", help="compare the boundaries of two configurations")
    diff.add_argument("file")
    diff.add_argument("--entry", required=True, help="A: entry id")
    diff.add_argument("--options", help="A: options object as JSON")
    diff.add_argument("--entry-b", help="B: entry id (default: A's)")
    diff.add_argument("--options-b", help="B: options object as JSON")
    diff.add_argument("--doc", choices=KINDS, help="document kind (default: by file name)")
    diff.add_argument("--json", action="store_true", help="print JSON")
    sweep = sub.add_parser("sweep", help="chunk at each value of one numeric option")
    sweep.add_argument("file")
    sweep.add_argument("--entry", required=True, help="entry id")
    sweep.add_argument("--options", help="options object as JSON (the other options)")
    sweep.add_argument("--param", required=True, help="the numeric option to step")
    sweep.add_argument("--values", required=True, help="start:stop:step or a,b,c")
    sweep.add_argument("--doc", choices=KINDS, help="document kind (default: by file name)")
    sweep.add_argument("--json", action="store_true", help="print JSON")
    return parser.parse_args(argv)


def _layouts_in_pool(document: Document, sides: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The Layout JSON of each (entry, options) on ``document``, side by side in chunking
    processes; a ChunkerError (with the side's letter) for a side that fails."""
    from chunkview.core.runtime import ChunkPool, chunk_job

    jobs = [chunk_job(entry_id, document, options, "spans") for entry_id, options in sides]
    with ChunkPool(len(jobs)) as pool:
        outcomes = list(pool.map(jobs))
    for side, outcome in zip("ab", outcomes):
        if outcome.error is not None:
            raise ChunkerError(outcome.error.name, f"{side.upper()}: {outcome.error.message}")
    return [outcome.value for outcome in outcomes]


def diff_command(args: argparse.Namespace) -> int:
    """``chunkview diff``: layout A against layout B of one file, boundary by boundary."""
    from chunkview.core.analysis.compare import compare_boundaries

    sides = [
        (args.entry, json_object("--options", args.options)),
        (args.entry_b or args.entry, json_object("--options-b", args.options_b)),
    ]
    for entry_id, options in sides:
        registry.get(entry_id).check_options(options)
    document = _read_input(args.file, args.doc)
    try:
        layouts = _layouts_in_pool(document, sides)
    except ChunkerError as exc:
        print(dumps(exc.to_json()))
        return 1
    a, b = (
        [s["own_start"] for s in layout["spans"] if s["located"] != "missing"] for layout in layouts
    )
    comparison = compare_boundaries(a, b, len(document.text))
    if args.json:
        data = comparison.to_json()
        for side, (entry_id, options) in zip("ab", sides):
            data[side] = {"entry": entry_id, "options": options, "boundaries": data[side]}
        print(dumps(data, indent=None))
        return 0
    print(comparison.summary())
    for change in comparison.changes:
        if change.kind == "moved":
            print(f"moved    {change.a} -> {change.b} ({change.distance:+d})")
        elif change.kind != "kept":
            print(f"{change.kind:8} {change.at}")
    return 0


def sweep_command(args: argparse.Namespace) -> int:
    """``chunkview sweep``: a row of figures per value of one numeric option."""
    from chunkview.core.batch.sweep import FIGURES, SweepPlan, numeric_params, parse_values, sweep

    entry = registry.get(args.entry)
    options = json_object("--options", args.options)
    params = {p.name: p for p in entry.params}
    if args.param not in params or params[args.param].kind not in ("int", "float"):
        names = ", ".join(p.name for p in numeric_params(entry, options))
        raise UsageError(f"{args.entry} has no numeric option {args.param!r} (it has: {names})")
    try:
        values = parse_values(args.values, params[args.param].kind == "int")
    except ValueError as exc:
        raise UsageError(f"--values: {exc}") from None
    document = _read_input(args.file, args.doc)
    rows = sweep(SweepPlan(args.entry, document, options, args.param, values))
    if args.json:
        print(dumps(rows, indent=None))
        return 0
    print("\t".join([args.param, *FIGURES]))
    for row in rows:
        if row["error"]:
            print(f"{row['value']}\t{row['error']['name']}: {row['error']['message']}")
        else:
            print(
                "\t".join(
                    f"{row[k]:.3g}" if k == "over_max" else f"{row[k]}" for k in ["value", *FIGURES]
                )
            )
    return 0


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
                "summary": entry.summary,
                "sizeUnit": entry.size_unit,
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
        if args.command == "diff":
            return diff_command(args)
        if args.command == "sweep":
            return sweep_command(args)
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
        entry = registry.get(args.entry)
        entry.check_options(options)  # a wrong type is refused before anything runs
        _warn_unknown_options(args.entry, options)
        document = _read_input(args.file, args.doc, args.encoding)
    except ChunkerError as exc:
        print(dumps(exc.to_json()))
        return 1
    except UsageError as exc:
        print(f"chunkview: {exc}", file=sys.stderr)
        return 2
    except KeyError as exc:
        print(f"chunkview: {exc.args[0]}", file=sys.stderr)
        return 2
    except NotTextError as exc:
        # diff and sweep take no --encoding: no hint to use one there
        wanted = exc.guess and hasattr(args, "encoding") and not args.encoding
        hint = f" (--encoding {exc.guess})" if wanted else ""
        print(f"chunkview: {exc}{hint}", file=sys.stderr)
        return 1
    except DocumentError as exc:
        print(f"chunkview: {exc}", file=sys.stderr)
        return 1
    from chunkview.core.runtime import ChunkService, describe_options, quick_context

    # the chunker runs in a process of its own, under the time and memory budget
    with ChunkService(
        timeout=args.timeout or None, max_memory=args.max_memory, context=quick_context()
    ) as service:
        try:
            text = service.call_as(
                describe_options(args.entry, options),
                chunk_in_process,
                args.command,
                args.entry,
                document,
                options,
                metadata,
                args.embedder,
                args.tokenizer,
                getattr(args, "explain", False),
            )
        except ChunkerError as exc:
            print(dumps(exc.to_json()))
            return 1
        except Cancelled:  # interrupted from outside (a signal)
            return 1
    print(text)
    return 0


USAGE = (
    "usage: chunkview [FILE]            open the inspector (a sample without FILE)\n"
    "       chunkview run|spans ENTRY [FILE|-] [--options JSON] ...\n"
    "       chunkview list               every entry, its options and defaults, as JSON\n"
    "       chunkview render FILE --entry ENTRY [--options JSON] [--query Q] "
    "--out OUT.png|OUT.html\n"
    "       chunkview diff FILE --entry A [--options JSON] [--entry-b B] [--options-b JSON] "
    "[--json]\n"
    "       chunkview eval FILE --entry ENTRY --questions Q.jsonl [--retriever bm25|hash64|"
    "minilm|none] [--top-k 5] [--param P --values V] [--json]\n"
    "       chunkview audit PATH... --entry ENTRY [--options JSON] [--jobs N] "
    "[--format jsonl|csv|table] [--fail-on KINDS]\n"
    "       chunkview sweep FILE --entry E [--options JSON] --param NAME --values 200:2000:100 "
    "[--json]\n"
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
            if argv[0] in ("eval", "audit"):  # chunkview/commands/
                from chunkview.commands import run_command

                status = run_command(argv)
            else:
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
