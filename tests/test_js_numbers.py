"""JS index coercion helpers; the expected values were printed by node 20."""

import math

import pytest

from chunkview.core.text.js import (
    char_at,
    has_surrogates,
    js_slice,
    js_substring,
    known_whole,
    last_index_of,
    number_text,
    to_number,
    to_units,
    unit_string,
    unit_view,
)

NAN, INF = math.nan, math.inf


@pytest.mark.parametrize(
    ("start", "end", "sliced", "substring"),
    [
        (2.7, None, "cdef", "cdef"),
        (-0.5, None, "abcdef", "abcdef"),
        (-2.5, None, "ef", "abcdef"),
        (NAN, 3, "abc", "abc"),
        (1, -INF, "", "a"),
        (-INF, INF, "abcdef", "abcdef"),
        (4, 1.9, "", "bcd"),
        (3.9, 5.2, "de", "de"),
    ],
)
def test_slice_and_substring(start, end, sliced, substring):
    assert js_slice("abcdef", start, end) == sliced
    assert js_substring("abcdef", start, end) == substring


def test_last_index_of_and_indexing():
    assert last_index_of("abcdef", "c", NAN) == 2
    assert last_index_of("a b c", " ", 2.9) == 1
    assert last_index_of("a b c", " ", -3) == -1
    assert last_index_of(" ab", " ", -3) == 0
    assert last_index_of("a b c", " ", INF) == 3
    assert char_at("abcdef", 2.5) is None
    assert char_at("abcdef", -1) is None
    assert char_at("abcdef", -0.0) == "a"
    assert char_at("abcdef", 1.0) == "b"


def test_numbers_as_js_sees_them():
    assert to_number(True) == 1 and isinstance(to_number(2.0), int)
    assert to_number(2.5) == 2.5 and math.isnan(to_number(NAN))
    with pytest.raises(TypeError):
        to_number("5")
    assert [number_text(v) for v in (NAN, -INF, 3.0, 0.5, True)] == [
        "NaN",
        "-Infinity",
        "3",
        "0.5",
        "true",
    ]


@pytest.mark.parametrize(
    ("text", "surrogates"),
    [
        ("plain ascii", False),
        ("caf\u00e9 \u4e2d", False),
        ("smile \U0001f600 done", True),
        ("lone \ud800 half", True),
        ("both \U0001f600 and \udc00", True),
    ],
)
def test_unit_view_converts_and_keeps_the_last_long_text(text, surrogates):
    long = text * 20_000
    for given in (text, long):
        units, found = unit_view(given)
        assert units == to_units(given) and found is surrogates
    # the long text's conversion is kept: asked again, the same string comes back
    assert unit_view(long)[0] is unit_view(long)[0]
    # known whole (no from_units needed) only for that very string, without surrogates
    units = unit_view(long)[0]
    assert known_whole(units) is (not surrogates)
    if max(units) > "\xff":  # another string, even an equal one, is not known
        assert not known_whole(units[:-1]) and not known_whole(text)


def test_a_latin1_text_is_its_own_unit_view_without_a_scan():
    # stored one byte a character: no surrogate half, no astral character
    text = "na\u00efve caf\u00e9 cr\u00e8me " * 20_000
    units, surrogates = unit_view(text)
    assert units is text and surrogates is False
    assert known_whole(text[5:500]) and not has_surrogates(text)
    # a short one is read (its header outweighs it), with the same answer
    assert unit_view("\u00e9")[0] == "\u00e9" and unit_view("\u00e9")[1] is False


@pytest.mark.parametrize(
    "text",
    [
        "",
        "ascii",
        "\u00e9",
        "caf\u00e9 \u4e2d" * 9,
        "\U0001f600",
        "a \U0001f600" * 9,
        "\ud800" * 40,
    ],
)
def test_unit_string_is_the_unit_view(text):
    # told in O(1) for a text without astral characters: the text itself
    assert unit_string(text) == to_units(text) == unit_view(text)[0]
    if max(text, default="a") < "\U00010000":
        assert unit_string(text) is text


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1e-7, "1e-7"),
        (-2.5e-8, "-2.5e-8"),
        (0.000001234, "0.000001234"),
        (1.5e21, "1.5e+21"),
        (1e300, "1e+300"),
        (123456789.125, "123456789.125"),
        (12345678901234567890.5, "12345678901234567000"),
        (0.1, "0.1"),
    ],
)
def test_number_text_is_string_of_a_js_number(value, expected):
    assert number_text(value) == expected


def test_mastra_json_writes_small_fractions_as_json_stringify_does():
    # its own copy of Number::toString dropped a fraction's leading zeros (0.001 became
    # "0.1", 0.00042 "0.42"); the output below is @mastra/rag 1.3.6's, run in node
    import json

    import chunkview
    from chunkview.core.chunkers.mastra.json_values import js_number

    data = {"a": 0.001, "b": {"c": 0.00042, "d": [0.5, 1e-7]}}
    out = chunkview.run(
        "mastra.chunk",
        json.dumps(data),
        {"strategy": "json", "maxSize": 30, "minSize": 5},
        doc="json",
    )
    assert [c["text"] for c in out] == [
        '{"b":{"c":0.00042}}',
        '{"b":{"d":[0.5,1e-7]}}',
        '{"a":0.001}',
    ]
    assert [js_number(v) for v in (0.001, -0.0, 2.0**60, 1e21)] == [
        "0.001",
        "0",
        "1152921504606847000",
        "1e+21",
    ]


def test_js_string_is_what_string_value_shows():
    from chunkview.core.text.js import js_string

    assert js_string(None) == "null" and js_string(True) == "true" and js_string(5.0) == "5"
    assert js_string(["recursive"]) == "recursive"
    assert js_string([1, None, [2, "a"], {"k": 1}]) == "1,,2,a,[object Object]"
    assert js_string(float("nan")) == "NaN" and js_string(1e21) == "1e+21"
    assert js_string({}) == "[object Object]" and js_string("x y") == "x y"
