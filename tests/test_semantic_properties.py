"""Each SemanticChunker fast path (semantic_line_pass.py, semantic_fast.py) equals the
reference function it replaces (semantic_reference.py, the spec step by step), on
generated texts (astral characters, lone surrogates, CRLF, fences, headings, JS white
space) and options over the ranges the conformance harness draws (conformance/cases.py:
typical values, 0, 1, negatives, fractions and huge ones). The reference is also run
on every public golden case."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import astuple
from typing import Any

import pytest
from conftest import golden_params
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkview import ChunkerError
from chunkview.core.chunkers.agentos import semantic_fast as fast
from chunkview.core.chunkers.agentos import semantic_line_pass as line_pass
from chunkview.core.chunkers.agentos import semantic_reference as reference
from chunkview.core.model.observer import RunNotes
from chunkview.core.text.js import unit_string

PIECES = st.sampled_from(
    [
        "word",
        "two words",
        "Sentence one. Sentence two! Three?",
        ".",
        "?  ",
        " ",
        "  ",
        "\n",
        "\n\n",
        "\r\n",
        "\r\n\r\n",
        "\n \n",
        "\t",
        "\r",
        "# Head\n",
        "#\r\n",
        "## ",
        "####### x",
        "#x",
        "```",
        "```js\n",
        "  ```\n",
        "~~~\n",
        "😀",
        "👍🏽",
        "\ud800",
        "\udc00",
        "東京",
        "\u00a0",
        "\u3000",
        "\u2028",
        "\u0085",
        "\ufeff",
        "x" * 40,
    ]
)
TEXTS = st.lists(st.one_of(PIECES, PIECES, st.text(max_size=6)), max_size=80).map("".join)


def number(low: int, high: int) -> st.SearchStrategy[Any]:
    """A size as the conformance harness draws one (``Cases.number``): mostly a whole
    number in range; also 0, 1, negatives, fractions and huge values."""
    typical = st.integers(low, high)
    return st.one_of(
        typical,
        typical,
        typical,
        st.sampled_from([0, 1, -1, -2, -10, -50, -200, 10**6, 10**9, 0.001, 2.5, 0.5]),
        st.floats(0, high).map(lambda x: round(x, 1) or 0.5),
        st.floats(0, high).map(lambda x: round(x, 2) or 0.5),
    )


# the harness's ranges, kept small enough for short texts to reach every level
OPTIONS = st.fixed_dictionaries(
    {
        "targetSize": number(1, 200),
        "maxSize": number(1, 400),
        "minSize": number(0, 20),
        "overlap": number(0, 40),
        "preserveCodeBlocks": st.sampled_from([True, False, 0, 1]),
        "respectHeadings": st.sampled_from([True, False, 0, 1]),
    }
)
# short words and spaces, and sizes of a few units: the windows' back-off to a space
SPACED = st.lists(
    st.sampled_from(["a", "bb", "ccc", " ", "  ", "\t", "\n", ".", "😀", "\ud800", "\r\n"]),
    max_size=80,
).map("".join)
# short lines, blank ones, headings and fences: G reaches a small targetSize at every size
LINES = st.lists(
    st.sampled_from(["a", "bb", "\n", "\n\n", " \n", "\r\n", "# h\n", "```\n", " ```x\n", "😀"]),
    max_size=60,
).map("".join)
SMALL_OPTIONS = st.one_of(
    st.fixed_dictionaries(
        {"targetSize": number(1, 12), "minSize": number(0, 8), "maxSize": number(1, 30)}
    ),
    st.fixed_dictionaries(  # the fast fixed split's own range
        {"targetSize": st.integers(1, 12), "minSize": st.integers(0, 8), "maxSize": st.just(1)}
    ),
)
WHOLE_TARGETS = st.one_of(
    st.integers(-5, 12), st.integers(-5, 200), st.sampled_from([-200, 10**6, 10**9])
)
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _outcome(run: Callable[[], Any]) -> Any:
    """What a call gives: its result, or the error it raises (name and message)."""
    try:
        return run()
    except ChunkerError as error:
        return ("error", error.name, error.message)


def _rows(segments: Any) -> Any:
    return [astuple(s) for s in segments] if isinstance(segments, list) else segments


@SETTINGS
@given(
    text=st.one_of(TEXTS, LINES),
    target=WHOLE_TARGETS,
    fences=st.booleans(),
    headings=st.booleans(),
)
def test_line_pass_jumps_equals_the_reference(text, target, fences, headings):
    units = unit_string(text)
    config = reference.Config(
        target_size=target, preserve_code_blocks=fences, respect_headings=headings
    )
    expected = _rows(reference.line_pass(units, config))
    assert _rows(line_pass.line_pass_jumps(units, config)) == expected


@SETTINGS
@given(text=st.one_of(TEXTS, LINES), options=st.one_of(OPTIONS, SMALL_OPTIONS))
def test_line_pass_events_equals_the_reference(text, options):
    units = unit_string(text)
    config = reference.Config.from_options(options)
    expected = _rows(reference.line_pass(units, config))
    assert _rows(line_pass.line_pass_events(units, config)) == expected
    assert _rows(line_pass.line_pass(units, config)) == expected


@SETTINGS
@given(text=TEXTS)
def test_sentence_cuts_equal_the_reference(text):
    units = unit_string(text)
    assert fast.sentence_cuts(units) == reference.sentence_cuts(units)


@SETTINGS
@given(
    text=st.one_of(TEXTS, SPACED),
    options=st.one_of(OPTIONS, SMALL_OPTIONS),
    base=st.integers(0, 50),
    exact=st.booleans(),
)
def test_fixed_split_equals_the_reference(text, options, base, exact):
    units = unit_string(text)
    config = reference.Config.from_options(options)
    expected = _rows(_outcome(lambda: reference.fixed_split(units, base, config, [], exact)))
    assert _rows(_outcome(lambda: fast.fixed_split(units, base, config, [], exact))) == expected


@SETTINGS
@given(text=st.one_of(TEXTS, SPACED), options=st.one_of(OPTIONS, SMALL_OPTIONS))
def test_resplit_long_equals_the_reference(text, options):
    units = unit_string(text)
    config = reference.Config.from_options(options)
    structural = reference.line_pass(units, config)
    expected = _rows(_outcome(lambda: reference.resplit_long(structural, config, [])))
    assert _rows(_outcome(lambda: fast.resplit_long(structural, config))) == expected


def _pieces(units: str, config: reference.Config) -> list[reference.Segment]:
    """Step 2's pieces, as the reference makes them (the line pass's, where it hangs)."""
    structural = reference.line_pass(units, config)
    try:
        return reference.resplit_long(structural, config, [])
    except ChunkerError:
        return structural


@SETTINGS
@given(text=TEXTS, options=OPTIONS)
def test_merge_small_equals_the_reference(text, options):
    units = unit_string(text)
    config = reference.Config.from_options(options)
    expected = reference.merge_small(_pieces(units, config), config.min_size, [], units)
    # the fast merge joins in place: it gets pieces of its own
    found = fast.merge_small(_pieces(units, config), config.min_size, units)
    assert _rows(found) == _rows(expected)


@SETTINGS
@given(
    text=TEXTS,
    options=OPTIONS,
    metadata=st.sampled_from([None, {"doc": "x"}, "tag", 0]),
)
def test_with_overlap_equals_the_reference(text, options, metadata):
    units = unit_string(text)
    config = reference.Config.from_options(options)
    merged = reference.merge_small(_pieces(units, config), config.min_size, [], units)
    astral = units is not text
    expected = reference.with_overlap(merged, config.overlap, metadata, astral)
    assert fast.with_overlap(merged, config.overlap, metadata, astral) == expected


@SETTINGS
@given(
    text=st.one_of(TEXTS, SPACED, LINES),
    options=st.one_of(OPTIONS, SMALL_OPTIONS),
    metadata=st.sampled_from([None, {"doc": "x"}, [1, "a"]]),
)
def test_the_fast_run_equals_the_reference_run(text, options, metadata):
    """The whole run: the same chunks (or error), and the same places told."""
    heard, told = RunNotes(reasons=False), RunNotes(reasons=False)
    expected = _outcome(lambda: reference.semantic_chunk(text, options, metadata, heard))
    assert _outcome(lambda: fast.semantic_chunk(text, options, metadata, told)) == expected
    assert _rows(told.places) == _rows(heard.places)


def test_a_reference_run_tells_its_reasons_and_a_fast_run_none():
    text = "# One\n\nSome words. More words here!\n\n" * 20
    options = {"targetSize": 60, "maxSize": 80, "minSize": 10, "overlap": 5}
    slow, quick = RunNotes(), RunNotes()
    chunks = reference.semantic_chunk(text, options, None, slow)
    assert fast.semantic_chunk(text, options, None, quick) == chunks
    assert [reason.at for reason in slow.reasons] == list(range(len(chunks)))
    assert quick.reasons == []


@pytest.mark.parametrize("case", golden_params("agentos.SemanticChunker"))
def test_the_reference_gives_every_golden_case(case):
    def run() -> Any:
        return reference.semantic_chunk(case["input"], case["options"], case.get("metadata"))

    result = _outcome(run)
    if isinstance(case["output"], dict):  # an error: names are compared
        assert isinstance(result, tuple) and result[1] == case["output"]["error"]
    else:
        assert result == case["output"]
