import time

from chunkview.core.locate import locate


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
