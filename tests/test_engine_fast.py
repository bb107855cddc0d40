"""The ChunkingEngine's fast path equals its reference (engine_reference.py), one
property test per fast path: F itself (engine_fast.fast_windows), each strategy, and the
readings of the text the fast strategies take (engine_text.py). Texts hold astral
characters, lone surrogates, CRLF and the white space JS and Python disagree on;
options come from the conformance harness's ranges (conformance/cases.py
``_chunking_engine``: sizes 1-2000 and 0-300, zero, one, negatives, fractions, huge
values, a share of chunkSize, null and booleans). A Hang must agree too."""

from contextlib import contextmanager

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chunkview import ChunkerError
from chunkview.core.chunkers.agentos import engine_fast, engine_reference, engine_text
from chunkview.core.chunkers.agentos.chunking_engine import chunking_engine
from chunkview.core.chunkers.agentos.engine_hang import HangRule
from chunkview.core.chunkers.agentos.engine_places import Chunks, EngineRun
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.model.observer import NOBODY, RunNotes
from chunkview.core.text.js import W_CHARS, strip_trims_as_js, to_units, trim

PIECES = st.sampled_from(
    [
        "word",
        "ab",
        "Word.",
        " ",
        "  ",
        "\n",
        "\r\n",
        "\n\n",
        "\t",
        "# Head",
        "## Sub\n",
        "#\n",
        "```\n",
        "\n```js\n",
        "😀",
        "👍🏽",
        "\ud800",
        "\udc00x",
        "e\u0301",
        "東京",
        "\u00a0",
        "\u3000",
        "\u2028",
        "\x85",
        "\x1c",
        "\ufeff",
        "| a | b |\n",
        "x" * 30,
        "Sentence one. Sentence two! ",
    ]
)
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=50).map("".join)


def _number(low: int, high: int) -> st.SearchStrategy:
    """conformance/cases.py ``number``: typical whole values, 0, 1, negatives,
    fractions of one or two decimals, and the odd huge or tiny value."""
    return st.one_of(
        st.integers(low, high),
        st.sampled_from([0, 1, -1, -2, -10, -50, -200]),
        st.decimals(0, high, places=2).map(float).map(lambda v: v or 0.5),
        st.sampled_from([10**6, 10**9, 0.001, 2.5]),
    )


def _options(strategy: str) -> st.SearchStrategy:
    size = st.one_of(_number(1, 2000), st.integers(1, 40), st.none(), st.booleans())
    overlap = st.one_of(_number(0, 300), st.integers(0, 10), st.none(), st.booleans())
    share = st.sampled_from([0.1, 0.5, 0.99, 1, 1.5])
    return st.builds(
        lambda s, o, shared, k: {
            "strategy": strategy,
            "chunkSize": s,
            "chunkOverlap": round((s or 512) * k, 1) if shared else o,
        },
        size,
        overlap,
        st.sampled_from([False] * 9 + [True]),  # now and then a share of chunkSize
        share,
    )


def _outcome(text: str, options: dict, reference: bool, embedder: str | None = None):
    """The chunks and the places told, or the Hang's message."""
    notes = RunNotes(reasons=False, places=True)
    try:
        chunks = chunking_engine(
            text, options, embedder, RunContext(observer=notes), reference=reference
        )
    except ChunkerError as error:
        return ("error", error.name, error.message, error.position)
    places = notes.places
    starts = places.starts[: len(chunks)]
    return (
        [list(chunk.items()) for chunk in chunks],
        starts,
        places.lengths[: len(starts)],
        places.block_chunks,
        places.section_chunks,
    )


def _agrees(text: str, options: dict, embedder: str | None = None) -> None:
    fast = _outcome(text, options, reference=False, embedder=embedder)
    slow = _outcome(text, options, reference=True, embedder=embedder)
    if fast[0] != "error" and slow[0] != "error":
        # the reference knows every place the fast path knows, and the fast path every
        # place the reference knows (a place is known for each chunk of whole positions)
        assert fast[0] == slow[0]
        assert fast[1:] == slow[1:]
    else:
        assert fast == slow


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    text=TEXTS,
    size=st.one_of(st.integers(1, 60), st.sampled_from([engine_text.FAR - 1, 300, 700])),
    overlap=st.one_of(st.integers(-5, 70), st.integers(0, 3)),
    lo_cut=st.integers(0, 10),
    hi_cut=st.integers(0, 10),
    stretch=st.sampled_from([1, 3, engine_text.ASCII_STRETCH]),
    placing=st.booleans(),
    plain=st.booleans(),
)
def test_fast_windows_equal_the_reference_f(
    text, size, overlap, lo_cut, hi_cut, stretch, placing, plain
):
    """engine_fast.fast_windows on a range of the units is the reference's F on that
    slice: the same pieces, places and Hang; with the places told or not, and trimmed
    by ``str.strip()`` where that trims as JS does (``plain``)."""
    units = to_units(text)
    lo = min(lo_cut, len(units))
    hi = max(lo, len(units) - hi_cut)
    rule = HangRule((size, overlap), size, overlap, units)
    run = EngineRun(units, size, overlap, rule, Chunks(str), NOBODY)
    run.plain_strip = plain and strip_trims_as_js(units)
    run.placing = placing
    try:
        expected = engine_reference.fixed_windows(units[lo:hi], run, 0, lo, NOBODY)
    except ChunkerError as error:
        expected = ("Hang", error.message, error.position)
    else:
        expected = expected if placing else [piece for piece, _ in expected]
    pieces: list[str] = []
    places: list[int] = []
    # the index of every unit (its windows in ASCII stretches of ``stretch`` units or
    # more sliced from its narrow text) and the search at each look-up give the same
    for white in (engine_text.white_before(units, stretch), None):
        pieces.clear()
        places.clear()
        try:
            engine_fast.fast_windows(units, [(lo, hi)], white, run, pieces, places)
            got = list(zip(pieces, places)) if placing else pieces
            assert placing or not places
        except ChunkerError as error:
            got = ("Hang", error.message, error.position)
        assert got == expected


@SETTINGS
@given(text=TEXTS, options=_options("fixed"))
def test_fixed_equals_the_reference(text, options):
    _agrees(text, options)


@SETTINGS
@given(text=TEXTS, options=_options("hierarchical"), measured=st.sampled_from([None, 0, 5]))
def test_hierarchical_equals_the_reference(text, options, measured):
    """``measured``: the body length past which the outline keeps a body as its range
    only (engine_text._COPIED_BODY, longer than these texts' bodies otherwise)."""
    with _bodies_measured_past(measured):
        _agrees(text, options)


@contextmanager
def _bodies_measured_past(length):
    """engine_text._COPIED_BODY set to ``length`` for a while (None: left as it is)."""
    kept = engine_text._COPIED_BODY
    if length is not None:
        engine_text._COPIED_BODY = length
    try:
        yield
    finally:
        engine_text._COPIED_BODY = kept


@SETTINGS
@given(text=TEXTS, options=_options("layout"))
def test_layout_equals_the_reference(text, options):
    _agrees(text, options)


@SETTINGS
@given(text=TEXTS, options=_options("semantic"), embedder=st.sampled_from([None, "hash64"]))
def test_semantic_equals_the_reference(text, options, embedder):
    _agrees(text, options, embedder)


@SETTINGS
@given(text=TEXTS)
def test_layout_blocks_equal_the_line_by_line_reading(text):
    units = to_units(text)
    assert engine_text.layout_blocks(units) == engine_reference.layout_blocks(units)


@SETTINGS
@given(text=TEXTS, measured=st.sampled_from([None, 0, 5]))
def test_outline_equals_the_heading_by_heading_reading(text, measured):
    """engine_text.Outline (one split) reads the sections the reference finds heading
    by heading (HEADING_RE, each body sliced to the next heading and trimmed)."""
    units = to_units(text)
    with _bodies_measured_past(measured):
        read = engine_text.Outline(units)
    matches = list(engine_text.HEADING_RE.finditer(units))
    assert read.headed == bool(matches)
    if not matches:
        return
    ends = [m.start() for m in matches[1:]] + [len(units)]
    bodies = [trim(units[m.end(3) : end]) for m, end in zip(matches, ends)]
    assert read.body_lengths == list(map(len, bodies))
    for (_, _, body, _), start, expected in zip(read.sections, read.body_starts, bodies):
        assert body is None or body == expected  # a long body is kept as its range
        assert not expected or units.startswith(expected, start)
    preamble = trim(units[: matches[0].start()])
    assert read.preamble == preamble
    assert not preamble or units.startswith(preamble, read.preamble_start)


@SETTINGS
@given(
    text=TEXTS,
    size=st.one_of(st.integers(1, 60), st.sampled_from([engine_text.FAR - 1, 300])),
    overlap=st.one_of(st.integers(-5, 70), st.integers(0, 3)),
    cuts=st.lists(st.integers(0, 400), max_size=4),
    stretch=st.sampled_from([1, 3, engine_text.ASCII_STRETCH]),
    placing=st.booleans(),
)
def test_fast_windows_over_several_ranges(text, size, overlap, cuts, stretch, placing):
    """One call of engine_fast.fast_windows over several ranges of the units (as
    'hierarchical' and 'layout' make it, with the index) is the reference's F on each
    range's slice in turn: the same pieces, places, ends and Hang."""
    units = to_units(text)
    bounds = sorted({0, len(units), *(min(c, len(units)) for c in cuts)})
    ranges = list(zip(bounds, bounds[1:]))
    rule = HangRule((size, overlap), size, overlap, units)
    run = EngineRun(units, size, overlap, rule, Chunks(str), NOBODY)
    run.placing = placing
    expected: list = []
    ends: list[int] = []
    try:
        for lo, hi in ranges:
            expected += engine_reference.fixed_windows(units[lo:hi], run, 0, lo, NOBODY)
            ends.append(len(expected))
    except ChunkerError as error:
        expected = [("Hang", error.message, error.position)]
    pieces: list[str] = []
    places: list[int] = []
    try:
        got_ends = engine_fast.fast_windows(
            units, ranges, engine_text.white_before(units, stretch), run, pieces, places
        )
    except ChunkerError as error:
        assert expected == [("Hang", error.message, error.position)]
        return
    assert got_ends == ends
    assert pieces == [piece for piece, _ in expected]
    assert places == ([place for _, place in expected] if placing else [])


WORDS = st.sampled_from(["a", "ab", "Word.", "😀", "e\u0301", "東京", "\ud800", "x" * 6, "|", "#"])
WHITES = st.sampled_from([" ", "  ", "\n", "\r\n", "\n\n", "\t", "\u00a0", "\u3000", "\u2028"])


@SETTINGS
@given(
    words=st.lists(st.tuples(WORDS, WHITES), min_size=1, max_size=120),
    size=st.integers(2, 30),
    lo_cut=st.integers(0, 5),
    placing=st.booleans(),
    plain=st.booleans(),
)
# a cut exactly chunkSize units before the end, and white space after it: F takes the rest
@example(
    words=[("abc", " "), ("de", " "), ("fg", " "), ("h", "")],
    size=5,
    lo_cut=0,
    placing=True,
    plain=False,
)
def test_after_cuts_equal_the_reference_f(words, size, lo_cut, placing, plain):
    """engine_fast._after_cuts (no overlap, the windows after the first matched in one
    findall) is the reference's F on the range: the same pieces and places; it declines
    (False, nothing emitted) only where F makes a hard cut, and takes every text whose
    words are all shorter than chunkSize - 1 units."""
    units = to_units("".join(word + white for word, white in words))
    lo = min(lo_cut, len(units))
    run = EngineRun(units, size, 0, HangRule((size, 0), size, 0, units), Chunks(str), NOBODY)
    run.plain_strip = plain and strip_trims_as_js(units)
    run.placing = placing
    pieces: list[str] = []
    places: list[int] = []
    taken = engine_fast._after_cuts(units, lo, len(units), run, pieces, places, 0)
    expected = engine_reference.fixed_windows(units[lo:], run, 0, lo, NOBODY)
    if taken:
        assert pieces == [piece for piece, _ in expected]
        assert places == ([place for _, place in expected] if placing else [])
    else:
        assert pieces == places == []
        assert lo + size >= len(units) or _hard_cut(units, lo, size)
    if len(units) - lo > size and all(len(to_units(word)) < size - 1 for word, _ in words):
        assert taken


def _hard_cut(units: str, lo: int, size: int) -> bool:
    """F with no overlap from ``lo`` meets a window that is not the last and holds no
    white space after its first unit."""
    pos = lo
    while pos + size < len(units):
        cut = max((i for i in range(pos + 1, pos + size + 1) if units[i] in W_CHARS), default=pos)
        if cut == pos:
            return True
        pos = cut
    return False
