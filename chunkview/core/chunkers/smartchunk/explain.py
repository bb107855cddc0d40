"""Why smartchunk cut where it did, in words: the reasons ``reference`` tells its observer.

Each function words one event of the cascade (README "How does it work?" and "What
strategies are available?"): a first-level unit that fits, a unit too large that goes
down a level or is kept whole, units packed up to maxSize, the overlap carried in front
of a word or grapheme chunk, and the minSize merges. ``stage_reasons`` tells, for the
cascade replay (core/replay.py), how each chunk came to be: the first-level unit it was
first gathered in, the piece the cascade cut from it and the merges that made it.
Positions are code points, sizes UTF-8 bytes. The reference hands in plain numbers and
pieces; nothing here knows how the cascade runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from chunkview.core.chunkers.smartchunk.model import (
    OVERLAP_SHARE,
    Options,
    Piece,
    Unit,
    strategy_at,
)
from chunkview.core.model.explain import Reason, Stage


def bytes_words(size: int) -> str:
    """A size as the reasons write it: "1,024 bytes", "1 byte"."""
    return f"{size:,} byte{'' if size == 1 else 's'}"


# ----- the cuts -------------------------------------------------------------------------
def text_start() -> Reason:
    return Reason(0, "start", "the start of the text")


def unit_fits(at: int, strategy: str, size: int, max_size: int) -> Reason:
    """A first-level unit within maxSize: a chunk of its own."""
    return Reason(
        at,
        strategy,
        f"new {strategy}: at the first level every {strategy} that fits is a chunk "
        f"of its own ({bytes_words(size)} ≤ maxSize {max_size:,})",
    )


def goes_down(
    at: int, strategy: str, lower: str, size: int, max_size: int, level: int, first: bool
) -> Reason:
    """A unit over maxSize cut at the next level's ``lower`` boundaries."""
    over = f"{bytes_words(size)} > maxSize {max_size:,}"
    if level == 0:  # a first-level unit always starts a chunk, however large
        return Reason(at, strategy, f"new {strategy}, {over}: cut at {lower}s")
    if first:  # the level above explained the boundary; say how it goes on
        return Reason(at, f"large-{strategy}", f"its first {strategy}, {over}: cut at {lower}s")
    return Reason(
        at,
        f"large-{strategy}",
        f"the next {strategy} is {over}: it is cut at {lower}s, not packed",
    )


def kept_whole(at: int, strategy: str, size: int, max_size: int) -> Reason:
    """A unit over maxSize with no boundary of a lower level inside."""
    return Reason(
        at,
        "no-smaller-cut",
        f"one {strategy} of {bytes_words(size)} > maxSize {max_size:,} "
        "with no smaller boundary inside: kept whole",
    )


def packed_full(
    at: int, strategy: str, packed: int, next_size: int, together: int, max_size: int
) -> Reason:
    """Units packed up to ``packed`` bytes; the next would make ``together``."""
    return Reason(
        at,
        f"full-{strategy}",
        f"{strategy}s packed up to {bytes_words(packed)}; the next {strategy} "
        f"({bytes_words(next_size)}) would make {together:,} > maxSize {max_size:,}",
    )


def packing_again(at: int, strategy: str, max_size: int) -> Reason:
    """Packing starts afresh after a unit that went down a level."""
    return Reason(
        at,
        f"after-large-{strategy}",
        f"the {strategy} before was over maxSize {max_size:,} and was cut "
        f"at a lower level; {strategy}s are packed again from here",
    )


def overlapped(at: int, strategy: str, carried: int, repeated: int, max_size: int) -> Reason:
    """``carried`` units of the chunk before, ``repeated`` bytes, start this one."""
    share = OVERLAP_SHARE[strategy]
    return Reason(
        at,
        f"overlap-{strategy}",
        f"overlap: the last {carried} {strategy} segment"
        f"{'s' if carried > 1 else ''} of the chunk before are repeated "
        f"({bytes_words(repeated)} ≤ {share:.0%} of maxSize = {int(max_size * share):,})",
    )


# ----- the merges -----------------------------------------------------------------------
def merged_forward(small: int, together: int, min_size: int, max_size: int) -> str:
    """One minSize merge of a chunk into the next (a note: ``merges`` joins them)."""
    return (
        f"merged: the chunk before was only {bytes_words(small)} "
        f"< minSize {min_size:,}, so it took in the next one (together "
        f"{together:,} ≤ maxSize {max_size:,})"
    )


def merges(at: int, notes: list[str]) -> Reason:
    """The merges that made the chunk ending at ``at``, said at ``at``."""
    return Reason(at, "merged", "; ".join(notes))


def merged_last(at: int, small: int, together: int, min_size: int, max_size: int) -> Reason:
    """The last chunk, under minSize, joined the one before."""
    return Reason(
        at,
        "merged",
        f"merged: the last chunk, {bytes_words(small)} < minSize {min_size:,}, joined this "
        f"one (together {together:,} ≤ maxSize {max_size:,})",
    )


# ----- the stages of each chunk, for the replay ------------------------------------------
class _Row(NamedTuple):
    """One chunk: its own start, its first and last split piece, its first-level unit."""

    own: int
    first: int
    last: int
    unit: int  # -1: none


def levels_down(strategies: list[str], strategy: str) -> str:
    """The cascade from the first level down to ``strategy``: "paragraph → line → word"."""
    path = strategies[: strategies.index(strategy) + 1] if strategy in strategies else []
    if not path:  # the strategies ran out: graphemes
        path = [*strategies, strategy]
    return " → ".join(path)


def _rows(split: list[Piece], pieces: list[Piece], units: list[Unit]) -> list[_Row] | None:
    """Each chunk matched with its split pieces and unit, in one pass; None when a chunk
    is no run of split pieces (then nothing is said rather than something wrong)."""
    rows: list[_Row] = []
    j, u, previous_end = 0, 0, None
    for piece in pieces:
        first = j
        while j < len(split) and split[j].end != piece.end:
            j += 1
        if j == len(split):
            return None
        own = piece.start if previous_end is None else max(piece.start, previous_end)
        previous_end = piece.end
        while u + 1 < len(units) and units[u + 1][0] <= own:
            u += 1
        rows.append(_Row(own, first, j, u if units and units[u][0] <= own else -1))
        j += 1
    return rows


class _Sizes(NamedTuple):
    """Byte sizes for each row, from the offsets in one numpy step each."""

    first: list[int]  # the first split piece
    carried: list[int]  # the overlap in front of the chunk's own start
    last: list[int]  # the last split piece
    together: list[int]  # the chunk


def _sizes(
    rows: list[_Row], split: list[Piece], pieces: list[Piece], offsets: Sequence[int]
) -> _Sizes:
    prefix = np.asarray(offsets)
    a = np.array(
        [(row.own, *split[row.first][:2], *split[row.last][:2]) for row in rows],
        dtype=np.int64,
    ).reshape(-1, 5)
    p = np.array([(q.start, q.end) for q in pieces], dtype=np.int64).reshape(-1, 2)
    return _Sizes(
        (prefix[a[:, 2]] - prefix[a[:, 1]]).tolist(),
        np.maximum(prefix[a[:, 0]] - prefix[a[:, 1]], 0).tolist(),
        (prefix[a[:, 4]] - prefix[a[:, 3]]).tolist(),
        (prefix[p[:, 1]] - prefix[p[:, 0]]).tolist(),
    )


def _gathered(unit: Unit, unit_size: int, first_level: str, max_size: int) -> Stage:
    if unit_size <= max_size:
        words = (
            f"first gathered: a {first_level} of {bytes_words(unit_size)} ≤ maxSize "
            f"{max_size:,}, a chunk of its own at the first level"
        )
    else:
        words = (
            f"first gathered: a {first_level} of {bytes_words(unit_size)} > maxSize "
            f"{max_size:,}: too large, it goes down the cascade"
        )
    return Stage("gathered", unit[0], unit[1], words)


def _split_stage(
    first: Piece, own: int, size: int, carried: int, strategies: list[str], max_size: int
) -> Stage:
    levels = levels_down(strategies, first.strategy)
    if size > max_size:
        words = (
            f"split: down the cascade ({levels}), one {first.strategy} of "
            f"{bytes_words(size)} > maxSize {max_size:,} with no smaller boundary "
            "inside: kept whole"
        )
    else:
        words = (
            f"split: down the cascade ({levels}), {first.strategy}s packed into "
            f"{bytes_words(size)} ≤ maxSize {max_size:,}"
        )
    if first.start < own:  # packing began with the overlap: the replay shows it last
        words += f", {bytes_words(carried)} of them the overlap carried in front"
    return Stage("split", max(first.start, own), first.end, words)


def _merged_stage(
    piece: Piece, focus_start: int, joined: int, sizes: tuple[int, int, int], options: Options
) -> Stage:
    first_size, last_size, together = sizes
    min_size, max_size = options.min_size, options.max_size
    if first_size < min_size:
        words = (
            f"merged: at {bytes_words(first_size)} it was under minSize {min_size:,}, so "
            f"it took in the next {'piece' if joined == 1 else f'{joined} pieces'} "
            f"(together {together:,} ≤ maxSize {max_size:,})"
        )
    else:
        words = (
            f"merged: the last chunk, {bytes_words(last_size)} < minSize {min_size:,}, "
            f"joined it (together {together:,} ≤ maxSize {max_size:,})"
        )
    return Stage("merged", piece.start, piece.end, words, (focus_start, piece.end))


def stage_reasons(
    units: list[Unit],
    split: list[Piece],
    pieces: list[Piece],
    offsets: Sequence[int],
    options: Options,
) -> list[Reason]:
    """One stage-only reason per chunk made in more than one step, at its own start
    (see attach_by_point): ``units`` are the first level's, ``split`` the cascade's
    pieces before the minSize merges, ``pieces`` the chunks, ``offsets`` each code
    point's UTF-8 byte offset.

    The app asks for reasons on every run, so this stays cheap: one pass to match each
    chunk with its split pieces and first-level unit, the byte sizes in one numpy step,
    and the words of a unit shared by its chunks made once."""
    rows = _rows(split, pieces, units)
    if rows is None:
        return []
    sizes = _sizes(rows, split, pieces, offsets)
    first_level = strategy_at(options.strategies, 0)
    gathered: dict[int, Stage] = {}
    reasons: list[Reason] = []
    for k, row in enumerate(rows):
        first = split[row.first]
        if row.last == row.first and row.unit >= 0 and (first.start, first.end) == units[row.unit]:
            continue  # a first-level unit that fits, as it is: one step, nothing to replay
        stages = []
        if row.unit >= 0:
            unit = units[row.unit]
            if row.unit not in gathered:
                unit_size = offsets[unit[1]] - offsets[unit[0]]
                gathered[row.unit] = _gathered(unit, unit_size, first_level, options.max_size)
            stages.append(gathered[row.unit])
            if (first.start, first.end) != unit:
                stages.append(
                    _split_stage(
                        first,
                        row.own,
                        sizes.first[k],
                        sizes.carried[k],
                        options.strategies,
                        options.max_size,
                    )
                )
        if row.last > row.first:
            focus_start = max(split[row.first + 1].start, first.end)
            chunk_sizes = (sizes.first[k], sizes.last[k], sizes.together[k])
            stages.append(
                _merged_stage(pieces[k], focus_start, row.last - row.first, chunk_sizes, options)
            )
        if stages:
            reasons.append(Reason(row.own, "", "", tuple(stages)))
    return reasons
