"""A chunker file's entries as data: read in the chunking process, listed in the app's.

A user's file is Python whose top-level code may do anything (write files, change the
environment, exit): the app never imports it. The chunking process loads the file
(``describe_file``) and sends back each entry's schema, plain data only (``EntrySchema``:
names, the options form, the summary, the roles); the app lists a ``DescribedEntry`` of
each, which knows its options but never runs: its runs go to the chunking process by id,
like every run.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from typing import Any, cast, get_args

from chunkview.core.chunkers.entry import Entry, Param, RunContext
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.model.kinds import ReasonsAt, SizeUnit
from chunkview.core.plugins.function import function_code, to_json_data
from chunkview.core.plugins.load import load_file


def _plain(value: Any) -> Any:
    """``value`` as JSON data and nothing else: a default or a choice that is an object
    of the user's module must not cross, as unpickling it would import that module."""
    try:
        return json.loads(json.dumps(to_json_data(value)))
    except (TypeError, ValueError):
        return repr(value)


def _plain_param(param: Param) -> Param:
    when = {str(k): tuple(_plain(v) for v in values) for k, values in (param.when or {}).items()}
    presets = {
        str(k): {str(v): _plain(p) for v, p in by_value.items()}
        for k, by_value in (param.presets or {}).items()
    }
    return replace(
        param,
        name=str(param.name),
        default=_plain(param.default),
        help=str(param.help),
        choices=tuple(_plain(c) for c in param.choices),
        group=str(param.group),
        when=when or None,
        presets=presets or None,
        special=None if param.special is None else str(param.special),
    )


@dataclass(frozen=True)
class EntrySchema:
    """What the app needs of an entry to list it and build its options form."""

    id: str
    library: str
    title: str
    summary: str
    params: tuple[Param, ...]
    size_unit: SizeUnit = "chars"
    boundary_kinds: tuple[str, ...] = ()
    uses_embedder: bool = False
    uses_tokenizer: bool = False
    reasons_at: ReasonsAt = "chunk"

    @classmethod
    def of(cls, entry: Entry) -> EntrySchema:
        """``entry``'s schema, every field plain data (strings, numbers, JSON values)."""
        unit = str(entry.size_unit)
        return cls(
            id=str(entry.id),
            library=str(entry.library),
            title=str(entry.title),
            summary=str(entry.summary),
            params=tuple(_plain_param(p) for p in entry.params),
            size_unit=cast(SizeUnit, unit if unit in get_args(SizeUnit) else "chars"),
            boundary_kinds=tuple(str(k) for k in entry.boundary_kinds),
            uses_embedder=bool(entry.uses_embedder),
            uses_tokenizer=bool(entry.uses_tokenizer),
            reasons_at="point" if entry.reasons_at == "point" else "chunk",
        )


@dataclass(frozen=True)
class FileChunkers:
    """The chunkers of one file, as the chunking process read them."""

    path: str
    entries: tuple[EntrySchema, ...]


def describe_file(path: str) -> FileChunkers:
    """Load the chunker file at ``path`` (in the chunking process) and describe its
    entries; EntryLoadError (a ChunkerError) naming the file and line when it does not
    load, or when it defines no function taking a text."""
    absolute = os.path.abspath(path)
    entries = load_file(absolute)
    if not entries:
        name = os.path.basename(path)
        raise ChunkerError("NoChunker", f"{name} defines no function taking a text")
    return FileChunkers(absolute, tuple(EntrySchema.of(entry) for entry in entries))


class DescribedEntry(Entry):
    """An entry known in the app's process by its schema alone: its options form, limits
    and code are whole; running it is the chunking process's job (by its id)."""

    def __init__(self, schema: EntrySchema) -> None:
        self.schema = schema
        self.id, self.library, self.title = schema.id, schema.library, schema.title
        self.summary, self.params = schema.summary, schema.params
        self.size_unit, self.boundary_kinds = schema.size_unit, schema.boundary_kinds
        self.uses_embedder, self.uses_tokenizer = schema.uses_embedder, schema.uses_tokenizer
        self.reasons_at = schema.reasons_at

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        raise ChunkerError(
            "NotInThisProcess", f"{self.id} runs in the chunking process, not in the app's"
        )

    def code(self, options: dict[str, Any]) -> str:
        return function_code(self.id, options)
