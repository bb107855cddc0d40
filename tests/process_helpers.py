"""Functions tests run inside a chunking process (importable by name, no Qt)."""


def break_semantic_chunker() -> None:
    """Make the SemanticChunker port raise as a bug would, in this process only."""
    from chunkview.core import registry

    def broken(*_args, **_kwargs):
        raise ZeroDivisionError("a bug in a port")

    entry = registry.get("agentos.SemanticChunker")
    entry.run = broken


def slow_semantic_chunker(seconds: float) -> None:
    """Make every SemanticChunker run take ``seconds`` longer, in this process only."""
    import time

    from chunkview.core import registry

    entry = registry.get("agentos.SemanticChunker")
    run = entry.run

    def slow(*args, **kwargs):
        time.sleep(seconds)
        return run(*args, **kwargs)

    entry.run = slow
