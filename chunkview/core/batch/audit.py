"""Audit a corpus: chunk every file with one setting and report sizes, warnings and failures.

``audit_file`` runs in a chunking process (a pool job) and returns one small record per
file; ``iter_files`` walks the paths lazily and ``Summary`` folds the records as they come,
so ten thousand files cost no more memory than ten.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
import statistics
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chunkview.core import checks, registry
from chunkview.core.build import chunk_layout
from chunkview.core.checks.overlap import repeated
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import ChunkerError, DocumentError
from chunkview.core.io.read import load_document

#: warning kinds of the layout itself, then those of the structure checks
LAYOUT_KINDS = ("text-lost", "over-max", "under-min", "duplicate", "bad-offsets", "missing")
WARNING_KINDS = LAYOUT_KINDS + checks.KINDS
#: what --fail-on may name: a warning kind, or a file that failed or hung
FAIL_KINDS = (*WARNING_KINDS, "error", "hang")
ALIASES = {"lost-text": "text-lost", "over-limit": "over-limit", "hangs": "hang", "errors": "error"}
STATUSES = ("ok", "empty", "error", "hang")


def parse_fail_on(value: str | None) -> tuple[str, ...]:
    """The kinds named in a comma-separated --fail-on value; ValueError on an unknown one."""
    if not value:
        return ()
    kinds = []
    for word in (w.strip() for w in value.split(",")):
        if not word:
            continue
        kind = ALIASES.get(word, word)
        if kind not in FAIL_KINDS:
            raise ValueError(f"--fail-on: unknown kind {word!r}; one of {', '.join(FAIL_KINDS)}")
        kinds.append(kind)
    return tuple(kinds)


def _matches(path: str, globs: Sequence[str]) -> bool:
    name = os.path.basename(path)
    return any(fnmatch.fnmatch(path, g) or fnmatch.fnmatch(name, g) for g in globs)


def iter_files(
    paths: Iterable[str],
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    stopped: Callable[[], bool] = lambda: False,
    special_files: bool = False,
) -> Iterator[str]:
    """Every file under ``paths`` (folders walked recursively, in name order), kept when it
    matches an include glob (if any) and no exclude glob. A path that does not exist is
    yielded as is, so the audit reports it. In a folder, only regular files are taken;
    with ``special_files`` everything that is not a folder is (a FIFO, a socket, a
    device, a dangling link, a link loop: ``audit_file`` gives it an error record
    without opening it). ``stopped`` is asked at every folder: True ends the walk (a
    tree with few matches may yield nothing for long)."""
    for root in paths:
        if not os.path.isdir(root):
            if not include or _matches(root, include):
                if not _matches(root, exclude):
                    yield root
            continue
        for folder, dirs, files in os.walk(root):
            if stopped():
                return
            dirs[:] = sorted(d for d in dirs if not _matches(os.path.join(folder, d), exclude))
            for name in sorted(files):
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, root)
                if include and not (_matches(relative, include) or _matches(path, include)):
                    continue
                if _matches(relative, exclude) or _matches(path, exclude):
                    continue
                if special_files or os.path.isfile(path):
                    yield path


#: what a file that is not a regular one is, by its mode
_SPECIAL_FILES = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def not_a_regular_file(path: str) -> str | None:
    """Why ``path`` cannot be audited as a file, found without opening it (opening a FIFO
    blocks until a writer comes): a dangling link, a link loop, or not a regular file.
    None for a regular file, a folder or a path that does not exist (``load_document``
    says what those are)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if not os.path.islink(path):
            return None
        try:
            target = os.readlink(path)
        except OSError:
            return f"{path}: a dangling link"
        return f"{path}: a dangling link (to {target}, which does not exist)"
    except OSError as exc:
        return f"{path}: a link loop" if exc.errno == errno.ELOOP else None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    what = next((name for test, name in _SPECIAL_FILES if test(mode)), "a special file")
    return f"{path}: not a regular file ({what})"


def _sizes(values: Sequence[int]) -> dict[str, float]:
    if not values:
        return {"min": 0, "median": 0, "max": 0}
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def audit_file(
    path: str,
    entry_id: str,
    options: Mapping[str, Any],
    kind: str | None = None,
    token_limit: int | None = None,
    tokenizer: str | None = None,
) -> dict[str, Any]:
    """Chunk one file and describe the result in a small record (a pool job: it runs in a
    chunking process, the watchdog bounds it)."""
    record: dict[str, Any] = {"path": path}
    problem = not_a_regular_file(path)
    if problem is not None:
        return {**record, "status": "error", "message": problem}
    try:
        document = load_document(path, kind)
    except DocumentError as exc:
        return {**record, "status": "error", "message": str(exc)}
    record["chars"] = len(document.text)
    entry = registry.get(entry_id)
    options = {k: v for k, v in options.items() if v is not None}
    try:
        entry.check_options(options)
        _, layout = chunk_layout(entry, document, options, RunContext(), token_limit, tokenizer)
    except ChunkerError as exc:
        status = "hang" if exc.name == "Hang" else "error"
        return {**record, "status": status, "message": f"{exc.name}: {exc.message}"}
    located = [s for s in layout.spans if s.located != "missing"]
    counts: dict[str, int] = {}
    for warning in layout.warnings:
        counts[warning.kind] = counts.get(warning.kind, 0) + 1
    overlaps = repeated(located, layout.document.text, layout.size_unit)
    record.update(
        status="ok" if document.text.strip() else "empty",
        chunks=len(layout.spans),
        unit=layout.size_unit,
        size=_sizes(layout.sizes),
        warnings=counts,
        mid_sentence_share=(counts.get("mid-sentence", 0) / len(located)) if located else 0.0,
        overlap=_sizes(overlaps) if overlaps else None,
    )
    return record


def failed_record(path: str, status: str, message: str) -> dict[str, Any]:
    return {"path": path, "status": status, "message": message}


def failures(record: Mapping[str, Any], fail_on: Sequence[str]) -> list[str]:
    """The chosen kinds this record fails on."""
    found = []
    for kind in fail_on:
        if kind in ("error", "hang"):
            if record.get("status") == kind:
                found.append(kind)
        elif record.get("warnings", {}).get(kind):
            found.append(kind)
    return found


@dataclass
class Summary:
    """Totals folded from the records as they stream by (nothing per file is kept)."""

    fail_on: tuple[str, ...] = ()
    files: int = 0
    statuses: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    chunks: int = 0
    chars: int = 0
    smallest: int | None = None
    largest: int | None = None
    warnings: dict[str, int] = field(default_factory=dict)
    files_with: dict[str, int] = field(default_factory=dict)
    failing: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, record: Mapping[str, Any]) -> None:
        self.files += 1
        status = record.get("status", "error")
        self.statuses[status] = self.statuses.get(status, 0) + 1
        self.chunks += record.get("chunks", 0)
        self.chars += record.get("chars", 0)
        self.seconds += record.get("seconds", 0.0)
        size = record.get("size")
        if size and record.get("chunks"):
            low, high = size["min"], size["max"]
            self.smallest = low if self.smallest is None else min(self.smallest, low)
            self.largest = high if self.largest is None else max(self.largest, high)
        for kind, count in record.get("warnings", {}).items():
            self.warnings[kind] = self.warnings.get(kind, 0) + count
            self.files_with[kind] = self.files_with.get(kind, 0) + 1
        for kind in failures(record, self.fail_on):
            self.failing[kind] = self.failing.get(kind, 0) + 1

    @property
    def failed(self) -> bool:
        return bool(self.failing)

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "statuses": self.statuses,
            "chunks": self.chunks,
            "chars": self.chars,
            "smallest_chunk": self.smallest,
            "largest_chunk": self.largest,
            "warnings": self.warnings,
            "files_with": self.files_with,
            "fail_on": list(self.fail_on),
            "failing": self.failing,
            "seconds": round(self.seconds, 3),
        }


def read_jsonl_summary(lines: Iterable[str], fail_on: Sequence[str] = ()) -> Summary:
    """A Summary folded from the JSONL records of one or more audits (the shards of a
    corpus audited on several machines), skipping their own summary lines."""
    import json

    summary = Summary(tuple(fail_on))
    for line in lines:
        if line.strip():
            record = json.loads(line)
            if "summary" not in record:
                summary.add(record)
    return summary


def shard_of(path: str, shard: int, shards: int) -> bool:
    """True when ``path`` belongs to shard ``shard`` of ``shards`` (a stable hash of the
    path, the same on every machine)."""
    import zlib

    return zlib.crc32(Path(path).as_posix().encode("utf-8", "surrogatepass")) % shards == shard
