"""How each smartchunk chunk came to be, for the cascade replay (core/replay.py).

Called only when the run explains itself, after the cut and merge reasons: for each
chunk, the first-level unit it was first gathered in (a paragraph, with its size against
maxSize), the piece the cascade cut from it (the levels it went down and the size the
piece was packed to) and, when minSize merged pieces, the chunk they made. The overlap is
read from the span by the replay. Positions are code points, sizes UTF-8 bytes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chunkview.core.model.explain import Reason, Stage


def _bytes(size: int) -> str:
    return f"{size:,} byte{'' if size == 1 else 's'}"


def _levels(strategies: list[str], strategy: str) -> str:
    """The cascade from the first level down to ``strategy``: "paragraph → line → word"."""
    path = strategies[: strategies.index(strategy) + 1] if strategy in strategies else []
    if not path:  # the strategies ran out: graphemes
        path = [*strategies, strategy]
    return " → ".join(path)


def stage_reasons(cascade: Any, split: list, pieces: list, min_size: int) -> list[Reason]:
    """One stage-only reason per chunk made in more than one step, at its own start
    (see attach_by_point).

    The app asks for reasons on every run, so this stays cheap: one pass to match each
    chunk with its split pieces and first-level unit, the byte sizes in one numpy step,
    and the words of a unit shared by its chunks made once."""
    max_size = cascade.max_size
    units = cascade.first_units
    first_level = cascade.strategies[0] if cascade.strategies else "grapheme"
    # pass 1: for each chunk, its own start, first and last split piece, and unit
    rows: list[tuple[int, int, int, int]] = []
    j, u, previous_end = 0, 0, None
    for piece in pieces:
        first = j
        while j < len(split) and split[j].end != piece.end:
            j += 1
        if j == len(split):  # not a run of split pieces: say nothing wrong
            return []
        own = piece.start if previous_end is None else max(piece.start, previous_end)
        previous_end = piece.end
        while u + 1 < len(units) and units[u + 1][0] <= own:
            u += 1
        rows.append((own, first, j, u if units and units[u][0] <= own else -1))
        j += 1
    # the sizes, in bytes, from the prefix sums in one step
    prefix = cascade.bytes.prefix
    a = np.array(
        [
            (own, split[f].start, split[f].end, split[last].start, split[last].end)
            for own, f, last, _ in rows
        ],
        dtype=np.int64,
    ).reshape(-1, 5)
    p = np.array([(q.start, q.end) for q in pieces], dtype=np.int64).reshape(-1, 2)
    first_sizes = (prefix[a[:, 2]] - prefix[a[:, 1]]).tolist()
    carried = np.maximum(prefix[a[:, 0]] - prefix[a[:, 1]], 0).tolist()
    last_sizes = (prefix[a[:, 4]] - prefix[a[:, 3]]).tolist()
    together = (prefix[p[:, 1]] - prefix[p[:, 0]]).tolist()
    gathered: dict[int, Stage] = {}
    reasons: list[Reason] = []
    for k, (own, f, last, u) in enumerate(rows):
        first = split[f]
        if last == f and u >= 0 and (first.start, first.end) == units[u]:
            continue  # a first-level unit that fits, as it is: one step, nothing to replay
        stages = []
        if u >= 0:
            unit = units[u]
            stage = gathered.get(u)
            if stage is None:
                unit_size = int(prefix[unit[1]] - prefix[unit[0]])
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
                stage = gathered[u] = Stage("gathered", unit[0], unit[1], words)
            stages.append(stage)
            if (first.start, first.end) != unit:
                piece_size = first_sizes[k]
                levels = _levels(cascade.strategies, first.strategy)
                if piece_size > max_size:
                    words = (
                        f"split: down the cascade ({levels}), one {first.strategy} of "
                        f"{_bytes(piece_size)} > maxSize {max_size:,} with no smaller boundary "
                        "inside: kept whole"
                    )
                else:
                    words = (
                        f"split: down the cascade ({levels}), {first.strategy}s packed into "
                        f"{_bytes(piece_size)} ≤ maxSize {max_size:,}"
                    )
                if first.start < own:  # packing began with the overlap: the replay shows it last
                    words += f", {_bytes(carried[k])} of them the overlap carried in front"
                stages.append(Stage("split", max(first.start, own), first.end, words))
        if last > f:
            piece = pieces[k]
            joined = last - f
            if first_sizes[k] < min_size:
                words = (
                    f"merged: at {_bytes(first_sizes[k])} it was under minSize {min_size:,}, so "
                    f"it took in the next {'piece' if joined == 1 else f'{joined} pieces'} "
                    f"(together {together[k]:,} ≤ maxSize {max_size:,})"
                )
            else:
                words = (
                    f"merged: the last chunk, {_bytes(last_sizes[k])} < minSize {min_size:,}, "
                    f"joined it (together {together[k]:,} ≤ maxSize {max_size:,})"
                )
            focus = (max(split[f + 1].start, first.end), piece.end)
            stages.append(Stage("merged", piece.start, piece.end, words, focus))
        if stages:
            reasons.append(Reason(own, "", "", tuple(stages)))
    return reasons
