"""Each of Mastra's fast paths gives what the reference step it replaces gives
(chunkview/core/chunkers/mastra/reference/): the measured split (measured_split.py) and
the character, sentence and node fast paths (fast.py), each checked against its
reference on generated texts (astral characters, lone surrogates, CRLF) and the option
ranges the conformance harness uses (conformance/cases.py); and whole runs of the
strategies they serve, fast against reference."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkview
from chunkview.core.chunkers.mastra import fast, measured_split
from chunkview.core.chunkers.mastra.document import chunk_document
from chunkview.core.chunkers.mastra.explain import MastraNotes, QuietNotes
from chunkview.core.chunkers.mastra.html_explain import HtmlReasons, QuietHtmlReasons
from chunkview.core.chunkers.mastra.json_explain import JsonNotes, QuietJsonNotes
from chunkview.core.chunkers.mastra.reference import character, sentence
from chunkview.core.chunkers.mastra.reference import splitter as reference_splitter
from chunkview.core.chunkers.mastra.reference.recursive import (
    DEFAULT_SEPARATORS,
    LATEX,
    MARKDOWN,
    split_text,
)
from chunkview.core.chunkers.mastra.reference.splitter import Splitter, overlap_tail
from chunkview.core.chunkers.mastra.semantic_markdown_explain import (
    QuietSectionNotes,
    SectionNotes,
)
from chunkview.core.chunkers.mastra.validate import check_overlap, validate
from chunkview.core.errors import ChunkerError
from chunkview.core.model.observer import NOBODY, RunNotes
from chunkview.core.text.js import to_units, unit_view
from chunkview.core.text.jsregex import compile_js, screens
from chunkview.core.text.kept import LONG_TEXT
from conformance.cases import REGEX_SEPARATORS, SEPARATORS

QUIET = QuietNotes(NOBODY)

PIECES = st.sampled_from(
    [
        "word",
        " ",
        "\n",
        "\r\n",
        "\n\n",
        "\r\n\r\n",
        "\n\n\n",
        "\n# Head\n",
        "\n## Sub ",
        "```\n",
        "\n***\n",
        "\n---\n",
        "\n___\n",
        "\\section{A}",
        "\\begin{x}",
        "😀",
        "\ud83d",  # lone surrogates, as a JS string may hold them
        "\ude00",
        "東京",
        "\u3000",
        "\u2028",
        "x" * 40,
        "a.b",
        ". ",
        "Dr. X",
    ]
)
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=80).map("".join)
#: conformance/cases.py's ``number``: mostly typical, also 0, 1, negatives, fractions,
#: huge values; and what no whole bound stands for
NUMBERS = st.one_of(
    st.integers(1, 60),
    st.integers(-3, 3000),
    st.floats(-3, 400, allow_nan=False),
    st.sampled_from([math.nan, math.inf, -math.inf, 0, 0.5, 10**6, 10**9, 0.001, 2.5]),
)
SIZES = st.one_of(st.integers(1, 60), st.integers(1, 3000), st.floats(0.5, 100))
OVERLAPS = st.one_of(st.integers(0, 30), st.integers(0, 400), st.floats(0, 50))
KEEP = st.sampled_from([False, True, "start", "end"])
LITERALS = st.lists(st.sampled_from(SEPARATORS), max_size=5)
REGEXES = st.lists(st.sampled_from(REGEX_SEPARATORS), max_size=5)
OPTIONS = st.fixed_dictionaries(
    {
        "strategy": st.sampled_from(["recursive", "markdown", "latex"]),
        "maxSize": NUMBERS,
        "overlap": NUMBERS,
    },
    optional={
        "keepSeparator": KEEP,
        "stripWhitespace": st.booleans(),
        "separators": st.lists(
            st.sampled_from(
                [*SEPARATORS, "\n\n", "\n", " ", "", "(x)?", "[", "\\n+", "(\\s)(\\s)?", "😀|x"]
            ),
            max_size=5,
        ),
        "isSeparatorRegex": st.booleans(),
        "addStartIndex": st.booleans(),
        "language": st.sampled_from(["markdown", "latex", "cpp", "ts", "python"]),
    },
)


def outcome(text: str, options: dict, reference: bool, strategy_doc: str = "markdown"):
    try:
        return chunk_document(text, strategy_doc, {}, dict(options), NOBODY, reference)
    except ChunkerError as error:
        return (error.name, error.message)


def split_outcome(split, units, separators, is_regex, splitter):
    try:
        return split(units, separators, is_regex, splitter, QUIET)
    except ChunkerError as error:
        return (error.name, error.message)


@settings(max_examples=200, deadline=None)
@given(
    TEXTS,
    st.one_of(LITERALS.map(lambda s: (s, False)), REGEXES.map(lambda s: (s, True))),
    SIZES,
    OVERLAPS,
    KEEP,
    st.booleans(),
)
def test_measured_split_gives_what_the_loop_gives(text, separators, size, overlap, keep, strip):
    """``measured_split.split`` against ``reference.recursive.split_text``."""
    separators, is_regex = separators
    splitter = Splitter(size, overlap, len, keep, False, strip)
    units = to_units(text)
    assert split_outcome(measured_split.split, units, separators, is_regex, splitter) == (
        split_outcome(split_text, units, separators, is_regex, splitter)
    )


@settings(max_examples=200, deadline=None)
@given(TEXTS, OPTIONS)
def test_the_recursive_strategies_run_as_the_reference_runs(text, options):
    """Whole runs: the measured split and the fast nodes against the reference."""
    assert outcome(text, options, reference=False) == outcome(text, options, reference=True)


@pytest.mark.parametrize("astral", ["", "\U0001f600"])
def test_a_long_text_keeps_its_levels_from_its_second_run_and_each_run_equals_the_loop(astral):
    # the levels of a long text (its separator found and pieces, at each depth) are kept
    # from its second run on and read again with other sizes; each run still gives what
    # the loop gives, and the levels kept stay within their room (a tiny maxSize would
    # otherwise keep every unit as a piece)
    rng = random.Random(7)
    atoms = ["word ", "a b", "\n", "\n\n", "\n# Head\n", "```\n", "\n---\n", "x" * 40, "東京"]
    text = "".join(rng.choice([*atoms, astral]) for _ in range(20_000))
    units = unit_view(text)[0]
    assert len(units) >= LONG_TEXT
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
    for number, options in enumerate(runs):
        assert outcome(text, options, reference=False) == outcome(text, options, reference=True)
        kept = measured_split.levels_kept_for(units)
        if number == 0:  # a text chunked once keeps nothing
            assert kept is None
            continue
        assert kept is not None and kept.text is units
        assert kept.root is not None
        assert 0 <= kept.room < measured_split._KEPT_COPIES * len(units)
    assert kept.key == (tuple(DEFAULT_SEPARATORS), False, False)


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


@settings(max_examples=200, deadline=None)
@given(TEXTS, SIZES, OVERLAPS)
def test_character_windows_are_the_unit_by_unit_windows(text, size, overlap):
    """``fast.windows`` against ``reference.character.windows``."""
    splitter = Splitter(size, overlap)
    piece = to_units(text)
    assert fast.windows(piece, splitter) == character.windows(piece, splitter)


@settings(max_examples=200, deadline=None)
@given(
    TEXTS,
    st.one_of(
        st.sampled_from(SEPARATORS).map(lambda s: (s, False)),
        st.sampled_from(REGEX_SEPARATORS).map(lambda s: (s, True)),
    ),
    SIZES,
    OVERLAPS,
    KEEP,
)
def test_character_split_measured_is_the_loop(text, separator, size, overlap, keep):
    """``fast.character_split`` against ``reference.character.character_split``."""
    separator, is_regex = separator
    splitter = Splitter(size, overlap, len, keep)
    units, separator = to_units(text), to_units(separator)

    def run(split, *cut):
        try:
            return split(units, splitter, QUIET, separator, is_regex, *cut)
        except ChunkerError as error:
            return (error.name, error.message)

    assert run(fast.character_split) == run(character.character_split, character.windows)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "Dr.",
                " ",
                "  ",
                "\n",
                "\r\n",
                ". ",
                "! ",
                "? A",
                "x.y",
                "e.g. B",
                "Word",
                "3.",
                "\u3000",
                "😀",
                "\ud83d",
                "。",
                "Am. I",
            ]
        ),
        max_size=40,
    ).map("".join),
    st.lists(
        st.sampled_from([".", "!", "?", "\n", ";", ":", "。", "..", " ", "！", "...", "", "…"]),
        max_size=4,
    ),
)
def test_sentences_end_where_the_library_ends_them(text, enders):
    """``fast.sentences`` against the unit-by-unit walk, ``reference.sentence.sentences``."""
    units = to_units(text)
    assert fast.sentences(units, enders) == sentence.sentences(units, enders)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "word", " ", "  ", "\n", "\r\n", "😀", "\udc00", "x" * 30, "東京"]),
        max_size=40,
    ).map("".join),
    NUMBERS,
    st.booleans(),
    st.booleans(),
)
def test_sentence_fallback_packs_as_the_loop_packs(text, max_size, by_words, by_chars):
    """``fast.fallback`` against ``reference.sentence.fallback`` for the UTF-16 length."""
    units = to_units(text)
    assert fast.fallback(units, max_size, len, by_words, by_chars) == sentence.fallback(
        units, max_size, len, by_words, by_chars
    )


METADATA = st.sampled_from(
    [{}, {"source": "a", "n": 1}, {"nested": {"x": [1]}}, {"Title": "T", "2": None}]
)


@settings(max_examples=200, deadline=None)
@given(TEXTS, OPTIONS, METADATA)
def test_fast_nodes_are_the_reference_nodes(text, options, metadata):
    """``fast.nodes`` against ``reference.splitter.nodes``, on the chunks of a split."""
    try:
        options = dict(options)
        validate(options.pop("strategy"), options)
        splitter = reference_splitter.splitter_from(options)
        check_overlap(splitter.max_size, splitter.overlap)
        units = unit_view(text)[0]
        separators = [to_units(s) for s in options.get("separators", DEFAULT_SEPARATORS)]
        is_regex = bool(options.get("isSeparatorRegex"))
        chunks = split_text(units, separators, is_regex, splitter, QUIET)
    except ChunkerError:
        return
    expected = reference_splitter.nodes(units, chunks, metadata, splitter, glue=separators)
    assert fast.nodes(units, chunks, metadata, splitter, glue=separators) == expected


def test_a_regex_glue_with_an_astral_character_is_joined_in_a_text_without_one():
    """The library joins a regex level's pieces with the regex's source: in a text with
    no surrogate, a source with an astral character still gives a chunk to join."""
    options = {"strategy": "recursive", "maxSize": 100, "overlap": 0, "isSeparatorRegex": True}
    for separators in (["😀|x"], ["\\n", "😀|x"]):
        chunks = outcome("axb", {**options, "separators": separators}, reference=False)
        assert chunks == [{"text": "a😀|xb", "metadata": {}}]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([0, 1, 2, 3, 5, 8, 20]), min_size=1, max_size=12),
    st.sampled_from([0, 1, 2, 3]),
    st.data(),
    st.sampled_from([1e-9, 0.5, 1, 2, 3, 4.5, 7, 10, 25, 100, math.inf]),
)
def test_overlap_tail_by_bisection_equals_the_walk(lengths, separator_len, data, overlap):
    """``measured_split.tail_start`` against ``reference.splitter.overlap_tail``."""
    start = data.draw(st.integers(0, len(lengths) - 1))
    cut = data.draw(st.integers(start, len(lengths)))
    ends = measured_split.ends_of(lengths, separator_len)
    walked = overlap_tail(lengths, start, cut, overlap, separator_len)[0]
    assert measured_split.tail_start(lengths, ends, start, cut, overlap, separator_len) == walked


@pytest.mark.parametrize("word", ["héllo wörld ", "héllo \U0001f600 wörld "])
def test_long_texts_give_chunks_of_the_text_itself(word):
    # a long text's chunks skip from_units only when it has no astral character
    text = word * 20_000
    nodes = chunkview.run("mastra.chunk", text, {"strategy": "recursive", "maxSize": 300})
    assert len(nodes) > 100
    assert all(node["text"] in text for node in nodes)
    assert not any("\ud800" <= ch <= "\udfff" for node in nodes for ch in node["text"])


def test_a_run_asked_for_reasons_takes_the_loop_and_tells_them():
    """The loop tells the reasons the measured split cannot; the chunks are the same."""
    text = "One two three.\n\nFour five six seven.\n\n" * 20
    options = {"strategy": "recursive", "maxSize": 60, "overlap": 10}
    told = RunNotes(reasons=True, places=False)
    explained = chunk_document(text, "text", {}, dict(options), told)
    assert explained == chunk_document(text, "text", {}, dict(options))
    assert {reason.rule for reason in told.reasons} >= {"start", "merge-full"}


@pytest.mark.parametrize(
    "telling,quiet",
    [
        (MastraNotes, QuietNotes),
        (HtmlReasons, QuietHtmlReasons),
        (JsonNotes, QuietJsonNotes),
        (SectionNotes, QuietSectionNotes),
    ],
)
def test_the_quiet_notes_hear_everything_the_telling_ones_hear(telling, quiet):
    """A run nobody asks reasons of gets quiet notes: they must take every call the
    strategies make (each method the telling notes have, overridden to word nothing)."""
    told = {
        name
        for name, value in vars(telling).items()
        if callable(value) and not name.startswith("_")  # (helpers of the words only)
    }
    assert told and all(name in vars(quiet) for name in told)
    words = RunNotes(reasons=True, places=False)
    notes = QuietNotes(words)
    notes.note("rule", "text")
    notes.produced()
    notes.split_at("\n")
    notes.headers([{"h": "x"}], False)
    assert words.reasons == []
