import random
import time

import pytest

from chunkview.core.layout.locate import _first_at, locate


def test_exact_in_order_with_overlap():
    source = "alpha beta gamma delta"
    found = locate(source, ["alpha beta", "beta gamma", "gamma delta"])
    assert [(f.start, f.end, f.located) for f in found] == [
        (0, 10, "exact"),
        (6, 16, "exact"),
        (11, 22, "exact"),
    ]


def test_repeated_text_is_found_in_order():
    source = "same. same. same."
    found = locate(source, ["same.", "same.", "same."], overlapping=False)
    assert [f.start for f in found] == [0, 6, 12]


def test_rewritten_white_space_is_normalized():
    source = "One sentence.\nTwo  sentences.\r\n\r\nThree."
    found = locate(source, ["One sentence. Two sentences.", "Three.\n"])
    assert found[0].located == "normalized"
    assert (found[0].start, found[0].end) == (0, source.index("sentences.") + len("sentences."))
    assert found[1].located == "normalized"
    assert source[found[1].start : found[1].end] == "Three."


def test_missing_and_duplicate():
    source = "first part\n\nsecond part"
    found = locate(source, ["first part", "second part", "first part", "nowhere"])
    assert [f.located for f in found] == ["exact", "exact", "exact", "missing"]
    assert found[2].start == 0
    assert found[3].start == found[3].end


def test_half_an_emoji_at_the_edge():
    source = "smile 😀😀 wide"
    found = locate(source, ["smile 😀\ud83d"])
    assert found[0].located == "normalized"
    assert source[found[0].start : found[0].end] == "smile 😀"


def test_linear_on_a_large_text():
    paragraph = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 20
    source = "\n\n".join(f"{i} {paragraph}" for i in range(8000))  # ~9 MB
    chunks = [f"{i} {paragraph}".replace("  ", " ") for i in range(8000)]
    began = time.perf_counter()
    found = locate(source, chunks, overlapping=False)
    elapsed = time.perf_counter() - began
    assert all(f.located == "exact" for f in found)
    assert found[-1].end == len(source)
    assert elapsed < 20  # a guard against quadratic search (minutes), not a speed goal


@pytest.mark.parametrize("overlapping", [True, False])
def test_hints_never_change_where_a_chunk_is_placed(overlapping):
    """A hint is where the library says a chunk starts: right, wrong, early, late, past
    the window, a fraction or None, the places are those found without hints."""
    rng = random.Random(7)
    words = ["same.", "apple", "pear\n\n", "same.", "😀 x", " ", "\ufeff", "\t"]
    source = "".join(rng.choice(words) for _ in range(3000))
    chunks, at = [], 0
    while at < len(source) - 5:
        size = rng.randint(1, 60) if rng.random() < 0.8 else rng.randint(61, 300)
        text = source[at : at + size]
        if rng.random() < 0.2:  # rewritten white space, as SemanticChunker's merges
            text = " ".join(text.split())
        chunks.append(text)
        at += size - (rng.randint(0, size // 2) if overlapping else 0)
    chunks += ["same.", "nowhere at all", ""]
    plain = locate(source, chunks, overlapping)
    for trial in range(12):
        # the first trial: every hint right; then right but for a few (long runs taken at
        # once, broken by a chunk searched for); then often wrong
        wrong = (0.0, 0.03, 0.3)[min(trial, 2)] if trial < 6 else 0.7
        hints = [
            rng.choice([f.start + 1, f.start - 5, f.start + 9000, 0.5, None, -3, True])
            if rng.random() < wrong
            else f.start
            for f in plain
        ]
        assert locate(source, chunks, overlapping, hints=hints) == plain


def test_a_hint_past_the_window_loses_to_a_rewritten_match_near_by():
    # near the cursor the chunk's words with other white space; far away the exact text
    source = "near: one  two three" + "x" * 10_000 + "one two three"
    far = source.rindex("one two three")
    plain = locate(source, ["one two three"])
    assert plain[0].located == "normalized" and plain[0].start == 6
    assert locate(source, ["one two three"], hints=[far]) == plain


def test_a_long_chunk_is_found_where_find_finds_it():
    """The search by a chunk's first characters gives str.find's answer, over text where
    those characters come again and again without the rest."""
    rng = random.Random(3)
    source = "".join(rng.choice(["ab", "abab ", "x"]) for _ in range(20_000))
    for _ in range(300):
        start = rng.randrange(len(source) - 300)
        chunk = source[start : start + rng.randint(1, 300)]
        lowest = rng.randrange(len(source))
        highest = lowest + rng.randint(-5, 3000)
        expected = source.find(chunk, lowest, highest + len(chunk)) if highest >= lowest else -1
        assert _first_at(source, chunk, lowest, highest) == expected


def _far_searches(monkeypatch) -> list[int]:
    """Records each search of the whole text (a cursor per search)."""
    from chunkview.core.layout import locate as module

    calls: list[int] = []
    exact = module._find_exact

    def counted(source, chunk, cursor, window):
        if window is None:
            calls.append(cursor)
        return exact(source, chunk, cursor, window)

    monkeypatch.setattr(module, "_find_exact", counted)
    return calls


def test_a_chunk_changed_inside_is_missing_without_a_search_of_the_whole_text(monkeypatch):
    # Mastra's markdown strategy joins pieces with its separator's regex source
    paragraphs = [
        f"Paragraph {i} is about topic {i} at some length, and then says more about it."
        for i in range(400)
    ]
    source = "\n\n## ".join(paragraphs)
    rewritten = "\n\n#{1,6} ".join(paragraphs[:3])
    far = _far_searches(monkeypatch)
    found = locate(source, [rewritten, paragraphs[3], paragraphs[300]])
    assert [f.located for f in found] == ["missing", "exact", "exact"]
    assert found[2].start == source.index(paragraphs[300])  # far ahead: still found
    assert len(far) == 1  # for the last one, not for the rewritten one


def test_searches_of_the_whole_text_are_bounded(monkeypatch):
    rng = random.Random(4)
    source = " ".join(f"w{rng.randrange(10**6)}" for _ in range(40_000))  # ~350 KB
    strangers = [f"nowhere {i} " * 20 for i in range(2000)]  # in no text, no edge near
    far = _far_searches(monkeypatch)
    found = locate(source, strangers)
    assert all(f.located == "missing" for f in found)
    assert 0 < len(far) <= (4 * len(source) + 4_000_000) // len(source) + 1


def test_normalized_index_maps_as_the_split_into_runs_does():
    # the reference: the text split on the white-space pattern into runs, read plainly
    import re

    from chunkview.core.layout.locate import _Normalized

    def reference(source):
        pieces = re.split(r"([\s\ufeff]+)", source)
        runs, starts, norm_starts, at, norm = pieces[0::2], [], [], 0, 0
        for i, piece in enumerate(pieces):
            if i % 2 == 0 and piece:
                starts.append(at)
                norm_starts.append(norm)
                norm += len(piece)
            at += len(piece)
        return "".join(runs), starts, norm_starts

    rng = random.Random(9)
    atoms = ["ab", "x", " ", "\n", "\t\t", "\x1c", "\x85", "\u3000", "\ufeff", "é", "\U0001f600"]
    atoms += ["\ud800", "\udc00", "日本"]
    for _ in range(800):
        source = "".join(rng.choice(atoms) for _ in range(rng.randrange(0, 40)))
        index = _Normalized(source)
        text, starts, norm_starts = reference(source)
        assert index.text == text
        for offset in range(len(text)):  # each normalized offset back to the source
            run = max(i for i, n in enumerate(norm_starts) if n <= offset)
            assert index.to_source(offset) == starts[run] + offset - norm_starts[run]
        for offset in range(len(source) + 1):  # each source offset to the normalized text
            before = [i for i, s in enumerate(starts) if s <= offset]
            if not before:
                assert index.to_norm(offset) == 0
                continue
            run = before[-1]
            run_len = [*norm_starts, len(text)][run + 1] - norm_starts[run]
            expected = norm_starts[run] + min(offset - starts[run], run_len)
            assert index.to_norm(offset) == expected, (source, offset)
