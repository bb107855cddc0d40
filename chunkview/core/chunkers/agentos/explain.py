"""Why agentos cut where it did, in its own terms (see core/explain.py).

semantic_chunker.py notes its decisions only when asked (``Config.notes``): where each
structural segment of the line pass begins among the pieces, each packing cut (``full``),
each piece split again (``resplit``), each fixed window and each merge. This module turns
them into one ``Reason`` per returned chunk (``at`` is the chunk's index). Sizes are
UTF-16 units, as the library counts them.
"""

from __future__ import annotations

from typing import Any

from chunkview.core.explain import Reason
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


def explain_semantic_chunker(
    explain: list, config: Any, pieces: list, merged: list, chunks: list
) -> None:
    """Append one reason per chunk of ``chunks`` to ``explain``."""
    notes = config.notes or []
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
        return
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
    for k, found in enumerate(kept):
        rules = [rule for rule, _text in found if rule]
        if found:
            explain.append(
                Reason(k, rules[0] if rules else "", "; ".join(text for _rule, text in found))
            )
