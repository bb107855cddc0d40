"""smartchunk's faster paths give what the plain ones give: byte offsets from the UTF-8
lead bytes (as from each code point's width), and the LF-only line and paragraph
patterns on a text without CR (as the CR-aware ones)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkview.core.chunkers import smartchunk as sc

PIECES = st.sampled_from(["a", " ", "\t", "\n", "\n\n", "\n \t\n", "é", "東", "😀", "\ud800", "."])
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=60).map("".join)


def widths_prefix(text):
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    widths = np.where(
        points < 0x80, 1, np.where(points < 0x800, 2, np.where(points < 0x10000, 3, 4))
    )
    return [0, *np.cumsum(widths).tolist()]


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_byte_offsets_are_the_code_points_widths_summed(text):
    byte_map = sc._Bytes(text)
    assert list(byte_map.offsets) == widths_prefix(text)
    assert byte_map.size(0, len(text)) == len(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=100, deadline=None)
@given(TEXTS)
def test_byte_offsets_read_a_block_at_a_time_are_the_same(text):
    # a block boundary may fall inside a character: each byte is read on its own
    whole = sc._Bytes(text)
    blocks, sc._BYTES_BLOCK = sc._BYTES_BLOCK, 3
    try:
        in_blocks = sc._Bytes(text)
    finally:
        sc._BYTES_BLOCK = blocks
    assert list(in_blocks.offsets) == list(whole.offsets) == widths_prefix(text)


def test_a_long_texts_byte_offsets_are_kept_for_its_next_run():
    text = "ünïcode text " * 10_000
    first = sc.bytes_of(text)
    assert sc.bytes_of(text) is first
    assert sc.bytes_of(text[:-1] + " ") is not first  # another text: read again
    native = sc.smartchunk(text, {"maxSize": 300})
    assert native == sc._native(*sc.smartchunk_pieces((text + " ")[:-1], {"maxSize": 300}))


@settings(max_examples=300, deadline=None)
@given(TEXTS.map(lambda t: t.replace("\r", "")), st.integers(0, 5), st.integers(0, 5))
def test_lf_only_units_are_the_units(text, cut_start, cut_end):
    start, end = min(cut_start, len(text)), max(len(text) - cut_end, 0)
    if start >= end:
        return
    for strategy in ("paragraph", "line"):
        assert sc._units(text, start, end, strategy, "en", has_cr=False) == sc._units(
            text, start, end, strategy, "en", has_cr=True
        )


def test_a_text_with_cr_keeps_the_cr_aware_patterns():
    text = "one\r\n\r\ntwo\rthree\n \nfour"
    assert sc._Cascade(text, 100, list(sc.STRATEGIES), "en", None).has_cr
    units = [(0, 7), (7, 19), (19, 23)]
    assert sc._units(text, 0, len(text), "paragraph", "en") == units
    assert sc._units(text, 0, len(text), "paragraph", "en", has_cr=False) != units
