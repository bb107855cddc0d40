"""The sweep's values, rows and runner interface (no processes: a runner in place)."""

import pytest

from chunkview.core.batch.sweep import (
    SweepPlan,
    parse_values,
    percentile,
    suggested_values,
    summarize,
    sweep,
)
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.runtime.pipeline import ChunkRequest, Pipeline

TEXT = "One sentence here. Another one there.\n\n" * 30


def in_place(jobs):
    """Run each job here, last first (rows arrive out of order, as from a pool)."""
    for index in reversed(range(len(jobs))):
        job = jobs[index]
        try:
            yield index, job.function(*job.args)
        except ChunkerError as error:
            yield index, error


def test_values():
    assert parse_values("200:1000:400") == [200, 600, 1000]
    assert parse_values("0.1:0.3:0.1") == [0.1, 0.2, 0.3]
    assert parse_values("5, 1,2.5") == [5, 1, 2.5]
    assert parse_values("1:3:0.5", integer=True) == [1, 2, 3]  # rounded for an int option
    for bad in ("9:1:1", "1:2", "a:b:c", "1:5:0"):
        with pytest.raises(ValueError, match="start:stop:step"):
            parse_values(bad)
    # a range too long, or endless, is refused before its list is built (the UI thread
    # parses it: a trillion values would freeze the window)
    assert len(parse_values("1:500:1")) == 500
    for bad in ("1:501:1", "1:1e12:1", "1:inf:1", "0:1:1e-300", "nan:5:1", "1:5:nan"):
        with pytest.raises(ValueError, match=r"at most 500|finite|towards"):
            parse_values(bad)


def test_a_sweep_starts_from_round_values_around_the_current_one():
    # a quarter of the value to twice it, in round steps a person would type
    assert suggested_values(1000, integer=True) == "200:2000:100"
    assert suggested_values(512, integer=True, minimum=0) == "100:1050:50"
    assert suggested_values(0.3, integer=False) == "0.075:0.6:0.025"
    assert suggested_values(0.5, integer=False) == "0.1:1:0.05"
    assert suggested_values(4, integer=True, minimum=1) == "1:8:1"
    assert suggested_values(1e9, integer=True) == "200000000:2000000000:100000000"
    # the ends of the float range give one value, not an error
    assert parse_values(suggested_values(5e-324, integer=False)) == [5e-324]
    assert parse_values(suggested_values(1e308, integer=False)) == [int(1e308)]
    assert parse_values(suggested_values(1e-300, integer=False))[:2] == [2e-301, 3e-301]
    for current, integer in ((1000, True), (64, True), (0.85, False), (7, True), (3e-3, False)):
        values = parse_values(suggested_values(current, integer), integer=integer)
        assert 12 <= len(values) <= 30 and min(values) <= current / 4 + 1e-12
        assert max(values) >= current * 2 - 1e-12


def test_percentile_is_nearest_rank():
    assert percentile([], 0.95) == 0
    assert percentile(list(range(1, 101)), 0.95) == 95
    assert percentile([7], 0.95) == 7


def test_rows_come_back_in_value_order_with_failures_kept():
    document = Document(TEXT)
    plan = SweepPlan(
        "agentos.ChunkingEngine",
        document,
        {"strategy": "fixed", "chunkOverlap": 20},
        "chunkSize",
        [300, 0, 100],
    )
    rows = sweep(plan, in_place)
    assert [row["value"] for row in rows] == [300, 0, 100]
    assert rows[1]["error"]["name"] == "Hang" and rows[1]["chunks"] is None
    options = {"strategy": "fixed", "chunkOverlap": 20, "chunkSize": 100}
    result = Pipeline().run(
        ChunkRequest(1, "agentos.ChunkingEngine", document, options), RunContext()
    )
    assert rows[2] == summarize(100, result.layout.to_json())
    assert rows[0]["chunks"] < rows[2]["chunks"]
