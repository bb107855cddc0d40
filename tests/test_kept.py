"""Readings of a long text kept for its next run (chunkview.core.text.kept)."""

import chunkview
from chunkview import Document
from chunkview.core.analysis import search
from chunkview.core.chunkers.agentos import semantic_chunker
from chunkview.core.chunkers.mastra import measured_split
from chunkview.core.layout import locate
from chunkview.core.text import js
from chunkview.core.text import kept as kept_module
from chunkview.core.text.kept import LONG_TEXT, forget, kept, kept_names, last_kept


def test_a_long_text_is_read_once_and_a_short_one_every_time():
    forget()
    reads: list[str] = []

    def read(text: str) -> list[int]:
        reads.append(text)
        return [len(text)]

    long_text = "x" * LONG_TEXT
    first = kept("test.lengths", long_text, read)
    assert kept("test.lengths", long_text, read) is first and len(reads) == 1
    # an equal text that is another object is read anew (kept by identity, not value)
    other = (long_text + " ")[:-1]
    assert kept("test.lengths", other, read) == first and len(reads) == 2
    short = "y" * (LONG_TEXT - 1)
    kept("test.lengths", short, read)
    kept("test.lengths", short, read)
    assert len(reads) == 4 and kept_names() == ["test.lengths"]
    # each kind of reading keeps its own text
    kept("test.other", long_text, read)
    assert kept_names() == ["test.lengths", "test.other"]
    forget()
    assert kept_names() == [] and not kept_module._kept
    kept("test.lengths", other, read)
    assert len(reads) == 6  # read again after forgetting
    forget()


def test_forget_lets_go_of_the_last_text_every_cache_holds():
    """The caches that keep the last long text by rules of their own (the unit view, the
    search's folded text, the locate index, the SemanticChunker's plain test, the
    ChunkingEngine's trim test, Mastra's split levels) let go of it on ``forget``, as
    the chunking process calls it when a new document comes."""
    # past Latin-1 (the unit view keeps only such a text), long enough to be kept
    text = ("Some words here, and a sentence. Then another one!\n\n" * 2000) + "東京"
    document = Document(text)
    options = {"strategy": "recursive", "maxSize": 300, "overlap": 20}
    for _ in range(2):  # Mastra keeps the levels from a text's second run
        chunkview.run("mastra.chunk", document, options)
        chunkview.run("agentos.ChunkingEngine", document, {"strategy": "fixed"})
    js.unit_view(text)
    semantic_chunker.is_plain(text)
    locate._normalized_for(text)
    search.folded_text(text)
    held = {
        "unit view": lambda: last_kept(js.UNIT_VIEW),
        "locate index": lambda: last_kept(locate.LOCATE_INDEX),
        "plain test": lambda: last_kept(semantic_chunker.PLAIN),
        "trim test": lambda: last_kept("agentos.plain-strip"),
        "split levels": lambda: "mastra.split-levels" in kept_names(),
        "folded text": lambda: last_kept(search.FOLDED),
    }
    assert all(holds() for holds in held.values()), {k: bool(v()) for k, v in held.items()}
    forget()
    assert not any(holds() for holds in held.values()), {k: bool(v()) for k, v in held.items()}
    # its next run on the text keeps nothing yet
    assert measured_split.levels_kept_for(js.unit_view(text)[0]) is None
