"""A Markdown table cut by a chunk boundary, and whether each later part kept the header."""

from __future__ import annotations

from chunkview.core.checks.context import CheckInput
from chunkview.core.checks.markdown import first_ink
from chunkview.core.model.spans import Warning

KIND = "table-cut"


def check(given: CheckInput) -> list[Warning]:
    text = given.document.text
    warnings = []
    for table in given.structure.tables:
        cuts = [
            at
            for at in given.ends_between(table.start + 1, table.end - 1)
            if first_ink(text, given.located[at].end) < table.end
        ]
        if not cuts:
            continue
        header = table.header.strip()
        lost = 0
        for at in cuts:
            later = given.located[at + 1] if at + 1 < len(given.located) else None
            if later is None:
                continue
            if later.start > table.start and header not in later.text:
                lost += 1
        first = given.located[cuts[0]]
        parts = len(cuts) + 1
        if lost == 0:
            fate = "every later part keeps the header row"
        elif lost == len(cuts) == 1:
            fate = "the later part lost the header row"
        else:
            fate = f"{lost} of the {len(cuts)} later parts lost the header row"
        warnings.append(
            Warning(
                KIND,
                f"a table of {table.rows} rows is cut into {parts} parts at offset "
                f"{first.end}; {fate}",
                table.start,
                table.end,
                first.index,
            )
        )
    return warnings
