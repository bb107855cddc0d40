"""Every value of an interactive page chunked: one option stepped over values, as a sweep
steps it, each value's layout kept for the page (``views.page_data``), not summed up.

The jobs run in chunking processes under the watchdog (the sweep's ``pool_runner``); a
value the library refuses, or that never returns (Hang), is kept as a ``FailedValue`` with
its message, so the page shows it and the others still stand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chunkview.core import registry
from chunkview.core.batch.sweep import (
    PointJob,
    Runner,
    chosen_options,
    pool_runner,
    setting_layout,
)
from chunkview.core.chunkers.entry import Entry
from chunkview.core.model.document import Document
from chunkview.core.model.observer import RunNotes
from chunkview.core.views.page_data import (
    CompareSide,
    FailedValue,
    PageValue,
    ValueView,
    value_view,
)


def page_point(
    entry_id: str,
    document: Document,
    options: Mapping[str, Any],
    param: str,
    value: float,
    embedder: str | None = None,
    tokenizer: str | None = None,
) -> PageValue:
    """One value's layout as the page draws it (run in a chunking process), with the
    reasons of its boundaries, and the embedder and tokenizer the app shows (None: as
    ``chunkview spans`` runs without them); the chunks are those ``chunkview spans``
    gives."""
    chosen = chosen_options(options, param, value)
    notes = RunNotes(places=False)
    entry, layout = setting_layout(entry_id, document, chosen, embedder, tokenizer, notes)
    return value_view(value, chosen, layout, entry.code(chosen))


def compare_point(
    entry_id: str,
    document: Document,
    options: Mapping[str, Any],
    embedder: str | None = None,
    tokenizer: str | None = None,
) -> CompareSide:
    """B's boundaries (run in a chunking process): what each value is compared with."""
    chosen = {k: v for k, v in options.items() if v is not None}
    entry, layout = setting_layout(entry_id, document, chosen, embedder, tokenizer)
    return CompareSide(entry_id, chosen, entry.code(chosen), list(layout.boundaries))


@dataclass(frozen=True)
class PagePlan:
    entry_id: str
    document: Document
    options: dict[str, Any]
    param: str
    values: list[float]
    #: B, a second configuration every value is compared with (None: no comparison)
    b_entry: str | None = None
    b_options: dict[str, Any] = field(default_factory=dict)
    #: the embedder and tokenizer of A's runs, and of B's (None: as ``chunkview spans``)
    embedder: str | None = None
    tokenizer: str | None = None
    b_embedder: str | None = None
    b_tokenizer: str | None = None

    def jobs(self) -> list[PointJob]:
        jobs = [
            PointJob(
                page_point,
                (
                    self.entry_id,
                    self.document,
                    self.options,
                    self.param,
                    value,
                    self.embedder,
                    self.tokenizer,
                ),
                f"{self.param}={value}",
            )
            for value in self.values
        ]
        if self.b_entry is not None:
            args = (self.b_entry, self.document, self.b_options, self.b_embedder, self.b_tokenizer)
            jobs.append(PointJob(compare_point, args, f"B: {self.b_entry}"))
        return jobs


@dataclass(frozen=True)
class PageRun:
    """Every value's layout (or failure), in the order of the values, and B's side."""

    values: list[PageValue]
    b: CompareSide | None = None


def _failed(plan: PagePlan, value: float, outcome: Any, entry: Entry | None) -> FailedValue:
    chosen = chosen_options(plan.options, plan.param, value)
    try:
        code = (entry or registry.get(plan.entry_id)).code(chosen)
    except Exception:  # the call cannot be written with these options: no code to copy
        code = ""
    name = getattr(outcome, "name", type(outcome).__name__)
    return FailedValue(value, chosen, code, name, getattr(outcome, "message", str(outcome)))


def _failed_side(plan: PagePlan, outcome: Any) -> CompareSide:
    entry_id = plan.b_entry or plan.entry_id
    name = getattr(outcome, "name", type(outcome).__name__)
    message = f"{name}: {getattr(outcome, 'message', str(outcome))}"
    return CompareSide(entry_id, plan.b_options, "", None, message)


def page_values(
    plan: PagePlan, runner: Runner | None = None, entry: Entry | None = None
) -> PageRun:
    """Every value of ``plan`` chunked, in the order of its values, and B when it has
    one. ``entry``: the plan's entry when the caller has it (a chunker file's function
    described), for a failed value's code; the registry's otherwise."""
    runner = runner or pool_runner()
    found: dict[int, PageValue] = {}
    b: CompareSide | None = None
    for index, outcome in runner(plan.jobs()):
        if index == len(plan.values):  # B's job comes after the values'
            b = outcome if isinstance(outcome, CompareSide) else _failed_side(plan, outcome)
        elif isinstance(outcome, (ValueView, FailedValue)):
            found[index] = outcome
        else:
            found[index] = _failed(plan, plan.values[index], outcome, entry)
    return PageRun([found[i] for i in sorted(found)], b)
