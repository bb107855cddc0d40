"""semantic-markdown (spec/mastra.md §8): sections by headers, small neighbours folded
together while their token counts stay under joinThreshold."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chunkview.core.chunkers.mastra.reference.splitter import splitter_from
from chunkview.core.chunkers.mastra.token import encode, load_encoding, special_sets
from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.text.js import W_CLASS, from_units, trim

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes
    from chunkview.core.chunkers.mastra.semantic_markdown_explain import SectionNotes

#: §8 step 2's header line, matched whole: #s, white space, then at least one unit that
#: is not a line terminator
HEADER_LINE = re.compile(f"(#+)[{W_CLASS}]+([^\n\r\u2028\u2029]+)")


@dataclass
class Section:
    """§8's section: its header's title and depth, its content and its token count."""

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
        """§8's ``count(t)``: the tokens of ``trim(t)`` (of ``t`` without stripWhitespace)."""
        return len(
            encode(
                encoding,
                from_units(trim(text) if splitter.strip_whitespace else text),
                allowed,
                disallowed,
            )
        )

    if not trim(units):  # step 1
        return []
    sections = _sections(units, count)
    told = notes.sections(threshold, units, sections)  # the merge decisions
    _merge(sections, threshold, count, told)
    told.finish(sections)
    chunks = []
    for section in sections:  # step 4
        text = (
            f"{'#' * section.depth} {section.title}\n{section.content}"
            if section.title
            else section.content
        )
        chunks.append(
            {"text": from_units(text), "metadata": {**metadata, "tokenCount": count(text)}}
        )
    return chunks


def _sections(units: str, count: Callable[[str], int]) -> list[Section]:
    """§8 step 2: the lines scanned for headers (fences toggle the code flag); a section
    pushed at each header when it has a body or a title, the last one only with a body."""
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
    return sections


def _merge(
    sections: list[Section], threshold: Any, count: Callable[[str], int], told: SectionNotes
) -> None:
    """§8 step 3: for each depth from the deepest to 1, a section of that depth folds into
    the one before while their counts sum under joinThreshold and the one before is not
    deeper (the same place looked at again, so chains fold into one)."""
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
