"""Why semantic-markdown cut where it did (spec/mastra.md §8), in its own terms.

semantic_markdown.py calls these only when the run explains itself: each merge of a
section into the one before (token counts summing under joinThreshold) and each section
left standing (the sum reached joinThreshold, or the section before was deeper). ``finish``
gives each section kept one reason: the header that started it, why it was not merged
into the section before, and the sections merged into it, with their token counts.
"""

from __future__ import annotations

from typing import Any

from chunkview.core.explain import Reason
from chunkview.core.text.js import from_units


def _header(section: Any) -> str:
    title = from_units(section.title)
    title = f"{title[:50]}…" if len(title) > 50 else title
    return f"“{'#' * section.depth} {title}”"


class SectionNotes:
    def __init__(self, explain: list, threshold: Any) -> None:
        self.explain = explain
        self.threshold = threshold
        self.merges: dict[int, list[str]] = {}  # id(section) -> words of what it took in
        self.kept_words: dict[int, str] = {}  # id(section) -> why it stayed a section

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

    def finish(self, sections: list[Any]) -> None:
        for k, section in enumerate(sections):
            if section.depth == 0 and not section.title:
                rule, words = "start", ["the text before the first header"]
            else:
                rule = "header"
                words = [f"the header {_header(section)} (level {section.depth}) starts a section"]
            if id(section) in self.kept_words:
                words.append(self.kept_words[id(section)])
            words.extend(self.merges.get(id(section), ()))
            self.explain.append(Reason(k, rule, "; ".join(words)))
