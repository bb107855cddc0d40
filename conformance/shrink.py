"""Shrink a mismatching case to a small one that still disagrees in the same way."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

Check = Callable[[dict], bool]  # True when the case still mismatches the same way


def _with_text(case: dict, text: str) -> dict:
    new = dict(case, input=text)
    if "documents" in case:
        docs = [dict(d) for d in case["documents"]]
        docs[0]["document_text"] = text
        new["documents"] = docs
        if case.get("input") is None and len(docs) > 1:
            new["input"] = None
    return new


def _text_of(case: dict) -> str:
    if "documents" in case:
        text = case["documents"][0].get("document_text")
        return text if isinstance(text, str) else ""
    return case["input"] if isinstance(case.get("input"), str) else ""


def _simpler_numbers(value: Any) -> list[Any]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return []
    out = []
    for candidate in (0, 1, int(value), round(value / 2), value // 10, 10, 100):
        if candidate != value and abs(candidate) <= abs(value) and candidate not in out:
            out.append(candidate)
    return out


class _Tries:
    """The budget of a shrink: a number of tries and a deadline; past either, every
    candidate counts as not failing."""

    def __init__(self, still: Check, budget_s: float, max_tries: int):
        self.still, self.max_tries = still, max_tries
        self.deadline = time.monotonic() + budget_s
        self.tries = 0

    def left(self) -> bool:
        return self.tries < self.max_tries and time.monotonic() < self.deadline

    def fails(self, candidate: dict) -> bool:
        """True when the candidate still mismatches the same way (and was tried)."""
        if self.tries >= self.max_tries or time.monotonic() > self.deadline:
            return False
        self.tries += 1
        return self.still(candidate)


def shrink(case: dict, still: Check, budget_s: float = 60, max_tries: int = 400) -> dict:
    """Greedy: drop options, simplify numbers, then cut the text (halves, lines, units)."""
    tries = _Tries(still, budget_s, max_tries)
    best = case
    for step in (_first_document, _without_extras, _without_options, _simpler_options, _cut_text):
        best = step(best, tries)
    return best


def _first_document(best: dict, tries: _Tries) -> dict:
    """The documents beyond the first dropped."""
    if len(best.get("documents") or []) > 1:
        candidate = dict(best, documents=best["documents"][:1], input=_text_of(best))
        if tries.fails(candidate):
            return candidate
    return best


def _without_extras(best: dict, tries: _Tries) -> dict:
    """The metadata dropped, and the ChunkingEngine's embedder."""
    droppable = ["metadata"] + (["embedder"] if best["entry"] == "agentos.ChunkingEngine" else [])
    for key in droppable:
        if key in best:
            candidate = {k: v for k, v in best.items() if k != key}
            if tries.fails(candidate):
                best = candidate
    return best


def _without_options(best: dict, tries: _Tries) -> dict:
    """Each option but the strategy dropped, one at a time."""
    for key in list(best["options"]):
        if key == "strategy":
            continue
        options = {k: v for k, v in best["options"].items() if k != key}
        if tries.fails(dict(best, options=options)):
            best = dict(best, options=options)
    return best


def _simpler_options(best: dict, tries: _Tries) -> dict:
    """Each number made simpler, each list one item shorter (the first that still fails)."""
    for key, value in list(best["options"].items()):
        for simpler in _simpler_numbers(value):
            options = dict(best["options"], **{key: simpler})
            if tries.fails(dict(best, options=options)):
                best = dict(best, options=options)
                break
        if isinstance(value, list) and len(value) > 1:
            for i in range(len(value)):
                options = dict(best["options"], **{key: value[:i] + value[i + 1 :]})
                if tries.fails(dict(best, options=options)):
                    best = dict(best, options=options)
                    break
    return best


def _cut_text(best: dict, tries: _Tries) -> dict:
    """ddmin over the text: remove chunks of decreasing size."""
    text = _text_of(best)
    size = max(1, len(text) // 2)
    while size >= 1 and tries.left():
        i, removed = 0, False
        while i < len(text):
            candidate_text = text[:i] + text[i + size :]
            if candidate_text != text and tries.fails(_with_text(best, candidate_text)):
                text, best, removed = candidate_text, _with_text(best, candidate_text), True
            else:
                i += size
        if not removed:
            size //= 2
    return best
