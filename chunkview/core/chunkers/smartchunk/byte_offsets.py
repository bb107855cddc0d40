"""Fast path for ``reference.utf8_offsets``: each code point's UTF-8 byte offset, found
with numpy from the encoded text, and kept for a long text's next run.

Why it is equal: every code point, a lone surrogate too (encoded with
``surrogatepass``, three bytes as the reference counts it), starts with exactly one
byte that is not a continuation byte (``10xxxxxx``), and its other bytes are
continuation bytes. So the positions of the lead bytes, in order, are the running sums
of the code points' widths, which is what the reference adds up; the end is the
encoded length. The lead bytes are found a block at a time (a block boundary inside a
character changes nothing: each byte is tested alone).
"""

from __future__ import annotations

import numpy as np

from chunkview.core.text.kept import kept

#: bytes of UTF-8 read at a time for the offsets (no column of eight bytes a byte is
#: made for the whole text on the way)
BYTES_BLOCK = 1 << 20


class Utf8Offsets:
    """UTF-8 byte offsets of code points: ``prefix`` (numpy, for reading many at once)
    and ``offsets``, a memory view of the same numbers for reading one at a time:
    indexing it gives a Python int at once, where a numpy element costs a scalar object
    and a conversion (that was most of the cascade's time).

    Four bytes a code point (eight past 2 GB of UTF-8); read only, as it is kept."""

    def __init__(self, text: str, block: int = BYTES_BLOCK) -> None:
        data = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
        wide = len(data) >= 2**31 - 1  # a looked-up offset one past the end fits too
        self.prefix = np.empty(len(text) + 1, dtype=np.int64 if wide else np.int32)
        filled = 0
        for base in range(0, len(data), block):
            leads = np.flatnonzero((data[base : base + block] & 0xC0) != 0x80)
            self.prefix[filled : filled + len(leads)] = leads + base
            filled += len(leads)
        self.prefix[-1] = len(data)
        self.prefix.flags.writeable = False  # kept for the text's next run: read only
        self.offsets = self.prefix.data  # one at a time: a Python int, no numpy scalar

    def size(self, start: int, end: int) -> int:
        """Bytes of the code points [start, end)."""
        return int(self.offsets[end] - self.offsets[start])


def bytes_of(text: str) -> Utf8Offsets:
    """The byte offsets of ``text``'s code points, kept for a long text's next run."""
    return kept("smartchunk.bytes", text, Utf8Offsets)
