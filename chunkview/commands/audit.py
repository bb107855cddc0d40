"""``chunkview audit PATH...``: chunk a whole corpus with one setting, in parallel processes
under the app's watchdog, and report every file's sizes, warnings, errors and hangs."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from chunkview.commands.chunk_input import entry_for_checks
from chunkview.commands.common import (
    Parser,
    UsageError,
    capped_jobs,
    json_object,
    most_jobs,
    token_limit,
)
from chunkview.core.batch.audit import Summary, iter_files, parse_fail_on, shard_of
from chunkview.core.batch.audit_blocks import BlockWriter
from chunkview.core.batch.audit_output import FORMATS, Output
from chunkview.core.batch.audit_run import audit_records
from chunkview.core.batch.engine import open_pool
from chunkview.core.batch.ray_pool import RayUnavailable
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import KINDS
from chunkview.core.runtime.limits import max_memory_argument, timeout_argument


def parse(argv: list[str]) -> argparse.Namespace:
    parser = Parser(
        prog="chunkview audit",
        description="Chunk every file under PATH (folders recursively) and report sizes, "
        "structure warnings, errors and hangs per file, then a summary.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH")
    parser.add_argument("--entry", required=True, help="entry id, e.g. mastra.chunk")
    parser.add_argument("--options", help="options object as JSON")
    parser.add_argument("--doc", choices=KINDS, help="document kind (default: by file name)")
    parser.add_argument(
        "--jobs",
        type=int,
        help=f"chunking processes (default: one per core; at most {most_jobs()})",
    )
    parser.add_argument("--format", choices=FORMATS, default="table")
    parser.add_argument(
        "--neutralize-formulas",
        action="store_true",
        help="CSV: write a cell that starts with = + - or @ (a file name, a message) with "
        "a leading ' so a spreadsheet program shows it as text instead of running it",
    )
    parser.add_argument("--include", action="append", default=[], metavar="GLOB")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB")
    parser.add_argument(
        "--fail-on",
        default="",
        help="comma-separated kinds that make the exit status 1: a warning kind "
        "(text-lost, over-limit, table-cut, ...), error or hang",
    )
    parser.add_argument("--token-limit", help="embedding model limit: 256, 512, 8191, a number")
    parser.add_argument(
        "--tokenizer",
        metavar="NAME|PATH",
        help="tokenizer for the limit: cl100k, wordpunct, or the path of a tokenizer.json "
        "(Hugging Face) or .tiktoken file",
    )
    parser.add_argument(
        "--timeout", type=timeout_argument, default=30.0, help="seconds per file (0.1 to 86400)"
    )
    parser.add_argument(
        "--max-memory", type=max_memory_argument, help="memory budget per process, e.g. 2G"
    )
    parser.add_argument(
        "--shard", help="I/N: audit only the files of shard I of N (a stable hash of the path)"
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="write the records as JSON Lines to DIR, a file per 100,000 (part-00000.jsonl, "
        "...), and summary.json; print only the summary",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run on Ray: the cluster at ADDRESS, else a local Ray "
        "(needs pip install 'chunkview[ray]')",
    )
    return parser.parse_args(argv)


def _shard(value: str | None) -> tuple[int, int] | None:
    if not value:
        return None
    try:
        index, count = (int(part) for part in value.split("/"))
    except ValueError:
        raise UsageError(f"--shard: expected I/N such as 0/4, got {value!r}") from None
    if count < 1 or not 0 <= index < count:
        raise UsageError(f"--shard: {value} needs 0 <= I < N")
    return index, count


def _progress(total_files: Iterator[str] | None):
    """A tqdm bar on stderr when stderr is a terminal, else nothing."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    total = sum(1 for _ in total_files) if total_files is not None else None
    return tqdm(total=total, unit="file", file=sys.stderr, dynamic_ncols=True)


def main(argv: list[str]) -> int:
    try:
        args = parse(argv)
        options = json_object("--options", args.options)
        fail_on = parse_fail_on(args.fail_on)
        limit = token_limit(args.token_limit)
        shard = _shard(args.shard)
        args.jobs = capped_jobs("audit", args.jobs)
        entry_for_checks(args.entry, args.timeout)  # a KeyError for an unknown entry
        memory = args.max_memory  # checked by max_memory_argument (None: half the RAM)
    except (UsageError, ValueError) as exc:
        print(f"chunkview audit: {exc}", file=sys.stderr)
        return 2
    except KeyError as exc:
        print(f"chunkview audit: {exc.args[0]}", file=sys.stderr)
        return 2
    except ChunkerError as exc:  # a chunker file that does not load
        print(f"chunkview audit: {exc.name}: {exc.message}", file=sys.stderr)
        return 1

    def files() -> Iterator[str]:
        # every path gets a record: a FIFO or a dangling link in a folder an error one
        for path in iter_files(args.paths, args.include, args.exclude, special_files=True):
            if shard is None or shard_of(path, *shard):
                yield path

    try:
        output: Output | BlockWriter = (
            BlockWriter(args.out)
            if args.out
            else Output(args.format, sys.stdout, neutralize_formulas=args.neutralize_formulas)
        )
    except (OSError, ValueError) as exc:
        print(f"chunkview audit: {exc}", file=sys.stderr)
        return 2
    summary = Summary(fail_on)
    bar = _progress(files())
    try:
        try:
            with open_pool(
                args.jobs, timeout=args.timeout, max_memory=memory, ray=args.ray, paths=args.paths
            ) as pool:
                for record in audit_records(
                    files(),
                    args.entry,
                    options,
                    kind=args.doc,
                    token_limit=limit,
                    tokenizer=args.tokenizer,
                    pool=pool,
                ):
                    summary.add(record)
                    output.record(record)
                    if bar is not None:
                        bar.update(1)
        except KeyboardInterrupt:  # Ctrl-C: the pool ended as the block unwound (its
            # processes killed), the files audited so far summed up before the line
            if bar is not None:
                bar.close()
                bar = None
            _write_summary(output, summary)
            raise  # the command line says "interrupted" and exits 130
    except ValueError as exc:  # a bad --max-memory
        print(f"chunkview audit: {exc}", file=sys.stderr)
        return 2
    except RayUnavailable as exc:
        print(f"chunkview audit: {exc}", file=sys.stderr)
        return 1
    finally:
        if bar is not None:
            bar.close()
    _write_summary(output, summary)
    return 1 if summary.failed else 0


def _write_summary(output: Output | BlockWriter, summary: Summary) -> None:
    """The summary at the end: under the table or records, or (``--out``) as JSON."""
    if isinstance(output, BlockWriter):
        print(json.dumps(output.summary(summary)))
    else:
        output.summary(summary)
