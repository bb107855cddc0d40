"""§6.2's and §6.5's cosines, vectorised: they replace ``reference.similarities`` and
``reference.pair_similarities``.

Why they are equal: ``cosine_rows`` (chunkview.core.embed) works out each row pair's
cosine as ``cosine`` does, bit for bit: the products are exact IEEE products, ``cumsum``
adds them one after another in index order, and the square roots and the division are
the same operations. The one difference is the sign of a zero: ``cumsum`` starts from
the first product, which may be −0.0, where the loop starts from +0.0. Adding 0.0 to
each result turns −0.0 into +0.0 and changes nothing else. ``similarities`` takes the
maximum over the same window (the next sentence, then each distance up to the
lookahead that stays within the text) one distance at a time: a maximum does not
depend on the order it is taken in, and no cosine here is NaN. The mean and variance
are then summed left to right in Python, as the reference sums them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from chunkview.core.embed import cosine_rows


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
    matrix = np.asarray(vectors, dtype=np.float64)
    best = cosine_rows(matrix[:-1], matrix[1:])  # the next sentence, always
    distance = 2
    while distance <= lookahead and distance < n:  # then j <= i + lookahead, j <= n - 1
        best[: n - distance] = np.maximum(
            best[: n - distance], cosine_rows(matrix[:-distance], matrix[distance:])
        )
        distance += 1
    sims = (best + 0.0).tolist()
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
    rows = cosine_rows(np.asarray(firsts, dtype=np.float64), np.asarray(seconds, dtype=np.float64))
    return (rows + 0.0).tolist()
