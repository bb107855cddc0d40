"""markdown (spec/mastra.md §7, §5.3): with ``headers``, a line scan that tracks the
active headers, then entries aggregated by equal metadata (or one chunk per line);
without, a recursive split on markdown's separators."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from chunkview.core.chunkers.mastra.json_values import js_object
from chunkview.core.chunkers.mastra.reference.recursive import (
    MARKDOWN,
    Nodes,
    Split,
    separator_chunks,
    split_text,
)
from chunkview.core.chunkers.mastra.reference.splitter import nodes
from chunkview.core.text.js import from_units, trim

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes


def markdown_chunks(
    units: str,
    options: dict[str, Any],
    metadata: dict[str, Any],
    notes: MastraNotes,
    split: Split = split_text,
    make_nodes: Nodes = nodes,
) -> list[dict[str, Any]]:
    """The markdown strategy: split by the given headers (§7, even ``[]``), or a
    recursive split on markdown's separators when no headers are given (§5.3)."""
    if "headers" in options:
        return markdown_headers(units, options, metadata, notes)
    return separator_chunks(units, options, metadata, notes, MARKDOWN, True, split, make_nodes)


class _LineScan:
    """§7.1's state: the current lines, the current metadata ``cur``, the header stack,
    the active header values ``act``, the code flag and its fence; the entries made."""

    def __init__(self, pairs: list[list[str]], each_line: bool, strip_headers: bool) -> None:
        self.pairs, self.each_line, self.strip_headers = pairs, each_line, strip_headers
        self.entries: list[tuple[str, dict[str, str]]] = []
        self.lines: list[str] = []
        self.current: dict[str, str] = {}
        self.active: dict[str, str] = {}
        self.stack: list[tuple[int, str]] = []
        self.in_code, self.fence = False, ""

    def flush(self) -> None:
        """The current lines, joined by "\n", an entry with a copy of ``cur``."""
        if self.lines:
            self.entries.append(("\n".join(self.lines), dict(self.current)))
            self.lines.clear()

    def fenced(self, line: str, stripped: str) -> bool:
        """Step 1: open or close a fence; True while inside code (the opening line too)."""
        if not self.in_code:
            opens = stripped.startswith("```") and stripped.count("```") == 1
            if opens or stripped.startswith("~~~"):
                self.in_code, self.fence = True, stripped[:3]
        elif stripped.startswith(self.fence):
            self.in_code, self.fence = False, ""
        if self.in_code:
            self.lines.append(line)
        return self.in_code

    def header_of(self, stripped: str) -> tuple[str, str] | None:
        """Step 2's test: the first marker the line starts with, alone or before a space."""
        for marker, key in self.pairs:
            if stripped.startswith(marker) and (
                len(stripped) == len(marker) or stripped[len(marker)] == " "
            ):
                return marker, key
        return None

    def header(self, line: str, stripped: str, marker: str, key: str) -> None:
        """Step 2: a header line."""
        self.flush()
        level = marker.count("#")
        while self.stack and self.stack[-1][0] >= level:
            self.active.pop(self.stack.pop()[1], None)
        self.stack.append((level, key))
        self.active[key] = trim(stripped[len(marker) :])
        if not self.strip_headers:
            self.entries.append((line, {**self.current, **self.active}))

    def other(self, line: str, stripped: str) -> None:
        """Step 3: any other line."""
        if stripped or self.each_line:
            self.lines.append(line)
            if self.each_line:
                self.entries.append((line, dict(self.current)))
                self.lines.clear()
        else:
            self.flush()

    def scan(self, units: str) -> list[tuple[str, dict[str, str]]]:
        for line in units.split("\n"):
            stripped = trim(line)
            if self.fenced(line, stripped):
                continue
            found = self.header_of(stripped)
            if found is not None:
                self.header(line, stripped, *found)
            else:
                self.other(line, stripped)
            self.current = dict(self.active)  # step 4
        self.flush()
        return self.entries


def markdown_headers(
    units: str, options: dict[str, Any], metadata: dict[str, Any], notes: MastraNotes
) -> list[dict[str, Any]]:
    """§7: the line scan (§7.1), then the entries turned into chunks (§7.2)."""
    pairs = sorted(options["headers"], key=lambda pair: -len(pair[0]))  # stable
    return_each_line = bool(options.get("returnEachLine", False))
    strip_headers = options.get("stripHeaders", True) is not False
    entries = _LineScan(pairs, return_each_line, strip_headers).scan(units)
    markers = [marker for marker, _ in pairs]
    if return_each_line:
        chunks = [
            (trim(text_line), meta)
            for content, meta in entries
            for text_line in content.split("\n")
            if trim(text_line) or trim(text_line).startswith(tuple(markers))
        ]
    else:
        chunks = _aggregate(entries, markers)
    notes.headers([meta for _text, meta in chunks], return_each_line)
    return [
        {
            "text": from_units(text),
            "metadata": js_object([*metadata.items(), *_strings(meta).items()]),
        }
        for text, meta in chunks
    ]


def _strings(meta: dict[str, str]) -> dict[str, str]:
    return {from_units(k): from_units(v) for k, v in meta.items()}


def _js_json(meta: dict[str, str]) -> str:
    """``JSON.stringify(metadata)``: a JS object lists integer-like keys first, so
    ``{"2": a, "1": b}`` and ``{"1": b, "2": a}`` are the same text."""
    return json.dumps(js_object(meta.items()))


def _aggregate(
    entries: list[tuple[str, dict[str, str]]], markers: list[str]
) -> list[tuple[str, dict[str, str]]]:
    """§7.2's aggregation: an entry joins the last chunk when their metadata's JSON is
    the same, or when the last has fewer keys and its last line is a header."""
    chunks: list[list[Any]] = []
    for content, meta in entries:
        if chunks:
            last = chunks[-1]
            if _js_json(last[1]) == _js_json(meta):
                last[0] += "  \n" + content
                continue
            last_line = trim(last[0].split("\n")[-1])
            # a blank last line is no header, even for an empty marker (`lastLine ? … : false`)
            if len(last[1]) < len(meta) and last_line and last_line.startswith(tuple(markers)):
                last[0] += "  \n" + content
                last[1] = meta
                continue
        chunks.append([content, meta])
    return [(content, meta) for content, meta in chunks]
