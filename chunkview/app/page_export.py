"""File > Export Interactive Page: the page ``chunkview page`` writes, for the document
and chunker shown, over the Sweep dock's option and values when set, else the current
option and the values a sweep of it would start from.

The values are chunked in chunking processes (the sweep's pool, under the window's time
budget) from a background thread; the page is written there too, and the outcome comes
back to the UI thread by a queued signal.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFileDialog, QMainWindow

from chunkview.app.background import BackgroundJob
from chunkview.app.sweep_panel import SweepPanel
from chunkview.core.batch.page_values import PagePlan
from chunkview.core.batch.sweep import (
    Runner,
    numeric_params,
    parse_values,
    pool_runner,
    suggested_values,
)
from chunkview.core.session import InspectorModel
from chunkview.core.views.page_data import FailedValue
from chunkview.export_page import make_page


@dataclass(frozen=True)
class PageChoice:
    """What the page steps: an option and its values."""

    param: str
    values: list[float]


@dataclass(frozen=True)
class PageOutcome:
    """A page written (``error`` None), or why not."""

    path: str
    values: int = 0
    failed: list[str] = field(default_factory=list)
    error: str | None = None


class PageExport(BackgroundJob):
    """Exports one page at a time from a background thread."""

    finished = Signal(object)  # PageOutcome

    def __init__(
        self,
        frame: QMainWindow,
        model: InspectorModel,
        time_budget: Callable[[], float | None],
        show_message: Callable[[str, str], None],
    ) -> None:
        super().__init__()
        self.frame, self.model = frame, model
        self.time_budget = time_budget
        self.show_message = show_message
        #: the Sweep dock, whose option and values the page takes when set (the window
        #: sets it once its docks are built)
        self.sweep: SweepPanel | None = None
        self.running = False
        self.runner: Runner | None = None
        self.last: PageOutcome | None = None
        self.finished.connect(self._finished)

    def choice(self) -> PageChoice | str:
        """The option and values the page steps, or why there are none, in words."""
        entry = self.model.entry
        params = {p.name: p for p in numeric_params(entry, self.model.options)}
        if not params:
            return f"{self.model.entry_id} has no numeric option to step."
        if self.sweep is not None:
            param = self.sweep.param_combo.currentData()
            text = self.sweep.values_edit.text()
            if param in params and text.strip():
                try:
                    values = parse_values(text, params[param].kind == "int")
                except ValueError as error:
                    return f"The Sweep dock's values: {error}"
                return PageChoice(param, values)
        chosen = next(iter(params.values()))
        if self.sweep is not None and self.sweep.param_combo.currentData() in params:
            chosen = params[self.sweep.param_combo.currentData()]
        current = self.model.options.get(chosen.name, chosen.default)
        if not isinstance(current, (int, float)):
            current = 1
        integer = chosen.kind == "int"
        spec = suggested_values(current, integer, chosen.minimum)
        return PageChoice(chosen.name, parse_values(spec, integer))

    def _target(self) -> str:
        stem = os.path.splitext(self.model.document.name)[0] or "chunks"
        path, _ = QFileDialog.getSaveFileName(
            self.frame, "Export an interactive page", f"{stem}-page.html", "HTML page (*.html)"
        )
        if path and not os.path.splitext(path)[1]:
            path += ".html"
        return path

    def export(self, path: str | None = None) -> bool:
        """Start writing the page to ``path`` (asked for when None); False when it cannot
        start (one running, nothing to step, cancelled), with a message why."""
        if self.running:
            self.frame.statusBar().showMessage("An interactive page is being exported", 5000)
            return False
        if not self.model.entry_id:
            self.show_message("Cannot export the page", "Choose a chunker first.")
            return False
        choice = self.choice()
        if isinstance(choice, str):
            self.show_message("Cannot export the page", choice)
            return False
        path = path or self._target()
        if not path:
            return False
        # the pinned layout's configuration (or the compared one), as B of the page's compare
        pinned = self.model.pinned.request if self.model.pinned is not None else None
        entry = self.model.entry
        plan = PagePlan(
            self.model.entry_id,
            self.model.sync_text(),
            self.model.options,
            choice.param,
            choice.values,
            pinned.entry_id if pinned is not None else None,
            dict(pinned.options) if pinned is not None else {},
            # the embedder and tokenizer the window chunks with, as the sweep takes them
            embedder=self.model.embedder if entry.uses_embedder else None,
            tokenizer=self.model.tokenizer if entry.uses_tokenizer else None,
            b_embedder=pinned.embedder if pinned is not None else None,
            b_tokenizer=pinned.tokenizer if pinned is not None else None,
        )
        self.running = True
        self.frame.statusBar().showMessage(
            f"Exporting an interactive page over {len(choice.values)} values of {choice.param}…"
        )
        self.runner = pool_runner(timeout=self.time_budget())
        self.launch(self._run, plan, path, self.runner)
        return True

    def shutdown(self) -> None:
        """Stop an export under way (the window closes): its chunking processes end."""
        self.cancel.set()
        if self.runner is not None:
            self.runner.close()  # type: ignore[attr-defined]

    def _run(self, plan: PagePlan, path: str, runner: Runner, cancel: threading.Event) -> None:
        try:
            page, run = make_page(plan, runner)
            views = run.values
            if cancel.is_set():
                return
            with open(path, "w", encoding="utf-8") as out:
                out.write(page)
        except OSError as error:
            outcome = PageOutcome(path, error=f"{path}: {error.strerror or error}")
        except Exception as error:  # a broken pool must not take the app down
            outcome = PageOutcome(path, error=f"{type(error).__name__}: {error}")
        else:
            failed = [
                f"{plan.param}={v.value}: {v.name}: {v.message}"
                for v in views
                if isinstance(v, FailedValue)
            ]
            outcome = PageOutcome(path, len(views), failed)
        if not cancel.is_set():
            self.deliver(self.finished, outcome)

    def _finished(self, outcome: PageOutcome) -> None:
        self.running = False
        self.last = outcome
        if outcome.error is not None:
            self.frame.statusBar().clearMessage()
            self.show_message("Cannot export the page", outcome.error)
            return
        failed = f", {len(outcome.failed)} failed (shown as failed)" if outcome.failed else ""
        self.frame.statusBar().showMessage(
            f"Exported an interactive page of {outcome.values} values{failed} to {outcome.path}",
            10000,
        )
