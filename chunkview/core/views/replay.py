"""The cascade replay of one chunk: how it came to be, step by step, for step-through
mode (app/step_through.py plays them; this module holds no Qt).

The steps come from what the run recorded (``Reason.stages``, explain.py): the chunk as
first gathered, then split, then merged; the overlap is read from the span itself (the
part before ``own_start`` repeats the chunk before) with the words of its reason. A port
that records no stages still gets a replay where its reason allows: its cut, then its
overlap.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkview.core.model.explain import Stage, reason_words, stages_of
from chunkview.core.model.spans import Span

#: the steps in the order a chunk goes through them
ORDER = ("gathered", "split", "merged", "cut", "overlapped")
#: what each step is called on screen
TITLES = {
    "gathered": "First gathered",
    "split": "Split",
    "merged": "Merged",
    "cut": "Cut",
    "overlapped": "Overlapped",
}


def _parts(text: str) -> list[str]:
    return [part.strip() for part in text.split("; ") if part.strip()]


def cascade_stages(spans: Sequence[Span], index: int) -> list[Stage]:
    """The steps of chunk ``index`` in order, each the chunk as it stood after it (code
    points of the text shown); empty when the run recorded no reason for it."""
    if not 0 <= index < len(spans):
        return []
    span = spans[index]
    reason = span.reason
    if reason is None:
        return []
    parts = _parts(reason_words(reason))
    overlap_words = next((p for p in parts if p.startswith("overlap")), None)
    stages = [s for s in stages_of(reason) if s.name != "overlapped"]
    if not stages:  # no recorded steps: the cut the reason names
        cut = next((p for p in parts if not p.startswith("overlap")), None)
        if cut is not None:
            stages.append(Stage("cut", span.own_start, span.end, cut))
    stages.sort(key=lambda s: ORDER.index(s.name) if s.name in ORDER else len(ORDER))
    if span.start < span.own_start:
        repeated = span.own_start - span.start
        stages.append(
            Stage(
                "overlapped",
                span.start,
                span.end,
                overlap_words
                or f"overlap: its first {repeated:,} characters repeat the end of the chunk before",
                (span.start, span.own_start),
            )
        )
    return stages


def stage_title(stage: Stage) -> str:
    """The step's name as the replay shows it."""
    return TITLES.get(stage.name, stage.name.capitalize())
