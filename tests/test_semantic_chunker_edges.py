"""SemanticChunker on edge option values: each row was run on @framers/agentos 0.9.164
under node 20 ("Hang": the loop never ended). JS coerces the sizes: a fraction
truncates where it slices and indexes nothing, a negative slice counts from the end."""

from dataclasses import astuple

import pytest

import chunkview
from chunkview import ChunkerError
from chunkview.core.chunkers.agentos import semantic_chunker as sc
from chunkview.core.chunkers.agentos import semantic_fast as fast
from chunkview.core.chunkers.agentos import semantic_line_pass as line_pass
from chunkview.core.chunkers.agentos import semantic_reference as reference
from chunkview.core.model.observer import RunNotes

NAN = float("nan")


def _chunks(text, options):
    return chunkview.run("agentos.SemanticChunker", text, options)


def test_negative_target_hangs_instead_of_index_error():
    with pytest.raises(ChunkerError) as info:
        _chunks("N", {"targetSize": -50, "maxSize": 0})
    assert info.value.name == "Hang"
    assert "targetSize -50" in info.value.message
    assert "the original library would never return" in info.value.message


def test_fractional_overlap_slices_from_zero():
    chunks = _chunks("a\n\nb", {"targetSize": 1, "minSize": 0, "overlap": 0.5})
    assert [c["text"] for c in chunks] == ["a\n", "a\nb\n"]  # slice(-0.5) is slice(0)
    assert [(c["startOffset"], c["endOffset"]) for c in chunks] == [(0, 2), (3, 5)]


def test_fractional_target_cuts_where_js_truncates():
    chunks = _chunks("ab", {"targetSize": 1.5, "maxSize": 1})
    assert chunks == [
        {"text": "a\n\nb", "index": 0, "startOffset": 0, "endOffset": 4, "boundaryType": "fixed"}
    ]
    assert isinstance(chunks[0]["endOffset"], int)  # JSON shows 4, not 4.0


def test_fractional_offsets_stay_fractional():
    chunks = _chunks("ab", {"targetSize": 1.5, "maxSize": 1, "minSize": 0, "overlap": 0})
    assert [(c["text"], c["startOffset"]) for c in chunks] == [("a", 0), ("b", 1.5)]


@pytest.mark.parametrize(
    ("options", "texts"),
    [
        ({"targetSize": NAN, "maxSize": 1}, []),  # NaN window: nothing, then the loop ends
        ({"maxSize": NAN, "minSize": 0, "overlap": 0}, ["alpha beta. "]),
        ({"targetSize": True, "maxSize": 0, "minSize": 0, "overlap": 0}, list("ab")),
    ],
)
def test_nan_and_booleans_as_js(options, texts):
    text = "ab" if "targetSize" in options else "alpha beta."
    assert [c["text"] for c in _chunks(text, options)] == texts


def test_backward_fixed_split_with_negative_min_size_is_a_hang():
    with pytest.raises(ChunkerError) as info:
        _chunks("ab cd ef gh", {"targetSize": 2, "maxSize": 1, "minSize": -5})
    assert info.value.name == "Hang"


def test_options_of_the_wrong_type_are_refused_with_the_name():
    with pytest.raises(ChunkerError) as info:
        _chunks("text", {"targetSize": "abc"})
    assert info.value.name == "OptionError"
    assert "targetSize" in info.value.message


def test_line_pass_by_jumps_and_by_events_equal_the_pass_line_by_line():
    # a whole targetSize jumps to the lines that change the state; the event-by-event
    # pass is for the other sizes; the reference reads every line
    import random

    atoms = ["word", "a b", " ", "\n", "\n\n", "\t", "\r", "\u2028", "\u3000", "```", " ```"]
    atoms += ["````", "x```", "# H", "#", "######", "####### h", "#x", "## ", "\n#", "."]
    rng = random.Random(11)
    for _ in range(400):
        text = "".join(rng.choice(atoms) for _ in range(rng.randrange(0, 60)))
        for target in (-5, 0, 1, 3, 7, 20, 100):
            for fences, headings in ((True, True), (False, True), (True, False)):
                config = reference.Config(
                    target_size=target, preserve_code_blocks=fences, respect_headings=headings
                )
                expected = [astuple(s) for s in reference.line_pass(text, config)]
                jumps = line_pass.line_pass_jumps(text, config)
                events = line_pass.line_pass_events(text, config)
                assert [astuple(s) for s in jumps] == expected, repr(text)
                assert [astuple(s) for s in events] == expected, repr(text)
                for segment in jumps:  # the text from offset to source_end, + the pass's LF
                    cut = text[segment.offset : segment.source_end]
                    assert segment.text in (cut, cut + "\n"), repr(text)


def test_fixed_split_on_whole_sizes_equals_the_step_by_step_loop():
    # the reference runs the loop step by step, as the library does
    import random

    rng = random.Random(4)
    atoms = ["word", " ", "  ", "\n", "\t", "x" * 30, "a", ".", "\u3000"]
    for _ in range(500):
        text = "".join(rng.choice(atoms) for _ in range(rng.randrange(1, 80)))
        target, minimum = rng.choice([1, 2, 5, 17, 60]), rng.choice([0, 1, 4, 30])
        config = reference.Config(target_size=target, min_size=minimum)
        expected = [astuple(s) for s in reference.fixed_split(text, 7, config, [])]
        found = fast.fixed_split_whole(text, 7, target, minimum)
        assert [astuple(s) for s in found] == expected, repr(text)


def test_sentence_parts_cut_where_the_look_behind_split_cuts():
    """The sentence cut, found from each mark, against the library's own expression
    (the white space after . ! or ?) on random text of marks, white space and words."""
    import random
    import re

    from chunkview.core.text.js import W_CLASS

    library = re.compile(f"(?<=[.!?])[{W_CLASS}]+")
    rng = random.Random(3)
    alphabet = [".", "!", "?", " ", "\n", "\t", "\u3000", "\ufeff", "\u2028", "a", "b", "ab."]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert fast.sentence_cuts(text)[0] == library.split(text), repr(text)
        assert fast.sentence_cuts(text) == reference.sentence_cuts(text), repr(text)


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("", True),
        ("ascii", True),
        ("caf\u00e9 \u4e2d" * 9, True),
        ("a \U0001f600", False),
        ("a \ud800 b" * 9, False),
        ("\udc00", False),
    ],
)
def test_a_plain_text_has_no_astral_character_and_no_surrogate_half(text, plain):
    assert sc.is_plain(text) is plain
    assert sc.is_plain(text) is plain  # remembered for the last text


def test_the_lines_kept_for_the_last_long_text_follow_the_text():
    """The fence and heading lines of the last long text are kept (by identity): each
    run gives what a run on a copy gives, whatever ran before, options and edits alike."""
    base = "# Title\n\nSome words here. More.\n\n```js\n# not a heading\n```\n\n" * 2000
    edited = base.replace("# Title", "Title", 7).replace("```js", "~~~", 3)
    assert len(base) > 65536
    copies = {}
    for text in (base, edited, base, edited, edited):
        for options in ({}, {"respectHeadings": False}, {"targetSize": 300, "minSize": 0}):
            copy = copies.setdefault(text, (text + " ")[:-1])
            assert sc.semantic_chunk(text, options) == sc.semantic_chunk(copy, options)
            assert sc.semantic_chunk(copy, options) == sc.semantic_chunk(text, options)
    kept_lines, fences, headings = (
        line_pass.kept_lines,
        line_pass.fence_lines,
        line_pass.heading_lines,
    )
    assert kept_lines(base, fences) is kept_lines(base, fences)
    assert kept_lines(edited, headings) == headings(edited)


def test_every_segment_with_a_known_source_end_is_the_source_there():
    """Line-pass segments, the pieces cut again from them and their merges say where they
    lie in the text (the spans are placed from it): the text there as it is where the
    segment says exact, else the same but for white space."""
    import random

    rng = random.Random(5)
    atoms = ["# Head\n", "word ", "Long sentence here. ", "Two!  ", "\n", "\n\n", "\n \n"]
    atoms += ["x" * 40, "```\ncode\n```\n", "  ", "end?\n", "\t"]
    known = {"paragraph": 0, "sentence": 0, "fixed": 0}
    for _ in range(300):
        text = "".join(rng.choice(atoms) for _ in range(rng.randrange(1, 300)))
        options = {
            "targetSize": rng.choice([20, 60, 200]),
            "maxSize": rng.choice([30, 100, 400]),
            "minSize": rng.choice([0, 10, 50]),
            "overlap": 0,
        }
        notes = RunNotes(reasons=False)
        sc.semantic_chunk(text, options, observer=notes)
        for segment in notes.places:
            if segment.source_end < 0:
                continue
            there = text[int(segment.offset) : segment.source_end]
            if segment.exact:
                assert there == segment.text, (text, options)
            else:
                assert "".join(there.split()) == "".join(segment.text.split()), (text, options)
            if segment.boundary in known:
                known[segment.boundary] += 1
    assert all(count > 50 for count in known.values()), known
