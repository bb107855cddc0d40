"""Why each boundary is where it is: the reasons a port records when asked.

A port appends a ``Reason`` to ``RunContext.explain`` only when that list is not None, at
the point where it decides a boundary, so a run nobody asked about pays one ``is not
None`` check per boundary. ``at`` is where the reason applies, in the port's own terms:
a code point of the text chunked (the start of a chunk's own part) or a native chunk's
index; the entry's ``chunk`` attaches the reasons to its spans with ``attach_by_point``
or ``attach_by_chunk``. Reasons are plain frozen data, so they pickle and cross a
process boundary with the layout.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any, NamedTuple

from chunkview.core.model.kinds import ReasonSource, StageName

if TYPE_CHECKING:  # spans.py imports this module
    from chunkview.core.model.spans import Span


class Stage(NamedTuple):
    """One step of how a chunk came to be, for the replay (core/replay.py): the chunk as
    it stood after this step, in code points of the text shown, and the rule with its
    numbers. ``name`` is ``gathered``, ``split``, ``merged``, ``cut`` or ``overlapped``; ``focus``
    is the part the step changed (the pieces taken in, the repeated prefix), if any."""

    name: StageName
    start: int
    end: int
    text: str
    focus: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "stage": self.name,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            **({"focus": list(self.focus)} if self.focus is not None else {}),
        }


class Reason(NamedTuple):
    """Why a boundary is here: a short rule id and words with the numbers.

    When several reasons meet at one boundary (a cut, then an overlap or a merge note),
    ``combine`` keeps the first rule (the cut) and joins the words. A named tuple: quick
    to make (a port may record thousands), immutable, and it pickles. ``stages``: how the
    chunk starting here came to be, step by step, where the port records it.
    """

    at: int
    rule: str
    text: str
    stages: tuple[Stage, ...] = ()
    #: the library's rule (a port's reason), or what the cut falls on, observed by
    #: chunkview (``observed``: ``rule`` is the kind of place, ``text`` its words)
    source: ReasonSource = "rule"

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"rule": self.rule, "text": self.text}
        if self.source != "rule":
            found["source"] = self.source
        if self.stages:
            return {**found, "stages": [stage.to_json() for stage in stages_of(self)]}
        return found

    def __reduce__(self) -> tuple[Any, ...]:
        # across the process boundary: rebuilt in C from a plain tuple, the stages as
        # plain tuples (a named tuple's own pickling calls its Python __new__ for every
        # object: for tens of thousands of reasons, most of the layout's unpickling time)
        stages = tuple(tuple(stage) for stage in self.stages) if self.stages else ()
        return (tuple.__new__, (Reason, (self.at, self.rule, self.text, stages, self.source)))


#: how the reasons of each source are titled where reasons show, apart from each other
SOURCE_TITLES: dict[ReasonSource, str] = {
    "rule": "Why the library cut here",
    "observed": "What the cut falls on (observed by chunkview)",
}
#: the key of a span's reason in its JSON data, by source
SOURCE_KEYS: dict[ReasonSource, str] = {"rule": "reason", "observed": "cut_falls_on"}


def reason_words(reason: Reason) -> str:
    """A reason's words standing alone: a port's as recorded; an observed one says it is
    what the cut falls on ("what the cut falls on: a blank line")."""
    if reason.source == "observed":
        return f"what the cut falls on: {reason.text}"
    return reason.text


def reason_label(reason: Reason) -> str:
    """A short label of a reason's rule for legends and badges: a port's rule id, or
    "falls on: blank-line" for an observed one."""
    return f"falls on: {reason.rule}" if reason.source == "observed" else reason.rule


def _utf8_column(texts: Iterable[str]) -> tuple[bytes, array]:
    """Texts as one UTF-8 blob and the end of each in it: bytes unpickle as one copy,
    where a long string with any non-ASCII character is decoded again on arrival."""
    encoded = [text.encode("utf-8", "surrogatepass") for text in texts]
    return b"".join(encoded), array("q", accumulate(map(len, encoded)))


def _utf8_at(blob: bytes, ends: array, k: int) -> str:
    return blob[ends[k - 1] if k else 0 : ends[k]].decode("utf-8", "surrogatepass")


class ReasonColumns(Mapping[int, Reason]):
    """Reasons by span index, kept as columns and each made into a Reason when read.

    What crosses the pipe with a layout's details: tens of thousands of reasons as
    Reason objects took the worker thread 160 ms to unpickle (holding the interpreter
    lock) and the UI thread's collector 55 ms to walk once (smartchunk, 10 MB). As
    columns they are a few arrays and two UTF-8 blobs: the reasons' texts and their
    stages' (the stages as columns too: as tuples, SemanticChunker's 27,000 took 21 ms
    to unpickle at 10 MB, a stall of the UI thread when a drag supersedes the job)."""

    def __init__(self, reasons: Mapping[int, Reason]) -> None:
        indexes = sorted(reasons)
        ordered = [reasons[i] for i in indexes]
        rules = {reason.rule: 0 for reason in ordered}
        self.rules = tuple(rules)
        rule_id = {rule: i for i, rule in enumerate(self.rules)}
        self.indexes = array("q", indexes)
        self.ats = array("q", [reason.at for reason in ordered])
        self.rule_ids = array("I", [rule_id[reason.rule] for reason in ordered])
        self.texts, self.text_ends = _utf8_column(reason.text for reason in ordered)
        #: 1 where the reason is observed (what the cut falls on), 0 for a port's rule
        self.observed = bytes(reason.source == "observed" for reason in ordered)
        # the stages of reason k are stages stage_ends[k - 1] to stage_ends[k]
        self.stage_ends = array("q", accumulate(len(reason.stages) for reason in ordered))
        stages = [stage for reason in ordered for stage in reason.stages]
        names = {stage[0]: 0 for stage in stages}
        self.stage_names = tuple(names)
        name_id = {name: i for i, name in enumerate(self.stage_names)}
        self.stage_name_ids = array("I", [name_id[stage[0]] for stage in stages])
        self.stage_starts = array("q", [stage[1] for stage in stages])
        self.stage_stops = array("q", [stage[2] for stage in stages])
        self.stage_texts, self.stage_text_ends = _utf8_column(stage[3] for stage in stages)
        #: the focus of each stage as two numbers, and whether it has one
        focuses = [stage[4] if len(stage) > 4 else None for stage in stages]
        self.stage_focused = bytes(focus is not None for focus in focuses)
        self.stage_focus = array(
            "q", [n for focus in focuses for n in (focus if focus is not None else (0, 0))]
        )

    def _stage(self, j: int) -> tuple:
        focus = (
            (self.stage_focus[2 * j], self.stage_focus[2 * j + 1])
            if self.stage_focused[j]
            else None
        )
        return (
            self.stage_names[self.stage_name_ids[j]],
            self.stage_starts[j],
            self.stage_stops[j],
            _utf8_at(self.stage_texts, self.stage_text_ends, j),
            focus,
        )

    def _reason(self, k: int) -> Reason:
        text = _utf8_at(self.texts, self.text_ends, k)
        rule = self.rules[self.rule_ids[k]]
        first = self.stage_ends[k - 1] if k else 0
        stages = tuple(self._stage(j) for j in range(first, self.stage_ends[k]))
        source: ReasonSource = "observed" if self.observed[k] else "rule"
        return Reason(self.ats[k], rule, text, stages, source)  # type: ignore[arg-type]

    def __getitem__(self, index: int) -> Reason:
        k = bisect_left(self.indexes, index)
        if k == len(self.indexes) or self.indexes[k] != index:
            raise KeyError(index)
        return self._reason(k)

    def __iter__(self) -> Iterator[int]:
        return iter(self.indexes)

    def __len__(self) -> int:
        return len(self.indexes)


def stages_of(reason: Reason) -> list[Stage]:
    """The stages of ``reason`` as Stage (after a trip across a process they are plain
    tuples)."""
    return [s if isinstance(s, Stage) else Stage._make(s) for s in reason.stages]


def combine(reasons: Sequence[Reason]) -> Reason:
    """One reason for a boundary from those recorded there, in the order recorded (a
    reason that only carries stages adds no words)."""
    if len(reasons) == 1:
        return reasons[0]
    # a repeated note says it once
    texts = list(dict.fromkeys(r.text for r in reasons if r.text))
    rule = next((r.rule for r in reasons if r.rule), "")
    stages = tuple(stage for r in reasons for stage in r.stages)
    return Reason(reasons[0].at, rule, "; ".join(texts), stages, reasons[0].source)


def _grouped(reasons: Iterable[Reason]) -> dict[int, list[Reason]]:
    grouped: dict[int, list[Reason]] = {}
    for reason in reasons:
        grouped.setdefault(reason.at, []).append(reason)
    return grouped


def attach_by_point(spans: Sequence[Span], reasons: Iterable[Reason]) -> None:
    """Give each span the reasons recorded at its own start (code points); reasons at a
    point that is no boundary (a cut later merged away) are dropped."""
    grouped = _grouped(reasons)
    for span in spans:
        found = grouped.get(span.own_start)
        if found:
            span.reason = combine(found)


def attach_by_chunk(spans: Sequence[Span], reasons: Iterable[Reason]) -> None:
    """Give each span the reasons recorded for its native chunk index."""
    grouped = _grouped(reasons)
    for i, span in enumerate(spans):
        found = grouped.get(i)
        if found:
            span.reason = combine(found)


def chunk_ends(spans: Sequence[Span], index: int) -> tuple[Reason | None, Reason | None]:
    """Why chunk ``index`` starts where it does and why it ends where it does (the reason
    of the boundary after it; None at the end of the text or where none was recorded)."""
    start = spans[index].reason
    end = spans[index + 1].reason if index + 1 < len(spans) else None
    return start, end


def number(value: float) -> str:
    """A number as the reasons write it: thousands separated, at most three decimals."""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.3f}".rstrip("0")
    return f"{int(value):,}"
