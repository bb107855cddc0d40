"""Every value of an interactive page chunked: one option stepped over values, as a sweep
steps it, each value's layout kept for the page (``views.page_data``), not summed up.

The jobs run in chunking processes under the watchdog (the sweep's ``pool_runner``); a
value the library refuses, or that never returns (Hang), is kept as a ``FailedValue`` with
its message, so the page shows it and the others still stand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from chunkview.core import registry
from chunkview.core.batch.sweep import Runner, pool_runner
from chunkview.core.build import chunk_layout
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.model.document import Document
from chunkview.core.model.observer import RunNotes
from chunkview.core.views.page_data import FailedValue, PageValue, ValueView, value_view


def chosen_options(options: Mapping[str, Any], param: str, value: float) -> dict[str, Any]:
    """The options one value runs with: ``options`` with ``param`` set to ``value``."""
    return {k: v for k, v in {**options, param: value}.items() if v is not None}


def page_point(
    entry_id: str, document: Document, options: Mapping[str, Any], param: str, value: float
) -> PageValue:
    """One value's layout as the page draws it (run in a chunking process), with the
    reasons of its boundaries; the chunks are those ``chunkview spans`` gives."""
    entry = registry.get(entry_id)
    chosen = chosen_options(options, param, value)
    entry.check_options(chosen)
    ctx = RunContext(observer=RunNotes(places=False))
    layout = chunk_layout(entry, document, chosen, ctx)[1]
    return value_view(value, chosen, layout, entry.code(chosen))


@dataclass(frozen=True)
class PagePlan:
    entry_id: str
    document: Document
    options: dict[str, Any]
    param: str
    values: list[float]

    def jobs(self) -> list[tuple[Callable[..., Any], tuple]]:
        # the sweep's argument order: pool_runner labels each job args[3]=args[4]
        return [
            (page_point, (self.entry_id, self.document, self.options, self.param, value))
            for value in self.values
        ]


def _failed(plan: PagePlan, value: float, outcome: Any) -> FailedValue:
    chosen = chosen_options(plan.options, plan.param, value)
    try:
        code = registry.get(plan.entry_id).code(chosen)
    except Exception:  # the call cannot be written with these options: no code to copy
        code = ""
    name = getattr(outcome, "name", type(outcome).__name__)
    return FailedValue(value, chosen, code, name, getattr(outcome, "message", str(outcome)))


def page_values(plan: PagePlan, runner: Runner | None = None) -> list[PageValue]:
    """Every value of ``plan`` chunked, in the order of its values."""
    runner = runner or pool_runner()
    found: dict[int, PageValue] = {}
    for index, outcome in runner(plan.jobs()):
        value = plan.values[index]
        if isinstance(outcome, (ValueView, FailedValue)):
            found[index] = outcome
        else:
            found[index] = _failed(plan, value, outcome)
    return [found[i] for i in sorted(found)]
