"""The schema check every caller runs (panel, CLI, API): it refuses wrong types only."""

import math

import pytest

import chunkview
from chunkview.core import registry
from chunkview.core.errors import OptionError


@pytest.mark.parametrize(
    "value, got",
    [
        ("abc", 'a string "abc"'),
        ([1, 2], "an array [1, 2]"),
        ({"a": 1}, 'an object {"a": 1}'),
    ],
)
def test_a_wrong_type_is_one_clear_line(value, got):
    entry = registry.get("agentos.SemanticChunker")
    with pytest.raises(OptionError) as caught:
        entry.check_options({"targetSize": value})
    assert caught.value.message == f"targetSize: takes a number, got {got}"
    assert "\n" not in caught.value.message


@pytest.mark.parametrize("value", [0, -5, 0.5, 1e12, math.nan, math.inf, -math.inf, True])
def test_any_number_goes_to_the_port(value):
    """Out of the widgets' range is not the schema's business: JS takes it."""
    registry.get("agentos.SemanticChunker").check_options({"targetSize": value})
    registry.get("agentos.ChunkingEngine").check_options({"chunkSize": value})


def test_choices_refuse_only_another_type():
    entry = registry.get("agentos.ChunkingEngine")
    entry.check_options({"strategy": "no-such-strategy"})  # the library says what then
    with pytest.raises(OptionError, match=r'strategy: takes one of "fixed", .*got a number 5'):
        entry.check_options({"strategy": 5})


def test_unknown_names_and_nulls_pass():
    registry.get("smartchunk").check_options({"noSuchOption": [1], "maxSize": None})


def test_the_api_checks_before_the_port_runs():
    with pytest.raises(OptionError, match="targetSize: takes a number"):
        chunkview.run("agentos.SemanticChunker", "Some text.", {"targetSize": "abc"})
    with pytest.raises(OptionError, match="targetSize: takes a number"):
        chunkview.spans("agentos.SemanticChunker", "Some text.", {"targetSize": [1]})
    with pytest.raises(OptionError, match="options: takes an object"):
        chunkview.run("agentos.SemanticChunker", "Some text.", ["targetSize"])


def test_a_library_that_checks_types_gives_its_own_error():
    with pytest.raises(chunkview.ChunkerError) as caught:
        chunkview.run("mastra.chunk", "Some text.", {"strategy": "recursive", "maxSize": "100"})
    assert caught.value.name == "Error"
    assert "maxSize: Expected number, received string" in caught.value.message
