"""Where agentos ChunkingEngine cut its chunks, and the chunk list a run builds.

``EnginePlaces`` is what a run tells ``ctx.observer.placed(...)``: the entry's ``spans``
reads it back (entry.py). ``Chunks`` builds the DocumentChunk list (spec/agentos.md §2.1,
§2.4) with each chunk's place beside it; both the reference and the fast path emit
through it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from chunkview.core.chunkers.agentos.engine_hang import HangRule
from chunkview.core.model.observer import RunObserver


@dataclass
class EnginePlaces:
    """Where each chunk's content starts in the UTF-16 units and its length there, in
    chunk order, for the first ``len(starts)`` chunks (the rest are searched for); for
    'fixed', 'semantic' and 'layout' the chunk numbers of each kind of layout block
    (``block_chunks``); for 'hierarchical' each section's chunks, first to last (the
    last not included), its metadata and its heading (``section_chunks``)."""

    starts: list[int] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    block_chunks: dict[str, list[int]] | None = None
    section_chunks: list[tuple[int, int, dict[str, Any], str]] | None = None


class Chunks:
    """The DocumentChunk list of a run and where each chunk starts, while known.

    ``text`` turns a piece of the units into the chunk's string (``from_units`` when the
    text holds surrogates, else ``str``). A chunk emitted without a place stops the
    places: from there on the chunks are searched for."""

    def __init__(self, text: Callable[[str], str], placing: bool = True) -> None:
        self.text = text
        self.list: list[dict[str, Any]] = []
        self.places = EnginePlaces()
        #: places are noted (False: nobody reads them, or one was not known)
        self.placing = placing

    def one(
        self,
        piece: str,
        place: int | None,
        heading: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        """Emit ``{content, heading?, metadata?, index}``; ``piece`` in units (its
        length there is noted beside ``place``)."""
        chunk: dict[str, Any] = {"content": self.text(piece)}
        if heading is not None:
            chunk["heading"] = heading
        if metadata is not None:
            chunk["metadata"] = metadata
        self._place(place, len(piece))
        chunk["index"] = len(self.list)
        self.list.append(chunk)

    def many(
        self,
        pieces: list[str],
        places: list[int] | None,
        heading: str | None = None,
        base: Mapping[str, Any] | None = None,
    ) -> None:
        """Emit F's pieces (in units), each ``{content, heading?, metadata: {...base}?,
        index}``, in bulk: tens of thousands of windows on a long text."""
        if self.placing and places is not None:
            self.places.starts.extend(places)
            self.places.lengths.extend(map(len, pieces))
        else:
            self.placing = False
        text, chunks = self.text, self.list
        contents: Any = pieces if text is str else map(text, pieces)
        numbered = enumerate(contents, len(chunks))
        if base is None and heading is None:
            chunks.extend([{"content": c, "index": i} for i, c in numbered])
        elif base is None:
            chunks.extend([{"content": c, "heading": heading, "index": i} for i, c in numbered])
        elif heading is None:
            chunks.extend([{"content": c, "metadata": dict(base), "index": i} for i, c in numbered])
        else:
            chunks.extend(
                [
                    {"content": c, "heading": heading, "metadata": dict(base), "index": i}
                    for i, c in numbered
                ]
            )

    def _place(self, place: int | None, length: int) -> None:
        if place is None:
            self.placing = False
        elif self.placing:
            self.places.starts.append(place)
            self.places.lengths.append(length)


@dataclass
class EngineRun:
    """One run's options and what it emits into: the units (the input as UTF-16 units),
    chunkSize and chunkOverlap as JS numbers, the hang rule, the chunks, the observer
    (the reference tells it its reasons), whether ``str.strip()`` trims every piece
    of the units as JS ``trim`` does (engine_text.plain_strip), and whether the places
    are read."""

    units: str
    size: Any
    overlap: Any
    rule: HangRule
    chunks: Chunks
    observer: RunObserver
    plain_strip: bool = False
    #: someone reads the places (``observer.wants_places``, read once at the top): F
    #: works out where each piece starts only then
    placing: bool = True
