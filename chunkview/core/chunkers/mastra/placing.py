"""Fast path: where the pieces of a split lie in the text, so the measured split
(measured_split.py) can note where it cut each chunk (places.py).

It replaces searching for each chunk in the text (``Entry.located_spans``, the
``locate`` search): the split knows where each piece came from. Each function here
gives what a reference function of ``reference/splitter.py`` gives, plus offsets:

- ``piece_offsets`` gives, for a separator that is a plain string, where each piece of
  ``split_on_separator`` starts. Equal because ``str.split`` cuts exactly at each
  occurrence of the string, as JS's split on its escaped regex does, and every piece
  the keep modes build is a part, or a part with the separator beside it: a stretch of
  the text.
- ``split_placed`` gives ``split_on_separator``'s pieces for a regex, and each one's
  start: the parts and matches JS's split cuts at (``js_split_at``), paired as
  ``kept_separators`` pairs them.

tests/test_mastra_places.py checks both against ``split_on_separator`` on generated
texts (each piece found at its offset), and every chunk noted against the text.
"""

from __future__ import annotations

from array import array
from itertools import accumulate, compress, repeat
from operator import add, ne, sub
from typing import Any, NamedTuple

from chunkview.core.text.jsregex import compile_js, js_split_at


class PiecePlaces(NamedTuple):
    """Where each piece of a level starts in the whole text (``starts``, in UTF-16
    units), and which stretch of pieces it lies in (``runs``): pieces the text holds one
    glue apart, as a chunk joins them, share a stretch, so the chunk of pieces first to
    last is the text as it is when ``runs[first] == runs[last]``."""

    starts: array
    runs: array


def part_starts(part_lengths: list[int], step: int) -> list[int]:
    """Where each part of a ``str.split`` starts, from the parts' lengths and the
    separator's (``step``); one more: where a part after the last would."""
    return list(accumulate(map(add, part_lengths, repeat(step)), initial=0))


def piece_offsets(text: str, literal: str, keep: object) -> list[int]:
    """Where each piece ``split_on_separator`` cuts ``text`` into starts, for a separator
    that is the plain string ``literal`` (in the keepSeparator mode ``keep``). Every such
    piece is the text at its offset: a part between separators, or in a keep mode a
    part with the separator before it ("start") or after it ("end")."""
    if literal == "":  # every unit is a piece
        return list(range(len(text)))
    parts = list(map(len, text.split(literal)))
    step = len(literal)
    starts = part_starts(parts, step)
    if not keep:  # the parts that are not empty
        return list(compress(starts, parts))
    last = len(parts) - 1
    if keep == "end":  # each part but the last with the separator after it, then the last
        return starts[:last] + starts[last : last + 1 if parts[last] else last]
    if text == "":
        return []
    # "start" (or any other truthy mode): the first part, then each separator with the
    # part after it when that part is not empty
    after = [start - step for start in compress(starts[1 : last + 1], parts[1:])]
    return [0, *after] if parts[0] else after


def piece_places(
    offsets: list[int], lengths: list[int], base: int, glue: str, glue_is_text: bool
) -> PiecePlaces:
    """The pieces of a level at ``offsets`` in its text, which starts at ``base`` in the
    whole: where each starts there, and its stretch (see ``PiecePlaces``). Two pieces
    are one glue apart when the text has nothing else between them: no empty piece was
    dropped there, and the glue is the separator itself (``glue_is_text``; else every
    piece is a stretch of its own). A piece at -1 is not the text anywhere (a regex's
    capture joined to a separator it does not touch): it stays at -1, a stretch alone."""
    if offsets and min(offsets) < 0:  # (rare: only a regex with groups, kept separators)
        starts = array("q", [at + base if at >= 0 else -1 for at in offsets])
        runs, run = array("q"), 0
        for k, at in enumerate(offsets):
            before = offsets[k - 1] if k else -1
            touching = at >= 0 and before >= 0 and at - before == lengths[k - 1] + len(glue)
            if k and not (glue_is_text and touching):
                run += 1
            runs.append(run)
        return PiecePlaces(starts, runs)
    starts = array("q", map(add, offsets, repeat(base)) if base else offsets)
    if not glue_is_text:
        return PiecePlaces(starts, array("q", range(len(offsets))))
    apart = map(sub, offsets[1:], offsets)  # from each piece to the next
    joined = map(add, lengths, repeat(len(glue)))  # a piece and a glue
    return PiecePlaces(starts, array("q", accumulate(map(ne, apart, joined), initial=0)))


def split_placed(text: str, pattern: str, keep: Any) -> tuple[list[str | None], list[int]]:
    """``split_on_separator(text, pattern, keep)`` for a non-empty regex source, and
    where each piece starts in ``text``: -1 for a piece that is not the text there (an
    undefined capture, or in a keep mode a part and a separator that do not touch)."""
    if not keep:
        parts, starts = js_split_at(compile_js(pattern), text)
        kept = [k for k, part in enumerate(parts) if part != ""]
        return [parts[k] for k in kept], [starts[k] for k in kept]
    if text == "":
        return [], []
    parts, starts = js_split_at(compile_js(f"({pattern})"), text)
    return _kept_separators_placed(parts, keep, starts)


def _kept_separators_placed(
    splits: list[str | None], keep: Any, starts: list[int]
) -> tuple[list[str | None], list[int]]:
    """``kept_separators(splits, keep)`` (reference/splitter.py), each piece with where
    it starts (``starts``: each split's start): the same pairs of a part and a separator,
    at the first one's start when the two touch."""
    if keep == "end":
        pairs = [(i, i + 1) for i in range(0, len(splits) - 1, 2)]
        if len(splits) % 2 == 1:
            pairs.append((len(splits) - 1, -1))
    else:
        pairs = [(0, -1)]
        pairs += [(i, i + 1) for i in range(1, len(splits) - 1, 2) if splits[i] and splits[i + 1]]
    pieces: list[str | None] = []
    offsets: list[int] = []
    for i, j in pairs:
        first = splits[i]
        piece = (("undefined" if first is None else first) + (splits[j] or "")) if j >= 0 else first
        if piece == "":
            continue
        touching = j < 0 or not splits[j] or starts[j] == starts[i] + len(first or "")
        pieces.append(piece)
        offsets.append(starts[i] if first is not None and touching else -1)
    return pieces, offsets
