"""What ``run`` and ``spans`` share: their arguments, the input read and checked, and the
chunker run in a chunking process of its own under the time and memory budgets.

A chunker file's function (``path/to/file.py:function``) is never imported here: its
top-level code may do anything. The chunking process loads the file under the watchdog
and describes its entries (``plugins.described``), as it does for the window; the options
are checked against that description."""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from typing import Any

from chunkview import api
from chunkview.commands.common import REPORTED, UsageError, json_value, report
from chunkview.core import registry
from chunkview.core.chunkers.entry import Entry
from chunkview.core.errors import Cancelled, ChunkerError
from chunkview.core.io.read import decode_document, load_document, read_bounded
from chunkview.core.model.document import KINDS, Document, kind_for_path
from chunkview.core.plugins.described import DescribedEntry
from chunkview.core.plugins.load import is_function_id
from chunkview.core.runtime import ChunkService, describe_options, quick_context
from chunkview.core.runtime.limits import max_memory_argument, timeout_argument
from chunkview.core.text.jsonout import dumps


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments ``run`` and ``spans`` both take."""
    parser.add_argument("entry", help="entry id, e.g. agentos.SemanticChunker")
    parser.add_argument("file", nargs="?", default="-", help="input file, or - for stdin")
    parser.add_argument("--options", help="options object as JSON")
    parser.add_argument("--doc", choices=KINDS, help="document kind (default: by file name)")
    parser.add_argument("--metadata", help="metadata object as JSON")
    parser.add_argument("--embedder", help="embedder name (hash64, minilm)")
    parser.add_argument(
        "--tokenizer",
        metavar="NAME|PATH",
        help="tokenizer the chunker counts with: wordpunct, cl100k, or the path of a "
        "tokenizer.json (Hugging Face) or .tiktoken file",
    )
    parser.add_argument(
        "--encoding", metavar="NAME", help="the input's encoding when it is not UTF-8"
    )
    parser.add_argument(
        "--timeout",
        type=timeout_argument,
        default=10.0,
        metavar="SECONDS",
        help="stop the chunker after this many seconds (default 10; from 0.1 to 86400)",
    )
    parser.add_argument(
        "--max-memory",
        type=max_memory_argument,
        default=None,
        metavar="SIZE",
        help="stop the chunker past this much memory, e.g. 2G (default: half the RAM)",
    )


def read_input(path: str, kind: str | None, encoding: str | None = None) -> Document:
    """The document to chunk, read up to the size cap whatever the source (a file, stdin,
    a FIFO, a device)."""
    if path == "-":
        data = read_bounded(sys.stdin.buffer, "<stdin>")
        return decode_document(data, "<stdin>", kind or "text", encoding)
    return load_document(path, kind or kind_for_path(path), encoding)


def checked_entry(entry_id: str, service: ChunkService) -> Entry:
    """The entry ``entry_id`` names, for checking options: a chunker file's function as
    the chunking process of ``service`` describes its file (its top-level code runs
    there only, under the watchdog); any other from the registry. KeyError when there is
    no such entry; ChunkerError when the file does not load."""
    if not is_file_function(entry_id):
        return registry.get(entry_id)
    where, _colon, name = entry_id.rpartition(":")
    if not os.path.isfile(where):
        raise KeyError(f"{entry_id}: there is no file {where}")
    described = service.describe_file(where)
    by_name = {schema.id.rpartition(":")[2]: schema for schema in described.entries}
    if name not in by_name:
        raise KeyError(f"{where} has no {name!r} chunker; it has: {', '.join(by_name)}")
    return DescribedEntry(by_name[name])


def is_file_function(entry_id: str) -> bool:
    """``path/to/file.py:function``: a chunker file's function, described, never imported."""
    return entry_id.rpartition(":")[0].endswith(".py") and is_function_id(entry_id)


def entry_for_checks(entry_id: str, timeout: float | None = 10.0) -> Entry:
    """``checked_entry`` for a command that runs its chunker elsewhere: a chunker file
    is described by a chunking process of its own, under ``timeout``."""
    if not is_file_function(entry_id):
        return registry.get(entry_id)
    with ChunkService(timeout=timeout, context=quick_context()) as service:
        return checked_entry(entry_id, service)


def _warn_unknown_options(entry: Entry, options: dict[str, Any]) -> None:
    """An option the entry does not know is passed on (the library ignores it); say so,
    with the closest known name."""
    entry_id = entry.id
    known = [p.name for p in entry.params]
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


def checked_options(entry_id: str, text: str | None, entry: Entry | None = None) -> dict[str, Any]:
    """The ``--options`` JSON ``text`` for ``entry_id`` (``entry`` when given, else the
    registry's), checked before anything runs: a JSON object (a UsageError otherwise)
    whose values have the types the entry takes (its OptionError otherwise); a name the
    entry does not know is warned about."""
    options = json_value("--options", text)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise UsageError("--options must be a JSON object")
    if entry is None:
        entry = registry.get(entry_id)  # KeyError for an unknown entry
    entry.check_options(options)
    _warn_unknown_options(entry, options)
    return options


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


def chunk_and_print(command: str, args: argparse.Namespace) -> int:
    """``run`` or ``spans`` (``command``) with its parsed ``args``: check the options and
    read the input here, chunk in a chunking process, print its JSON; the exit status."""
    # the chunker runs in a process of its own, under the time and memory budget (the
    # process starts with the first job: a chunker file's description, or the run)
    with ChunkService(
        timeout=args.timeout, max_memory=args.max_memory, context=quick_context()
    ) as service:
        try:
            entry = checked_entry(args.entry, service)
            options = checked_options(args.entry, args.options, entry)
            metadata = json_value("--metadata", args.metadata)
            document = read_input(args.file, args.doc, args.encoding)
        except REPORTED as exc:
            return report(exc, suggest_encoding=not args.encoding)
        except Cancelled:  # interrupted from outside (a signal)
            return 1
        try:
            text = service.call_as(
                describe_options(args.entry, options),
                chunk_in_process,
                command,
                args.entry,
                document,
                options,
                metadata,
                args.embedder,
                args.tokenizer,
                getattr(args, "explain", False),
            )
        except ChunkerError as exc:
            return report(exc)
        except Cancelled:  # interrupted from outside (a signal)
            return 1
    print(text)
    return 0
