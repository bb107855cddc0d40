"""markdown with ``headers`` (spec/mastra.md §7): a line scan that tracks the active
headers, then entries aggregated by equal metadata (or one chunk per line)."""

from __future__ import annotations

import json
from typing import Any

from chunkview.core.chunkers.mastra.explain import current as notes_now
from chunkview.core.chunkers.mastra.json_chunker import js_object
from chunkview.core.chunkers.mastra.recursive import MARKDOWN, separator_chunks
from chunkview.core.text.js import from_units, trim


def markdown_chunks(
    units: str, options: dict[str, Any], metadata: dict[str, Any]
) -> list[dict[str, Any]]:
    """The markdown strategy: split by the given headers, or a recursive split on
    markdown's separators when no headers are given."""
    if "headers" in options:
        return markdown_headers(units, options, metadata)
    return separator_chunks(units, options, metadata, MARKDOWN, True)


def markdown_headers(
    units: str, options: dict[str, Any], metadata: dict[str, Any]
) -> list[dict[str, Any]]:
    pairs = sorted(options["headers"], key=lambda pair: -len(pair[0]))  # stable
    return_each_line = bool(options.get("returnEachLine", False))
    strip_headers = options.get("stripHeaders", True) is not False
    entries: list[tuple[str, dict[str, str]]] = []
    current_lines: list[str] = []
    current: dict[str, str] = {}
    active: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    in_code, fence = False, ""

    def flush() -> None:
        if current_lines:
            entries.append(("\n".join(current_lines), dict(current)))
            current_lines.clear()

    for line in units.split("\n"):
        stripped = trim(line)
        if not in_code:
            if (stripped.startswith("```") and stripped.count("```") == 1) or stripped.startswith(
                "~~~"
            ):
                in_code, fence = True, stripped[:3]
        elif stripped.startswith(fence):
            in_code, fence = False, ""
        if in_code:
            current_lines.append(line)
            continue
        header = next(
            (
                (marker, key)
                for marker, key in pairs
                if stripped.startswith(marker)
                and (len(stripped) == len(marker) or stripped[len(marker)] == " ")
            ),
            None,
        )
        if header is not None:
            marker, key = header
            flush()
            level = marker.count("#")
            while stack and stack[-1][0] >= level:
                active.pop(stack.pop()[1], None)
            stack.append((level, key))
            active[key] = trim(stripped[len(marker) :])
            if not strip_headers:
                entries.append((line, {**current, **active}))
        elif stripped or return_each_line:
            current_lines.append(line)
            if return_each_line:
                entries.append((line, dict(current)))
                current_lines.clear()
        else:
            flush()
        current = dict(active)
    flush()
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
    why = notes_now()  # the run's reasons (explain.py), or None
    if why is not None:
        why.headers([meta for _text, meta in chunks], return_each_line)
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
