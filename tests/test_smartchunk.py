"""smartchunk: the README's rules, each as a test, and properties over random text."""

import regex
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import chunkview
from chunkview import ChunkerError
from chunkview.core.chunkers.smartchunk.reference import smartchunk, smartchunk_pieces
from chunkview.core.text.segment import boundaries

PARAGRAPHS = [
    "A long time ago in a galaxy far, far away....",
    "It is a period of civil war. Rebel spaceships, striking from a hidden base, have won "
    "their first victory against the evil Galactic Empire.",
    "During the battle, Rebel spies managed to steal secret plans to the Empire's ultimate "
    "weapon, the DEATH STAR, an armored space station with enough power to destroy an "
    "entire planet.",
    "Pursued by the Empire's sinister agents, Princess Leia races home aboard her starship, "
    "custodian of the stolen plans that can save her people and restore freedom to the "
    "galaxy....",
]


def _chunks_text(text, chunks):
    data = text.encode()
    return [data[c["offset"] : c["offset"] + c["length"]].decode() for c in chunks]


def test_readme_example():
    text = "\n\n".join(PARAGRAPHS)
    chunks = smartchunk(text)
    assert len(chunks) == 4
    assert chunks[0] == {"offset": 0, "length": len(PARAGRAPHS[0]) + 2}
    for i in (1, 2):
        assert chunks[i]["offset"] == chunks[i - 1]["offset"] + chunks[i - 1]["length"]
        assert chunks[i]["length"] == len(PARAGRAPHS[i]) + 2
    assert chunks[3]["length"] == len(PARAGRAPHS[3])
    assert _chunks_text(text, chunks) == [p + "\n\n" for p in PARAGRAPHS[:3]] + [PARAGRAPHS[3]]


def test_offsets_and_lengths_are_bytes():
    text = "é" * 150 + "\n\n" + "😀" * 10
    chunks = smartchunk(text, {"maxSize": 400})
    assert chunks[0] == {"offset": 0, "length": 302}
    assert chunks[1] == {"offset": 302, "length": 40}


def test_long_paragraph_falls_back_to_lines_then_sentences():
    lines = "\n".join(f"Line {i} is here." for i in range(30))  # one paragraph, 30 lines
    pieces, _ = smartchunk_pieces(lines, {"maxSize": 100, "minSize": 0})
    assert {p.strategy for p in pieces} == {"line"}
    assert all(lines[p.end - 1] == "\n" or p.end == len(lines) for p in pieces)
    sentences = " ".join(f"Sentence {i} ends." for i in range(30))  # one line
    pieces, _ = smartchunk_pieces(sentences, {"maxSize": 100, "minSize": 0})
    assert {p.strategy for p in pieces} == {"sentence"}
    assert all(sentences[p.end - 2 : p.end] == ". " or p.end == len(sentences) for p in pieces)


def test_word_cuts_overlap_up_to_a_fifth():
    text = " ".join(f"w{i:03d}" for i in range(200))  # one sentence, no punctuation
    chunks = smartchunk(text, {"maxSize": 100, "minSize": 0})
    pieces = _chunks_text(text, chunks)
    for previous, current, a, b in zip(pieces, pieces[1:], chunks, chunks[1:]):
        overlap = a["offset"] + a["length"] - b["offset"]
        assert 0 < overlap <= 20
        assert previous.endswith(current[:overlap])


def test_grapheme_cuts_overlap_up_to_a_tenth_and_never_split_a_cluster():
    text = "e\u0301" * 150  # one 450-byte word of 3-byte clusters
    chunks = smartchunk(text, {"maxSize": 100, "minSize": 0})
    for chunk in chunks:
        assert chunk["length"] <= 100 and chunk["length"] % 3 == 0
        assert chunk["offset"] % 3 == 0
    overlaps = [a["offset"] + a["length"] - b["offset"] for a, b in zip(chunks, chunks[1:])]
    assert all(0 < o <= 10 for o in overlaps)


def test_small_chunks_merge_forward():
    text = "# T\n\n" + "Body sentence number one is long enough to stand alone." * 2
    chunks = smartchunk(text, {"maxSize": 200, "minSize": 20})
    assert len(chunks) == 1  # the 5-byte heading joined its paragraph


def test_strategy_order_is_honoured():
    text = "One. Two three.\nFour five. Six.\n\nSeven eight nine."
    pieces, _ = smartchunk_pieces(
        text, {"maxSize": 12, "minSize": 0, "strategies": ["sentence", "word"]}
    )
    assert pieces[0].strategy == "sentence"
    lines_first, _ = smartchunk_pieces(text, {"maxSize": 20, "minSize": 0, "strategies": ["line"]})
    assert lines_first[0].strategy == "line"


def test_bad_options_are_clear():
    for options, name in (
        ({"maxSize": 2}, "RangeError"),
        ({"minSize": 500}, "RangeError"),
        ({"strategies": ["bogus"]}, "TypeError"),
    ):
        try:
            chunkview.run("smartchunk", "text", options)
        except ChunkerError as error:
            assert error.name == name
        else:
            raise AssertionError(options)


TEXTS = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "Word ",
                "word. ",
                "Sentence two! ",
                "\n",
                "\r\n",
                "\n\n",
                "東京タワー",
                "😀",
                "👍🏽",
                "e\u0301",
                "\t",
                "x" * 40,
                "Mr. Smith. ",
                "é",
            ]
        ),
        st.text(max_size=6),
    ),
    max_size=80,
).map("".join)
GRAPHEME_RE = regex.compile(r"\X")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(  # ICU's word rules split this grapheme; the cut is the library's (checked in node)
    text="0\x80ัำ",
    max_size=8,
    min_size=0,
    strategies=["paragraph", "line", "sentence", "word", "grapheme"],
)
@given(
    text=TEXTS,
    max_size=st.integers(8, 120),
    min_size=st.integers(0, 30),
    strategies=st.permutations(["paragraph", "line", "sentence", "word", "grapheme"]),
)
def test_properties(text, max_size, min_size, strategies):
    """No chunk over maxSize, cuts on ICU boundaries, full coverage in order, minSize."""
    min_size = min(min_size, max_size)
    options = {"maxSize": max_size, "minSize": min_size, "strategies": strategies}
    chunks = smartchunk(text, options)
    data = text.encode("utf-8", "surrogatepass")
    # cuts fall where Intl.Segmenter (ICU) puts a grapheme or a word boundary: its word
    # rules may split a grapheme (node gives "0", "\x80ั", "ำ" for "0\x80ัำ")
    grapheme_edges = {0}
    for kind in ("grapheme", "word"):
        for _, end in boundaries(text, kind):
            grapheme_edges.add(len(text[:end].encode("utf-8", "surrogatepass")))
    covered = 0
    for i, chunk in enumerate(chunks):
        start, end = chunk["offset"], chunk["offset"] + chunk["length"]
        assert chunk["length"] <= max_size
        assert start in grapheme_edges or _combining_run(text), (text, chunk)
        assert start <= covered  # in order, no gap (overlap allowed)
        assert end > covered
        covered = end
        if i < len(chunks) - 1 and chunk["length"] < min_size:
            following = chunks[i + 1]
            union = following["offset"] + following["length"] - start
            assert union > max_size or following["offset"] > end
    assert covered == len(data)


def _combining_run(text):
    # one grapheme longer than maxSize may be cut between its code points
    return any(len(c.encode()) > 8 for c in GRAPHEME_RE.findall(text))
