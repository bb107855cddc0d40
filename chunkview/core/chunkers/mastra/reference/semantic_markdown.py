"""semantic-markdown (spec/mastra.md §8): sections by headers, small neighbours folded
together while their token counts stay under joinThreshold."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chunkview.core.chunkers.mastra.reference.splitter import splitter_from
from chunkview.core.chunkers.mastra.token import encode, load_encoding, special_sets
from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.text.js import W_CLASS, from_units, trim

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes

#: §8 step 2's header line, matched whole: #s, white space, then at least one unit that
#: is not a line terminator
HEADER_LINE = re.compile(f"(#+)[{W_CLASS}]+([^\n\r\u2028\u2029]+)")


@dataclass
class Section:
    title: str
    content: str
    depth: int
    length: int


def semantic_markdown_chunks(
    units: str, options: dict[str, Any], metadata: dict[str, Any], notes: MastraNotes
) -> list[dict[str, Any]]:
    """§8: sections by header lines (step 2), merged up from the deepest level (step 3),
    written out with their token counts (step 4)."""
    splitter = splitter_from(options)
    encoding = load_encoding(options)  # fromTikToken loads it before the constructor checks
    check_overlap(splitter.max_size, splitter.overlap)
    allowed, disallowed = special_sets(encoding, options)
    threshold = options.get("joinThreshold", 500)

    def count(text: str) -> int:
        return len(
            encode(
                encoding,
                from_units(trim(text) if splitter.strip_whitespace else text),
                allowed,
                disallowed,
            )
        )

    if not trim(units):
        return []
    sections: list[Section] = []
    title, depth, content, in_code = "", 0, [], False
    for line in units.split("\n"):
        if line.startswith("```") or line.startswith("~~~"):
            in_code = not in_code
        header = None if in_code else HEADER_LINE.fullmatch(line)
        if header is None:
            content.append(line + "\n")
            continue
        body = trim("".join(content))
        if body or (title and depth > 0):
            sections.append(Section(title, body, depth, count(body)))
        title, depth, content = header.group(2), len(header.group(1)), []
    body = trim("".join(content))
    if body:
        sections.append(Section(title, body, depth, count(body)))
    told = notes.sections(threshold, units, sections)  # the merge decisions
    deepest = max((s.depth for s in sections), default=0)
    for level in range(deepest, 0, -1):
        i = 1
        while i < len(sections):
            current, previous = sections[i], sections[i - 1]
            if (
                current.depth == level
                and previous.length + current.length < threshold
                and previous.depth <= current.depth
            ):
                told.merged(previous, current)
                previous.content += f"\n\n{'#' * current.depth} {current.title}\n{current.content}"
                previous.length = count(previous.content)
                del sections[i]
            else:
                if current.depth == level:
                    told.kept(previous, current)
                i += 1
    told.finish(sections)
    chunks = []
    for section in sections:
        text = (
            f"{'#' * section.depth} {section.title}\n{section.content}"
            if section.title
            else section.content
        )
        chunks.append(
            {"text": from_units(text), "metadata": {**metadata, "tokenCount": count(text)}}
        )
    return chunks
