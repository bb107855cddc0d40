"""agentos ``ChunkingEngine.chunk`` read step by step from spec/agentos.md §2: the window
routine F (§2.2), written once, and the four strategies (§2.3) on top of it. Plain and
slow: the tests run it as the oracle of the fast path (engine_fast.py), and a run that
wants its reasons runs it (it tells the observer every reason and every place).

Everything counts UTF-16 units (spec §0): ``run.units`` is the input as units, and a
chunk's string is made from its units at the end (``Chunks.text``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chunkview.core.chunkers.agentos import engine_explain as why
from chunkview.core.chunkers.agentos.engine_places import EngineRun
from chunkview.core.chunkers.agentos.engine_text import (
    HEADING_RE,
    SENTENCE_CUT_RE,
    SIMILARITY_THRESHOLD,
)
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.model.observer import RunObserver
from chunkview.core.text.embed import cosine, embed_cached
from chunkview.core.text.js import W_CHARS, char_at, js_slice, trim

#: a piece F emits (in units) and where it starts in the input's units (None: where a
#: window starts at no whole position, or the text is not the input's)
Piece = tuple[str, "int | None"]
_WHITE = frozenset(W_CHARS)


def fixed_windows(
    content: str,
    run: EngineRun,
    at: int,
    origin: int | None,
    observer: RunObserver,
) -> list[Piece]:
    """§2.2: F(content, chunkSize, chunkOverlap, startIndex = ``at``), the pieces it
    emits in order. ``origin``: where ``content`` starts in the input's units (None: it
    is not a slice of the input). Any JS numbers: a fractional index reads ``undefined``
    (not white space) and ``slice`` truncates, as in JS. The hang rule (engine_hang.py)
    watches every step."""
    size, overlap, length = run.size, run.overlap, len(content)
    watch = run.rule.watch(content, origin or 0)
    # windows of whole sizes >= 1 say why they end where they do
    told = run.rule.whole and size >= 1
    pieces: list[Piece] = []
    pos: Any = 0  # step 1
    while pos < length:  # step 2 (a NaN position ends the loop, as in JS)
        end = pos + size
        if end >= length:  # the rest is the last window: stop
            _emit(pieces, content, pos, length, origin)
            break
        if end > pos:  # back to the last white space in (pos, end]
            end = _last_white_at_or_before(content, pos, end)
        if end == pos:  # none: a hard cut
            end = pos + size
        _emit(pieces, content, pos, end, origin)
        following = end - overlap
        if following <= 0:
            following = end
        if told:
            observer.reason(
                why.window(
                    at + len(pieces), size, overlap, content, origin or 0, pos, end, following
                )
            )
        watch.step(pos, end, following)
        pos = following
    return pieces


def _emit(pieces: list[Piece], content: str, pos: Any, end: Any, origin: int | None) -> None:
    """piece = trim(content.slice(pos, end)); emitted when not empty."""
    window = js_slice(content, pos, end)
    piece = trim(window)
    if not piece:
        return
    whole = origin is not None and type(pos) is int and pos >= 0
    lead = len(window) - len(window.lstrip(W_CHARS))
    pieces.append((piece, origin + pos + lead if whole else None))  # type: ignore[operator]


def _last_white_at_or_before(content: str, pos: Any, end: Any) -> Any:
    """``while (end > pos && !/\\s/.test(content[end])) end--`` for any numbers.

    From a fractional end every index read is fractional (``undefined``, not white
    space), and stepping by one from an end >= 1 is exact while it stays >= 1: all but
    the last few steps of such a walk are one jump."""
    fractional = not float(end).is_integer()
    if fractional and 1 <= end < 2**52 and end - pos > 4:
        jump = min(int(end - pos) - 2, int(end) - 1)
        if jump > 0:
            end -= jump
    while end > pos and char_at(content, end) not in _WHITE:
        end -= 1
    return end


def emit_windows(
    run: EngineRun,
    content: str,
    origin: int | None,
    heading: str | None = None,
    base: dict[str, Any] | None = None,
) -> None:
    """F's pieces emitted as chunks, each with ``heading`` and ``metadata: {...base}``
    when given (§2.2: an empty base counts as given)."""
    chunks = run.chunks
    for piece, place in fixed_windows(content, run, len(chunks.list), origin, run.observer):
        chunks.one(piece, place, heading, None if base is None else dict(base))


def fixed(run: EngineRun) -> None:
    """§2.3 'fixed': F over the whole content, ``{content, index}`` only."""
    emit_windows(run, run.units, 0)


def semantic(
    run: EngineRun,
    embedder: str | None,
    ctx: RunContext,
    windows: Callable[[EngineRun, str, int | None], None] | None = None,
) -> None:
    """§2.3 'semantic', steps 1-5. ``windows``: how a text is cut by F and emitted
    (``emit_windows``; the fast path gives its own)."""
    units, chunks, size = run.units, run.chunks, run.size
    cut = windows or emit_windows
    if not embedder:  # step 1: without embedFn, 'fixed'
        cut(run, units, 0)
        return
    parts = [p for p in SENTENCE_CUT_RE.split(units) if trim(p)]  # step 2
    if not parts:  # step 3
        cut(run, units, 0)
        return
    if len(parts) == 1:  # step 4: the one part trimmed, whatever its length
        piece = trim(parts[0])
        chunks.one(piece, units.find(piece))
        return
    vectors = embed_cached(
        embedder, [chunks.text(p) for p in parts], progress=ctx.progress, check=ctx.check
    )
    groups, current, cut_similarities = [], [parts[0]], []
    for i in range(1, len(parts)):  # step 5: a boundary where the similarity is < 0.3
        similarity = cosine(vectors[i - 1], vectors[i])
        if similarity < SIMILARITY_THRESHOLD:  # NaN makes no boundary
            cut_similarities.append(similarity)
            groups.append(current)
            current = []
        current.append(parts[i])
    groups.append(current)
    origin: int | None = 0
    for number, group in enumerate(groups):
        text = trim(" ".join(group))
        if origin is not None:
            found = max(units.find(group[0], origin), 0)
            # a group joined otherwise than the text (one space for other white space)
            # is no slice of the input: no place from here on
            origin = found if units.startswith(text, found) else None
        run.observer.reason(why.group(len(chunks.list), number, cut_similarities, len(text), size))
        if len(text) > 2 * size:
            cut(run, text, origin)
        else:
            chunks.one(text, origin)


def hierarchical(run: EngineRun) -> None:
    """§2.3 'hierarchical', steps 1-5, heading by heading."""
    units, size, chunks, observer = run.units, run.size, run.chunks, run.observer
    matches = list(HEADING_RE.finditer(units))  # step 1
    sections: list[tuple[int, int, dict[str, Any], str]] = []
    if not matches:  # step 3: one section, the whole content untrimmed
        if units:
            observer.reason(why.section(0, None, 0, len(units), size))
            if len(units) <= size:
                chunks.one(units, 0)
            else:
                emit_windows(run, units, 0, base={})
        chunks.places.section_chunks = sections
        return
    raw = units[: matches[0].start()]
    preamble = trim(raw)  # step 4
    if preamble:
        observer.reason(why.section(len(chunks.list), None, 0, len(preamble), size))
        place = len(raw) - len(raw.lstrip(W_CHARS))
        if len(preamble) <= size:
            chunks.one(preamble, place)
        else:
            emit_windows(run, preamble, place, base={})
    stack: list[tuple[int, str]] = []
    for number, match in enumerate(matches):
        following = matches[number + 1].start() if number + 1 < len(matches) else len(units)
        raw = units[match.end(3) : following]
        body = trim(raw)
        title = trim(match.group(3))
        level = len(match.group(1)) + 1
        while stack and stack[-1][0] >= level:  # the ancestors: pop the levels >= this one
            stack.pop()
        meta: dict[str, Any] = {"headingLevel": level}
        if stack:
            meta["ancestorHeadings"] = [chunks.text(t) for _, t in stack]
        stack.append((level, title))
        heading = chunks.text(title)
        first = len(chunks.list)
        observer.reason(why.section(first, heading, level, len(body), size))
        if not body:  # step 5: an empty body gives the heading
            title_start = match.start(3) + len(match.group(3)) - len(match.group(3).lstrip(W_CHARS))
            chunks.one(title, title_start, heading, meta)
        elif len(body) <= size:
            chunks.one(body, match.end(3) + len(raw) - len(raw.lstrip(W_CHARS)), heading, meta)
        else:
            origin = match.end(3) + len(raw) - len(raw.lstrip(W_CHARS))
            emit_windows(run, body, origin, heading, meta)
        sections.append((first, len(chunks.list), meta, heading))
    chunks.places.section_chunks = [s for s in sections if s[1] > s[0]]


def layout_blocks(units: str) -> list[tuple[str, str, int]]:
    """§2.3 'layout', step 1, line by line: each block's kind, its text and where it
    starts in the units (a prose block's text trimmed, empty prose left out)."""
    lines = units.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    blocks: list[tuple[str, str, int]] = []
    i = 0
    while i < len(lines):
        first = i
        if lines[i].startswith("```"):  # code: up to the line that starts with the fence
            fence = lines[i][: len(lines[i]) - len(lines[i].lstrip("`"))]
            i += 1
            while i < len(lines) and not lines[i].startswith(fence):
                i += 1
            i = min(i + 1, len(lines))  # the closing line, if any
            blocks.append(("code", "\n".join(lines[first:i]), starts[first]))
        elif "|" in lines[i]:  # table: the lines that hold "|", up to a blank one
            while i < len(lines) and (trim(lines[i]) == "" or "|" in lines[i]):
                if trim(lines[i]) == "" and i > first:
                    break
                i += 1
            blocks.append(("table", "\n".join(lines[first:i]), starts[first]))
        else:  # prose: up to a line that opens a fence or holds "|"
            while i < len(lines) and not lines[i].startswith("```") and "|" not in lines[i]:
                i += 1
            raw = "\n".join(lines[first:i])
            if trim(raw):
                blocks.append(
                    ("prose", trim(raw), starts[first] + len(raw) - len(raw.lstrip(W_CHARS)))
                )
    return blocks


def layout(run: EngineRun) -> None:
    """§2.3 'layout', step 2: code and tables whole with their type, prose through F."""
    chunks, size = run.chunks, run.size
    block_chunks: dict[str, list[int]] = {}
    for kind, text, start in layout_blocks(run.units):
        run.observer.reason(why.block(len(chunks.list), kind, len(text), size))
        if kind == "prose":
            emit_windows(run, text, start)
        else:
            block_chunks.setdefault(kind, []).append(len(chunks.list))
            chunks.one(text, start, metadata={"type": kind})
    chunks.places.block_chunks = block_chunks


def run_strategy(run: EngineRun, strategy: str, embedder: str | None, ctx: RunContext) -> None:
    """§2.3: the strategy's chunks into ``run.chunks``."""
    if strategy == "fixed":
        fixed(run)
    elif strategy == "semantic":
        semantic(run, embedder, ctx)
    elif strategy == "hierarchical":
        hierarchical(run)
    else:
        layout(run)
