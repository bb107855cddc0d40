"""chunkview: see where every chunk begins and ends.

``chunkview.run`` gives a ported library's own result; ``chunkview.spans`` the Layout.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chunkview.api import run, spans
    from chunkview.core.errors import ChunkerError, OptionError
    from chunkview.core.io.read import load_document
    from chunkview.core.model.document import Document

__all__ = ["ChunkerError", "Document", "OptionError", "load_document", "run", "spans"]
__version__ = "0.1.0"

#: where each public name lives: imported on first use, so that importing the package
#: (as ``chunkview --version`` and every chunking process do) costs nothing
_PUBLIC = {
    "run": "chunkview.api",
    "spans": "chunkview.api",
    "ChunkerError": "chunkview.core.errors",
    "OptionError": "chunkview.core.errors",
    "load_document": "chunkview.core.io.read",
    "Document": "chunkview.core.model.document",
}


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'chunkview' has no attribute {name!r}")
    value = getattr(importlib.import_module(_PUBLIC[name]), name)
    globals()[name] = value  # found at once the next time
    return value
