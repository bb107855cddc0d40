"""The number option a command steps (``--param``) and the values it takes (``--values``),
checked alike by ``sweep``, ``page`` and ``eval``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chunkview.commands.common import UsageError
from chunkview.core.batch.sweep import numeric_params, parse_values
from chunkview.core.chunkers.entry import Entry


def stepped_values(
    entry: Entry, options: Mapping[str, Any], param: str, values: str | None
) -> list[float]:
    """The values ``values`` (start:stop:step or a,b,c) gives ``param``, whole numbers for
    an int option; a UsageError naming the entry's number options when ``param`` is not
    one of them, or saying what is wrong with the values. ``entry`` is the one
    ``chunk_input.entry_for_checks`` gives (a chunker file's function described, never
    imported here)."""
    found = entry.param(param)
    if found is None or found.kind not in ("int", "float"):
        names = ", ".join(p.name for p in numeric_params(entry, options))
        raise UsageError(f"{entry.id} has no numeric option {param!r} (it has: {names})")
    if not values:
        raise UsageError("--param needs --values (start:stop:step or a,b,c)")
    try:
        return parse_values(values, integer=found.kind == "int")
    except ValueError as exc:
        raise UsageError(f"--values: {exc}") from None
