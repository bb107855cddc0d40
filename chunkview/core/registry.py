"""Entry id -> Entry. The built-in ports register here, in the order the picker shows,
then the optional library entries (LangChain, LlamaIndex, chonkie, semchunk,
semantic-text-splitter: listed whether installed or not), then the chunkers installed
packages register under the ``chunkview.chunkers`` entry points. A function id
(``path/to/file.py:function``, ``package.module:function``) is loaded when asked for."""

from __future__ import annotations

import importlib

from chunkview.core.chunkers.entry import Entry
from chunkview.core.plugins import load as plugin_loading
from chunkview.core.plugins.langchain import langchain_entries
from chunkview.core.plugins.libraries import library_entries
from chunkview.core.plugins.load import entry_point_entries, function_entry, is_function_id
from chunkview.core.plugins.load import revision as file_revision

_BUILTIN = (
    ("chunkview.core.chunkers.agentos.entry", "SemanticChunkerEntry"),
    ("chunkview.core.chunkers.agentos.entry", "ChunkingEngineEntry"),
    ("chunkview.core.chunkers.agentos.entry", "ChunkTurnsEntry"),
    ("chunkview.core.chunkers.smartchunk.entry", "SmartchunkEntry"),
    ("chunkview.core.chunkers.mastra.entry", "MastraChunkEntry"),
    ("chunkview.core.chunkers.semantic_chunking.entry", "ChunkitEntry"),
    ("chunkview.core.chunkers.semantic_chunking.entry", "CramitEntry"),
    ("chunkview.core.chunkers.semantic_chunking.entry", "SentenceitEntry"),
)
#: the optional library entries (each imports its library only when run)
_LIBRARIES = ("chunkview.core.plugins.langchain", "chunkview.core.plugins.libraries")
_entries: dict[str, Entry] = {}
#: whether a function id may be loaded in this process (``keep_user_code_out``)
_user_code_here = True


def keep_user_code_out() -> None:
    """Never load a function id in this process (the window's): a user's file is loaded
    by the chunking process, which describes its entries (``plugins.described``); an id
    not registered from such a description is then unknown here."""
    global _user_code_here
    _user_code_here = False


def register(entry: Entry) -> None:
    _entries[entry.id] = entry


def builtin_modules() -> list[str]:
    """The modules the built-in entries live in (imported by name, so a bundler that
    follows import statements must be told about them)."""
    return sorted({module for module, _ in _BUILTIN} | set(_LIBRARIES))


def _load_builtins() -> None:
    if _entries:
        return
    for module, name in _BUILTIN:
        register(getattr(importlib.import_module(module), name)())
    for entry in [*langchain_entries(), *library_entries(), *entry_point_entries()]:
        if entry.id not in _entries:  # a package cannot replace a built-in id
            register(entry)


def entries() -> list[Entry]:
    """Every registered entry, grouped by library in registration order."""
    _load_builtins()
    return list(_entries.values())


def registered(entry_id: str) -> Entry | None:
    """The registered entry with this id; None for any other (a function id is never
    loaded here: the caller only wants to name its options)."""
    _load_builtins()
    return _entries.get(entry_id)


def get(entry_id: str) -> Entry:
    """The entry with this id, or the function a function id names (loaded again when
    its file changed); KeyError naming the known ids otherwise (an ``EntryLoadError``,
    a KeyError too, when a function id names nothing loadable)."""
    _load_builtins()
    entry = _entries.get(entry_id)
    if entry is not None:
        return entry
    if is_function_id(entry_id):
        if not _user_code_here:
            raise KeyError(f"{entry_id} is not loaded: open its file (File > Open Chunker…)")
        return function_entry(entry_id)
    problems = "".join(
        f"; {name} did not load: {why}" for name, why in plugin_loading.entry_point_problems.items()
    )
    raise KeyError(f"unknown entry {entry_id!r}; known: {', '.join(_entries)}{problems}")


def revision(entry_id: str) -> object:
    """What changes when the code behind ``entry_id`` changes: a function file's time and
    size; None for every other entry (their code is fixed for the process's life)."""
    return file_revision(entry_id)
