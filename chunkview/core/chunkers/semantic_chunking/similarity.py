"""§6.2's and §6.5's cosines, vectorised: they replace ``reference.similarities`` and
``reference.pair_similarities``.

Why they are equal, bit for bit: ``cosine_rows`` (chunkview.core.embed) works out each
row pair's cosine with the operations of ``cosine``: exact IEEE products, ``cumsum``
adding them one after another in index order, the same square roots and division, and 0
where the denominator is 0. Only the start differs: ``cumsum`` starts from the first
product, the loop from 0.0 plus it, which differs when that product is −0.0. A column of
zeros put in front makes the sums start from 0.0 · 0.0 = 0.0, as the loop's do, and adds
nothing to the norms. ``similarities`` then takes the same maximum as the reference (the
next sentence first, then each later one within the lookahead and the text), one
distance at a time for all sentences at once, keeping the earlier value unless the later
is greater, as Python's ``max`` does (no cosine here is NaN). The mean and variance are
summed left to right in Python, as in the reference.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from chunkview.core.embed import cosine_rows


def _rows(vectors: Sequence[Any]) -> np.ndarray:
    """The vectors as float64 rows, behind a column of zeros (see above)."""
    matrix = np.asarray(vectors, dtype=np.float64)
    return np.hstack([np.zeros((len(matrix), 1)), matrix])


def similarities(
    vectors: Sequence[Sequence[float]], lookahead: float
) -> tuple[list[float], float, float]:
    """``reference.similarities``: each sentence's best similarity with the next ones
    (§6.2), their mean and variance."""
    n = len(vectors)
    if n == 0:
        return [], 0.0, 0.0
    if n == 1:
        return [], math.nan, math.nan
    matrix = _rows(vectors)
    best = cosine_rows(matrix[:-1], matrix[1:])  # the next sentence, always
    distance = 2
    while distance <= lookahead and distance < n:  # then j <= i + lookahead, j <= n - 1
        ahead = cosine_rows(matrix[:-distance], matrix[distance:])
        head = best[: n - distance]
        best[: n - distance] = np.where(ahead > head, ahead, head)
        distance += 1
    sims = best.tolist()
    total = 0.0
    for sim in sims:  # left to right, as the library sums
        total += sim
    average = total / (n - 1)
    spread = 0.0
    for sim in sims:
        spread += (sim - average) ** 2
    return sims, average, spread / (n - 1)


def pair_similarities(firsts: list[Any], seconds: list[Any]) -> list[float]:
    """``reference.pair_similarities``: the cosine of each pair (§6.5 step 1)."""
    if not firsts:
        return []
    result: list[float] = cosine_rows(_rows(firsts), _rows(seconds)).tolist()
    return result
