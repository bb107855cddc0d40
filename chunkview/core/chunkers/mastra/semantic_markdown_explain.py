"""Why semantic-markdown cut where it did (spec/mastra.md §8), in its own terms.

The semantic-markdown strategy (reference/semantic_markdown.py) tells its run's
``SectionNotes`` (``QuietSectionNotes`` when nobody asks for reasons) each merge of a
section into the one before (token counts summing under joinThreshold) and each section
left standing (the sum reached joinThreshold, or the section before was deeper). ``finish``
gives each section kept one reason: the header that started it, why it was not merged
into the section before, and the sections merged into it, with their token counts.
"""

from __future__ import annotations

from typing import Any

from chunkview.core.chunkers.mastra.reference.semantic_markdown import HEADER_LINE
from chunkview.core.model.document import Document
from chunkview.core.model.explain import Reason, Stage
from chunkview.core.model.observer import RunObserver
from chunkview.core.text.js import from_units, trim


def _header(section: Any) -> str:
    if section.depth == 0 and not section.title:
        return "the text before the first header"
    title = from_units(section.title)
    title = f"{title[:50]}…" if len(title) > 50 else title
    return f"“{'#' * section.depth} {title}”"


def _section_starts(units: str) -> list[int]:
    """Where each section the port pushes begins (UTF-16 units): its line scan again,
    with offsets (the port keeps none)."""
    starts: list[int] = []
    title, depth, has_body, in_code = "", 0, False, False
    offset = section_start = 0
    for line in units.split("\n"):
        if line.startswith("```") or line.startswith("~~~"):
            in_code = not in_code
        header = None if in_code else HEADER_LINE.fullmatch(line)
        if header is None:
            has_body = has_body or bool(trim(line))
        else:
            if has_body or (title and depth > 0):
                starts.append(section_start)
            title, depth, has_body, section_start = (
                header.group(2),
                len(header.group(1)),
                False,
                offset,
            )
        offset += len(line) + 1
    if has_body:
        starts.append(section_start)
    return starts


class SectionNotes:
    """The reasons of one semantic-markdown run: what each section kept took in, and why
    it was not merged into the one before, told to the observer at ``finish``."""

    def __init__(
        self, observer: RunObserver, threshold: Any, units: str = "", sections: Any = ()
    ) -> None:
        self.observer = observer
        self.threshold = threshold
        self.merges: dict[int, list[str]] = {}  # id(section) -> words of what it took in
        self.kept_words: dict[int, str] = {}  # id(section) -> why it stayed a section
        # for the replay: where each section began and its tokens before any merge
        self.units = units
        starts = _section_starts(units) if units else []
        self.first: dict[int, tuple[int, int, int]] = {}  # id -> (start, end, tokens)
        if len(starts) == len(sections):
            ends = [*starts[1:], len(units)]
            for section, start, end in zip(sections, starts, ends):
                self.first[id(section)] = (start, end, section.length)

    def _t(self, value: Any) -> str:
        return f"{value:,}" if isinstance(value, int) else f"{value:,.6g}"

    def merged(self, previous: Any, current: Any) -> None:
        total = previous.length + current.length
        words = (
            f"merged: {_header(current)} joined {_header(previous)}, "
            f"{self._t(previous.length)} + {self._t(current.length)} = {self._t(total)} tokens "
            f"< joinThreshold {self._t(self.threshold)}"
        )
        taken = self.merges.setdefault(id(previous), [])
        taken.extend(self.merges.pop(id(current), ()))  # what it took in earlier comes along
        taken.append(words)

    def kept(self, previous: Any, current: Any) -> None:
        total = previous.length + current.length
        if not total < self.threshold:
            words = (
                f"not merged into the section before: {self._t(previous.length)} + "
                f"{self._t(current.length)} = {self._t(total)} tokens ≥ joinThreshold "
                f"{self._t(self.threshold)}"
            )
        else:
            words = (
                f"not merged into the section before: that one is level {previous.depth}, "
                f"deeper than this level {current.depth} (a section joins only one at its "
                "level or above)"
            )
        self.kept_words[id(current)] = words

    def _stages(self, sections: list[Any]) -> list[tuple[Stage, ...]]:
        """How each section came to be: gathered under its header, then the sections
        merged into it (code points of the text chunked)."""
        if not self.first or any(id(s) not in self.first for s in sections):
            return [()] * len(sections)
        document = Document(from_units(self.units))
        points = document.units_to_points
        result = []
        for k, section in enumerate(sections):
            start, end, tokens = self.first[id(section)]
            final_end = (
                self.first[id(sections[k + 1])][0] if k + 1 < len(sections) else len(self.units)
            )
            if section.depth == 0 and not section.title:
                words = (
                    f"first gathered: the text before the first header, {self._t(tokens)} tokens"
                )
            else:
                words = (
                    f"first gathered: the header {_header(section)} (level {section.depth}) "
                    f"starts a section of {self._t(tokens)} tokens"
                )
            stages = [Stage("gathered", points(start), points(end), words)]
            taken = self.merges.get(id(section))
            if taken and final_end > end:
                stages.append(
                    Stage(
                        "merged",
                        points(start),
                        points(final_end),
                        "; ".join(taken),
                        (points(end), points(final_end)),
                    )
                )
            result.append(tuple(stages) if len(stages) > 1 else ())
        return result

    def finish(self, sections: list[Any]) -> None:
        stages = self._stages(sections)
        for k, section in enumerate(sections):
            if section.depth == 0 and not section.title:
                rule, words = "start", ["the text before the first header"]
            else:
                rule = "header"
                words = [f"the header {_header(section)} (level {section.depth}) starts a section"]
            if id(section) in self.kept_words:
                words.append(self.kept_words[id(section)])
            words.extend(self.merges.get(id(section), ()))
            self.observer.reason(Reason(k, rule, "; ".join(words), stages[k]))


class QuietSectionNotes(SectionNotes):
    """For a run nobody asks reasons of: hears each decision, words nothing."""

    def merged(self, previous: Any, current: Any) -> None:
        pass

    def kept(self, previous: Any, current: Any) -> None:
        pass

    def finish(self, sections: list[Any]) -> None:
        pass
