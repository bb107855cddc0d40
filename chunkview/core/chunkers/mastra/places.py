"""Where the measured split cut each chunk from the text, told to the run's observer.

The app places every chunk in the text to draw it. Searching for each of the ten
thousand chunks of a long text costs more than the run that made them, and the split
knows where each one came from: the offset of its first piece. The measured split
(measured_split.py) fills a ``PlaceNotes`` as it cuts and tells it to the run's
observer (``observer.placed``); the entry's ``spans`` places the chunks from it.
"""

from __future__ import annotations


class PlaceNotes:
    """Each chunk's start in the text, in UTF-16 units (-1: not known), and whether the
    chunk is the text there as it is (``verbatim``: 1) or was joined otherwise (0: empty
    pieces dropped between its pieces, or a regex's source as the glue), in chunk order.
    ``rewritten``: by chunk number, where a chunk joined otherwise ends in the text (its
    first piece to its last), when known. ``for_reasons``: nothing is noted, because the
    split took the library's loop only for the run's reasons; the measured split would
    have noted the places (the entry runs it again for them)."""

    def __init__(self, for_reasons: bool = False) -> None:
        self.starts: list[int] = []
        self.verbatim = bytearray()
        self.rewritten: dict[int, int] = {}
        self.for_reasons = for_reasons

    def pad(self, count: int) -> None:
        """Every chunk before chunk ``count`` not noted yet: its place is not known."""
        missing = count - len(self.starts)
        if missing > 0:
            self.starts += [-1] * missing
            self.verbatim += bytes(missing)

    def fits(self, chunk_count: int) -> bool:
        """The notes place every one of ``chunk_count`` chunks (a note for each)."""
        return not self.for_reasons and len(self.starts) == chunk_count
