"""chunkview: see where every chunk begins and ends.

``chunkview.run`` gives a ported library's own result; ``chunkview.spans`` the Layout.
"""

from chunkview.api import run, spans
from chunkview.core.errors import ChunkerError, OptionError
from chunkview.core.io.read import load_document
from chunkview.core.model.document import Document

__all__ = ["ChunkerError", "Document", "OptionError", "load_document", "run", "spans"]
__version__ = "0.1.0"
