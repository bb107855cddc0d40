"""§6.2's and §6.5's cosines, vectorised: they replace ``reference.similarities`` and
``reference.pair_similarities``.

Why they are equal, bit for bit: ``_cosine_rows`` runs the loop of
``chunkview.core.text.embed.cosine`` for all row pairs at once. It starts the dot product and
both squared norms from 0.0 and adds one component's exact IEEE products at a time, in
index order, then takes the same square roots and division, 0 where the denominator is
0: for each pair, the same operations on the same numbers in the same order.
``similarities`` takes the same maximum as the reference (the next sentence first, then
each later one within the lookahead and the text), one distance at a time for all
sentences at once, keeping the earlier value unless the later is greater, as Python's
``max`` does (no cosine here is NaN). The mean and variance are summed left to right in
Python, as in the reference.

``as_arrays`` gives the combining pass its node vectors as arrays once (the same
float64 numbers), so that each pass stacks them without reading lists again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np


def _cosine_rows(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``cosine`` of each row pair: the loop over the components, for every pair at once."""
    dot, norm_a, norm_b = (np.zeros(len(first)) for _ in range(3))
    for x, y in zip(first.T, second.T):  # component by component, from index 0
        dot += x * y
        norm_a += x * x
        norm_b += y * y
    denominator = np.sqrt(norm_a) * np.sqrt(norm_b)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator != 0, dot / denominator, 0.0)


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
    best = _cosine_rows(matrix[:-1], matrix[1:])  # the next sentence, always
    distance = 2
    while distance <= lookahead and distance < n:  # then j <= i + lookahead, j <= n - 1
        ahead = _cosine_rows(matrix[:-distance], matrix[distance:])
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
    first = np.asarray(firsts, dtype=np.float64)
    second = np.asarray(seconds, dtype=np.float64)
    result: list[float] = _cosine_rows(first, second).tolist()
    return result


def as_arrays(vectors: Sequence[Sequence[float]]) -> list[np.ndarray]:
    """Each vector as a float64 array (the same numbers)."""
    return [np.asarray(vector, dtype=np.float64) for vector in vectors]
