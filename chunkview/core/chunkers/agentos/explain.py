"""Why agentos cut where it did, in its own terms (see core/explain.py).

The SemanticChunker's reference (semantic_reference.py) notes its decisions as it goes
(``Notes``): where each structural segment of the line pass begins among the pieces,
each packing cut (``full``), each piece split again (``resplit``), each fixed window and
each merge. ``semantic_reasons`` turns them into one ``Reason`` per returned chunk (``at``
is the chunk's index). ``passage_reason`` says why a chunkTurns passage starts where it
does. Sizes are UTF-16 units, as the library counts them.

This module reads the notes and segments by their fields alone: it imports nothing of
the algorithms.
"""

from __future__ import annotations

from typing import Any

from chunkview.core.model.document import Document
from chunkview.core.model.explain import Reason, Stage
from chunkview.core.text.js import js_slice, number_text

_PLURAL = {"paragraph": "paragraphs", "sentence": "sentences", "fixed": "fixed windows"}


def _units(n: Any) -> str:
    return f"{number_text(n) if isinstance(n, float) else f'{n:,}'} units"


def _structural(config: Any, segment: Any, before: Any) -> tuple[str, str]:
    """Why the line pass started a segment here."""
    if before is None:
        return "start", "the start of the text"
    if segment.boundary == "heading":
        return "heading", "a heading line starts a chunk (respectHeadings)"
    if segment.boundary == "code-block":
        return "code-block", "a fence opens a code block, kept whole (preserveCodeBlocks)"
    if before.boundary == "code-block":
        return "after-code", "the code block before ended at its closing fence"
    if before.boundary == "heading" or len(before.text) >= config.target_size:
        return (
            "blank-line",
            f"a blank line after {_units(len(before.text))} ≥ targetSize "
            f"{number_text(config.target_size)}",
        )
    return "paragraph", "a new paragraph"


def _split_words(config: Any, segment: Any, first_kind: str) -> str:
    how = (
        f"cut into fixed windows of targetSize {number_text(config.target_size)}"
        if first_kind == "fixed"
        else f"{_PLURAL.get(first_kind, first_kind)} packed up to targetSize "
        f"{number_text(config.target_size)}"
    )
    return (
        f"split again: a segment of {_units(len(segment.text))} > maxSize "
        f"{number_text(config.max_size)}, {how}"
    )


def _note_words(config: Any, note: tuple) -> tuple[str, str]:
    kind = note[0]
    if kind == "full":
        _k, _at, acc, part, joiner = note
        what = "paragraphs" if joiner == 2 else "sentences"
        return (
            f"full-{what}",
            f"{what} packed up to {_units(acc)}; the next ({_units(part)}) would make "
            f"{number_text(acc + part + joiner)} > targetSize {number_text(config.target_size)}",
        )
    if kind == "resplit":
        _k, _at, size, level = note
        return (
            f"split-{level}",
            f"the packed piece of {_units(size)} > maxSize {number_text(config.max_size)}: "
            f"cut into {_PLURAL[level]}",
        )
    _k, _at, start, end = note  # a fixed window
    target, minimum = config.target_size, config.min_size
    if end - start < target:
        return (
            "fixed-space",
            f"fixed window of targetSize {number_text(target)}: the window before (from "
            f"offset {number_text(start)}) moved back to the last space at "
            f"{number_text(end)}, more than minSize {number_text(minimum)} in",
        )
    return (
        "fixed",
        f"fixed window of targetSize {number_text(target)}: the window before (from offset "
        f"{number_text(start)}) had no space more than minSize {number_text(minimum)} in "
        "to move back to",
    )


def semantic_reasons(
    config: Any, notes: list, pieces: list, merged: list, chunks: list, text: str = ""
) -> list[Reason]:
    """One reason per chunk of ``chunks``, with the stages of each chunk for the replay
    (``text``: the text chunked, to place them). ``pieces``: the segments after step 2,
    ``merged`` after step 3; ``notes``: what the steps noted."""
    explain: list[Reason] = []
    at_offset: dict[Any, list[tuple]] = {}
    first_of: dict[int, tuple[Any, Any]] = {}  # piece index -> (segment, segment before)
    merges: list[tuple] = []
    before = None
    for note in notes:
        if note[0] == "segment":
            first_of[note[1]] = (note[2], before)
            before = note[2]
        elif note[0] == "merged":
            merges.append(note)
        else:
            at_offset.setdefault(note[1], []).append(note)
    reasons: list[list[tuple[str, str]]] = []
    for index, piece in enumerate(pieces):
        found: list[tuple[str, str]] = []
        if index in first_of:
            segment, previous = first_of[index]
            found.append(_structural(config, segment, previous))
            if piece is not segment:  # the segment was split again
                found.append(("", _split_words(config, segment, piece.boundary)))
                found.extend(
                    _note_words(config, n)
                    for n in at_offset.get(piece.offset, ())
                    if n[0] == "resplit"
                )
        else:
            found.extend(_note_words(config, n) for n in at_offset.get(piece.offset, ()))
        reasons.append(found)
    # the pieces merged into the one before are no chunks; their notes go too
    gone = {id(note[3]) for note in merges}
    kept = [found for piece, found in zip(pieces, reasons) if id(piece) not in gone]
    if len(kept) != len(chunks):  # a shape these notes do not cover: say nothing wrong
        return explain
    for _kind, k, trimmed, piece in merges:
        words = (
            f"merged: a {piece.boundary} piece of {_units(trimmed)} (trimmed) < minSize "
            f"{number_text(config.min_size)} joined the chunk before"
        )
        kept[k + 1 if k + 1 < len(kept) else k].append(("merged", words))
    overlap = config.overlap
    for k in range(1, len(chunks)):
        if overlap > 0:
            prefix = js_slice(merged[k - 1].text, -overlap)
            if prefix:
                kept[k].append(
                    (
                        "overlap",
                        f"overlap: the last {_units(len(prefix))} of chunk {k - 1} repeated "
                        f"in front (overlap {number_text(overlap)})",
                    )
                )
    stages = _stages(config, notes, pieces, gone, merges, text)
    for k, found in enumerate(kept):
        rules = [rule for rule, _text in found if rule]
        if found:
            explain.append(
                Reason(
                    k,
                    rules[0] if rules else "",
                    "; ".join(words for _rule, words in found),
                    stages[k] if k < len(stages) else (),
                )
            )
    return explain


def _stages(
    config: Any, notes: list, pieces: list, gone: set[int], merges: list, text: str
) -> list[tuple[Stage, ...]]:
    """How each chunk came to be: the structural segment the line pass gathered, the
    piece split from it when it was over maxSize, and the pieces merged into it (code
    points of ``text``; the overlap the replay reads from the span)."""
    document = Document(text)
    end_of_text = len(text)

    def points(start: Any, length: int) -> tuple[int, int]:
        first = document.units_to_points(int(start))
        last = document.units_to_points(int(start) + length)
        return min(first, end_of_text), min(last, end_of_text)

    segment_of: dict[int, Any] = {n[1]: n[2] for n in notes if n[0] == "segment"}
    joined: dict[int, list[tuple[int, Any]]] = {}
    for _kind, k, trimmed, piece in merges:
        joined.setdefault(k, []).append((trimmed, piece))
    result: list[tuple[Stage, ...]] = []
    first_stage: dict[int, Stage] = {}
    segment = None
    for index, piece in enumerate(pieces):
        segment = segment_of.get(index, segment)
        if id(piece) in gone:
            continue
        k = len(result)
        found = []
        if segment is not None:
            gathered = first_stage.get(id(segment))
            if gathered is None:  # one stage for all the pieces of a segment
                start, end = points(segment.offset, len(segment.text))
                words = (
                    f"first gathered: the line pass took a {segment.boundary} segment of "
                    f"{_units(len(segment.text))}"
                )
                if piece is segment:
                    words += f" ≤ maxSize {number_text(config.max_size)}: kept as it is"
                else:
                    words += f" > maxSize {number_text(config.max_size)}: too large, split again"
                gathered = first_stage[id(segment)] = Stage("gathered", start, end, words)
            found.append(gathered)
            if piece is not segment:
                start, end = points(piece.offset, len(piece.text))
                found.append(
                    Stage(
                        "split",
                        start,
                        end,
                        f"{_split_words(config, segment, piece.boundary)}: this "
                        f"{piece.boundary} piece is {_units(len(piece.text))}",
                    )
                )
        if k in joined:
            last = joined[k][-1][1]
            start, _end = points(piece.offset, len(piece.text))
            _start, end = points(last.offset, len(last.text))
            first_joined, _ = points(joined[k][0][1].offset, 0)
            sizes = ", ".join(_units(trimmed) for trimmed, _piece in joined[k])
            words = (
                f"merged: the next {'piece' if len(joined[k]) == 1 else f'{len(joined[k])} pieces'}"
                f" ({sizes} trimmed) < minSize {number_text(config.min_size)} joined it, "
                'each after "\\n\\n"'
            )
            found.append(Stage("merged", start, end, words, (first_joined, end)))
        result.append(tuple(found))
    return result


def passage_reason(
    index: int,
    previous_size: int,
    first_seq: Any,
    added: int,
    max_chars: Any,
    carried: int,
    overlap_turns: int,
) -> Reason:
    """Why chunkTurns' passage ``index`` starts with a new turn (seq ``first_seq``, of
    ``added`` units) after a passage of ``previous_size``, carrying ``carried`` turns."""
    text = (
        f"the passage before was full: {previous_size:,} chars + the next turn's (seq "
        f"{first_seq}) {added:,} + 1 = {previous_size + added + 1:,} > maxChars {max_chars}"
    )
    if carried:
        text += (
            f"; overlap: the last {f'{carried} turns' if carried > 1 else 'turn'} "
            f"of the passage before carried (overlapTurns {overlap_turns})"
        )
    elif overlap_turns:
        text += (
            f"; no turn carried: with overlapTurns {overlap_turns} the passage would pass "
            f"maxChars {max_chars} with its first new turn"
        )
    return Reason(index, "turns-full", text)
