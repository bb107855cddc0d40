"""A parameter sweep: one numeric option stepped over a range, a row of figures per value.

Each row is computed from the Layout's JSON data, the very data ``chunkview spans`` prints
for that value, so a row can be checked against a ``spans`` run. The jobs run in chunking
processes (``service.ChunkPool``, all cores) behind a small runner interface, so tests and
the app can plug in their own.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chunkview.core import registry
from chunkview.core.analysis.eval import Question, evaluate
from chunkview.core.build import chunk_layout
from chunkview.core.chunkers.entry import Entry, Param, RunContext
from chunkview.core.errors import Cancelled
from chunkview.core.model.document import Document
from chunkview.core.model.kinds import UNIT_NAMES
from chunkview.core.model.observer import NOBODY, RunObserver
from chunkview.core.model.spans import Layout
from chunkview.core.runtime import DEFAULT_TIMEOUT, ChunkPool, Job

#: the figures of a row, with the words the command line's table heads them with (the
#: sizes in the entry's unit, named as Stats names it: ``column_heads``). A share is a
#: fraction in the data (``--json``, ``summarize``) and a percent wherever a person reads
#: it (this table, the Sweep plots, Stats)
FIGURES = {
    "chunks": "chunks",
    "median": "median size ({unit})",
    "p95": "95th percentile size ({unit})",
    "over_max": "over maxSize (% of chunks)",
    "lost": "text lost (chars)",
    "warnings": "warnings",
}
#: the figures that are shares: shown as percents
SHARES = {"over_max"}

#: the retrieval means a row carries when the sweep has questions (core/eval.py's Chroma
#: definitions: the mean over the questions of recall, precision and IoU at top-k)
RETRIEVAL_FIGURES = {
    "recall": "mean recall",
    "precision": "mean precision",
    "iou": "mean IoU",
}

#: most values one sweep takes (each is a whole chunking run)
MAX_VALUES = 500


def parse_values(text: str, integer: bool = False) -> list[float]:
    """``200:2000:100`` (start:stop:step, stop included) or ``100,150,400``, each value
    once; ValueError with a line a person can act on."""
    text = text.strip()
    try:
        if ":" in text:
            parts = [float(p) for p in text.split(":")]
            if len(parts) != 3:
                raise ValueError
            start, stop, step = parts
            if not all(map(math.isfinite, parts)):
                raise ValueError("values must be finite numbers")
            if step == 0 or (stop - start) / step < 0:
                raise ValueError("the step must go from start towards stop")
            steps = (stop - start) / step + 1e-9
            if not math.isfinite(steps) or steps >= MAX_VALUES:  # refused before it is built
                raise ValueError(
                    f"more than {MAX_VALUES} values; at most {MAX_VALUES} in one sweep"
                )
            values = [start + i * step for i in range(math.floor(steps) + 1)]
        else:
            values = [float(p) for p in text.split(",") if p.strip()]
    except ValueError as error:
        detail = f": {error}" if str(error) else ""
        raise ValueError(
            f"values are start:stop:step (e.g. 200:2000:100) or a list like 100,200,400{detail}"
        ) from None
    if not values:
        raise ValueError("no values to sweep")
    if len(values) > MAX_VALUES:
        raise ValueError(f"{len(values)} values; at most {MAX_VALUES} in one sweep")
    if not all(math.isfinite(v) for v in values):
        raise ValueError("values must be finite numbers")
    return list(dict.fromkeys(_as_number(v, integer) for v in values))  # each value once


def suggested_values(current: float, integer: bool, minimum: float | None = None) -> str:
    """The values a sweep of an option now at ``current`` starts from, as start:stop:step:
    a quarter of it to twice it in about 16 round steps (1, 2, 2.5 or 5 times a power of
    ten), the ends on the step, none below ``minimum``."""
    if not math.isfinite(current) or current <= 0:
        current = 1
    low, high = current / 4, current * 2
    rough = (high - low) / 16
    if not (math.isfinite(high) and rough > 0):  # 1e308 doubled, or 5e-324 quartered
        return _plain(current, integer)
    power = 10 ** math.floor(math.log10(rough))
    step = min((m * power for m in (1, 2, 2.5, 5, 10)), key=lambda s: abs(s - rough))
    if integer:
        step = max(1, round(step))
    start = math.floor(low / step + 1e-9) * step  # 0.075 / 0.025 is 2.9999999999999996
    if minimum is not None and start < minimum:
        start = minimum
    stop = math.ceil(high / step - 1e-9) * step
    return ":".join(_plain(v, integer) for v in (start, stop, step))


def _plain(value: float, integer: bool) -> str:
    """A number as a person types it: 2000 (not 2e+03), 0.025 (not 0.025000000000000001)."""
    if integer or (value == int(value) and abs(value) < 1e15):
        return str(round(value))
    return f"{value:.6g}"


def _as_number(value: float, integer: bool) -> float:
    """An int where the option is an integer or the value is whole (as JSON would give it)."""
    rounded = float(f"{value:.12g}")  # 0.30000000000000004 is 0.3; 1e-300 stays
    if integer or rounded == int(rounded):
        return round(rounded)
    return rounded


def percentile(values: list[int], share: float) -> float:
    """Nearest-rank percentile (the smallest value with ``share`` of the values at or
    below it); 0 for none."""
    if not values:
        return 0
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def summarize(
    value: float, layout: Mapping[str, Any], sizes: Sequence[int] | None = None
) -> dict[str, Any]:
    """The sweep row of one value, from a Layout's JSON data (``Layout.to_json()``);
    ``sizes``: the located chunks' sizes in the entry's unit, as Stats counts them
    (default: in chars)."""
    if sizes is None:
        sizes = [s["chars"] for s in layout["spans"] if s["located"] != "missing"]
    warnings = layout["warnings"]
    over = sum(1 for w in warnings if w["kind"] == "over-max")
    lost = sum(w["end"] - w["start"] for w in warnings if w["kind"] == "text-lost")
    return {
        "value": value,
        "chunks": len(layout["spans"]),
        "median": statistics.median(sizes) if sizes else 0,
        "p95": percentile(list(sizes), 0.95),
        "over_max": over / len(sizes) if sizes else 0.0,
        "lost": lost,
        "warnings": len(warnings),
        "error": None,
    }


def column_heads(unit: str) -> list[str]:
    """The table's heads of the figures, the sizes in ``unit`` (an entry's size unit)."""
    return [words.format(unit=UNIT_NAMES.get(unit, unit)) for words in FIGURES.values()]


def figure_text(figure: str, value: Any) -> str:
    """A figure as a person reads it: a share as a percent (0.25 is 25%)."""
    if figure in SHARES and isinstance(value, int | float):
        return f"{100 * value:.3g}%"
    return f"{value}"


def failed_row(value: float, name: str, message: str) -> dict[str, Any]:
    return {"value": value, **dict.fromkeys(FIGURES), "error": {"name": name, "message": message}}


def retrieval_means(
    layout: Layout, questions: Sequence[Question], retriever: str | None, top_k: int
) -> dict[str, Any]:
    """The mean recall, precision and IoU of ``questions`` on ``layout`` (what
    ``core.eval.evaluate`` reports), or ``retrieval_error`` in words when they cannot be
    computed (a reference past the text's end, an embedder that is not installed)."""
    try:
        means = evaluate(layout, questions, retriever, top_k).means
    except Exception as error:  # the chunking figures still stand
        return {**dict.fromkeys(RETRIEVAL_FIGURES), "retrieval_error": str(error)}
    return {name: means[name] for name in RETRIEVAL_FIGURES}


def chosen_options(options: Mapping[str, Any], param: str, value: float) -> dict[str, Any]:
    """The options one value runs with: ``options`` with ``param`` set to ``value``, the
    options left unset (None) left out."""
    return {k: v for k, v in {**options, param: value}.items() if v is not None}


def setting_layout(
    entry_id: str,
    document: Document,
    chosen: dict[str, Any],
    embedder: str | None = None,
    tokenizer: str | None = None,
    observer: RunObserver = NOBODY,
) -> tuple[Entry, Layout]:
    """The entry of ``entry_id`` and its Layout of ``document`` with the options
    ``chosen`` (checked first: a wrong one raises OptionError), run here with the
    embedder and tokenizer given (None: as ``chunkview spans`` runs without them); the
    one run each sweep value, page value and compared side makes in its chunking
    process."""
    entry = registry.get(entry_id)
    entry.check_options(chosen)
    ctx = RunContext(embedder=embedder, tokenizer=tokenizer, observer=observer)
    return entry, chunk_layout(entry, document, chosen, ctx)[1]


def sweep_point(
    entry_id: str,
    document: Document,
    options: Mapping[str, Any],
    param: str,
    value: float,
    embedder: str | None = None,
    tokenizer: str | None = None,
    questions: Sequence[Question] = (),
    retriever: str | None = "bm25",
    top_k: int = 5,
) -> dict[str, Any]:
    """One row: chunk ``document`` with ``options`` and ``param`` set to ``value`` (run in
    a chunking process), with the embedder and tokenizer the app shows (None: as
    ``chunkview spans`` runs without them); with ``questions``, the retrieval means of
    that layout too."""
    chosen = chosen_options(options, param, value)
    _, layout = setting_layout(entry_id, document, chosen, embedder, tokenizer)
    # sizes in the entry's unit, as Stats and the histogram count them
    row = summarize(value, layout.to_json(), layout.sizes if layout.complete else None)
    if questions:
        row.update(retrieval_means(layout, questions, retriever, top_k))
    return row


@dataclass(frozen=True)
class SweepPlan:
    entry_id: str
    document: Document
    options: dict[str, Any]
    param: str
    values: list[float]
    embedder: str | None = None
    tokenizer: str | None = None
    #: with questions, each row carries their retrieval means (RETRIEVAL_FIGURES)
    questions: tuple[Question, ...] = ()
    retriever: str | None = "bm25"
    top_k: int = 5

    def jobs(self) -> list[PointJob]:
        return [
            PointJob(
                sweep_point,
                (
                    self.entry_id,
                    self.document,
                    self.options,
                    self.param,
                    value,
                    self.embedder,
                    self.tokenizer,
                    self.questions,
                    self.retriever,
                    self.top_k,
                ),
                f"{self.param}={value}",
            )
            for value in self.values
        ]


@dataclass(frozen=True)
class PointJob:
    """One run of a plan: ``function(*args)`` in a chunking process, and the label its
    progress and failure are shown under ("maxSize=300")."""

    function: Callable[..., Any]
    args: tuple
    label: str


#: runs a plan's jobs somewhere and yields (index, row or ChunkerError) as each ends
Runner = Callable[[list[PointJob]], Iterable[tuple[int, Any]]]


def pool_runner(workers: int | None = None, timeout: float | None = None) -> Runner:
    """A runner over ``service.ChunkPool``: every job in a chunking process under the
    watchdog, as many at once as there are cores (or ``workers``)."""
    live: list[ChunkPool] = []

    def run(points: list[PointJob]) -> Iterator[tuple[int, Any]]:
        jobs = [Job(point.function, point.args, label=point.label) for point in points]
        with ChunkPool(workers, timeout=timeout or DEFAULT_TIMEOUT) as pool:
            live.append(pool)
            try:
                for outcome in pool.map(jobs, ordered=False):
                    yield outcome.index, outcome.value if outcome.ok else outcome.error
            except Cancelled:  # closed from another thread
                return
            finally:
                live.remove(pool)

    def close() -> None:
        """Kill the processes of every sweep this runner is running (any thread): a
        cancel between rows would wait for the jobs running to end."""
        for pool in list(live):
            pool.kill()  # the sweep's own thread closes it as it leaves

    run.close = close  # type: ignore[attr-defined]
    return run


def run_sweep(
    plan: SweepPlan, runner: Runner | None = None
) -> Generator[dict[str, Any], None, None]:
    """The rows of ``plan`` as they finish (each carries its ``value``); a value the
    library refuses gives a row with ``error`` set and no figures."""
    runner = runner or pool_runner()
    for index, outcome in runner(plan.jobs()):
        value = plan.values[index]
        if isinstance(outcome, dict):
            yield outcome
        else:
            name = getattr(outcome, "name", type(outcome).__name__)
            yield failed_row(value, name, getattr(outcome, "message", str(outcome)))


def sweep(plan: SweepPlan, runner: Runner | None = None) -> list[dict[str, Any]]:
    """Every row of ``plan``, in the order of its values."""
    return sorted(run_sweep(plan, runner), key=lambda row: plan.values.index(row["value"]))


def numeric_params(entry: Entry, options: Mapping[str, Any]) -> list[Param]:
    """The entry's number options that apply with ``options``: what a sweep can step."""
    return [p for p in entry.params if p.kind in ("int", "float") and p.applies(options)]
