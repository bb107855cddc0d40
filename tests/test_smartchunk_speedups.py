"""smartchunk's fast paths give what the reference gives, one property test each, on
texts with astral characters, lone surrogates and CRLF and on the option ranges the
conformance harness draws numbers from (zero, negatives, fractions and huge values):

- ``byte_offsets.Utf8Offsets`` (numpy lead bytes) is ``reference.utf8_offsets``;
- ``fast.quiet_pieces`` (the cascade and merge without reasons) is
  ``reference.smartchunk_pieces``, and ``fast.units``' LF-only patterns are
  ``reference.units``;
- ``columns`` (the native result and the spans as columns) is ``reference.native``,
  ``reference.spans`` and ``reference.native_spans``.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkview.core.chunkers.entry import RunContext
from chunkview.core.chunkers.smartchunk import columns, fast, reference
from chunkview.core.chunkers.smartchunk.byte_offsets import Utf8Offsets, bytes_of
from chunkview.core.chunkers.smartchunk.model import STRATEGIES, read_options
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.model.observer import NOBODY, RunNotes
from chunkview.core.registry import get
from conformance.cases import Generator

PIECES = st.sampled_from(
    [
        "a",
        "Word ",
        "word. ",
        "Mr. Smith. ",
        " ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "\n\n",
        "\r\n\r\n",
        "\n \t\n",
        "é",
        "e\u0301",
        "東京タワー",
        "😀",
        "👍🏽",
        "\ud800",
        "\udc00",
        ".",
        "x" * 30,
    ]
)
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=60).map("".join)


@st.composite
def options(draw: st.DrawFn) -> dict:
    """smartchunk's options, the sizes drawn as the conformance harness draws numbers."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    chosen: dict = {}
    if draw(st.booleans()):
        chosen["maxSize"] = Generator.number(rng, 4, 300)
    if draw(st.booleans()):
        chosen["minSize"] = Generator.number(rng, 0, 60)
    if draw(st.booleans()):
        chosen["strategies"] = draw(st.lists(st.sampled_from(STRATEGIES), max_size=6))
    if draw(st.booleans()):
        chosen["locale"] = draw(st.sampled_from(["en", "ja", "th", ["de"], []]))
    return chosen


def outcome(call, *args):
    """A call's result, or the name and message of the ChunkerError it raised."""
    try:
        return call(*args)
    except ChunkerError as error:
        return ("error", error.name, str(error))


# ----- byte_offsets ---------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(TEXTS, st.integers(1, 8))
def test_byte_offsets_are_the_code_points_widths_summed(text, block):
    # a small block puts block boundaries inside characters: each byte is read alone
    assert list(Utf8Offsets(text, block).offsets) == reference.utf8_offsets(text)
    assert list(Utf8Offsets(text).offsets) == reference.utf8_offsets(text)


def test_a_long_texts_byte_offsets_are_kept_for_its_next_run():
    text = "ünïcode text " * 10_000
    first = bytes_of(text)
    assert bytes_of(text) is first
    assert bytes_of(text[:-1] + " ") is not first  # another text: read again
    entry = get("smartchunk")
    native = entry.run(Document(text), {"maxSize": 300}, RunContext())
    assert native == reference.smartchunk((text + " ")[:-1], {"maxSize": 300})


# ----- fast -----------------------------------------------------------------------------
def quiet(text: str, chosen: dict) -> list:
    options = read_options(chosen)
    return fast.quiet_pieces(text, options, reference.utf8_offsets(text), lambda: None)


@settings(max_examples=200, deadline=None)
@given(TEXTS, options())
def test_the_quiet_cascade_cuts_as_the_reference(text, chosen):
    expected = outcome(lambda: reference.smartchunk_pieces(text, chosen)[0])
    assert outcome(quiet, text, chosen) == expected
    # and through the entry, asked for reasons (the reference) or not (the fast path)
    entry, document = get("smartchunk"), Document(text)
    plain = outcome(entry.run, document, chosen, RunContext())
    told = outcome(entry.run, document, chosen, RunContext(observer=RunNotes()))
    assert plain == told == outcome(reference.smartchunk, text, chosen)


@settings(max_examples=200, deadline=None)
@given(TEXTS.map(lambda t: t.replace("\r", "")), st.integers(0, 5), st.integers(0, 5))
def test_lf_only_units_are_the_units(text, cut_start, cut_end):
    start, end = min(cut_start, len(text)), max(len(text) - cut_end, 0)
    if start >= end:
        return
    for strategy in ("paragraph", "line"):
        expected = reference.units(text, start, end, strategy, "en")
        assert fast.units(text, start, end, strategy, "en", has_cr=False) == expected


def test_a_text_with_cr_keeps_the_cr_aware_patterns():
    text = "one\r\n\r\ntwo\rthree\n \nfour"
    options = read_options({"maxSize": 100})
    assert fast.QuietCascade(text, options, reference.utf8_offsets(text), lambda: None).has_cr
    units = [(0, 7), (7, 19), (19, 23)]
    assert fast.units(text, 0, len(text), "paragraph", "en") == units
    assert reference.units(text, 0, len(text), "paragraph", "en") == units
    assert fast.units(text, 0, len(text), "paragraph", "en", has_cr=False) != units


# ----- columns --------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(TEXTS, options(), st.lists(st.tuples(st.integers(-3, 80), st.integers(-3, 80))))
def test_the_columns_are_the_reference_native_result_and_spans(text, chosen, odd_native):
    try:
        pieces, offsets = reference.smartchunk_pieces(text, chosen)
    except ChunkerError:
        pieces, offsets = [], reference.utf8_offsets(text)
    byte_map = Utf8Offsets(text)
    placed = columns.PieceColumns.of(pieces, byte_map)
    native = reference.native(pieces, offsets)
    assert columns.native_of(placed) == native
    assert list(columns.table(text, placed)) == reference.spans(text, pieces, native)
    # a native result alone, the run's and any byte ranges, in the text or not
    for result in (native, [{"offset": a, "length": b} for a, b in odd_native]):
        alone = columns.table(text, columns.native_columns(result, byte_map))
        assert list(alone) == reference.native_spans(text, result, offsets)


@pytest.mark.parametrize("explain", [False, True])
def test_the_entry_places_its_chunks_as_the_reference(explain):
    text = "Para one is here.\r\n\r\n" + " ".join(f"w{i}😀" for i in range(60)) + "\ud800."
    chosen = {"maxSize": 40, "minSize": 5}
    chunking = get("smartchunk").chunk(
        Document(text), chosen, RunContext(observer=RunNotes(places=False) if explain else NOBODY)
    )
    pieces, offsets = reference.smartchunk_pieces(text, chosen)
    expected = reference.spans(text, pieces, reference.native(pieces, offsets))
    assert [(s.start, s.end, s.own_start, s.kind) for s in chunking.spans] == [
        (s.start, s.end, s.own_start, s.kind) for s in expected
    ]
    assert all((s.reason is not None) == explain for s in chunking.spans[1:])
