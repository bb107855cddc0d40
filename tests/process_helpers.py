"""Functions tests run inside a chunking process (importable by name, no Qt)."""


def break_semantic_chunker() -> None:
    """Make the SemanticChunker port raise as a bug would, in this process only."""
    from chunkview.core import registry

    def broken(*_args, **_kwargs):
        raise ZeroDivisionError("a bug in a port")

    registry.get("agentos.SemanticChunker").run = broken
