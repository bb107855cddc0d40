"""Readings of a long text kept for its next run (chunkview.core.text.kept)."""

from chunkview.core.text import kept as kept_module
from chunkview.core.text.kept import LONG_TEXT, forget, kept, kept_names


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
