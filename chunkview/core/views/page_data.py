"""The data of an interactive page: one document and the layout of each value of a sweep.

What ``chunkview page`` and File > Export Interactive Page write into the page, with no
painting: per value the spans (own start, start and end in code points, as ``chunkview
spans`` gives them), kinds, reasons, sizes in the entry's unit, warnings, the settings and
the call as code; a value the library refused or that never returned keeps its message.
The page's script decodes it (chunkview/resources/page/page.js). Pure Python, no Qt.

Encoded compactly, since a page holds many values of one text: starts as differences from
the chunk before, own starts and ends as lengths, and every repeated string (kinds,
reasons, warning kinds and messages) once in a shared table, referred to by its index.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chunkview.core.analysis.compare import CHANGE_KINDS, compare_boundaries
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Layout, Warning
from chunkview.core.views.decorations import DIFF_STYLES

#: the page data's format; the script refuses another
PAGE_FORMAT = 1


@dataclass(frozen=True)
class ValueView:
    """One value's layout, reduced to what the page draws (it crosses the pipe from the
    chunking process: lists, no text)."""

    value: float
    options: dict[str, Any]
    code: str
    size_unit: str
    starts: list[int]
    own_starts: list[int]
    ends: list[int]
    kinds: list[str]
    located: list[str]
    #: "rule: words" of each span's boundary, None where the run gave none
    reasons: list[str | None]
    #: each span's size in ``size_unit``; None for a span found nowhere in the text
    sizes: list[int | None]
    warnings: list[Warning] = field(default_factory=list)


@dataclass(frozen=True)
class FailedValue:
    """A value with no layout: the library's error (or Hang) in its own words."""

    value: float
    options: dict[str, Any]
    code: str
    name: str
    message: str


PageValue = ValueView | FailedValue


@dataclass(frozen=True)
class CompareSide:
    """A second configuration, B, whose boundaries each value is compared with, as the
    app's compare reads them (kept, moved, added, removed); ``error`` when B failed."""

    entry_id: str
    options: dict[str, Any]
    code: str
    boundaries: list[int] | None
    error: str | None = None


def boundaries_of_view(view: ValueView) -> list[int]:
    """A value's boundaries as compare.py counts them: the distinct own starts of the
    placed chunks, sorted."""
    return sorted({o for o, place in zip(view.own_starts, view.located) if place != "missing"})


def value_view(value: float, options: Mapping[str, Any], layout: Layout, code: str) -> ValueView:
    """``layout`` (chunked with ``options``, ``value`` being the swept option's) as the page
    draws it."""
    spans = list(layout.spans)
    located_sizes = iter(layout.sizes if layout.complete and layout.sizes else [])
    sizes: list[int | None] = []
    for span in spans:
        if span.located == "missing":
            sizes.append(None)
        else:
            sizes.append(next(located_sizes, len(span.text)))
    return ValueView(
        value=value,
        options=dict(options),
        code=code,
        size_unit=layout.size_unit,
        starts=[s.start for s in spans],
        own_starts=[s.own_start for s in spans],
        ends=[s.end for s in spans],
        kinds=[s.kind for s in spans],
        located=[s.located for s in spans],
        reasons=[f"{s.reason.rule}: {s.reason.text}" if s.reason else None for s in spans],
        sizes=sizes,
        warnings=list(layout.warnings),
    )


class _Strings:
    """A shared table of strings: each string once, referred to by its index."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def __call__(self, text: str | None) -> int:
        if text is None:
            return -1
        return self.index.setdefault(text, len(self.index))

    @property
    def table(self) -> list[str]:
        return list(self.index)


def _deltas(values: Sequence[int]) -> list[int]:
    previous, out = 0, []
    for v in values:
        out.append(v - previous)
        previous = v
    return out


def _encode_comparison(
    view: ValueView, b: CompareSide, length: int, strings: _Strings
) -> dict[str, Any]:
    """The value's boundaries against B's: each change as (kind, A place, B place), -1
    where it has none, flat; and the summary."""
    comparison = compare_boundaries(boundaries_of_view(view), b.boundaries or [], length)
    flat: list[int] = []
    for change in comparison.changes:
        kind = CHANGE_KINDS.index(change.kind)
        flat += [kind, -1 if change.a is None else change.a, -1 if change.b is None else change.b]
    return {"d": flat, "ds": strings(comparison.summary())}


def _encode_value(
    view: PageValue, strings: _Strings, b: CompareSide | None = None, length: int = 0
) -> dict[str, Any]:
    head = {"value": view.value, "options": view.options, "code": view.code}
    if isinstance(view, FailedValue):
        return {**head, "error": {"name": view.name, "message": view.message}}
    if b is not None and b.boundaries is not None:
        head.update(_encode_comparison(view, b, length, strings))
    warnings: list[int] = []
    for w in view.warnings:
        chunk = -1 if w.chunk is None else w.chunk
        warnings += [strings(w.kind), strings(w.message), w.start, w.end, chunk]
    return {
        **head,
        "unit": view.size_unit,
        # starts as steps from the chunk before; own start and end as lengths from it
        "s": _deltas(view.starts),
        "o": [o - s for s, o in zip(view.starts, view.own_starts)],
        "e": [e - o for o, e in zip(view.own_starts, view.ends)],
        "k": [strings(k) for k in view.kinds],
        "r": [strings(r) for r in view.reasons],
        "z": [-1 if z is None else z for z in view.sizes],
        # the spans found nowhere in the text (drawn as a mark, warned), by index
        "m": [i for i, place in enumerate(view.located) if place == "missing"],
        "w": warnings,
    }


def astral_positions(text: str) -> list[int]:
    """The code-point offsets of the characters outside the BMP: JavaScript counts each as
    two UTF-16 units, so the page maps a code-point offset ``p`` to ``p`` plus the number
    of these before it."""
    return [m.start() for m in re.finditer("[\U00010000-\U0010ffff]", text)]


#: about how many code points one block of the page's text holds: the browser lays out
#: only the blocks on screen (CSS content-visibility), so a redraw costs a screenful
BLOCK_POINTS = 2000

_LINE_END = re.compile(r"\r\n|\r|\n")
_SPACE = re.compile(r"\s")


def block_starts(text: str, size: int = BLOCK_POINTS) -> list[int]:
    """Where the page's blocks of text start (code points): after a line end (LF, CRLF or
    CR, never between CR and LF), once at least ``size`` code points from the last start.
    A line running on past twice ``size`` is cut too, after the first white space past
    ``size`` (or at ``size`` with none within another ``size``), so a text of one long
    line is cut in blocks as well. The blocks only display the text: offsets stay exact."""
    starts = [0]
    length = len(text)
    while True:
        start = starts[-1]
        far = start + 2 * size
        # (up to far + 1, so that a CR at far - 1 is read with the LF after it)
        line_end = _LINE_END.search(text, start + size, far + 1)
        if line_end is not None and line_end.start() < far:
            cut = line_end.end()
        else:
            space = _SPACE.search(text, start + size, far)
            cut = space.end() if space is not None else start + size
        if cut >= length:
            return starts
        starts.append(cut)


def page_data(
    document: Document,
    title: str,
    entry_id: str,
    param: str,
    views: Sequence[PageValue],
    size_unit: str = "chars",
    b: CompareSide | None = None,
) -> dict[str, Any]:
    """The page's data as plain JSON data: the document once, each value's layout (and,
    with ``b``, its boundaries against B's)."""
    strings = _Strings()
    length = len(document.text)
    values = [_encode_value(view, strings, b, length) for view in views]
    units = [v.size_unit for v in views if isinstance(v, ValueView)]
    return {
        "format": PAGE_FORMAT,
        "title": title,
        "entry": entry_id,
        "param": param,
        "unit": units[0] if units else size_unit,
        "path": document.path,
        "text": document.text,
        "astral": astral_positions(document.text),
        "blocks": block_starts(document.text),
        "strings": strings.table,
        "values": values,
        "b": _encode_side(b),
    }


def _encode_side(b: CompareSide | None) -> dict[str, Any] | None:
    if b is None:
        return None
    return {
        "entry": b.entry_id,
        "options": b.options,
        "code": b.code,
        "error": b.error,
        "kinds": list(CHANGE_KINDS),
        # colour, line style and legend words of each change, as the app draws them
        "styles": {kind: list(DIFF_STYLES[kind]) for kind in CHANGE_KINDS},
    }


def decode_value(data: Mapping[str, Any], index: int) -> dict[str, list[Any]]:
    """Value ``index`` of ``page_data``'s output back as columns (what the page's script
    computes; the tests hold both to ``chunkview spans``)."""
    value = data["values"][index]
    starts: list[int] = []
    position = 0
    for step in value["s"]:
        position += step
        starts.append(position)
    own_starts = [s + o for s, o in zip(starts, value["o"])]
    ends = [o + e for o, e in zip(own_starts, value["e"])]
    table = data["strings"]
    return {
        "starts": starts,
        "own_starts": own_starts,
        "ends": ends,
        "kinds": [table[k] for k in value["k"]],
        "reasons": [table[r] if r >= 0 else None for r in value["r"]],
        "sizes": [None if z < 0 else z for z in value["z"]],
    }
