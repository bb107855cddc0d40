"""How each smartchunk chunk came to be, for the cascade replay (core/replay.py).

Called only when the run explains itself, after the cut and merge reasons: for each
chunk, the first-level unit it was first gathered in (a paragraph, with its size against
maxSize), the piece the cascade cut from it (the levels it went down and the size the
piece was packed to) and, when minSize merged pieces, the chunk they made. The overlap is
read from the span by the replay. Positions are code points, sizes UTF-8 bytes.
"""

from __future__ import annotations

import bisect
from typing import Any

from chunkview.core.explain import Reason, Stage


def _bytes(size: int) -> str:
    return f"{size:,} byte{'' if size == 1 else 's'}"


def _levels(strategies: list[str], strategy: str) -> str:
    """The cascade from the first level down to ``strategy``: "paragraph → line → word"."""
    path = strategies[: strategies.index(strategy) + 1] if strategy in strategies else []
    if not path:  # the strategies ran out: graphemes
        path = [*strategies, strategy]
    return " → ".join(path)


def stage_reasons(cascade: Any, split: list, pieces: list, min_size: int) -> list[Reason]:
    """One stage-only reason per chunk, at its own start (see attach_by_point)."""
    size, max_size = cascade.size, cascade.max_size
    units = cascade.first_units
    starts = [u[0] for u in units]
    first_level = cascade.strategies[0] if cascade.strategies else "grapheme"
    reasons: list[Reason] = []
    j = 0
    previous_end = None
    for piece in pieces:
        group = []  # the split pieces this chunk is made of (merges join neighbours)
        while j < len(split) and split[j].end != piece.end:
            group.append(split[j])
            j += 1
        if j == len(split):  # not a run of split pieces: say nothing wrong
            return []
        group.append(split[j])
        j += 1
        own = piece.start if previous_end is None else max(piece.start, previous_end)
        previous_end = piece.end
        stages = []
        at = bisect.bisect_right(starts, own) - 1
        first = group[0]
        if at >= 0:
            unit = units[at]
            unit_size = size(*unit)
            if unit_size <= max_size:
                words = (
                    f"first gathered: a {first_level} of {_bytes(unit_size)} ≤ maxSize "
                    f"{max_size:,}, a chunk of its own at the first level"
                )
            else:
                words = (
                    f"first gathered: a {first_level} of {_bytes(unit_size)} > maxSize "
                    f"{max_size:,}: too large, it goes down the cascade"
                )
            stages.append(Stage("gathered", unit[0], unit[1], words))
            if (first.start, first.end) != unit:
                piece_size = size(first.start, first.end)
                carried = size(first.start, own) if first.start < own else 0
                if piece_size > max_size:
                    words = (
                        f"split: down the cascade ({_levels(cascade.strategies, first.strategy)}"
                        f"), one {first.strategy} of {_bytes(piece_size)} > maxSize "
                        f"{max_size:,} with no smaller boundary inside: kept whole"
                    )
                else:
                    words = (
                        f"split: down the cascade ({_levels(cascade.strategies, first.strategy)}"
                        f"), {first.strategy}s packed into {_bytes(piece_size)} ≤ maxSize "
                        f"{max_size:,}"
                    )
                if carried:  # packing began with the overlap: the replay shows it last
                    words += f", {_bytes(carried)} of them the overlap carried in front"
                stages.append(Stage("split", max(first.start, own), first.end, words))
        if len(group) > 1:
            first_size, together = size(first.start, first.end), size(piece.start, piece.end)
            joined = len(group) - 1
            if first_size < min_size:
                words = (
                    f"merged: at {_bytes(first_size)} it was under minSize {min_size:,}, so it "
                    f"took in the next {'piece' if joined == 1 else f'{joined} pieces'} "
                    f"(together {together:,} ≤ maxSize {max_size:,})"
                )
            else:
                last = group[-1]
                words = (
                    f"merged: the last chunk, {_bytes(size(last.start, last.end))} < minSize "
                    f"{min_size:,}, joined it (together {together:,} ≤ maxSize {max_size:,})"
                )
            focus = (max(group[1].start, first.end), piece.end)
            stages.append(Stage("merged", piece.start, piece.end, words, focus))
        if stages:
            reasons.append(Reason(own, "", "", tuple(stages)))
    return reasons
