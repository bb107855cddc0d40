"""Mastra's measured split (recursive.py ``_MeasuredSplit``, splitter.py ``pack_range``) gives
what the library's piece-by-piece loop gives: the loop still runs when reasons are asked
for (``explaining``), so each random case is chunked both ways and compared."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkview
from chunkview.core.chunkers.mastra.document import chunk_document
from chunkview.core.chunkers.mastra.explain import explaining
from chunkview.core.chunkers.mastra.recursive import LATEX, MARKDOWN
from chunkview.core.chunkers.mastra.sentence import _fallback, sentences
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import to_units
from chunkview.core.text.jsregex import compile_js, screens

PIECES = st.sampled_from(
    [
        "word",
        " ",
        "\n",
        "\n\n",
        "\n\n\n",
        "\n# Head\n",
        "\n## Sub ",
        "```\n",
        "\n***\n",
        "\n---\n",
        "\n___\n",
        "\n**-\n",
        "\\section{A}",
        "\\begin{x}",
        "😀",
        "東京",
        "\u3000",
        "x" * 40,
        "a.b",
    ]
)
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=80).map("".join)
NUMBERS = st.one_of(
    st.integers(-3, 120),
    st.floats(-3, 120, allow_nan=False),
    st.sampled_from([math.nan, math.inf, -math.inf, 0, 0.5]),
)
OPTIONS = st.fixed_dictionaries(
    {
        "strategy": st.sampled_from(["recursive", "markdown", "latex"]),
        "maxSize": NUMBERS,
        "overlap": NUMBERS,
    },
    optional={
        "keepSeparator": st.sampled_from([False, True, "start", "end"]),
        "stripWhitespace": st.booleans(),
        "separators": st.lists(
            st.sampled_from(["\n\n", "\n", " ", "", ".", "a", "\n#", "(x)?", "[", "\\n+"]),
            max_size=5,
        ),
        "isSeparatorRegex": st.booleans(),
        "addStartIndex": st.booleans(),
    },
)


def outcome(text: str, options: dict, loop: bool):
    try:
        with explaining([] if loop else None):
            return chunk_document(text, "markdown", {}, dict(options))
    except ChunkerError as error:
        return (error.name, error.message)


@settings(max_examples=400, deadline=None)
@given(TEXTS, OPTIONS)
def test_measured_split_gives_what_the_loop_gives(text, options):
    assert outcome(text, options, loop=False) == outcome(text, options, loop=True)


@pytest.mark.parametrize("astral", ["", "\U0001f600"])
def test_a_long_text_keeps_its_levels_from_its_second_run_and_each_run_equals_the_loop(astral):
    # the levels of a long text (its separator found and pieces, at each depth) are kept
    # from its second run on and read again with other sizes; each run still gives what
    # the loop gives, and the levels kept stay within their room (a tiny maxSize would
    # otherwise keep every unit as a piece)
    import random

    from chunkview.core.chunkers.mastra import recursive
    from chunkview.core.text.js import unit_view

    rng = random.Random(7)
    atoms = ["word ", "a b", "\n", "\n\n", "\n# Head\n", "```\n", "\n---\n", "x" * 40, "東京"]
    text = "".join(rng.choice([*atoms, astral]) for _ in range(20_000))
    assert len(unit_view(text)[0]) >= recursive._KEEP_FROM
    runs = [
        {"strategy": "markdown", "maxSize": 1000, "overlap": 100},
        {"strategy": "markdown", "maxSize": 1000, "overlap": 100},
        {"strategy": "markdown", "maxSize": 200, "overlap": 0},
        {"strategy": "markdown", "maxSize": 3, "overlap": 1},
        {"strategy": "markdown", "maxSize": 5000, "overlap": 10, "stripWhitespace": False},
        {"strategy": "markdown", "maxSize": 300, "overlap": 30, "keepSeparator": "end"},
        {"strategy": "markdown", "maxSize": 300, "overlap": 30, "keepSeparator": "end"},
        {"strategy": "recursive", "maxSize": 100, "overlap": 20},
        {"strategy": "recursive", "maxSize": 700, "overlap": 20},
    ]
    units = unit_view(text)[0]
    for number, options in enumerate(runs):
        assert outcome(text, options, loop=False) == outcome(text, options, loop=True), options
        kept = recursive._last_levels
        if number == 0:  # a text chunked once keeps nothing
            assert kept is None or kept.text is not units
            continue
        assert kept is not None and kept.text is units
        assert kept.root is not None and 0 <= kept.room < recursive._KEPT_COPIES * len(units)
    assert kept.key == (tuple(recursive.DEFAULT_SEPARATORS), False, False)


def test_a_screen_passes_every_text_one_of_its_patterns_matches():
    for separators in (MARKDOWN, LATEX):
        for i, (screen, end) in enumerate(screens(tuple(separators))):
            if screen is None:
                continue
            for text in ("x\n***\n", "\n-----\ny", "a\n___\n", "\\section{A}", "\\end{x}"):
                if any(compile_js(s).search(text) for s in separators[i:end]):
                    assert screen.search(text), (separators[i:end], text)


def test_the_markdown_rules_are_screened_in_one_scan():
    screen, end = screens(tuple(MARKDOWN))[2]
    assert MARKDOWN[2:end] == ["\n\\*\\*\\*+\n", "\n---+\n", "\n___+\n"]
    assert screen.search("text\n\nmore text\n- item\n") is None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "word", " ", "  ", "\n", "😀", "x" * 30, "東京"]), max_size=40
    ).map("".join),
    NUMBERS,
    st.booleans(),
    st.booleans(),
)
def test_sentence_fallback_packs_as_the_loop_packs(sentence, max_size, by_words, by_chars):
    """The word and code-point fallbacks for the UTF-16 length (a list and a running sum)
    give what the loop gives, which any other length function still takes."""
    units = to_units(sentence)
    measured = _fallback(units, max_size, len, by_words, by_chars)
    assert measured == _fallback(units, max_size, lambda text: len(text), by_words, by_chars)


def sentences_one_ender_at_a_time(text, enders):
    """The sentence scan as the library runs it: every ender looked at in turn."""
    import re

    from chunkview.core.chunkers.mastra.sentence import _is_abbreviation, _last_word
    from chunkview.core.text.js import W_CLASS, trim

    found, start = [], 0
    units = sorted({e for e in enders if len(e) == 1})
    if not units:
        rest = trim(text)
        return [rest] if rest else []
    for i, unit in enumerate(text):
        if unit not in units:
            continue
        if re.search(f"[^{W_CLASS}]", text[i + 1 :]) is None:
            boundary = True
        elif re.match(f"[{W_CLASS}]+[A-Z]", text[i + 1 :]):
            boundary = not _is_abbreviation(_last_word(text, start, i + 1)[:-1])
        else:
            boundary = False
        if boundary:
            sentence = trim(text[start : i + 1])
            if sentence:
                found.append(sentence)
            start = i + 1
    rest = trim(text[start:])
    return [*found, rest] if rest else found


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["Dr.", " ", "  ", "\n", ". ", "! ", "? A", "x.y", "e.g. B", "Word", "3.", "\u3000"]
        ),
        max_size=40,
    ).map("".join),
    st.sampled_from([[".", "!", "?"], ["."], [], ["?", "x"], [".", "ab"]]),
)
def test_sentences_end_where_the_library_ends_them(text, enders):
    assert sentences(text, enders) == sentences_one_ender_at_a_time(text, enders)


@pytest.mark.parametrize("word", ["héllo wörld ", "héllo \U0001f600 wörld "])
def test_long_texts_give_chunks_of_the_text_itself(word):
    # a long text's chunks skip from_units only when it has no astral character
    text = word * 20_000
    nodes = chunkview.run("mastra.chunk", text, {"strategy": "recursive", "maxSize": 300})
    assert len(nodes) > 100
    assert all(node["text"] in text for node in nodes)
    assert not any("\ud800" <= ch <= "\udfff" for node in nodes for ch in node["text"])


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(st.sampled_from([0, 1, 2, 3, 5, 8, 20]), min_size=1, max_size=12),
    st.sampled_from([0, 1, 2, 3]),
    st.data(),
    st.sampled_from([1e-9, 0.5, 1, 2, 3, 4.5, 7, 10, 25, 100, math.inf]),
)
def test_overlap_tail_by_bisection_equals_the_walk(lengths, separator_len, data, overlap):
    from chunkview.core.chunkers.mastra.splitter import ends_of, overlap_tail, tail_start

    start = data.draw(st.integers(0, len(lengths) - 1))
    cut = data.draw(st.integers(start, len(lengths)))
    ends = ends_of(lengths, separator_len)
    walked = overlap_tail(lengths, start, cut, overlap, separator_len)[0]
    assert tail_start(lengths, ends, start, cut, overlap, separator_len) == walked
