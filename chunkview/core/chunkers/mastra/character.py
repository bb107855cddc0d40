"""character (spec/mastra.md §5.1): split on one separator; long pieces cut in windows."""

from __future__ import annotations

import math
from typing import Any

from chunkview.core.chunkers.mastra.explain import current as notes_now
from chunkview.core.chunkers.mastra.splitter import (
    Splitter,
    js_length,
    nodes,
    split_on_separator,
    splitter_from,
)
from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.text.js import to_units
from chunkview.core.text.jsregex import escape


def character_split(
    text: str, splitter: Splitter, separator: str = "\n\n", is_regex: bool = False
) -> list[str | None]:
    """Every piece that fits is a chunk as it is; a longer piece is cut into windows of at
    most maxSize, each next window starting ``overlap`` before the previous end."""
    pattern = separator if is_regex else escape(separator)
    why = notes_now()  # the run's reasons (explain.py), or None
    chunks: list[str | None] = []
    for piece in split_on_separator(text, pattern, splitter.keep_separator):
        if js_length(splitter.length, piece) <= splitter.max_size:
            if why is not None:
                why.character_piece(separator, js_length(splitter.length, piece), splitter.max_size)
                why.produced()
            chunks.append(piece)  # None: JS's undefined, a chunk with no text
        elif piece is None:
            js_length(len, None)  # JS: undefined.length in __splitChunk
        else:
            windows = _windows(piece, splitter)
            if why is not None:
                size = js_length(splitter.length, piece)
                for i in range(len(windows)):
                    why.character_window(i == 0, size, splitter.max_size, splitter.overlap)
                    why.produced()
            chunks.extend(windows)
    return chunks


def _windows(piece: str, splitter: Splitter) -> list[str]:
    """JS __splitChunk: the position may be fractional (overlap 4.09); slices truncate it."""
    length, max_size = splitter.length, splitter.max_size
    windows: list[str] = []
    start: float = 0
    default_length = length is len
    while start < len(piece):
        if default_length:  # the unit loop's count, worked out at once
            end = start + min(math.ceil(len(piece) - start), max(0, math.floor(max_size)))
        else:
            end = start
            while end < len(piece) and length(piece[int(start) : int(end + 1)]) <= max_size:
                end += 1
        window = piece[int(start) : int(end)]
        windows.append(window)
        if end >= len(piece):
            break
        # the step counts the length function, even when it does not count units
        start += max(1, length(window) - splitter.overlap)
    return windows


def character_chunks(
    units: str, options: dict[str, Any], metadata: dict[str, Any]
) -> list[dict[str, Any]]:
    """The character strategy's chunk nodes."""
    splitter = splitter_from(options)
    check_overlap(splitter.max_size, splitter.overlap)
    separator = to_units(options.get("separator", "\n\n"))
    is_regex = bool(options.get("isSeparatorRegex", False))
    return nodes(units, character_split(units, splitter, separator, is_regex), metadata, splitter)
