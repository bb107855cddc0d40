"""Chunkers that are not ports: a user's own function, an installed package's entry
points, and the Python libraries people chunk with (LangChain, LlamaIndex, chonkie,
semchunk, semantic-text-splitter), each run as it is, never ported.

``FunctionEntry`` makes an Entry of a callable (its options from its signature);
``load`` resolves ``path/to/file.py:function`` and ``package.module:function`` ids and
the ``chunkview.chunkers`` entry points; ``libraries`` holds the optional library
entries, each importing its library only when run.

Above the ports in the layers (docs/architecture.md): an Entry like theirs, placed with
the same locating and placing code.
"""

from __future__ import annotations

from chunkview.core.plugins.function import FunctionEntry, chunker
from chunkview.core.plugins.load import is_function_id, load_file

__all__ = ["FunctionEntry", "chunker", "is_function_id", "load_file"]
