"""What the chunk inspector shows about one chunk (no Qt): its facts, its text with white
space made visible, the overlap it repeats and, for a chunk not found verbatim, a character
diff against the source."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from chunkview.core.model.spans import Layout, Span

#: white space and invisible characters, as the inspector draws them
VISIBLE = {
    " ": "·",
    "\t": "→\t",
    "\n": "¶\n",
    "\r": "␍",
    "\u00a0": "⍽",
    "\u200b": "⟨ZWSP⟩",
    "\ufeff": "⟨BOM⟩",
    "\u2028": "⟨LS⟩\n",
    "\u2029": "⟨PS⟩\n",
    "\x0b": "⟨VT⟩",
    "\x0c": "⟨FF⟩",
}
#: the longest diff worked out at once (difflib is quadratic at worst)
DIFF_LIMIT = 5_000


def show_white_space(text: str) -> str:
    """``text`` with spaces, tabs, line ends and invisible characters drawn as marks."""
    return "".join(VISIBLE.get(ch, ch) for ch in text)


@dataclass(frozen=True)
class ChunkFacts:
    index: int
    kind: str
    located: str
    start: int
    end: int
    own_start: int
    chars: int
    utf8_bytes: int
    tokens: int | None
    overlap: str  # the text this chunk repeats from the one before ("" for none)
    metadata: dict[str, Any]
    text: str  # as the library returned it


def chunk_facts(layout: Layout, index: int, tokens: list[int] | None = None) -> ChunkFacts:
    span = layout.spans[index]
    source = layout.document.text
    overlap = source[span.start : span.own_start] if span.located != "missing" else ""
    return ChunkFacts(
        index=span.index,
        kind=span.kind,
        located=span.located,
        start=span.start,
        end=span.end,
        own_start=span.own_start,
        chars=len(span.text),
        utf8_bytes=len(span.text.encode("utf-8", "surrogatepass")),
        tokens=tokens[index] if tokens is not None and index < len(tokens) else None,
        overlap=overlap,
        metadata=dict(span.metadata),
        text=span.text,
    )


def source_slice(layout: Layout, span: Span) -> tuple[int, int]:
    """The stretch of the source a chunk's text is compared with: its span where it was
    placed, and where it went missing, as much text from its last known place as the
    chunk is long (a little more, for what the library dropped)."""
    if span.located != "missing" and span.end > span.start:
        return span.start, span.end
    length = len(layout.document.text)
    return span.start, min(length, span.start + len(span.text) + len(span.text) // 5 + 20)


def character_diff(chunk: str, source: str) -> list[tuple[str, str]]:
    """How the chunk's text differs from the source's: pieces ``("same", text)``,
    ``("chunk", text)`` (only in the chunk) and ``("source", text)`` (only in the source).
    Texts past DIFF_LIMIT are compared up to it."""
    chunk, source = chunk[:DIFF_LIMIT], source[:DIFF_LIMIT]
    matcher = difflib.SequenceMatcher(None, source, chunk, autojunk=False)
    pieces: list[tuple[str, str]] = []
    for op, s1, s2, c1, c2 in matcher.get_opcodes():
        if op == "equal":
            pieces.append(("same", chunk[c1:c2]))
            continue
        if s2 > s1:
            pieces.append(("source", source[s1:s2]))
        if c2 > c1:
            pieces.append(("chunk", chunk[c1:c2]))
    return pieces
