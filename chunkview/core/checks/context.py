"""What every check reads: the document, its located spans and the settings."""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from chunkview.core.checks.markdown import EMPTY, Structure, structure
from chunkview.core.model.document import Document
from chunkview.core.model.kinds import SizeUnit
from chunkview.core.model.spans import Span

if TYPE_CHECKING:  # entry.py imports spans, which runs the checks
    from chunkview.core.chunkers.entry import Entry

#: named token limits of common embedding models (a number works too)
TOKEN_LIMITS = {"256": 256, "512": 512, "8191": 8191}
#: document kinds whose text may hold Markdown structure
MARKDOWN_KINDS = ("markdown", "text")
#: document kinds written as prose, where a sentence can be cut
PROSE_KINDS = ("markdown", "text", "latex", "turns")


@dataclass(frozen=True)
class CheckSettings:
    """What the checks compare against, besides the chunks themselves."""

    #: the overlap the entry was asked for, and the size unit it counts in
    #: (None: the entry has no overlap, or it counts in something else, such as turns)
    overlap: float | None = None
    overlap_unit: SizeUnit | None = None
    #: the embedding model's token limit (None: no limit check) and the tokenizer counting
    token_limit: int | None = None
    tokenizer: str = "cl100k"
    #: text the embedding model sees in front of each chunk though the chunk's text
    #: lacks it (semantic-chunking's chunkPrefix with excludeChunkPrefixInResults)
    embedded_prefix: str = ""


@dataclass
class CheckInput:
    document: Document
    spans: Sequence[Span]
    settings: CheckSettings = field(default_factory=CheckSettings)

    @cached_property
    def located(self) -> list[Span]:
        return [s for s in self.spans if s.located != "missing"]

    @cached_property
    def structure(self) -> Structure:
        if self.document.kind not in MARKDOWN_KINDS or not self.located:
            return EMPTY
        return structure(self.document.text)

    @cached_property
    def ends(self) -> list[tuple[int, int]]:
        """(end, position in ``located``) of every located span, sorted by end."""
        return sorted((s.end, i) for i, s in enumerate(self.located))

    @cached_property
    def starts(self) -> list[tuple[int, int]]:
        """(start, position in ``located``) of every located span, sorted by start."""
        return sorted((s.start, i) for i, s in enumerate(self.located))

    def ends_between(self, low: int, high: int) -> list[int]:
        """Positions in ``located`` of the spans whose end lies in low..high (both kept)."""
        ends = self.ends
        i = bisect.bisect_left(ends, (low, -1))
        found = []
        while i < len(ends) and ends[i][0] <= high:
            found.append(ends[i][1])
            i += 1
        return found

    def holder(self, position: int) -> Span | None:
        """The located span that holds ``position`` and starts earliest."""
        starts = self.starts
        i = bisect.bisect_right(starts, (position, len(starts)))
        best = None
        # spans overlap a few at a time: the holders are among the last starts before it
        for start, at in reversed(starts[max(0, i - 64) : i]):
            span = self.located[at]
            if span.end > position and (best is None or start <= best.start):
                best = span
        return best


def settings_for(
    entry: Entry,
    options: Mapping[str, Any],
    token_limit: int | None = None,
    tokenizer: str | None = None,
) -> CheckSettings:
    """The check settings an entry's options imply (the configured overlap and its unit)."""
    overlap, unit = None, None
    for param in entry.params:
        if param.role != "overlap":
            continue
        value = options.get(param.name, param.default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or param.omitted(value):
            continue
        overlap = value
        unit = entry.size_unit
        if "Turns" in param.name or options.get("strategy") == "token":
            unit = None  # counted in turns or tokens: only "nothing repeated" can be judged
    return CheckSettings(
        overlap, unit, token_limit, tokenizer or "cl100k", embedded_prefix(options)
    )


def embedded_prefix(options: Mapping[str, Any]) -> str:
    """What is embedded in front of each chunk but not returned in its text: a
    ``chunkPrefix`` that ``excludeChunkPrefixInResults`` strips from the results (it stays
    in the embeddings and token counts, "<prefix>: " as semantic-chunking writes it)."""
    prefix = options.get("chunkPrefix")
    if prefix and str(prefix).strip() and options.get("excludeChunkPrefixInResults"):
        return f"{prefix}: "
    return ""


def parse_token_limit(value: str | int | None) -> int | None:
    """A token limit from a setting: 256, 512, 8191 or any positive number; None for off."""
    if value is None or value == "" or value == "off":
        return None
    number = TOKEN_LIMITS.get(str(value), value)
    try:
        number = int(number)
    except (TypeError, ValueError):
        raise ValueError(f"token limit {value!r} is not a number") from None
    if number <= 0:
        raise ValueError(f"token limit {value!r} must be above 0")
    return number
