"""What change of an option would make a hanging run return: computed, never guessed.

After a Hang, or a run the watchdog stopped past its time budget, the options the
message names and the entry's size and overlap options are each stepped away from the
value that hung (a size up, an overlap or a minimum down), by bisection on a log scale of
the distance between that value and the option's far end (its maximum or minimum).
Every value is tried for real, in a chunking process under a short time budget, and a
bound is reported only as the value found to return beside the nearest value found to
fail: "returns with chunkOverlap ≤ 40 or chunkSize ≥ 530" ("≥ about 530" when the tries
ran out before the two were one step apart).
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from chunkview.core import registry
from chunkview.core.chunkers.entry import Entry, Param, RunContext
from chunkview.core.model.document import Document
from chunkview.core.runtime import ChunkPool, Job, Stopped
from chunkview.core.runtime.gcpause import paused_gc
from chunkview.core.text.js import number_text

#: most tries of one option, its far end included (the log bisection of 0..100000 to
#: a whole unit takes about ten)
MOST_TRIES = 10
#: most options searched after one Hang
MOST_OPTIONS = 4
#: each try's time budget in seconds: a port that hangs says so at once, and a run
#: that only runs long is past what a suggestion may cost
TRY_BUDGET = 3.0
#: the word an outcome takes when the run returned
RETURNS = "returns"

Direction = Literal["up", "down"]

#: which way a size option of each role moves away from a hang
ROLE_DIRECTIONS: dict[str, Direction] = {
    "max": "up",
    "target": "up",
    "min": "down",
    "overlap": "down",
}


@dataclass(frozen=True)
class Tried:
    """One value tried: ``outcome`` is RETURNS or the error's name (Hang, Stopped ...)."""

    value: float
    outcome: str

    @property
    def returned(self) -> bool:
        return self.outcome == RETURNS


@dataclass(frozen=True)
class OptionBound:
    """The nearest value of ``option`` found to return, and the value beyond it (nearer
    to the one that hung) found to fail; ``exact``: the two are one step apart."""

    option: str
    direction: Direction
    returns_at: float
    fails_at: float
    fails_with: str
    exact: bool

    def phrase(self) -> str:
        """``chunkSize ≥ 530``; ``chunkSize ≥ about 530`` when the tries ran out before
        the value beside it was tried (it may return nearer the value that hung)."""
        sign = "≥" if self.direction == "up" else "≤"
        about = "" if self.exact else "about "
        return f"{self.option} {sign} {about}{number_text(self.returns_at)}"


@dataclass(frozen=True)
class HangSuggestion:
    """The outcome of the search after one Hang."""

    entry_id: str
    options: dict[str, Any]
    bounds: tuple[OptionBound, ...]
    #: the options searched with no value found that returns
    none_found: tuple[str, ...]
    #: every value tried, by option, in the order tried
    tried: dict[str, tuple[Tried, ...]] = field(default_factory=dict)

    @property
    def runs(self) -> int:
        return sum(len(values) for values in self.tried.values())

    def text(self) -> str:
        """One line for the failure box and the status bar."""
        if self.bounds:
            return "returns with " + " or ".join(b.phrase() for b in self.bounds)
        if self.none_found:
            names = " or ".join(self.none_found)
            return f"no value of {names} tried returns"
        return "no size or overlap option to try"

    def details(self) -> str:
        """The values tried, for a tooltip: each with what it did."""
        lines = []
        for name, values in self.tried.items():
            shown = ", ".join(f"{number_text(t.value)} {t.outcome}" for t in values)
            lines.append(f"{name}: {shown}")
        return "\n".join(lines)


def returns_there(
    entry_id: str,
    document: Document,
    options: Mapping[str, Any],
    embedder: str | None = None,
    tokenizer: str | None = None,
) -> bool:
    """Run the library on ``document`` with ``options`` and say that it returned (a pool
    job: it runs in a chunking process; a Hang or any error raises)."""
    entry = registry.get(entry_id)
    chosen = {k: v for k, v in options.items() if v is not None}
    entry.check_options(chosen)
    with paused_gc():
        entry.run(document, chosen, RunContext(embedder=embedder, tokenizer=tokenizer))
    return True


@dataclass(frozen=True)
class OptionToTry:
    """A number option to search after a Hang, and the way it moves away from the hang."""

    param: Param
    direction: Direction


def options_to_try(entry: Entry, options: Mapping[str, Any], message: str) -> list[OptionToTry]:
    """The number options to search and which way: those the Hang's message names, then
    the entry's size and overlap options (by role), at most MOST_OPTIONS."""
    numbers = [p for p in entry.params if p.kind in ("int", "float") and p.applies(options)]
    named = [p for p in numbers if re.search(rf"(?<![\w$]){re.escape(p.name)}(?![\w$])", message)]
    chosen: list[OptionToTry] = []
    seen: set[str] = set()  # by name: a Param holding a ``when`` mapping cannot be hashed
    for param in named + [p for p in numbers if p.role is not None]:
        direction = _direction(param, _value_of(param, options))
        if direction is not None and param.name not in seen:
            seen.add(param.name)
            chosen.append(OptionToTry(param, direction))
    return chosen[:MOST_OPTIONS]


def _value_of(param: Param, options: Mapping[str, Any]) -> Any:
    value = options.get(param.name)
    return param.default if value is None else value


def _direction(param: Param, value: Any) -> Direction | None:
    if param.role is not None:
        return ROLE_DIRECTIONS[param.role]
    # an option with no role: towards its default, when it is not there
    if _is_number(value) and _is_number(param.default) and value != param.default:
        return "up" if param.default > value else "down"
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


class BoundSearch:
    """The search of one option: its far end first, then bisection on the log of the
    distance from the value that hung, down to one step."""

    def __init__(self, param: Param, direction: Direction, start: float) -> None:
        self.param, self.direction, self.start = param, direction, start
        self.integer = param.kind == "int"
        self.step = 1.0 if self.integer else float(param.step or 1)
        self.sign = 1 if direction == "up" else -1
        far = self._far_end()
        self.span = (far - start) * self.sign if far is not None else 0.0
        #: distances from ``start``: the farthest known to fail, the nearest known to return
        self.fails_at, self.fails_with = 0.0, "Hang"
        self.returns_at: float | None = None
        self.tried: list[Tried] = []
        self.done = self.span < self.step

    def _far_end(self) -> float | None:
        param, start = self.param, self.start
        if self.direction == "up":
            if param.maximum is not None:
                return float(param.maximum)
            return max(2 * abs(start), start + 1000)
        low = param.minimum if param.minimum is not None else (0 if start > 0 else None)
        if low is not None and param.special is not None and low == param.minimum:
            low += self.step  # the minimum stands for "leave the option out"
        return None if low is None else float(low)

    def value_at(self, distance: float) -> float:
        value = self.start + self.sign * distance
        return round(value) if self.integer else round(value / self.step) * self.step

    def next_distance(self) -> float | None:
        if self.done or len(self.tried) >= MOST_TRIES:
            return None
        if self.returns_at is None:
            return self.span  # the far end: if it hangs too, no value here returns
        low, high = self.fails_at, self.returns_at
        middle = math.expm1((math.log1p(low) + math.log1p(high)) / 2)
        middle = round(middle / self.step) * self.step
        middle = min(max(middle, low + self.step), high - self.step)
        return middle if low < middle < high else None

    def record(self, distance: float, outcome: str) -> None:
        self.tried.append(Tried(self.value_at(distance), outcome))
        if outcome == RETURNS:
            self.returns_at = distance
        elif self.returns_at is None:  # the far end failed
            self.done = True
        else:
            self.fails_at, self.fails_with = distance, outcome
        if self.returns_at is not None and self.returns_at - self.fails_at <= self.step:
            self.done = True

    def bound(self) -> OptionBound | None:
        if self.returns_at is None:
            return None
        return OptionBound(
            self.param.name,
            self.direction,
            self.value_at(self.returns_at),
            self.value_at(self.fails_at),
            self.fails_with,
            self.returns_at - self.fails_at <= self.step,
        )


#: runs each options dict once, in the order given, and gives each one's outcome
#: (RETURNS or an error name); tests and the app may plug in their own
TryRunner = Callable[[Sequence[dict[str, Any]]], list[str]]


def pool_tries(
    pool: ChunkPool,
    entry_id: str,
    document: Document,
    embedder: str | None = None,
    tokenizer: str | None = None,
    budget: float = TRY_BUDGET,
) -> TryRunner:
    """A TryRunner on ``pool``: every try in a chunking process, under ``budget``."""

    def run(tries: Sequence[dict[str, Any]]) -> list[str]:
        jobs = [
            Job(
                returns_there,
                (entry_id, document, options, embedder, tokenizer),
                label=f"{entry_id} {options}",
                timeout=budget,
            )
            for options in tries
        ]
        return [_outcome_name(outcome.error) for outcome in pool.map(jobs)]

    return run


def _outcome_name(error: Exception | None) -> str:
    if error is None:
        return RETURNS
    if isinstance(error, Stopped) and error.reason == "time":
        return "Hang"  # past the budget: as far as a suggestion can tell, it hangs
    return getattr(error, "name", type(error).__name__)


def search_bounds(
    entry: Entry,
    options: Mapping[str, Any],
    message: str,
    run_tries: TryRunner,
    cancel: threading.Event | None = None,
) -> HangSuggestion:
    """Search each option ``options_to_try`` picks, all of them a round at a time (one
    try of each per round, run together); ``cancel`` stops between rounds (the
    suggestion then holds what was found so far)."""
    searches = [
        BoundSearch(tried.param, tried.direction, float(_value_of(tried.param, options)))
        for tried in options_to_try(entry, options, message)
        if _is_number(_value_of(tried.param, options))
    ]
    while not (cancel is not None and cancel.is_set()):
        round_ = [(s, d) for s in searches if (d := s.next_distance()) is not None]
        if not round_:
            break
        tries = [{**options, s.param.name: s.value_at(d)} for s, d in round_]
        for (search, distance), outcome in zip(round_, run_tries(tries), strict=True):
            search.record(distance, outcome)
    bounds = [b for s in searches if (b := s.bound()) is not None]
    return HangSuggestion(
        entry.id,
        dict(options),
        tuple(bounds),
        tuple(s.param.name for s in searches if s.bound() is None and s.tried),
        {s.param.name: tuple(s.tried) for s in searches},
    )


def suggest(
    entry_id: str,
    document: Document,
    options: Mapping[str, Any],
    message: str,
    *,
    embedder: str | None = None,
    tokenizer: str | None = None,
    budget: float = TRY_BUDGET,
    cancel: threading.Event | None = None,
    on_pool: Callable[[ChunkPool | None], None] | None = None,
) -> HangSuggestion:
    """The bounds for a run of ``entry_id`` on ``document`` with ``options`` that hung
    with ``message``, each value tried in chunking processes of a pool of their own
    (``on_pool`` hears of it, and of None when it is closed, so another thread can kill
    it on cancel)."""
    entry = registry.get(entry_id)
    searched = len(options_to_try(entry, options, message))
    if not searched:  # nothing to try: no process started
        return search_bounds(entry, options, message, lambda tries: [])
    with ChunkPool(min(2, searched), timeout=budget) as pool:
        if on_pool is not None:
            on_pool(pool)
        try:
            runner = pool_tries(pool, entry_id, document, embedder, tokenizer, budget)
            return search_bounds(entry, options, message, runner, cancel)
        finally:
            if on_pool is not None:
                on_pool(None)
