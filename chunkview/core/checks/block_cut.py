"""A fenced code block cut by a chunk boundary."""

from __future__ import annotations

from chunkview.core.checks.context import CheckInput
from chunkview.core.checks.markdown import first_ink
from chunkview.core.model.spans import Warning

KIND = "block-cut"


def check(given: CheckInput) -> list[Warning]:
    text = given.document.text
    warnings = []
    for fence in given.structure.fences:
        cuts = [
            at
            for at in given.ends_between(fence.start + 1, fence.end - 1)
            if first_ink(text, given.located[at].end) < fence.end
        ]
        if not cuts:
            continue
        first = given.located[cuts[0]]
        label = f" ({fence.info.split()[0]})" if fence.info else ""
        lines = text.count("\n", fence.start, fence.end)
        parts = "two" if len(cuts) == 1 else f"{len(cuts) + 1} parts"
        warnings.append(
            Warning(
                KIND,
                f"a code block{label} of {lines} lines is cut in {parts} at offset {first.end}",
                fence.start,
                fence.end,
                first.index,
            )
        )
    return warnings
