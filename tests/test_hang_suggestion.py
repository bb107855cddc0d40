"""The Hang suggestion (core/batch/hang_suggestion.py): each bound it gives is tried for
real, and checked here again in this process, with the value beyond it."""

import threading

import pytest
from conftest import CORPUS

from chunkview.core import registry
from chunkview.core.batch import hang_suggestion
from chunkview.core.batch.hang_suggestion import (
    MOST_TRIES,
    RETURNS,
    _outcome_name,
    options_to_try,
    search_bounds,
    suggest,
)
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import ChunkerError
from chunkview.core.io.read import load_document
from chunkview.core.runtime import Stopped

ENGINE = "agentos.ChunkingEngine"
#: ChunkingEngine's defaults, which hang on the redis README (issue 34)
DEFAULTS = {"strategy": "fixed", "chunkSize": 512, "chunkOverlap": 64}


def outcome(entry_id, document, options):
    """What the library does with ``options``, run here: RETURNS or the error's name."""
    try:
        registry.get(entry_id).run(document, options, RunContext())
    except ChunkerError as error:
        return error.name
    return RETURNS


@pytest.fixture(scope="module")
def redis():
    return load_document(CORPUS / "redis-readme.md")


def test_the_engine_defaults_on_the_redis_readme_get_bounds_that_hold(redis):
    assert outcome(ENGINE, redis, DEFAULTS) == "Hang"
    with pytest.raises(ChunkerError) as info:
        registry.get(ENGINE).run(redis, DEFAULTS, RunContext())
    suggestion = suggest(ENGINE, redis, DEFAULTS, info.value.message)
    bounds = {b.option: b for b in suggestion.bounds}
    assert set(bounds) == {"chunkOverlap", "chunkSize"}
    overlap, size = bounds["chunkOverlap"], bounds["chunkSize"]
    assert overlap.direction == "down" and size.direction == "up"
    assert overlap.exact and size.exact
    # each suggested value truly returns, and the one beyond it truly hangs
    assert outcome(ENGINE, redis, {**DEFAULTS, "chunkOverlap": overlap.returns_at}) == RETURNS
    assert overlap.fails_at == overlap.returns_at + 1
    assert outcome(ENGINE, redis, {**DEFAULTS, "chunkOverlap": overlap.fails_at}) == "Hang"
    assert outcome(ENGINE, redis, {**DEFAULTS, "chunkSize": size.returns_at}) == RETURNS
    assert size.fails_at == size.returns_at - 1
    assert outcome(ENGINE, redis, {**DEFAULTS, "chunkSize": size.fails_at}) == "Hang"
    assert suggestion.text() == (
        f"returns with chunkOverlap ≤ {overlap.returns_at} or chunkSize ≥ {size.returns_at}"
    )
    # a handful of runs per option, each one recorded as it was tried and re-checked here
    assert all(0 < len(tried) <= MOST_TRIES for tried in suggestion.tried.values())
    for name, tried in suggestion.tried.items():
        for one in tried:
            assert outcome(ENGINE, redis, {**DEFAULTS, name: one.value}) == one.outcome


def test_every_value_the_search_tries_lies_between_the_hang_and_the_far_end():
    engine = registry.get(ENGINE)
    threshold = 530  # a fake library: returns from chunkSize 530 up, whatever the overlap

    def run(tries):
        return [RETURNS if t["chunkSize"] >= threshold else "Hang" for t in tries]

    found = search_bounds(engine, DEFAULTS, "with chunkSize 512", run)
    assert [b.phrase() for b in found.bounds] == ["chunkSize ≥ 530"]
    assert found.none_found == ("chunkOverlap",)  # 0 hangs too: no value returns
    assert [t.value for t in found.tried["chunkOverlap"]] == [0]
    sizes = [t.value for t in found.tried["chunkSize"]]
    assert sizes[0] == 100_000 and all(512 < s <= 100_000 for s in sizes)
    assert len(sizes) <= MOST_TRIES
    assert found.text() == "returns with chunkSize ≥ 530"


def test_no_value_found_says_so_and_a_cancel_stops_the_search():
    engine = registry.get(ENGINE)
    hangs = search_bounds(engine, DEFAULTS, "", lambda tries: ["Hang"] * len(tries))
    assert (
        hangs.bounds == () and hangs.text() == "no value of chunkSize or chunkOverlap tried returns"
    )
    cancel = threading.Event()
    cancel.set()
    stopped = search_bounds(engine, DEFAULTS, "", lambda tries: [RETURNS] * len(tries), cancel)
    assert stopped.runs == 0


def test_the_options_named_come_first_then_the_size_roles():
    engine = registry.get(ENGINE)
    message = "a run within its first 64 units (chunkOverlap) follows"
    picked = [(o.param.name, o.direction) for o in options_to_try(engine, DEFAULTS, message)]
    assert picked == [("chunkOverlap", "down"), ("chunkSize", "up")]
    # naming none, the entry's order
    tried = options_to_try(engine, DEFAULTS, "no option named")
    picked = [(o.param.name, o.direction) for o in tried]
    assert picked == [("chunkSize", "up"), ("chunkOverlap", "down")]


def test_a_try_stopped_past_its_budget_counts_as_a_hang():
    assert _outcome_name(Stopped("time", "stopped after 3 s")) == "Hang"
    assert _outcome_name(Stopped("memory", "over 1 GB")) == "Stopped"
    assert _outcome_name(ChunkerError("RangeError", "bad")) == "RangeError"
    assert _outcome_name(None) == RETURNS


def test_mastra_token_windows_that_never_advance_get_both_ways_out():
    # mastra's options carry ``when`` mappings (a Param that cannot be hashed)
    mastra = registry.get("mastra.chunk")
    options = {"strategy": "token", "maxSize": 200, "overlap": 200}
    message = "overlap 200 equals maxSize: the windows never advance"
    picked = [(o.param.name, o.direction) for o in options_to_try(mastra, options, message)]
    assert picked[:2] == [("maxSize", "up"), ("overlap", "down")]

    def run(tries):  # the library's own rule for this hang: overlap == maxSize
        return ["Hang" if t["overlap"] == t["maxSize"] else RETURNS for t in tries]

    found = search_bounds(mastra, options, message, run)
    assert [b.phrase() for b in found.bounds][:2] == ["maxSize ≥ 201", "overlap ≤ 199"]
    assert all(b.exact for b in found.bounds)


def test_a_hang_with_no_number_option_to_try_starts_no_process(monkeypatch):
    from chunkview.core.batch import hang_suggestion

    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started")

    monkeypatch.setattr(hang_suggestion, "ChunkPool", no_pool)
    html = {"strategy": "html", "sections": [["", "h1"]]}
    mastra = registry.get("mastra.chunk")
    assert options_to_try(mastra, html, "the selector '' starts with no tag") == []
    found = suggest("mastra.chunk", None, html, "the selector '' starts with no tag")
    assert found.bounds == () and found.runs == 0


def test_a_bound_the_tries_ran_out_on_says_about(monkeypatch):
    engine = registry.get(ENGINE)

    def run(tries):  # a fake library: returns from chunkSize 530 up, whatever the overlap
        return [RETURNS if t["chunkSize"] >= 530 else "Hang" for t in tries]

    monkeypatch.setattr(hang_suggestion, "MOST_TRIES", 4)  # too few to reach one step
    found = search_bounds(engine, DEFAULTS, "", run)
    (size,) = found.bounds
    assert not size.exact and size.fails_at < 530 <= size.returns_at
    assert size.returns_at - size.fails_at > 1
    assert size.phrase() == f"chunkSize ≥ about {size.returns_at}"
    assert found.text() == f"returns with chunkSize ≥ about {size.returns_at}"
    monkeypatch.setattr(hang_suggestion, "MOST_TRIES", MOST_TRIES)
    exact = search_bounds(engine, DEFAULTS, "", run)
    assert exact.bounds[0].exact and exact.text() == "returns with chunkSize ≥ 530"
