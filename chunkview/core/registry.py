"""Entry id -> Entry. The built-in ports register here, in the order the picker shows."""

from __future__ import annotations

import importlib

from chunkview.core.chunkers.entry import Entry

_BUILTIN = (
    ("chunkview.core.chunkers.agentos.semantic_chunker", "SemanticChunkerEntry"),
    ("chunkview.core.chunkers.agentos.entry", "ChunkingEngineEntry"),
    ("chunkview.core.chunkers.agentos.turns", "ChunkTurnsEntry"),
    ("chunkview.core.chunkers.smartchunk", "SmartchunkEntry"),
    ("chunkview.core.chunkers.mastra.entry", "MastraChunkEntry"),
    ("chunkview.core.chunkers.semantic_chunking.entry", "ChunkitEntry"),
    ("chunkview.core.chunkers.semantic_chunking.entry", "CramitEntry"),
    ("chunkview.core.chunkers.semantic_chunking.entry", "SentenceitEntry"),
)
_entries: dict[str, Entry] = {}


def register(entry: Entry) -> None:
    _entries[entry.id] = entry


def builtin_modules() -> list[str]:
    """The modules the built-in entries live in (imported by name, so a bundler that
    follows import statements must be told about them)."""
    return sorted({module for module, _ in _BUILTIN})


def _load_builtins() -> None:
    if _entries:
        return
    for module, name in _BUILTIN:
        register(getattr(importlib.import_module(module), name)())


def entries() -> list[Entry]:
    """Every registered entry, grouped by library in registration order."""
    _load_builtins()
    return list(_entries.values())


def get(entry_id: str) -> Entry:
    """The entry with this id; KeyError naming the known ids otherwise."""
    _load_builtins()
    try:
        return _entries[entry_id]
    except KeyError:
        raise KeyError(f"unknown entry {entry_id!r}; known: {', '.join(_entries)}") from None
