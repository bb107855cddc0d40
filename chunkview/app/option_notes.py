"""Notes on settings that contradict each other but that the library accepts: shown
beside the options, never as an error (the run goes ahead as the library would)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chunkview.core.chunkers.entry import Entry

#: an overlap option whose maximum is this small counts something else (turns), not sizes
SIZE_LIKE_MAXIMUM = 1000


def _names(entry: Entry) -> dict[str, str]:
    """The option's name for each role whose values are sizes in the entry's unit."""
    names: dict[str, str] = {}
    for param in entry.params:
        if param.role is None or param.kind != "int":
            continue
        if param.maximum is not None and param.maximum < SIZE_LIKE_MAXIMUM:
            continue
        names.setdefault(param.role, param.name)
    return names


def contradictions(entry: Entry, options: Mapping[str, Any]) -> list[str]:
    """Plain-text notes: target above max, min above target (or above max when there is
    no target), an overlap of half the size or more."""
    limits = entry.limits(options)
    names = _names(entry)
    # a size of zero or less is refused or hangs: the error says so, not a note
    sizes = {role: value for role, value in limits.items() if role in names and value > 0}
    notes = []

    def above(high: str, low: str, consequence: str) -> None:
        if high in sizes and low in sizes and sizes[high] > sizes[low]:
            notes.append(
                f"{names[high]} ({sizes[high]:g}) is above {names[low]} ({sizes[low]:g}): "
                f"{consequence}"
            )

    above("target", "max", "chunks are cut at maxSize before they reach the target.")
    above("min", "target", "every piece is short of the minimum and joins its neighbour.")
    if "target" not in sizes:
        above("min", "max", "no chunk can reach the minimum without passing the maximum.")
    size_role = "target" if "target" in sizes else "max"
    overlap, size = sizes.get("overlap"), sizes.get(size_role)
    if overlap is not None and size and overlap >= size / 2:
        notes.append(
            f"{names['overlap']} ({overlap:g}) is half of {names[size_role]} ({size:g}) or "
            "more: most of each chunk repeats the one before."
        )
    return notes
