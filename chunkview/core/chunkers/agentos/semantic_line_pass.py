"""The SemanticChunker's step 1 fast (spec/agentos.md §1.3 step 1): replaces
``semantic_reference.line_pass``, which reads the text line by line.

Why it is equal: a line that is not a fence, a heading or a blank line only joins G
(rule e), and every line joins its buffer with its own LF, so G and a code block are
always slices of ``text + "\n"``. The passes here track slice bounds instead of strings
and visit only the lines that can change the state:

- ``line_pass_events`` (any targetSize) visits the fence, heading and blank lines, found
  by one regex in "\n" + text;
- ``line_pass_jumps`` (a whole targetSize) goes from each fence line and heading line to
  the next, and finds the one blank line that ends G (rule d: the first at or past
  S + targetSize with a non-blank line before it since G began).

tests/test_semantic_properties.py checks both against the reference.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from functools import lru_cache

from chunkview.core.chunkers.agentos.semantic_reference import Config, Segment
from chunkview.core.text.js import NON_W_RE, W_CLASS
from chunkview.core.text.kept import kept

_W_NO_LF = W_CLASS.replace("\n", "")


@lru_cache(maxsize=4)
def _event_re(fences: bool, headings: bool) -> re.Pattern[str]:
    """Lines that can change the line pass's state; every other line just joins G."""
    kinds = []
    if fences:
        kinds.append(f"(?P<fence>[{_W_NO_LF}]*```)")
    if headings:
        kinds.append(f"(?P<heading>#{{1,6}}[{_W_NO_LF}])")
    kinds.append(f"(?P<blank>[{_W_NO_LF}]*(?=\n|\\Z))")
    # matched in "\n" + text: a literal first character lets the engine skip to each LF;
    # the match runs to the end of the line, so its end is where the next line starts
    return re.compile("\n(?:" + "|".join(kinds) + ")[^\n]*")


# every ``` (a literal: the engine skips ahead to each); a heading line (at the start, and
# after its LF: written "\n#" then up to five more #, the literal "\n#" lets the engine
# skip ahead to each, where "\n#{1,6}" would stop at every LF); the LF before a blank line
_TICKS_RE = re.compile("```")
_HEADING_AT_RE = re.compile(f"#{{1,6}}[{_W_NO_LF}]")
_HEADING_LINE_RE = re.compile(f"\n##{{0,5}}[{_W_NO_LF}]")
_BLANK_LINE_RE = re.compile(f"\n[{_W_NO_LF}]*(?=\n|\\Z)")


def line_pass(text: str, config: Config) -> list[Segment]:
    """``semantic_reference.line_pass``: by jumps for a whole targetSize (the jumps are
    found by comparing whole offsets), else event by event."""
    if type(config.target_size) is int:
        return line_pass_jumps(text, config)
    return line_pass_events(text, config)


def line_pass_jumps(text: str, config: Config) -> list[Segment]:
    """The line pass going from one line that changes its state to the next, for a whole
    targetSize: the next fence, the next heading, and the first blank line that ends G,
    which is the first at or past start + targetSize with a non-blank line before it since
    G began (every other blank line only joins G). G always ends where the line that ends
    it starts, so G and a code block are slices of ``text + "\n"`` again.

    Every fence line toggles the block state, so the blocks are the fence lines taken two
    by two; a heading line inside a block changes nothing."""
    n = len(text)
    none = n + 2  # past every line start
    target = config.target_size
    segments: list[Segment] = []
    emit = segments.append
    fences = [*kept_lines(text, fence_lines)] if config.preserve_code_blocks else []
    headings = [*kept_lines(text, heading_lines)] if config.respect_headings else []
    fences += [none, none]  # an opening fence line's closing one is looked up too
    headings.append(none)

    start, nonblank, boundary = 0, False, "paragraph"  # G: where it starts, what it holds
    cursor = 0  # where the first line not yet looked at starts
    opening, heading = 0, 0  # indices of the next fence line and the next heading line
    fence, heading_line = fences[0], headings[0]
    while True:
        event = fence if fence < heading_line else heading_line
        before = event - 1 if event < none else n  # where the lines before the event end
        line, nonblank = _ending_blank_line(text, start + target, cursor, before, nonblank)
        if line >= 0:  # ends G; the blank line belongs to no segment
            emit(Segment(text[start:line], start, boundary, line, True))
            following = text.find("\n", line)
            start = cursor = n + 1 if following < 0 else following + 1
            nonblank, boundary = False, "paragraph"
            continue
        if event == none:
            break
        if event == heading_line:
            if nonblank:
                emit(Segment(text[start:event], start, boundary, event, True))
            start, nonblank, boundary, cursor = event, True, "heading", event + 1
            heading += 1
            heading_line = headings[heading]
            continue
        if nonblank:  # G is kept: an unclosed fence emits it again at the end
            emit(Segment(text[start:fence], start, boundary, fence, True))
        closing = fences[opening + 1]
        if closing == none:  # unclosed: the block runs to the end, and G comes again
            emit(Segment(text[fence:] + "\n", fence, "code-block", n))
            if nonblank:
                emit(Segment(text[start:fence], start, boundary, fence, True))
            return segments
        closing_end = text.find("\n", closing)
        cursor = n + 1 if closing_end < 0 else closing_end + 1
        emit(Segment(text[fence : cursor - 1], fence, "code-block", cursor - 1, True))
        start, nonblank, boundary = cursor, False, "paragraph"
        opening += 2
        fence = fences[opening]
        if heading_line < cursor:  # headings inside the block change nothing
            heading = bisect_left(headings, cursor, heading)
            heading_line = headings[heading]
    if nonblank or NON_W_RE.search(text, cursor) is not None:
        emit(Segment(text[start:] + "\n", start, boundary, n))
    return segments


def _ending_blank_line(
    text: str, lowest: int, cursor: int, before: int, nonblank: bool
) -> tuple[int, bool]:
    """Where the first blank line that can end G starts, before ``before`` (-1: none):
    at or past ``lowest`` (S + targetSize) and after a non-blank line of G (a line starts
    after its LF, so any line past ``cursor - 1`` is new). Also whether G holds a
    non-blank line (``nonblank``: it did up to ``cursor``)."""
    if nonblank:
        if lowest < cursor:
            lowest = cursor
    else:
        first = NON_W_RE.search(text, cursor, before)
        if first is None:
            return -1, False
        nonblank = True
        if lowest <= first.start():
            lowest = first.start() + 1
    if lowest <= before:
        blank = _BLANK_LINE_RE.search(text, lowest - 1, before)
        if blank is not None:
            return blank.start() + 1, True
    return -1, nonblank


def kept_lines(text: str, find: Callable[[str], list[int]]) -> list[int]:
    """``find(text)``, kept for a long text (not to be changed): where the fence and
    heading lines are depends on the text alone, and their scans cost a third of a run."""
    return kept(f"agentos.semantic.{find.__name__}", text, find)


def fence_lines(text: str) -> list[int]:
    """Where each line that opens like a fence (trimmed, it starts with ```) starts, in
    order: the ``` found by a literal search, kept where only white space is before it on
    its line (most stand at the line start; a look-behind would test every character)."""
    lines: list[int] = []
    for found in _TICKS_RE.finditer(text):
        tick = found.start()
        if tick == 0 or text[tick - 1] == "\n":
            lines.append(tick)
        else:
            line = text.rfind("\n", 0, tick) + 1
            if NON_W_RE.search(text, line, tick) is None:
                lines.append(line)
    return lines


def heading_lines(text: str) -> list[int]:
    """Where each heading line starts, in order."""
    headings = [0] if _HEADING_AT_RE.match(text) else []
    headings.extend([found.start() + 1 for found in _HEADING_LINE_RE.finditer(text)])
    return headings


def line_pass_events(text: str, config: Config) -> list[Segment]:
    """The line pass for any targetSize, event by event.

    Every line joins its buffer with an LF, so the gathered text G and a code block are
    always slices of ``text + "\n"``: the pass tracks slice bounds, not strings, and visits
    only the lines a regex marks as fence, heading or blank.
    """
    extended = text + "\n"
    segments: list[Segment] = []
    start, gathered_end, gathered_nonblank, boundary = 0, 0, False, "paragraph"
    in_block, block_start = False, 0
    cursor = 0  # start of the first line not yet handled
    target = config.target_size

    def emit_gathered() -> None:
        end = min(gathered_end, len(text))  # past it: the LF the pass adds
        segments.append(
            Segment(extended[start:gathered_end], start, boundary, end, end == gathered_end)
        )

    events = _event_re(config.preserve_code_blocks, config.respect_headings)
    for match in events.finditer("\n" + text):
        line_start = match.start()  # the match's LF stands one before the line in text
        if line_start > cursor and not in_block:  # ordinary, non-blank lines join G
            gathered_end, gathered_nonblank = line_start, True
        after = cursor = match.end()  # (the line's end in text) + 1
        kind = match.lastgroup
        if kind == "fence":
            if not in_block:
                if gathered_nonblank:
                    emit_gathered()  # G is kept: an unclosed fence emits it again at the end
                in_block, block_start = True, line_start
            else:
                segments.append(
                    Segment(
                        extended[block_start : after - 1],
                        block_start,
                        "code-block",
                        after - 1,
                        True,
                    )
                )
                in_block = False
                start = gathered_end = after
                gathered_nonblank, boundary = False, "paragraph"
        elif in_block:
            continue
        elif kind == "heading":
            if gathered_nonblank:
                emit_gathered()
            start, gathered_end, gathered_nonblank, boundary = line_start, after, True, "heading"
        elif gathered_nonblank and gathered_end - start >= target:  # blank line ends G
            emit_gathered()
            start = gathered_end = after
            gathered_nonblank, boundary = False, "paragraph"
        else:
            gathered_end = after
    if cursor < len(extended) and not in_block:  # ordinary lines after the last event
        gathered_end, gathered_nonblank = len(extended), True
    if in_block:
        segments.append(Segment(extended[block_start:], block_start, "code-block", len(text)))
    if gathered_nonblank:
        emit_gathered()
    return segments
