"""The ports end as their originals end where the original throws or takes infinite
options: mastra json's endless splitLong (spec/mastra.md §11.1 step 5) and mastra sentence
with an infinite maxSize (§6.2). The expected values were recorded from node 20 with
@mastra/rag 1.3.6 (the conformance cache)."""

from __future__ import annotations

import time

import pytest

import chunkview
from chunkview.core.errors import ChunkerError

LONG = '{"a":"hello world this is a long string"}'


def _texts(input: str, options: dict, doc: str = "json") -> list[str]:
    return [c["text"] for c in chunkview.run("mastra.chunk", input, options, doc=doc)]


@pytest.mark.parametrize(
    "input,max_size",
    [
        ('{"a":"x"}', 1),  # the case
        (LONG, 1),  # slice(0, P < 0) finds spaces from the end: still endless
        (LONG, 20),
        (LONG, 20.5),  # floor(0.5) = 0
        ('{"a":1234567890123,"b":"xy"}', 1),
        ('["x", {"k": "v"}]', 1),  # a top-level array's items are entries too
        ('{"root":"abc def"}', 1),
        ('{"o":{"b":[1,2]},"root":"\\ud83d\\ude00 xy","z":1}', 7),
    ],
)
def test_json_small_max_size_is_the_originals_range_error_at_once(input, max_size) -> None:
    began = time.monotonic()
    with pytest.raises(ChunkerError) as caught:
        chunkview.run("mastra.chunk", input, {"strategy": "json", "maxSize": max_size}, doc="json")
    assert (caught.value.name, caught.value.message) == ("RangeError", "Invalid array length")
    assert time.monotonic() - began < 2  # node takes 6-25 s and 2.5 GB to say it


@pytest.mark.parametrize(
    "input,max_size,expected",
    [
        ('{"a":""}', 1, []),  # an empty string is never split: no loop
        ('{"a":"x"}', 20, ['{"a":"x"}']),  # it fits: splitLong is never called
        ('{"o":{"b":"long string here with words"},"c":true}', 1, []),  # nested: no split
        ('{"a":1234567890123,"b":"xy"}', 20, ['{"a":1234567890123}', '{"b":"xy"}']),
        (LONG, 22, ['{"a":"he"}', '{"a":"ll"}', '{"a":"o "}', '{"a":"wo"}', '{"a":"rl"}']),
    ],
)
def test_json_small_max_size_without_a_long_string_gives_the_originals_chunks(
    input, max_size, expected
) -> None:
    texts = _texts(input, {"strategy": "json", "maxSize": max_size})
    assert texts[: len(expected)] == expected
    if input != LONG:
        assert texts == expected


def test_json_max_size_21_cuts_one_unit_pieces() -> None:
    texts = _texts(LONG, {"strategy": "json", "maxSize": 21})
    assert texts == [f'{{"a":"{u}"}}' for u in "hello world this is a long string"]


SENTENCES = "Hello there. This is a test! Another one? Yes."
WHOLE = [{"text": SENTENCES, "metadata": {}}]


@pytest.mark.parametrize(
    "options,expected",
    [
        ({"maxSize": float("inf")}, WHOLE),
        ({"maxSize": 1e400}, WHOLE),  # JSON's 1e400 is Infinity too
        ({"maxSize": float("inf"), "overlap": float("inf")}, WHOLE),
        (
            {"maxSize": float("inf"), "addStartIndex": True},
            [{"text": SENTENCES, "metadata": {"startIndex": 0}}],
        ),
        (
            {"maxSize": float("inf"), "targetSize": 10, "overlap": 100},
            [
                {"text": "Hello there.", "metadata": {}},
                {"text": "Hello there. This is a test!", "metadata": {}},
                {"text": "Hello there. This is a test! Another one?", "metadata": {}},
                {"text": SENTENCES, "metadata": {}},
                {"text": SENTENCES, "metadata": {}},
            ],
        ),
        (
            {"maxSize": 5, "targetSize": float("inf")},
            [
                {"text": t, "metadata": {}}
                for t in "Hello|there|.|This|is a|test!|Anoth|er|one?|Yes.".split("|")
            ],
        ),
    ],
)
def test_sentence_with_an_infinite_size_gives_the_originals_result(options, expected) -> None:
    options = {"strategy": "sentence", **options}
    assert chunkview.run("mastra.chunk", SENTENCES, options) == expected


def test_sentence_infinite_max_size_with_start_indexes_after_rejoining() -> None:
    text = "Hello there.   This is a test! Another one? Yes."
    options = {
        "strategy": "sentence",
        "maxSize": float("inf"),
        "targetSize": float("inf"),
        "overlap": float("inf"),
        "addStartIndex": True,
    }
    assert chunkview.run("mastra.chunk", text, options) == [
        {"text": SENTENCES, "metadata": {"startIndex": -1}}
    ]


def test_sentence_infinite_max_size_is_placed() -> None:
    layout = chunkview.spans("mastra.chunk", SENTENCES, {"strategy": "sentence", "maxSize": 1e400})
    assert [(s.text, s.start, s.end, s.located) for s in layout.spans] == [
        (SENTENCES, 0, len(SENTENCES), "exact")
    ]
