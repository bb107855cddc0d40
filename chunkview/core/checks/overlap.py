"""Overlap actually repeated at each boundary, against the overlap the entry was asked for."""

from __future__ import annotations

from collections.abc import Sequence

from chunkview.core.checks.context import CheckInput
from chunkview.core.model.kinds import SizeUnit
from chunkview.core.model.spans import SIZE_FUNCTIONS, Span, Warning

KIND = "overlap"


def repeated(spans: Sequence[Span], text: str, unit: SizeUnit = "chars") -> list[int]:
    """Per boundary between consecutive located spans: the size (in ``unit``) of the text
    the later chunk repeats from the earlier one (0 when they do not overlap)."""
    size_of = SIZE_FUNCTIONS.get(unit, len)
    sizes = []
    for prev, cur in zip(spans, spans[1:]):
        if prev.start <= cur.start < prev.end:
            sizes.append(size_of(text[cur.start : prev.end]))
        else:
            sizes.append(0)
    return sizes


def check(given: CheckInput) -> list[Warning]:
    configured = given.settings.overlap
    if not configured or configured <= 0 or len(given.located) < 2:
        return []
    unit = given.settings.overlap_unit
    located = given.located
    sizes = repeated(located, given.document.text, unit or "chars")
    none = [i for i, size in enumerate(sizes) if size == 0]
    over = [i for i, size in enumerate(sizes) if unit and size > configured]
    boundaries = len(sizes)
    warnings = []
    for i in none:
        prev, cur = located[i], located[i + 1]
        warnings.append(
            Warning(
                KIND,
                f"chunks {prev.index}|{cur.index} repeat nothing though overlap is "
                f"{configured:g} ({len(none)} of {boundaries} boundaries)",
                cur.start,
                max(cur.start, prev.end),
                cur.index,
            )
        )
    for i in over:
        prev, cur = located[i], located[i + 1]
        warnings.append(
            Warning(
                KIND,
                f"chunks {prev.index}|{cur.index} repeat {sizes[i]} {unit}, more than "
                f"overlap {configured:g}",
                cur.start,
                prev.end,
                cur.index,
            )
        )
    return warnings
