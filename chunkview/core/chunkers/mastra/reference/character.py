"""character (spec/mastra.md §5.1): split on one separator; long pieces cut in windows."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chunkview.core.chunkers.mastra.reference.splitter import (
    Splitter,
    js_length,
    nodes,
    split_on_separator,
    splitter_from,
)
from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.text.js import to_units
from chunkview.core.text.jsregex import escape

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes

#: how a long piece is cut into windows: ``windows`` or one that gives what it gives
Windows = Callable[[str, Splitter], list[str]]
#: how the text is split: ``character_split`` or one that gives what it gives
CharacterSplit = Callable[["str", Splitter, "MastraNotes", str, bool], list[str | None]]


def windows(piece: str, splitter: Splitter) -> list[str]:
    """§5.1 step 3 (JS ``__splitChunk``): from ``p = 0``, grow the end one unit at a time
    while ``len(text[p:end+1]) <= maxSize``, emit ``text[p:end]``; stop at the piece's
    end, else ``p += max(1, len(window) - overlap)``. The position may be fractional
    (overlap 4.09): slices truncate it."""
    length, max_size = splitter.length, splitter.max_size
    found: list[str] = []
    start: float = 0
    while start < len(piece):
        end = start
        while end < len(piece) and length(piece[int(start) : int(end + 1)]) <= max_size:
            end += 1
        window = piece[int(start) : int(end)]
        found.append(window)
        if end >= len(piece):
            break
        # the step counts the length function, even when it does not count units
        start += max(1, length(window) - splitter.overlap)
    return found


def character_split(
    text: str,
    splitter: Splitter,
    notes: MastraNotes,
    separator: str = "\n\n",
    is_regex: bool = False,
    cut: Windows = windows,
) -> list[str | None]:
    """§5.1: every piece that fits is a chunk as it is; a longer piece is cut into
    windows (``cut``) of at most maxSize, each next window starting ``overlap`` before
    the previous end."""
    pattern = separator if is_regex else escape(separator)
    chunks: list[str | None] = []
    for piece in split_on_separator(text, pattern, splitter.keep_separator):  # step 1
        size = js_length(splitter.length, piece)
        if size <= splitter.max_size:  # step 2
            notes.character_piece(separator, size, splitter.max_size)
            notes.produced()
            chunks.append(piece)  # None: JS's undefined, a chunk with no text
        elif piece is None:
            js_length(len, None)  # JS: undefined.length in __splitChunk
        else:  # step 3
            cut_up = cut(piece, splitter)
            for i in range(len(cut_up)):
                notes.character_window(i == 0, size, splitter.max_size, splitter.overlap)
                notes.produced()
            chunks.extend(cut_up)
    return chunks


def character_chunks(
    units: str,
    options: dict[str, Any],
    metadata: dict[str, Any],
    notes: MastraNotes,
    split: CharacterSplit = character_split,
    make_nodes: Callable[..., list[dict[str, Any]]] = nodes,
) -> list[dict[str, Any]]:
    """The character strategy's chunk nodes (§5.1)."""
    splitter = splitter_from(options)
    check_overlap(splitter.max_size, splitter.overlap)
    separator = to_units(options.get("separator", "\n\n"))
    is_regex = bool(options.get("isSeparatorRegex", False))
    chunks = split(units, splitter, notes, separator, is_regex)
    return make_nodes(units, chunks, metadata, splitter)
