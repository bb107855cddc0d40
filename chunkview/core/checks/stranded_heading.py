"""A heading left at the end of a chunk while its section starts in the next one."""

from __future__ import annotations

from chunkview.core.checks.context import CheckInput
from chunkview.core.checks.markdown import first_ink
from chunkview.core.model.spans import Warning

KIND = "stranded-heading"


def check(given: CheckInput) -> list[Warning]:
    text = given.document.text
    warnings = []
    for heading in given.structure.headings:
        section = first_ink(text, heading.end)
        if section >= len(text):
            continue  # the document ends with it: no section to lose
        for at in given.ends_between(heading.end, section):
            chunk = given.located[at]
            if chunk.start > heading.start:
                continue
            follower = given.holder(section)
            if follower is not None and follower.start <= heading.start:
                continue  # the overlap repeats the heading in front of its section
            where = f"chunk {follower.index}" if follower is not None else "no chunk"
            warnings.append(
                Warning(
                    KIND,
                    f"heading “{heading.text[:60]}” (level {heading.level}) ends chunk "
                    f"{chunk.index}; its section starts in {where}",
                    heading.start,
                    heading.end,
                    chunk.index,
                )
            )
    return warnings
