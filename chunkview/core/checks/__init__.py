"""Structure checks: each looks at a layout's spans and returns Warnings of one kind.

``CHECKS`` is the ordered list; ``run_checks`` runs them all. A check reads a
``CheckInput`` (document, spans, settings) and shares its Markdown parse with the others.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chunkview.core.checks import (
    block_cut,
    mid_sentence,
    over_limit,
    overlap,
    stranded_heading,
    table_cut,
)
from chunkview.core.checks.context import (
    CheckInput,
    CheckSettings,
    parse_token_limit,
    settings_for,
)
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span, Warning

Check = Callable[[CheckInput], list[Warning]]

#: (warning kind, check), in the order the checks run and are listed
CHECKS: tuple[tuple[str, Check], ...] = (
    (stranded_heading.KIND, stranded_heading.check),
    (table_cut.KIND, table_cut.check),
    (block_cut.KIND, block_cut.check),
    (mid_sentence.KIND, mid_sentence.check),
    (overlap.KIND, overlap.check),
    (over_limit.KIND, over_limit.check),
)
KINDS = tuple(kind for kind, _ in CHECKS)


def run_checks(
    document: Document,
    spans: Sequence[Span],
    settings: CheckSettings | None = None,
    between: Callable[[], None] | None = None,
) -> list[Warning]:
    """Every check's warnings on one layout, in ``CHECKS`` order; ``between`` is called
    before each check (a cancelled run raises there)."""
    given = CheckInput(document, spans, settings or CheckSettings())
    warnings: list[Warning] = []
    for _, check in CHECKS:
        if between is not None:
            between()
        warnings.extend(check(given))
    return warnings


__all__ = [
    "CHECKS",
    "KINDS",
    "CheckInput",
    "CheckSettings",
    "parse_token_limit",
    "run_checks",
    "settings_for",
]
